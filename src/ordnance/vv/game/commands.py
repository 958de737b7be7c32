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
    CommandTable,
    Option,
    Positional,
    Verb,
    label,
    option_words,
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


def _step(text: str) -> str:
    return text.strip().lower()


def _allocation(text: str) -> str:
    return str(Allocation.parse(text))


_UNITS = Positional(
    "units",
    "UNITS",
    "unit ids",
    _ids,
    help="Unit ids separated by commas, e.g. a1,a2.",
    kind="unit",
)
_LEADER = Option("leader", _word, metavar="L", help="The leader who directs it.", kind="unit")
_X = {
    "--grenades": Option(
        "grenades", _ids, metavar="U,U", help="The units that throw grenades (by id).", kind="unit"
    ),
    "--satchels": Option(
        "satchels",
        _ids,
        metavar="U,U",
        help="The units that place satchel charges (by id).",
        kind="unit",
    ),
}
_FIRE = {
    "--weapons": Option(
        "weapons",
        _weapons,
        metavar="W,W",
        help="Weapons that join: gun, mg360, ffmg.",
    ),
    "--leader": _LEADER,
    **_X,
}
# Every verb: its help, what it names first, its options in the order the canonical text lists
# them, and the options it cannot do without. The options come first in a command's arguments.
COMMANDS = CommandTable(
    {
        "phase": Verb(
            "End the phase (its owner).",
            Positional("step", "next", "'next'", _step, help="The word 'next'.", optional=True),
            done="ended the phase",
        ),
        "pass": Verb("No (more) Opportunity Fire at the stack that just moved.", done="passed"),
        "fire": Verb(
            "An AP attack in the Fire or Defensive Fire Phase.",
            _UNITS,
            {
                "--at": Option("at", label, metavar="HEX", help="The hex attacked.", kind="hex"),
                **_FIRE,
            },
            ("--at",),
            done="{units} fired{ammo}{at}",
            echo="fired",
        ),
        "opfire": Verb(
            "Opportunity Fire at the stack that just entered a hex.",
            _UNITS,
            _FIRE,
            done="{units} fired at the movers{at}",
            echo="fired",
        ),
        "assign-cp": Verb(
            "The defender takes the pending CP: UNIT:ACTION words, or --auto.",
            Positional(
                "allocations",
                "UNIT:ACTION",
                "allocations",
                _allocation,
                help="ACTION is pin, reduce, reduce+pin, eliminate, or a number of CP for a"
                " vehicle or Gun.",
                many=True,
            ),
            {"--auto": Option("auto", None, help="Let the game choose the allocations.")},
            done="took the Casualty Points",
        ),
        "move": Verb(
            "Move units one hex, together, in the Movement Phase.",
            _UNITS,
            {
                "--to": Option("to", label, metavar="HEX", help="The hex entered.", kind="hex"),
                "--assault": Option("assault", None, help="Assault movement."),
                "--facing": Option(
                    "facing",
                    _facing,
                    metavar="D",
                    help="A vehicle's new facing, e.g. NE.",
                    kind="choice",
                    choices=tuple(str(d) for d in Direction),
                ),
            },
            ("--to",),
            done="{units} moved{to}",
            echo="moved",
        ),
        "rally": Verb(
            "The After-Action rally roll of one unit.",
            _UNITS,
            {"--leader": _LEADER},
            done="{units} tried to rally",
        ),
    },
    options_first=True,
)


def parse_command(side: str, words: Sequence[str]) -> Command:
    """Read one command (see the module docstring); its text is rebuilt in canonical order."""
    verb, args = COMMANDS.read(words)
    whole = shlex.join(words)
    if verb == "phase":
        if args["step"] != "next":
            raise BadInput("command", whole, "the only phase command is 'phase next'")
        return Command(side, verb, {}, "phase next")
    if verb == "rally" and len(args["units"]) != 1:
        raise BadInput("command", whole, "rally one unit at a time")
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
    words += option_words(COMMANDS.verbs[verb].options, args)
    return shlex.join(words)
