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
from dataclasses import dataclass, field
from typing import Any

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


@dataclass(frozen=True)
class Verb:
    """What follows a verb: a positional word (its argument name), options, required ones."""

    positional: str | None = None
    options: Mapping[str, Option] = field(default_factory=dict)
    required: tuple[str, ...] = ()


_SHELL = {
    "--at": Option("at", label),
    "--opportunity": Option("opportunity", None),
    "--drm": Option("drms", whole_number, repeats=True),
}
VERBS: Mapping[str, Verb] = {
    "phase": Verb("step", {}),
    "pass": Verb(None, {}),
    "end": Verb(None, {}),
    "smoke-shell": Verb("unit", _SHELL, ("at",)),
    "wp-shell": Verb("unit", _SHELL, ("at",)),
    "mg": Verb("unit", {"--at": Option("at", label)}, ("at",)),
    "choose": Verb("hex", {}),
    "move": Verb("unit", {"--to": Option("to", label, repeats=True)}, ("to",)),
}


def parse_command(side: str, words: Sequence[str]) -> Command:
    """Read one command (see the module docstring); the text is rebuilt in canonical order."""
    verb, whole = verb_of(words, VERBS)
    spec = VERBS[verb]
    rest = list(words[1:])
    args: dict[str, Any] = {}
    if spec.positional is not None:
        if not rest or rest[0].startswith("--"):
            raise BadInput("command", whole, f"{verb} needs a {spec.positional}")
        value = rest.pop(0)
        args[spec.positional] = label(value) if spec.positional == "hex" else value
    if verb == "phase" and args["step"].lower() != "next":
        raise BadInput("command", whole, "the only phase command is 'phase next'")
    args.update(option_defaults(spec.options))
    read_options(args, spec.options, rest, verb, whole)
    require(args, spec.required, verb, whole)
    if verb == "phase":
        args = {}
    return Command(side, verb, args, command_text(verb, args))


def command_text(verb: str, args: Mapping[str, Any]) -> str:
    """The canonical words of a parsed command (what :func:`parse_command` reads back)."""
    if verb == "phase":
        return "phase next"
    spec = VERBS[verb]
    words = [verb]
    if spec.positional is not None:
        words.append(str(args[spec.positional]))
    words += option_words(spec.options, args)
    return shlex.join(words)
