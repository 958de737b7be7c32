"""The generic half of reading a game command's words: the verb, and its ``--options``.

Each ruleset keeps its own verb table (which verbs, what each names first, which options in
which order) and whatever is peculiar to one verb; what every table shares lives here, so a
player sees the same sentences for the same slips (an unknown option, one given twice, a
missing value) in every game.

>>> options = {"--at": Option("at", label), "--drm": Option("drms", whole_number, repeats=True)}
>>> args = option_defaults(options)
>>> read_options(args, options, ["--drm", "-1", "--at", "e5"], "fire", "fire a --at e5")
>>> args, option_words(options, args)
({'at': 'E5', 'drms': [-1]}, ['--at', 'E5', '--drm', '-1'])
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_NUMBER
from ordnance.core.limits import whole_number as _whole


def bounded(what: str, text: str) -> int:
    """A whole number of at most MAX_DIGITS ASCII digits, with an optional sign."""
    return _whole(text, what, -MAX_NUMBER, MAX_NUMBER)


@dataclass(frozen=True)
class Option:
    """One ``--option``: the argument it fills, how its value is read, whether it repeats."""

    arg: str
    read: Callable[[str], Any] | None  # None: a flag without a value
    repeats: bool = False


def label(text: str) -> str:
    """A hex (or corner) label as the maps spell it.

    >>> label(" e5 ")
    'E5'
    """
    return text.strip().upper()


def whole_number(text: str) -> int:
    """An option's whole-number value (``--drm -1``).

    >>> whole_number("-1")
    -1
    >>> whole_number("one")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad number 'one': expected a whole number (digits 0-9)
    """
    return bounded("number", text)


def verb_of(words: Sequence[str], verbs: Collection[str]) -> tuple[str, str]:
    """The command's verb (lower case) and its words as one text (for the refusals).

    >>> verb_of(["Fire", "pak"], ("phase", "fire"))
    ('fire', 'Fire pak')
    >>> verb_of(["shoot"], ("phase", "fire"))
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad command 'shoot': unknown command; one of phase, fire
    """
    whole = shlex.join(words)
    if not words:
        raise BadInput("command", whole, f"empty; one of {', '.join(verbs)}")
    verb = words[0].lower()
    if verb not in verbs:
        raise BadInput("command", whole, f"unknown command; one of {', '.join(verbs)}")
    return verb, whole


def option_defaults(options: Mapping[str, Option]) -> dict[str, Any]:
    """Every option's argument before any is given: no flag, no value, an empty list.

    >>> option_defaults({"--ce": Option("ce", None), "--to": Option("to", label, repeats=True)})
    {'ce': False, 'to': []}
    """
    return {
        o.arg: [] if o.repeats else (False if o.read is None else None) for o in options.values()
    }


def read_options(
    args: dict[str, Any], options: Mapping[str, Option], rest: Sequence[str], verb: str, whole: str
) -> None:
    """Read the ``--option`` words ``rest`` of ``verb`` into ``args`` (see :func:`option_defaults`).

    ``whole`` is the command's text, which every refusal names.

    >>> options = {"--at": Option("at", label)}
    >>> read_options({"at": None}, options, ["--at", "E5", "--at", "F5"], "fire", "fire ...")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad command 'fire ...': --at given twice
    """
    words = list(rest)
    while words:
        name = words.pop(0)
        if name not in options:
            known = ", ".join(options) or "none"
            raise BadInput("command", whole, f"unknown option {name!r} for {verb}; known: {known}")
        option = options[name]
        if option.read is None:
            args[option.arg] = True
            continue
        if not words:
            raise BadInput("command", whole, f"{name} needs a value")
        value = option.read(words.pop(0))
        if option.repeats:
            args[option.arg].append(value)
        elif args[option.arg] is not None:
            raise BadInput("command", whole, f"{name} given twice")
        else:
            args[option.arg] = value


def require(args: Mapping[str, Any], needed: Sequence[str], verb: str, whole: str) -> None:
    """Refuse a command that lacks one of the options its verb cannot do without.

    >>> require({"at": None}, ("at",), "fire", "fire a")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad command 'fire a': fire needs --at
    """
    for name in needed:
        if args[name] is None or args[name] == []:
            raise BadInput("command", whole, f"{verb} needs --{name}")


def option_words(options: Mapping[str, Option], args: Mapping[str, Any]) -> list[str]:
    """The options of a parsed command as canonical words, in the table's order.

    A list value of an option that does not repeat is written back comma-separated.

    >>> option_words({"--ce": Option("ce", None), "--to": Option("to", label)}, {"ce": True})
    ['--ce']
    """
    words: list[str] = []
    for name, option in options.items():
        value = args.get(option.arg)
        if option.read is None:
            if value:
                words.append(name)
        elif option.repeats:
            for item in value or ():
                words += [name, str(item)]
        elif value is not None:
            words += [name, ",".join(value) if isinstance(value, list) else str(value)]
    return words
