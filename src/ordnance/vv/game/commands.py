"""The words of a V&V game command, read into a :class:`~ordnance.core.ruleset.Command`.

================================================================  ================================
``phase next``                                                    end the phase (its owner)
``fire UNITS --at HEX [--weapons W,W] [--leader L]``              an AP attack (Fire, Defensive
``[--grenades U,U] [--satchels U,U]``                             Fire)
``opfire UNITS [--weapons W,W] [--leader L] [--grenades U,U]``    Opportunity Fire at the stack
``[--satchels U,U]``                                              that just entered a hex
``pass``                                                          no (more) Opportunity Fire there
``assign-cp UNIT:ACTION... | assign-cp --auto``                   fulfil pending CP (defender)
``move UNITS --to HEX [--assault] [--facing D]``                  one hex, together (Movement)
``rally UNIT [--leader L]``                                       After-Action rally roll
================================================================  ================================

UNITS is a comma-separated list of unit ids; W is ``gun``, ``mg360`` or ``ffmg``; ACTION is
``pin``, ``reduce``, ``reduce+pin``, ``eliminate`` or, for a vehicle or Gun, a number of CP.

>>> command = parse_command("us", ["fire", "a,b", "--at", "e5", "--leader", "lt"])
>>> command.args["units"], command.args["at"], command.text
(['a', 'b'], 'E5', 'fire a,b --at E5 --leader lt')
>>> parse_command("us", ["assign-cp", "a:pin", "truck:3"]).args["allocations"]
['a:pin', 'truck:3']
>>> parse_command("us", ["fire", "a"])
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad command 'fire a': fire needs --at
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from ordnance.core.command_words import (
    Option,
    label,
    option_defaults,
    option_words,
    read_options,
    require,
    verb_of,
)
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Direction
from ordnance.core.ruleset import Command
from ordnance.vv.casualties import Allocation
from ordnance.vv.units import Mount


def _ids(text: str) -> list[str]:
    ids = [part.strip() for part in text.split(",")]
    if not all(ids):
        raise BadInput("units", text, "expected unit ids separated by commas, e.g. a1,a2")
    return ids


def _word(text: str) -> str:
    return text.strip()


def _weapons(text: str) -> list[str]:
    names = [part.strip().lower() for part in text.split(",")]
    for name in names:
        if name not in set(Mount):
            raise BadInput("weapons", text, f"each is one of {', '.join(Mount)}")
    return names


def _facing(text: str) -> str:
    return str(Direction.parse(text))


_X = {"--grenades": Option("grenades", _ids), "--satchels": Option("satchels", _ids)}
_FIRE = {"--weapons": Option("weapons", _weapons), "--leader": Option("leader", _word), **_X}
# Per verb: whether it names units first, and its options in canonical order.
VERBS: Mapping[str, tuple[bool, Mapping[str, Option]]] = {
    "phase": (False, {}),
    "pass": (False, {}),
    "fire": (True, {"--at": Option("at", label), **_FIRE}),
    "opfire": (True, _FIRE),
    "assign-cp": (False, {"--auto": Option("auto", None)}),
    "move": (
        True,
        {
            "--to": Option("to", label),
            "--assault": Option("assault", None),
            "--facing": Option("facing", _facing),
        },
    ),
    "rally": (True, {"--leader": Option("leader", _word)}),
}
REQUIRED = {"fire": ("at",), "move": ("to",)}


def parse_command(side: str, words: Sequence[str]) -> Command:
    """Read one command (see the module docstring); its text is rebuilt in canonical order."""
    verb, whole = verb_of(words, VERBS)
    takes_units, options = VERBS[verb]
    rest = list(words[1:])
    if verb == "phase":
        if [w.lower() for w in rest] != ["next"]:
            raise BadInput("command", whole, "the only phase command is 'phase next'")
        return Command(side, verb, {}, "phase next")
    args = option_defaults(options)
    if takes_units:
        if not rest or rest[0].startswith("--"):
            raise BadInput("command", whole, f"{verb} needs unit ids")
        args["units"] = _ids(rest.pop(0))
        if verb == "rally" and len(args["units"]) != 1:
            raise BadInput("command", whole, "rally one unit at a time")
    if verb == "assign-cp":
        args["allocations"] = [str(Allocation.parse(w)) for w in rest if not w.startswith("--")]
        rest = [w for w in rest if w.startswith("--")]
    read_options(args, options, rest, verb, whole)
    require(args, REQUIRED.get(verb, ()), verb, whole)
    if verb == "assign-cp" and args["auto"] == bool(args["allocations"]):
        raise BadInput("command", whole, "give UNIT:ACTION allocations or --auto (not both)")
    return Command(side, verb, args, command_text(verb, args))


def command_text(verb: str, args: Mapping[str, Any]) -> str:
    """The canonical words of a parsed command (what ``parse_command`` reads back)."""
    if verb == "phase":
        return "phase next"
    words = [verb]
    if "units" in args:
        words.append(",".join(args["units"]))
    words += list(args.get("allocations", ()))
    words += option_words(VERBS[verb][1], args)
    return shlex.join(words)
