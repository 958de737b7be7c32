"""The words of an LnLT game command, read into a :class:`~ordnance.core.ruleset.Command`.

=============================================  ================================================
``phase next``                                 end the Rally or Admin Phase (the side with the
                                               first impulse)
``pass``                                       pass the impulse (enough passes in a row end the
                                               Operations Phase)
``smoke-shell UNIT --at HEX``                  fire a Smoke Shell at a hex (14.2.2); also
``[--opportunity] [--drm N]...``               ``wp-shell`` (14.2.3)
``mg UNIT --at HEX``                           the vehicle's MGs (after its shell, or alone)
``end``                                        close the open action without MG fire
``choose HEX``                                 the enemy side picks where the shell lands
``move UNIT --to HEX [--to HEX]...``           a unit enters these hexes in turn
=============================================  ================================================

Physical dice (``--dice``) are taken off by the game service before these words arrive.

>>> command = parse_command("german", ["wp-shell", "pz4", "--at", "h3", "--drm", "1"])
>>> command.args, command.text
({'unit': 'pz4', 'at': 'H3', 'opportunity': False, 'drms': [1]}, 'wp-shell pz4 --at H3 --drm 1')
>>> parse_command("german", ["move", "sq1"])
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad command 'move sq1': move needs --to
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
    whole_number,
)
from ordnance.core.errors import BadInput
from ordnance.core.ruleset import Command

_UNIT = Positional("unit", "UNIT", "a unit", help="The unit's id in the scenario.", kind="unit")
_AT = Option("at", label, metavar="HEX", help="The hex fired at.", kind="hex")
_SHELL = {
    "--at": _AT,
    "--opportunity": Option("opportunity", None, help="Opportunity Fire (in the enemy's impulse)."),
    "--drm": Option(
        "drms",
        whole_number,
        repeats=True,
        metavar="N",
        help="A modifier you apply to the roll.",
        kind="number",
    ),
}
# Every verb: its help, what it names first, its options in the order the canonical text lists
# them, and the options it cannot do without.
COMMANDS = CommandTable(
    {
        "phase": Verb(
            "End the Rally or Administrative Phase (the side with the first impulse).",
            Positional("step", "next", "a step", help="The word 'next'."),
            done="ended the phase",
        ),
        "pass": Verb(
            "Pass the impulse; enough passes in a row end the Operations Phase.", done="passed"
        ),
        "end": Verb("Close the open action without firing the MGs.", done="ended the action"),
        "smoke-shell": Verb(
            "Fire a Smoke Shell at a hex (14.2.2).",
            _UNIT,
            _SHELL,
            ("--at",),
            done="{units} fired a Smoke shell{at}",
            echo="fired",
        ),
        "wp-shell": Verb(
            "Fire a White Phosphorus shell at a hex (14.2.3).",
            _UNIT,
            _SHELL,
            ("--at",),
            done="{units} fired a WP shell{at}",
            echo="fired",
        ),
        "mg": Verb(
            "Fire the vehicle's MGs (after its shell, or on their own).",
            _UNIT,
            {"--at": _AT},
            ("--at",),
            done="{units} fired its MGs{at}",
            echo="fired",
        ),
        "choose": Verb(
            "The enemy side picks the hex where a shell lands.",
            Positional(
                "hex", "HEX", "a hex", label, help="The hex the shell lands in.", kind="hex"
            ),
            done="chose{at}",
        ),
        "move": Verb(
            "Move a unit into these hexes, one after the other.",
            _UNIT,
            {
                "--to": Option(
                    "to",
                    label,
                    repeats=True,
                    metavar="HEX",
                    help="The next hex entered.",
                    kind="hex",
                )
            },
            ("--to",),
            done="{units} moved{to}",
            echo="moved",
        ),
    }
)


def parse_command(side: str, words: Sequence[str]) -> Command:
    """Read one command (see the module docstring); the text is rebuilt in canonical order."""
    verb, args = COMMANDS.read(words)
    if verb == "phase":
        if args["step"].lower() != "next":
            raise BadInput("command", shlex.join(words), "the only phase command is 'phase next'")
        args = {}
    return Command(side, verb, args, command_text(verb, args))


def command_text(verb: str, args: Mapping[str, Any]) -> str:
    """The canonical words of a parsed command (what :func:`parse_command` reads back)."""
    if verb == "phase":
        return "phase next"
    spec = COMMANDS.verbs[verb]
    words = [verb]
    if spec.positional is not None:
        words.append(str(args[spec.positional.arg]))
    words += option_words(spec.options, args)
    return shlex.join(words)
