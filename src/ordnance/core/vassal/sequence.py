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

from bisect import bisect_left

from ordnance.core.errors import BadInput

ESC = "\x1b"
# Commands nest inside commands (a save is one command whose parts are commands); real saves
# go three levels deep. The bound stops crafted input from recursing without end.
MAX_COMMAND_DEPTH = 64
_BACKSLASH = "\\"


def _check(delimiter: str) -> None:
    if len(delimiter) != 1 or delimiter in (_BACKSLASH, "'"):
        raise ValueError(f"not a VASSAL delimiter: {delimiter!r}")


def unquote(field: str) -> str:
    """Remove one pair of enclosing single quotes, as VASSAL does after splitting.

    >>> unquote("'a'"), unquote("'"), unquote("a'")
    ('a', "'", "a'")
    """
    if len(field) > 1 and field[0] == "'" and field[-1] == "'":
        return field[1:-1]
    return field


# Characters that stand in for an escaped delimiter while a text is split (one that does not
# occur in the text is chosen): from Unicode's private use area, then control characters.
_STAND_INS = ("\ue000", "\uf8ff", "\x00", "\x01")


def _raw_fields(text: str, delimiter: str) -> list[str]:
    """The fields before unquoting. A delimiter right after a backslash is escaped, whatever
    comes before that backslash (VASSAL looks at one character only), so the escaped ones can
    be set aside with one ``replace`` (matches of backslash + delimiter never overlap) and the
    rest split at once."""
    escaped = _BACKSLASH + delimiter
    if escaped not in text:
        return text.split(delimiter)
    stand_in = next((char for char in _STAND_INS if char not in text), None)
    if stand_in is None:
        return _raw_fields_slowly(text, delimiter)
    return [
        part.replace(stand_in, delimiter) if stand_in in part else part
        for part in text.replace(escaped, stand_in).split(delimiter)
    ]


def _raw_fields_slowly(text: str, delimiter: str) -> list[str]:
    """:func:`_raw_fields` piece by piece, for a text that holds every stand-in character."""
    pieces = text.split(delimiter)
    fields: list[str] = []
    current = [pieces[0]]
    for piece in pieces[1:]:
        if current[-1].endswith(_BACKSLASH):
            current[-1] = current[-1][:-1]
            current.append(piece)
        else:
            fields.append(delimiter.join(current))
            current = [piece]
    fields.append(delimiter.join(current))
    return fields


def split(text: str, delimiter: str) -> list[str]:
    """Every field of ``text``, one level of escaping undone (see the module docstring)."""
    _check(delimiter)
    return [unquote(field) for field in _raw_fields(text, delimiter)]


def split_first(text: str, delimiter: str) -> tuple[str, str | None]:
    """The first field and the second (``None`` when there is no second), as VASSAL reads a
    piece's ``type`` or ``state``: later fields, if any, are ignored.

    >>> split_first("mark;x\\tpiece;;;i;n", "\\t")
    ('mark;x', 'piece;;;i;n')
    >>> split_first("piece;;;i;n", "\\t")
    ('piece;;;i;n', None)
    """
    _check(delimiter)
    position = text.find(delimiter)
    while position > 0 and text[position - 1] == _BACKSLASH:
        position = text.find(delimiter, position + 1)
    if position < 0:
        return unquote(text.replace(_BACKSLASH + delimiter, delimiter)), None
    first = text[:position].replace(_BACKSLASH + delimiter, delimiter)
    rest = _raw_fields(text[position + 1 :], delimiter)[0]
    return unquote(first), unquote(rest)


def unchain_slowly(text: str, delimiter: str = "\t") -> list[str]:
    """:func:`unchain` the plain way, one level at a time (the reference it is tested against)."""
    found: list[str] = []
    rest: str | None = text
    while rest is not None:
        first, rest = split_first(rest, delimiter)
        found.append(first)
    return found


def unchain(text: str, delimiter: str = "\t") -> list[str]:
    """The first field of each level of a chain nested in its second field, outside in.

    A piece's type (or state) is ``OUTER<TAB>REST`` with ``REST`` nested the same way, so
    reading it level by level re-reads the rest once per trait. This reads the levels in one
    pass instead: a delimiter after exactly ``k`` backslashes separates level ``k`` from the
    rest, and a delimiter inside the field of level ``k`` carries ``k + 1`` or more. Where a
    level starts with a quote (VASSAL may have quoted it) it reads level by level instead.

    >>> unchain("a\\tb\\\\\\tc\\\\\\\\\\td")
    ['a', 'b', 'c', 'd']
    >>> unchain("x") == unchain_slowly("x") == ['x']
    True
    """
    _check(delimiter)
    parts = text.split(delimiter)
    if len(parts) == 1:
        return [unquote(text)]
    runs = [len(part) - len(part.rstrip(_BACKSLASH)) for part in parts]
    last = len(parts) - 1
    # A level starts with a quote where the text does, or right after a delimiter.
    quotes = text.startswith("'") or delimiter + "'" in text
    if not quotes and runs[:last] == list(range(last)):
        # What VASSAL writes when no field holds the delimiter: level k ends at the k-th
        # delimiter, after its k escaping backslashes; no level is quoted.
        return [part[: len(part) - level] for level, part in enumerate(parts[:last])] + [
            parts[last]
        ]
    by_run: dict[int, list[int]] = {}
    for boundary in range(len(parts) - 1):
        by_run.setdefault(runs[boundary], []).append(boundary)

    def next_boundary(level: int, after: int, before: int) -> int | None:
        """The first delimiter of ``level`` in parts ``after``..``before - 1``."""
        candidates = by_run.get(level, ())
        index = bisect_left(candidates, after)
        if index < len(candidates) and candidates[index] < before:
            return candidates[index]
        return None

    def joined(first: int, last: int, level: int, cut: int) -> str:
        """Parts ``first..last`` as level ``level`` reads them: delimiters inside lose
        ``level + 1`` backslashes, the last part loses its ``cut`` escaping backslashes."""
        pieces = [parts[index][: len(parts[index]) - level - 1] for index in range(first, last)]
        tail = parts[last]
        pieces.append(tail[: len(tail) - cut] if cut else tail)
        return delimiter.join(pieces)

    found: list[str] = []
    start, end, cut = 0, len(parts) - 1, 0
    for level in range(len(parts)):
        head = parts[start]
        if head.startswith("'"):
            return unchain_slowly(text, delimiter)
        separator = next_boundary(level, start, end)
        if separator is None:
            found.append(unquote(joined(start, end, level, cut)))
            return found
        if separator == start:  # the common case: no delimiter inside this level's field
            field = head[: len(head) - level] if level else head
        else:
            field = joined(start, separator, level, level)
        found.append(unquote(field))
        following = next_boundary(level, separator + 1, end)
        if following is not None:
            end, cut = following, level
        start = separator + 1
    raise AssertionError("unreachable: each level consumes at least one delimiter")


def commands(text: str) -> list[str]:
    """The single commands of a command string, in order, empty ones left out.

    A part that still holds (escaped) separators is itself a list of commands and is split
    again, as VASSAL's ``GameModule.decode`` does.
    """
    found: list[str] = []
    pending: list[tuple[str, int]] = [(text, 0)]
    while pending:
        command, depth = pending.pop()
        if ESC not in command and not command.startswith("'"):
            if command:  # a single command: nothing to split (the common case, made quick)
                found.append(command)
            continue
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
