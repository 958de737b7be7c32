"""The words of an ASL game command, read into a :class:`~ordnance.core.ruleset.Command`.

=========================================================  =========================================
``phase next``                                             end this phase (its owner only)
``fire UNIT --ammo A [--to-hit N] [--drm N]...``           one shot with declared ammunition; also
``[--intensive-fire] [--target T --tem TEM]``              ``--own-hex``, ``--interior-building``
``canister UNIT [--fp N] [--drm N]... [--adjacent X]``     an IFT attack (C8.4); ``--armored``,
``[--aim N | --building HEX --level L --top T]``           ``--purpose attack|rubble|fire|wire``
``move UNIT [--to HEX] [--ca CORNER] [--mp N]``            one MP/MF expenditure in the own MPh
``man UNIT``                                               Infantry moved to and manned the Gun
``mark UNIT [--ce|--bu] [--motion|--stopped]``             a vehicle's markers and crew, recorded
``[--crew STATE] [--abandoned] [--fired]``                 by its owner (D13.2-state)
``dispense UNIT [--type T] [--target HEX] [--ca C]``       a smoke dispenser usage DR (D13.2-.34);
``[--hindrance N] [--cc-he]``                              an sM aims at ``--target``
``grenades UNIT``                                          a smoke grenade usage dr (D13.35)
=========================================================  =========================================

Physical dice (``--dice W,C``) are taken off by the game service before these words arrive.

>>> command = parse_command("german", ["fire", "pak", "--ammo", "apcr", "--drm", "-1"])
>>> command.args["ammo"], command.args["drms"], command.text
('APCR', [-1], 'fire pak --ammo APCR --drm -1')
>>> parse_command("german", ["fire", "pak"])
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad command 'fire pak': fire needs --ammo
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ordnance.asl.canister import ADJACENT_CHOICES
from ordnance.asl.dispensers import Crew, dispenser_family
from ordnance.asl.notation import Family
from ordnance.core.errors import BadInput
from ordnance.core.ruleset import Command


@dataclass(frozen=True)
class Option:
    """One ``--option``: the argument it fills, how its value is read, whether it repeats."""

    arg: str
    read: Callable[[str], Any] | None  # None: a flag without a value
    repeats: bool = False


def _ammo(text: str) -> str:
    return Family.from_ammo(text.strip()).ammo


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise BadInput("number", text, "expected a whole number") from None


def _word(text: str) -> str:
    return text.strip().lower()


def _adjacent(text: str) -> str:
    word = _word(text)
    if word not in ADJACENT_CHOICES:
        raise BadInput("adjacent", text, "expected hex or hexside")
    return word


def _fp(text: str) -> str:
    return text.strip()


def _label(text: str) -> str:
    return text.strip().upper()


def _dispenser(text: str) -> str:
    return dispenser_family(text).value


def _crew(text: str) -> str:
    return Crew.parse(text).value


# Per verb: does it name a unit, and its options in the order the canonical text lists them.
VERBS: Mapping[str, tuple[bool, Mapping[str, Option]]] = {
    "phase": (False, {}),
    "fire": (
        True,
        {
            "--ammo": Option("ammo", _ammo),
            "--to-hit": Option("to_hit", _whole),
            "--drm": Option("drms", _whole, repeats=True),
            "--intensive-fire": Option("intensive_fire", None),
            "--target": Option("target", _word),
            "--tem": Option("tem", _word),
            "--own-hex": Option("own_hex", None),
            "--interior-building": Option("interior_building", None),
        },
    ),
    "canister": (
        True,
        {
            "--fp": Option("fp", _fp),
            "--drm": Option("drms", _whole, repeats=True),
            "--adjacent": Option("adjacent", _adjacent),
            "--armored": Option("armored", None),
            "--purpose": Option("purpose", _word),
            "--aim": Option("aim", _whole),
            "--building": Option("building", _label),
            "--level": Option("level", _whole),
            "--top": Option("top", _whole),
        },
    ),
    "move": (
        True,
        {"--to": Option("to", _label), "--ca": Option("ca", _label), "--mp": Option("mp", _whole)},
    ),
    "man": (True, {}),
    "mark": (
        True,
        {
            "--ce": Option("ce", None),
            "--bu": Option("bu", None),
            "--motion": Option("motion", None),
            "--stopped": Option("stopped", None),
            "--crew": Option("crew", _crew),
            "--abandoned": Option("abandoned", None),
            "--fired": Option("fired", None),
        },
    ),
    "dispense": (
        True,
        {
            "--type": Option("type", _dispenser),
            "--target": Option("target", _label),
            "--ca": Option("ca", _label),
            "--hindrance": Option("hindrance", _whole),
            "--cc-he": Option("cc_he", None),
        },
    ),
    "grenades": (True, {}),
}
REQUIRED = {"fire": ("ammo",)}


def parse_command(side: str, words: Sequence[str]) -> Command:
    """Read one command (see the module docstring); the text is rebuilt in canonical order."""
    whole = shlex.join(words)
    if not words:
        raise BadInput("command", whole, f"empty; one of {', '.join(VERBS)}")
    verb = words[0].lower()
    if verb not in VERBS:
        raise BadInput("command", whole, f"unknown command; one of {', '.join(VERBS)}")
    takes_unit, options = VERBS[verb]
    rest = list(words[1:])
    args: dict[str, Any] = {}
    if verb == "phase":
        if [w.lower() for w in rest] != ["next"]:
            raise BadInput("command", whole, "the only phase command is 'phase next'")
        return Command(side, verb, {}, "phase next")
    if takes_unit:
        if not rest or rest[0].startswith("--"):
            raise BadInput("command", whole, f"{verb} needs a unit id")
        args["unit"] = rest.pop(0)
    for option in options.values():
        args[option.arg] = [] if option.repeats else (False if option.read is None else None)
    while rest:
        name = rest.pop(0)
        if name not in options:
            known = ", ".join(options) or "none"
            raise BadInput("command", whole, f"unknown option {name!r} for {verb}; known: {known}")
        option = options[name]
        if option.read is None:
            args[option.arg] = True
            continue
        if not rest:
            raise BadInput("command", whole, f"{name} needs a value")
        value = option.read(rest.pop(0))
        if option.repeats:
            args[option.arg].append(value)
        elif args[option.arg] is not None:
            raise BadInput("command", whole, f"{name} given twice")
        else:
            args[option.arg] = value
    for needed in REQUIRED.get(verb, ()):
        if args[needed] is None:
            raise BadInput("command", whole, f"{verb} needs --{needed}")
    return Command(side, verb, args, command_text(verb, args))


def command_text(verb: str, args: Mapping[str, Any]) -> str:
    """The canonical words of a parsed command (what ``parse_command`` reads back)."""
    if verb == "phase":
        return "phase next"
    words = [verb, str(args["unit"])]
    for name, option in VERBS[verb][1].items():
        value = args.get(option.arg)
        if option.read is None:
            if value:
                words.append(name)
        elif option.repeats:
            for item in value or ():
                words += [name, str(item)]
        elif value is not None:
            words += [name, str(value)]
    return shlex.join(words)
