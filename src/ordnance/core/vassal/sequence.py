"""VASSAL's escaped sequences: how a save nests strings inside strings.

VASSAL joins the fields of a record with one delimiter character (ESC between commands, ``/``
in a command, TAB between a piece's traits, ``;`` inside a trait) and escapes a delimiter that
occurs inside a field by putting a backslash before it; a field that starts with a backslash, or
starts and ends with a single quote, is wrapped in single quotes. Nesting a sequence in a field
of another therefore adds one backslash per level before the inner delimiters. Reading undoes
one level: a delimiter right after a backslash is part of the field (the backslash dropped),
any other ends it, and one pair of enclosing quotes is removed.

This is a reading of ``VASSAL.tools.SequenceEncoder`` (vassalengine/vassal), written anew. Like
VASSAL, the reader cannot tell a field that ends in a backslash from an escaped delimiter, so a
field ``a\\`` followed by ``;b`` reads as one field ``a;b``: VASSAL itself reads its own saves so.

>>> split("a;b\\\\;c;;'\\\\x'", ";")
['a', 'b;c', '', '\\\\x']
>>> split("", ";"), split("x;", ";")
([''], ['x', ''])
>>> commands("begin_save\\x1b+/1/piece;;;x;n/null;0;0;7\\x1bend_save")
['begin_save', '+/1/piece;;;x;n/null;0;0;7', 'end_save']
"""

from __future__ import annotations

import re
from functools import cache

from ordnance.core.errors import BadInput

ESC = "\x1b"
# Commands nest inside commands (a save is one command whose parts are commands); real saves
# go three levels deep. The bound stops crafted input from recursing without end.
MAX_COMMAND_DEPTH = 64
_BACKSLASH = "\\"


@cache
def _boundary(delimiter: str) -> re.Pattern[str]:
    """A delimiter that ends a field: one not right after a backslash."""
    if len(delimiter) != 1 or delimiter in (_BACKSLASH, "'"):
        raise ValueError(f"not a VASSAL delimiter: {delimiter!r}")
    return re.compile(r"(?<!\\)" + re.escape(delimiter))


def unquote(field: str) -> str:
    """Remove one pair of enclosing single quotes, as VASSAL does after splitting.

    >>> unquote("'a'"), unquote("'"), unquote("a'")
    ('a', "'", "a'")
    """
    if len(field) > 1 and field[0] == "'" and field[-1] == "'":
        return field[1:-1]
    return field


def split(text: str, delimiter: str) -> list[str]:
    """Every field of ``text``, one level of escaping undone (see the module docstring)."""
    escaped = _BACKSLASH + delimiter
    return [
        unquote(part.replace(escaped, delimiter) if escaped in part else part)
        for part in _boundary(delimiter).split(text)
    ]


def split_first(text: str, delimiter: str) -> tuple[str, str | None]:
    """The first field and the second (``None`` when there is no second), as VASSAL reads a
    piece's ``type`` or ``state``: later fields, if any, are ignored.

    >>> split_first("mark;x\\tpiece;;;i;n", "\\t")
    ('mark;x', 'piece;;;i;n')
    >>> split_first("piece;;;i;n", "\\t")
    ('piece;;;i;n', None)
    """
    boundary = _boundary(delimiter)
    escaped = _BACKSLASH + delimiter
    found = boundary.search(text)
    if found is None:
        return unquote(text.replace(escaped, delimiter)), None
    first = text[: found.start()]
    rest = text[found.end() :]
    after = boundary.search(rest)
    if after is not None:
        rest = rest[: after.start()]
    return unquote(first.replace(escaped, delimiter)), unquote(rest.replace(escaped, delimiter))


def commands(text: str) -> list[str]:
    """The single commands of a command string, in order, empty ones left out.

    A part that still holds (escaped) separators is itself a list of commands and is split
    again, as VASSAL's ``GameModule.decode`` does.
    """
    found: list[str] = []
    pending: list[tuple[str, int]] = [(text, 0)]
    while pending:
        command, depth = pending.pop()
        parts = split(command, ESC)
        if parts[0] == command:
            if command:
                found.append(command)
            continue
        if depth >= MAX_COMMAND_DEPTH:
            raise BadInput(
                "saved game",
                command[:40],
                f"commands nested more than {MAX_COMMAND_DEPTH} levels deep",
            )
        pending.extend((part, depth + 1) for part in reversed(parts))
    return found
