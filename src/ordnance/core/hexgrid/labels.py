"""Board labels: the names players use for hexes, read and written at the edges of the engine.

Two schemes share one small protocol (:class:`LabelScheme`):

- :class:`GridLabels`: one rectangular map, lettered columns and numbered rows (``C7``), as on
  Lock 'n Load Tactical and Valor & Victory maps.
- :class:`GeomorphicLabels`: geomorphic boards laid side by side and stacked, each board with
  lettered columns A..GG and rows numbered per column (``4G5``: board 4, hex G5).

Both are flat-topped: columns are vertical and every other column sits half a hex lower.

Conventions (documented settings, not rules of any game):

- Column letters run A..Z, then doubled AA..ZZ, then tripled (the geomorphic boards' own style).
- Geomorphic boards count ``rows`` hexes per column (10 by default). On a real board the columns
  B, D, ... FF hold half hexes numbered 0 and 10 at the top and bottom edges; here row 10 is that
  bottom half hex, and row 0 is not a hex of its own board: when a board lies above, ``2B0``
  names the same hex as that board's ``B10`` (the two halves make one hex), otherwise the label
  is refused. So a board has ``columns * rows`` hexes (330) and boards stack with no overlap.
- Boards side by side share their edge column: the right board's A column is the left board's
  GG column (the two half hexes make one hex). Both labels parse; the left board's is canonical.
  A layout is rectangular: every row of boards has the same number of boards.

>>> labels = GeomorphicLabels.of("1,2/3,4")
>>> labels.parse("4G5"), labels.label(labels.parse("4G5"))
(Hex(38, -4), '4G5')
>>> labels.label(labels.parse("2A5")), labels.label(labels.parse("3B0"))
('1GG5', '1B10')
>>> layouts = ("1,2/3,4", "1,2/3,4/5,6/7,8", "1/2/3/4/5/6/7/8")
>>> [len(GeomorphicLabels.of(layout)) for layout in layouts]
[1300, 2600, 2640]
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid.coords import Hex
from ordnance.core.limits import MAX_BOARDS, MAX_DIGITS

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class LabelScheme(Protocol):
    """How a map names its hexes: format, parse, membership and the full list."""

    def label(self, hex: Hex) -> str: ...

    def parse(self, text: str) -> Hex: ...

    def __contains__(self, hex: object) -> bool: ...

    def hexes(self) -> Iterator[Hex]: ...


def column_letters(index: int) -> str:
    """The letters of the 0-based column ``index``: A..Z, AA..ZZ, AAA..

    >>> column_letters(0), column_letters(25), column_letters(26), column_letters(32)
    ('A', 'Z', 'AA', 'GG')
    """
    if index < 0:
        raise ValueError("a column index cannot be negative")
    return _LETTERS[index % 26] * (index // 26 + 1)


class Shift(enum.StrEnum):
    """Which columns sit half a hex lower than their neighbours (0-based column index)."""

    ODD = "odd"  # B, D, F...: the geomorphic boards' layout
    EVEN = "even"  # A, C, E...


def offset_to_hex(column: int, row: int, shift: Shift = Shift.ODD) -> Hex:
    """The hex at a 0-based ``column`` and a ``row`` counted downward.

    >>> offset_to_hex(0, 1), offset_to_hex(1, 1), offset_to_hex(1, 1, Shift.EVEN)
    (Hex(0, 1), Hex(1, 1), Hex(1, 0))
    """
    lift = column // 2 if shift is Shift.ODD else (column + 1) // 2
    return Hex(column, row - lift)


def hex_to_offset(hex: Hex, shift: Shift = Shift.ODD) -> tuple[int, int]:
    """The (0-based column, row) of a hex; the inverse of :func:`offset_to_hex`."""
    lift = hex.q // 2 if shift is Shift.ODD else (hex.q + 1) // 2
    return hex.q, hex.r + lift


class _Reader:
    """Reads one label left to right, reporting faults at their position."""

    def __init__(self, text: str, what: str) -> None:
        self.text, self.what, self.at = text, what, 0

    def fail(self, problem: str, position: int | None = None) -> BadInput:
        return BadInput(self.what, self.text, problem, self.at if position is None else position)

    def number(self, name: str) -> int:
        start = self.at
        # ASCII digits only: Python's isdigit() also takes full-width and superscript digits.
        while self.at < len(self.text) and "0" <= self.text[self.at] <= "9":
            self.at += 1
        if self.at == start:
            raise self.fail(f"expected the {name} number")
        if self.at - start > MAX_DIGITS:
            raise self.fail(f"a {name} number of more than {MAX_DIGITS} digits", start)
        return int(self.text[start : self.at])

    def column(self, columns: int) -> int:
        start = self.at
        while self.at < len(self.text) and self.text[self.at].isalpha():
            letter = self.text[self.at]
            if letter.upper() not in _LETTERS:
                raise self.fail(f"{letter!r} is not a column letter")
            if letter.upper() != self.text[start].upper():
                raise self.fail("a column repeats one letter (A..Z, AA..ZZ)")
            self.at += 1
        if self.at == start:
            raise self.fail("expected the column letters")
        letters = self.text[start : self.at].upper()
        index = _LETTERS.index(letters[0]) + 26 * (len(letters) - 1)
        if index >= columns:
            last = column_letters(columns - 1)
            raise self.fail(f"column {letters} is beyond the last column {last}", start)
        return index

    def end(self) -> None:
        if self.at != len(self.text):
            raise self.fail("unexpected text after the row number")


@dataclass(frozen=True)
class GridLabels:
    """One rectangular map of ``columns`` lettered columns and ``rows`` numbered rows.

    >>> grid = GridLabels(columns=12, rows=8)
    >>> grid.parse("C7"), grid.label(Hex(2, 6)), Hex(2, 6) in grid, len(grid)
    (Hex(2, 6), 'C7', True, 96)
    >>> grid.parse("C9")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad hex label 'C9' at position 1: row 9 is outside 1..8
    """

    columns: int
    rows: int
    first_row: int = 1
    shift: Shift = Shift.ODD

    def __post_init__(self) -> None:
        if self.columns < 1 or self.rows < 1:
            raise ValueError("a map needs at least one column and one row")

    def label(self, hex: Hex) -> str:
        if hex not in self:
            raise BadInput("hex label", str(hex), "the hex is not on this map")
        column, row = hex_to_offset(hex, self.shift)
        return f"{column_letters(column)}{row - 1 + self.first_row}"

    def parse(self, text: str) -> Hex:
        reader = _Reader(text, "hex label")
        column = reader.column(self.columns)
        start = reader.at
        row = reader.number("row")
        reader.end()
        last = self.first_row + self.rows - 1
        if not self.first_row <= row <= last:
            raise reader.fail(f"row {row} is outside {self.first_row}..{last}", start)
        return offset_to_hex(column, row - self.first_row + 1, self.shift)

    def __contains__(self, hex: object) -> bool:
        if not isinstance(hex, Hex):
            return False
        column, row = hex_to_offset(hex, self.shift)
        return 0 <= column < self.columns and 1 <= row <= self.rows

    def hexes(self) -> Iterator[Hex]:
        """Every hex, column by column from A, top to bottom."""
        for column in range(self.columns):
            for row in range(1, self.rows + 1):
                yield offset_to_hex(column, row, self.shift)

    def __len__(self) -> int:
        return self.columns * self.rows


@dataclass(frozen=True)
class GeomorphicLabels:
    """Geomorphic boards in rows, top row first, each row listed left to right.

    Text form: boards of a row joined by ``,``, rows by ``/``: ``"4,3/2,1"`` puts boards 4 and 3
    above boards 2 and 1.

    >>> GeomorphicLabels.of("4,3/2,1")
    GeomorphicLabels.of('4,3/2,1')
    >>> GeomorphicLabels.of("4,3/2,1").parse("5G5")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad hex label '5G5' at position 0: board 5 is not on this map
    """

    layout: tuple[tuple[int, ...], ...]
    columns: int = 33
    rows: int = 10
    _where: dict[int, tuple[int, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        boards = [board for row in self.layout for board in row]
        if not boards or any(len(row) != len(self.layout[0]) for row in self.layout):
            raise BadInput("board layout", str(self), "every row needs the same number of boards")
        if len(boards) > MAX_BOARDS:
            raise BadInput("board layout", str(self), f"more than {MAX_BOARDS} boards")
        if len(set(boards)) != len(boards) or min(boards) < 1:
            raise BadInput("board layout", str(self), "boards are numbered from 1, each once")
        # Neighbouring boards share a column; the shared column keeps its shift only if the
        # column step between boards is even.
        if len(self.layout[0]) > 1 and self.columns % 2 == 0:
            raise ValueError("boards side by side need an odd number of columns")
        where = {board: (x, y) for y, row in enumerate(self.layout) for x, board in enumerate(row)}
        object.__setattr__(self, "_where", where)  # frozen: set once here

    @classmethod
    def of(cls, text: str, columns: int = 33, rows: int = 10) -> GeomorphicLabels:
        """Read a layout such as ``"4,3/2,1"``."""
        layout = []
        for row_text in text.split("/"):
            row = []
            for board in row_text.split(","):
                digits = board.strip()
                if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 4:
                    position = text.find(board) if board else len(text)
                    raise BadInput(
                        "board layout", text, f"{board!r} is not a board number", position
                    )
                row.append(int(board))
            layout.append(tuple(row))
        return cls(tuple(layout), columns, rows)

    def __str__(self) -> str:
        return "/".join(",".join(str(board) for board in row) for row in self.layout)

    def __repr__(self) -> str:
        extra = "" if (self.columns, self.rows) == (33, 10) else f", {self.columns}, {self.rows}"
        return f"GeomorphicLabels.of('{self}'{extra})"

    @property
    def _step(self) -> int:
        return self.columns - 1

    @property
    def _width(self) -> int:
        """Columns on the whole map (shared edge columns counted once)."""
        return self._step * len(self.layout[0]) + 1

    @property
    def _height(self) -> int:
        return self.rows * len(self.layout)

    def board_hex(self, board: int, column: int, row: int) -> Hex:
        """The hex at a 0-based ``column`` and a ``row`` (1..rows) of ``board``."""
        x, y = self._where[board]
        return offset_to_hex(x * self._step + column, y * self.rows + row)

    def label(self, hex: Hex) -> str:
        if hex not in self:
            raise BadInput("hex label", str(hex), "the hex is not on this map")
        column, row = hex_to_offset(hex)
        x, local = divmod(column, self._step)
        if local == 0 and x > 0:
            # A shared edge column: the left board's GG is canonical.
            x, local = x - 1, self._step
        y, local_row = divmod(row - 1, self.rows)
        board = self.layout[y][x]
        return f"{board}{column_letters(local)}{local_row + 1}"

    def parse(self, text: str) -> Hex:
        reader = _Reader(text, "hex label")
        board = reader.number("board")
        if board not in self._where:
            raise reader.fail(f"board {board} is not on this map", 0)
        column = reader.column(self.columns)
        start = reader.at
        row = reader.number("row")
        reader.end()
        if row == 0 and column % 2 == 1:
            # The top half hex of a lower column is the bottom row of the board above.
            if self._where[board][1] == 0:
                raise reader.fail("row 0 of this column lies off the map (no board above)", start)
            return self.board_hex(board, column, 0)
        if not 1 <= row <= self.rows:
            raise reader.fail(f"row {row} is outside 1..{self.rows}", start)
        return self.board_hex(board, column, row)

    def __contains__(self, hex: object) -> bool:
        if not isinstance(hex, Hex):
            return False
        column, row = hex_to_offset(hex)
        return 0 <= column < self._width and 1 <= row <= self._height

    def hexes(self) -> Iterator[Hex]:
        """Every hex once, column by column across the whole map, top to bottom."""
        for column in range(self._width):
            for row in range(1, self._height + 1):
                yield offset_to_hex(column, row)

    def __len__(self) -> int:
        return self._width * self._height
