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
from ordnance.asl.dispensers.usage import DISPENSER_FAMILIES
from ordnance.asl.heat import DATA as HEAT_DATA
from ordnance.asl.notation import Family
from ordnance.core.command_words import (
    CommandTable,
    Option,
    Positional,
    Verb,
    label,
    option_words,
    whole_number,
)
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Corner
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


def _step(text: str) -> str:
    return text.strip().lower()


# What a face may offer for each parameter (command_words.ParamKind): the ammunition a shot
# may declare (the dispensers are fired with 'dispense', IR is only recorded), the corners a
# CA faces, the dispenser kinds, a crew's states.
FIRED_AMMO = tuple(
    f.ammo for f in Family if not f.is_dispenser and f is not Family.IR and f is not Family.CANISTER
)
CORNERS = tuple(c.name for c in Corner)
DISPENSERS = tuple(f.value for f in DISPENSER_FAMILIES)
CREW_STATES = tuple(c.value for c in Crew)
# A To Hit number the board asks for: a Modified To Hit number (C3) may pass 12, and one of 1
# or less never hits; a DRM of a few points either way.
TO_HIT_LOW, TO_HIT_HIGH = 1, 20
DRM_LOW, DRM_HIGH = -9, 9

_UNIT = Positional("unit", "UNIT", "a unit id", help="The unit's id in the scenario.", kind="unit")
_DRM = Option(
    "drms",
    whole_number,
    repeats=True,
    metavar="N",
    help="A DRM you apply (TEM, Hindrance...).",
    kind="number",
    low=DRM_LOW,
    high=DRM_HIGH,
)
_CA = Option(
    "ca",
    label,
    metavar="C",
    help="The Covered Arc to end with: a hex corner, e.g. B.",
    kind="choice",
    choices=CORNERS,
)


# Canister: its five aiming points in a CA (C8.4-target), what it may be fired for (C8.42
# refuses the rest with its reason), a building's levels; a vehicle's MP; an sM's Hindrance.
CANISTER_AIMS = 5
CANISTER_PURPOSES = ("attack", "rubble", "fire", "wire")
LEVEL_HIGH = 9
MP_HIGH = 99
HINDRANCE_HIGH = 12


def _flag(arg: str, help: str) -> Option:
    return Option(arg, None, help=help, kind="flag")


def command_text(verb: str, args: Mapping[str, Any]) -> str:
    """The canonical words of a parsed command (what ``parse_command`` reads back)."""
    if verb == "phase":
        return "phase next"
    words = [verb, str(args["unit"])]
    words += option_words(COMMANDS.verbs[verb].options, args)
    return shlex.join(words)


# Every verb: its help, what it names first, its options in the order the canonical text lists
# them, and the options it cannot do without.
COMMANDS = CommandTable(
    {
        "phase": Verb(
            "End this phase and go on to the next (its owner only).",
            Positional("step", "next", "'next'", _step, help="The word 'next'.", optional=True),
            done="ended the phase",
        ),
        "fire": Verb(
            "One shot of a Gun or vehicle with the ammunition it declares (C8).",
            _UNIT,
            {
                "--ammo": Option(
                    "ammo",
                    _ammo,
                    metavar="A",
                    help="The ammunition fired: AP, APCR, HE, ...",
                    kind="ammo",
                    choices=FIRED_AMMO,
                ),
                "--to-hit": Option(
                    "to_hit",
                    whole_number,
                    metavar="N",
                    help="The final To Hit number; with it the shot says hit or miss.",
                    kind="number",
                    low=TO_HIT_LOW,
                    high=TO_HIT_HIGH,
                    ask=True,
                ),
                "--drm": _DRM,
                "--intensive-fire": _flag(
                    "intensive_fire", "Intensive Fire (a lower Breakdown number)."
                ),
                "--target": Option(
                    "target",
                    _target,
                    metavar="T",
                    help="HEAT: the kind of target; SMOKE or WP: the hex it lands in.",
                    kind="choice",
                    choices=tuple(sorted(HEAT_TARGETS)),
                ),
                "--tem": Option(
                    "tem",
                    _word,
                    metavar="TEM",
                    help="HEAT: the target's cover.",
                    kind="choice",
                    choices=tuple(sorted(HEAT_DATA.all_tem)),
                ),
                "--own-hex": _flag("own_hex", "SMOKE/WP into the firer's own hex."),
                "--interior-building": _flag("interior_building", "SMOKE/WP inside a building."),
                "--at": Option(
                    "at",
                    label,
                    metavar="HEX",
                    help="The hex fired at: the ruling gives its range and LOS (SMOKE/WP land"
                    " there).",
                    kind="hex",
                ),
            },
            required=("--ammo",),
            done="{units} fired{ammo}{at}",
            echo="fired",
        ),
        "canister": Verb(
            "One Canister IFT DR on the target and the adjacent hex(es) (C8.4, C8.41).",
            _UNIT,
            {
                "--fp": Option("fp", _fp, metavar="N", help="The Canister FP, if not the gun's."),
                "--drm": _DRM,
                "--adjacent": Option(
                    "adjacent",
                    _adjacent,
                    metavar="X",
                    help="Also attack the adjacent 'hex' or 'hexside' along the LOS.",
                    kind="choice",
                    choices=ADJACENT_CHOICES,
                ),
                "--adjacent-drm": Option(
                    "adjacent_drms",
                    whole_number,
                    repeats=True,
                    metavar="N",
                    help="A DRM of the adjacent attack (its TEM).",
                    kind="number",
                    low=DRM_LOW,
                    high=DRM_HIGH,
                ),
                "--armored": _flag("armored", "The target is an armored vehicle."),
                "--purpose": Option(
                    "purpose",
                    _word,
                    metavar="P",
                    help="Why it fires (default: attack; C8.42 forbids some uses).",
                    kind="choice",
                    choices=CANISTER_PURPOSES,
                ),
                "--aim": Option(
                    "aim",
                    whole_number,
                    metavar="N",
                    help="The aiming point, numbered from 1.",
                    kind="number",
                    low=1,
                    high=CANISTER_AIMS,
                ),
                "--building": Option(
                    "building",
                    label,
                    metavar="HEX",
                    help="Aim at the building in HEX instead.",
                    kind="hex",
                ),
                "--level": Option(
                    "level",
                    whole_number,
                    metavar="L",
                    help="With --building: the level aimed at.",
                    kind="number",
                    low=0,
                    high=LEVEL_HIGH,
                ),
                "--top": Option(
                    "top",
                    whole_number,
                    metavar="T",
                    help="With --building: its top level.",
                    kind="number",
                    low=0,
                    high=LEVEL_HIGH,
                ),
            },
            done="{units} fired Canister{at}",
            echo="fired",
        ),
        "move": Verb(
            "Move a vehicle along a checked path (or to a destination) in its own MPh.",
            _UNIT,
            {
                "--to": Option(
                    "to",
                    label,
                    repeats=True,
                    metavar="HEX",
                    help="The next hex of the path.",
                    kind="hex",
                ),
                "--dest": Option(
                    "dest",
                    label,
                    metavar="HEX",
                    help="Where to go; the path is found for you.",
                    kind="hex",
                ),
                "--ca": _CA,
                "--mp": Option(
                    "mp",
                    whole_number,
                    metavar="N",
                    help="MP spent in place (no hex entered).",
                    kind="number",
                    low=1,
                    high=MP_HIGH,
                ),
            },
            done="{units} moved{to}",
            echo="moved",
        ),
        "man": Verb(
            "Infantry has moved to the Gun and mans it.",
            _UNIT,
            done="manned {units}",
            echo="manned",
        ),
        "mark": Verb(
            "Record a vehicle's markers and crew, as its owner sets them (D13.2-state).",
            _UNIT,
            {
                "--ce": _flag("ce", "Crew Exposed."),
                "--bu": _flag("bu", "Buttoned Up."),
                "--motion": _flag("motion", "In Motion."),
                "--stopped": _flag("stopped", "Stopped (no Motion marker)."),
                "--crew": Option(
                    "crew",
                    _crew,
                    metavar="STATE",
                    help="The crew's state: ok, stunned, shocked or broken.",
                    kind="choice",
                    choices=CREW_STATES,
                ),
                "--abandoned": _flag("abandoned", "The crew has left it."),
                "--fired": _flag("fired", "It has fired this phase."),
                "--immobile": _flag("immobile", "It can no longer move."),
            },
            done="marked {units}",
        ),
        "dispense": Verb(
            "A smoke dispenser usage DR (D13.2 to D13.34); an sM is aimed with --target.",
            _UNIT,
            {
                "--type": Option(
                    "type",
                    _dispenser,
                    metavar="T",
                    help="Which dispenser (sD, sM, ...), if it has more than one.",
                    kind="choice",
                    choices=DISPENSERS,
                ),
                "--target": Option(
                    "target", label, metavar="HEX", help="sM: the hex aimed at.", kind="hex"
                ),
                "--ca": _CA,
                "--hindrance": Option(
                    "hindrance",
                    whole_number,
                    metavar="N",
                    help="sM without a map: the LOS Hindrance to the target hex.",
                    kind="number",
                    low=0,
                    high=HINDRANCE_HIGH,
                ),
                "--cc-he": _flag("cc_he", "HE fired in Close Combat."),
            },
            done="{units} tried its smoke dispenser",
        ),
        "grenades": Verb(
            "A smoke grenade usage dr (D13.35).", _UNIT, done="{units} tried smoke grenades"
        ),
    },
    text=command_text,
)


def parse_command(side: str, words: Sequence[str]) -> Command:
    """Read one command (see the module docstring); the text is rebuilt in canonical order."""
    verb, args, text = COMMANDS.read_text(words)
    if verb == "phase":
        if args["step"] != "next":
            raise BadInput("command", shlex.join(words), "the only phase command is 'phase next'")
        return Command(side, verb, {}, "phase next")
    assert text is not None  # the table has the text function
    return Command(side, verb, args, text)
