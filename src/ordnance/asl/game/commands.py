"""The words of an ASL game command, read into a :class:`~ordnance.core.ruleset.Command`.

=========================================================  =========================================
``phase next``                                             end this phase (its owner only)
``fire UNIT --ammo A [--to-hit N] [--drm N]...``           one shot with declared ammunition; also
``[--intensive-fire] [--target T --tem TEM]``              ``--own-hex``, ``--interior-building``;
                                                           ``--target`` is HEAT's target kind or
                                                           the hex SMOKE/WP goes to
``canister UNIT [--fp N] [--drm N]... [--adjacent X]``     one IFT DR on the target and the
``[--adjacent-drm N]... [--aim N | --building HEX``        adjacent hex(es) (C8.4, C8.41);
``--level L --top T]``                                     ``--armored``, ``--purpose P``
``move UNIT [--to HEX]... [--dest HEX] [--ca C]``          a checked path (or destination) in the
``[--mp N]``                                               own MPh; ``--mp``: MP spent in place
``man UNIT``                                               Infantry moved to and manned the Gun
``mark UNIT [--ce|--bu] [--motion|--stopped]``             a vehicle's markers and crew, recorded
``[--crew STATE] [--abandoned] [--fired] [--immobile]``    by its owner (D13.2-state)
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
from collections.abc import Mapping, Sequence
from typing import Any

from ordnance.asl.canister import ADJACENT_CHOICES
from ordnance.asl.dispensers import Crew, dispenser_family
from ordnance.asl.heat import DATA as HEAT_DATA
from ordnance.asl.notation import Family
from ordnance.core.command_words import (
    Option,
    label,
    option_defaults,
    option_words,
    read_options,
    require,
    verb_of,
    whole_number,
)
from ordnance.core.errors import BadInput
from ordnance.core.ruleset import Command


def _ammo(text: str) -> str:
    return Family.from_ammo(text.strip()).ammo


def _word(text: str) -> str:
    return text.strip().lower()


HEAT_TARGETS = HEAT_DATA.always | HEAT_DATA.when_covered


def _target(text: str) -> str:
    """HEAT's target kind (a word, lower case) or a SMOKE/WP target hex (a label)."""
    word = _word(text)
    return word if word in HEAT_TARGETS else label(text)


def _adjacent(text: str) -> str:
    word = _word(text)
    if word not in ADJACENT_CHOICES:
        raise BadInput("adjacent", text, "expected hex or hexside")
    return word


def _fp(text: str) -> str:
    return text.strip()


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
            "--to-hit": Option("to_hit", whole_number),
            "--drm": Option("drms", whole_number, repeats=True),
            "--intensive-fire": Option("intensive_fire", None),
            "--target": Option("target", _target),
            "--tem": Option("tem", _word),
            "--own-hex": Option("own_hex", None),
            "--interior-building": Option("interior_building", None),
        },
    ),
    "canister": (
        True,
        {
            "--fp": Option("fp", _fp),
            "--drm": Option("drms", whole_number, repeats=True),
            "--adjacent": Option("adjacent", _adjacent),
            "--adjacent-drm": Option("adjacent_drms", whole_number, repeats=True),
            "--armored": Option("armored", None),
            "--purpose": Option("purpose", _word),
            "--aim": Option("aim", whole_number),
            "--building": Option("building", label),
            "--level": Option("level", whole_number),
            "--top": Option("top", whole_number),
        },
    ),
    "move": (
        True,
        {
            "--to": Option("to", label, repeats=True),
            "--dest": Option("dest", label),
            "--ca": Option("ca", label),
            "--mp": Option("mp", whole_number),
        },
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
            "--immobile": Option("immobile", None),
        },
    ),
    "dispense": (
        True,
        {
            "--type": Option("type", _dispenser),
            "--target": Option("target", label),
            "--ca": Option("ca", label),
            "--hindrance": Option("hindrance", whole_number),
            "--cc-he": Option("cc_he", None),
        },
    ),
    "grenades": (True, {}),
}
REQUIRED = {"fire": ("ammo",)}


def parse_command(side: str, words: Sequence[str]) -> Command:
    """Read one command (see the module docstring); the text is rebuilt in canonical order."""
    verb, whole = verb_of(words, VERBS)
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
    args.update(option_defaults(options))
    read_options(args, options, rest, verb, whole)
    require(args, REQUIRED.get(verb, ()), verb, whole)
    return Command(side, verb, args, command_text(verb, args))


def command_text(verb: str, args: Mapping[str, Any]) -> str:
    """The canonical words of a parsed command (what ``parse_command`` reads back)."""
    if verb == "phase":
        return "phase next"
    words = [verb, str(args["unit"])]
    words += option_words(VERBS[verb][1], args)
    return shlex.join(words)
