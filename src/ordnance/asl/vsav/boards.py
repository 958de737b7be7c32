"""Where a VASL piece stands: its map pixel, the boards laid out by the ``bd`` command, a hex.

VASL's board picker writes ``bd`` then, per board, ``COLUMN<TAB>ROW<TAB>[r]NAME<TAB>`` (``r``:
turned 180 degrees), optionally the crop rectangle ``X<TAB>Y<TAB>W<TAB>H<TAB>``, then
``VER<TAB>version<TAB>``, overlays, ``SSR<TAB>...`` terrain changes and ``ZOOM<TAB>factor``;
boards are separated by another ``bd<TAB>``. VASSAL places the board in column c and row r
after the widths of the boards left of it in its row and the heights of those above it in its
column, all shifted by the map's edge buffer.

The readings that need a board's own files, which a save does not carry, are defaults here
(:class:`Geometry`, documented in the README): every board is a standard geomorphic board of
1800 x 645 pixels with VASL's geomorphic hex grid (hex width 1800/32 = 56.25, height 645/10 =
64.5, hex A1's centre at 0,32, columns A-GG, no alternate numbering), and the main map's edge
buffer is 400,400. HASL and DASL maps, Deluxe boards and boards whose metadata sets its own grid
need that metadata.

A hex is named as VASL names it (:func:`board_location`): integer pixels, the column by the
nearest column of centres, the row within it, and a piece exactly on a hexside point (a vehicle
in bypass, a hexside marker) named by both hexes, ``M4/N4``; the first is the hex it is in.

>>> layout = read_boards("bd\\t0\\t0\\t00\\tVER\\t6.0\\t")
>>> layout
(Board(name='00', column=0, row=0, reversed=False, crop=None, zoom=1.0),)
>>> locate(681, 528, layout), locate(625, 496, layout), locate(10, 10, layout)
(('00', 'F2'), ('00', 'E2'), None)
>>> locate(1103, 641, layout)
('00', 'M4/N4')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ordnance.core.errors import BadInput

BOARD_COMMAND = "bd\t"
# At most this many boards: more than any real layout, a bound against crafted input.
MAX_BOARDS = 400
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Geometry:
    """Board and grid measures in map pixels ([default] VASL's standard geomorphic board).

    The hex is 1800/32 x 645/10 pixels, as VASL has drawn geomorphic boards since its commit
    02775bfb6d7f2731745e58808ceab1e3cf0c9ff3 (2015-02-27, vasl-developers/vasl: ASLBoard's
    default hex width and height became BoardArchive's GEO_HEX_WIDTH and GEO_HEX_HEIGHT, 56.25 x
    64.5, where they had been 56.24 x 64.51). The origin (hex A1's centre) is whole pixels, as
    VASSAL's grid keeps it: VASL's 32.25 is truncated to 32.
    """

    board_width: int = 1800
    board_height: int = 645
    hex_width: float = 1800 / 32
    hex_height: float = 645 / 10
    origin_x: int = 0
    origin_y: int = 32
    edge_x: int = 400
    edge_y: int = 400


DEFAULT_GEOMETRY = Geometry()


@dataclass(frozen=True)
class Board:
    """One board of the layout: its name as VASL writes it (``4``, ``00``, ``bdRB``...),
    its place in the grid of boards, whether it is turned, its crop rectangle and zoom."""

    name: str
    column: int
    row: int
    reversed: bool = False
    crop: tuple[int, int, int, int] | None = None
    zoom: float = 1.0

    def size(self, geometry: Geometry) -> tuple[int, int]:
        """Width and height on the map (cropped, zoomed)."""
        width, height = geometry.board_width, geometry.board_height
        if self.crop is not None:
            width = self.crop[2] if self.crop[2] > 0 else width
            height = self.crop[3] if self.crop[3] > 0 else height
        return java_round(width * self.zoom), java_round(height * self.zoom)


def read_boards(command: str) -> tuple[Board, ...]:
    """The boards of one ``bd`` command (none for a bare ``bd``)."""
    if not command.startswith(BOARD_COMMAND):
        raise BadInput("board layout", command[:40], "a VASL board command starts with 'bd'")
    texts = [text for text in command[len(BOARD_COMMAND) :].split(BOARD_COMMAND) if text.strip()]
    if len(texts) > MAX_BOARDS:
        raise BadInput("board layout", command[:40], f"more than {MAX_BOARDS} boards")
    return tuple(_board(text) for text in texts)


def _board(text: str) -> Board:
    tokens = [token for token in text.replace("\n", "\t").split("\t") if token != ""]

    def fault(problem: str) -> BadInput:
        return BadInput("board", text[:60], problem)

    if len(tokens) < 3:
        raise fault("expected the column, row and name of a board")
    try:
        column, row = int(tokens[0]), int(tokens[1])
    except ValueError:
        raise fault("the column and row of a board are whole numbers") from None
    if not (0 <= column < MAX_BOARDS and 0 <= row < MAX_BOARDS):
        raise fault(f"column and row must lie in 0..{MAX_BOARDS - 1}")
    name = tokens[2]
    turned = name.startswith("r") and len(name) > 1
    crop = None
    rest = tokens[3:]
    if len(rest) >= 4 and all(_is_int(token) for token in rest[:4]):
        x, y, width, height = (int(token) for token in rest[:4])
        crop = (x, y, width, height)
        rest = rest[4:]
    zoom = 1.0
    if "ZOOM" in rest:
        index = rest.index("ZOOM")
        zoom = _zoom(rest[index + 1] if index + 1 < len(rest) else "", fault)
    return Board(name[1:] if turned else name, column, row, turned, crop, zoom)


def java_round(value: float) -> int:
    """Java's ``Math.round``, which VASSAL scales pixels with: halves go up (``round`` would
    take them to the even neighbour).

    >>> java_round(2.5), java_round(-2.5), round(2.5)
    (3, -2, 2)
    """
    return math.floor(value + 0.5)


def _is_int(token: str) -> bool:
    return token.lstrip("-").isdigit()


def _zoom(text: str, fault: object) -> float:
    try:
        zoom = float(text)
    except ValueError:
        zoom = math.nan
    if not (0.1 <= zoom <= 10):
        assert callable(fault)
        raise fault("ZOOM must be a number from 0.1 to 10")
    return zoom


@lru_cache(maxsize=8)
def _origins(boards: tuple[Board, ...], geometry: Geometry) -> list[tuple[int, int]]:
    """Each board's top-left map pixel, as VASSAL lays boards out."""
    widths: dict[tuple[int, int], int] = {}
    heights: dict[tuple[int, int], int] = {}
    for board in boards:
        widths[board.column, board.row], heights[board.column, board.row] = board.size(geometry)
    origins = []
    for board in boards:
        x = sum(widths.get((column, board.row), 0) for column in range(board.column))
        y = sum(heights.get((board.column, row), 0) for row in range(board.row))
        origins.append((x + geometry.edge_x, y + geometry.edge_y))
    return origins


@lru_cache(maxsize=8)
def _placed(
    boards: tuple[Board, ...], geometry: Geometry
) -> tuple[tuple[Board, int, int, int, int], ...]:
    """Each board with its left, top, width and height on the map."""
    origins = _origins(boards, geometry)
    return tuple(
        (board, left, top, *board.size(geometry))
        for board, (left, top) in zip(boards, origins, strict=True)
    )


def column_letters(column: int) -> str:
    """VASL's column names: A..Z, then AA..ZZ, AAA...

    >>> column_letters(0), column_letters(32), column_letters(52)
    ('A', 'GG', 'AAA')
    """
    return _ALPHABET[column % 26] * (column // 26 + 1)


def _column_row(x: float, y: float, geometry: Geometry) -> tuple[int, int]:
    """The column of a (translated) pixel, and its row in that column: odd columns' centres
    sit half a hex lower."""
    column = math.floor(x / geometry.hex_width + 0.5)
    return column, _row(column, y, geometry)


def _row(column: int, y: float, geometry: Geometry) -> int:
    if column % 2 == 0:
        return math.floor(y / geometry.hex_height) + 1
    return math.floor(y / geometry.hex_height + 0.5)


def _on_hexside(x: int, y: int, geometry: Geometry) -> bool:
    """Whether a board pixel is exactly where VASSAL's grid snaps a piece to a hexside (or a
    centre): the points half a hex apart across and a quarter hex apart down."""
    dx, dy = geometry.hex_width, geometry.hex_height
    ox, oy = geometry.origin_x, geometry.origin_y
    half_columns = math.floor((x - ox + dx / 4) * 2 / dx)
    if x != int(dx / 2 * half_columns + ox):
        return False
    if half_columns % 2 == 0:
        side_y = int(dy / 2 * math.floor((y - oy + dy / 4) * 2 / dy) + oy)
    else:
        side_y = int(dy / 2 * math.floor((y - oy) * 2 / dy) + int(dy / 4) + oy)
    return y == side_y


def board_location(x: int, y: int, geometry: Geometry = DEFAULT_GEOMETRY) -> str | None:
    """VASL's name of a board pixel: one hex, or two (``M4/N4``) for a piece exactly on the
    hexside between them; ``None`` left of column A or above row 0.

    As VASL's ASLHexGrid reads a pixel: the origin's offset is truncated to whole pixels (with
    the default grid the row is read from the pixel itself, where a quarter pixel added would
    carry a piece on a hexside into the hex below), and a piece on a hexside between two
    columns is in the left one.

    >>> board_location(281, 128), board_location(703, 241), board_location(281, 290)
    ('F2', 'M4/N4', 'F4/F5')
    """
    # VASL moves the pixel down by the half hex less the origin, cast to whole pixels: Java's
    # (int) truncates toward zero, as int() does, so 32.25 - 32 moves it by nothing.
    px = x - geometry.origin_x
    py = y + int(geometry.hex_height / 2 - geometry.origin_y)
    column, row = _column_row(px, py, geometry)
    other: tuple[int, int] | None = None
    if _on_hexside(x, y, geometry):
        dx, dy = geometry.hex_width, geometry.hex_height
        if math.floor(2 * px / dx + 0.5) % 2 != 0:  # on the line between two columns
            column = math.floor(px / dx)
            row = _row(column, py, geometry)
            if column % 2 == 0:
                other = (column + 1, row if py > (row - 0.5) * dy else row - 1)
            else:
                other = (column + 1, row + 1 if py > row * dy else row)
        elif math.floor(2 * py / dy + 0.5) % 2 == (0 if column % 2 == 0 else 1):
            # On the line between two hexes of one column.
            above = (row - 0.5) * dy if column % 2 == 0 else row * dy
            other = (column, row + 1 if py > above else row - 1)
    if column < 0 or row < 0:
        return None
    name = f"{column_letters(column)}{row}"
    if other is not None and other[1] >= 0:
        name += f"/{column_letters(other[0])}{other[1]}"
    return name


def first_hex(location: str) -> str:
    """The hex a piece is in, from VASL's name of its place (the first of two on a hexside).

    >>> first_hex("M4/N4"), first_hex("4F2")
    ('M4', '4F2')
    """
    return location.split("/", 1)[0]


def locate(
    x: int, y: int, boards: Sequence[Board], geometry: Geometry = DEFAULT_GEOMETRY
) -> tuple[str, str] | None:
    """The board name and VASL's name of the place on it (:func:`board_location`: a hex, or
    the two hexes of a hexside, without the board) of a main-map pixel, or ``None`` off every
    board.

    A board's right and bottom edges count as its own when no board lies beyond them: the
    centres of its GG hexes and of the bottom half hexes of odd columns fall on them.
    """
    for inclusive in (False, True):
        for board, left, top, width, height in _placed(tuple(boards), geometry):
            inside_x = left <= x <= left + width if inclusive else left <= x < left + width
            inside_y = top <= y <= top + height if inclusive else top <= y < top + height
            if inside_x and inside_y:
                return _on_board(x - left, y - top, board, geometry)
    return None


def _on_board(x: int, y: int, board: Board, geometry: Geometry) -> tuple[str, str] | None:
    """A pixel relative to the board's top-left corner on the map, to the place on the board."""
    if board.reversed:
        width, height = board.size(geometry)
        x, y = width - x, height - y
    if board.zoom != 1.0:
        x, y = java_round(x / board.zoom), java_round(y / board.zoom)
    if board.crop is not None:
        x, y = x + board.crop[0], y + board.crop[1]
    label = board_location(x, y, geometry)
    return None if label is None else (board.name, label)


def hex_label(board: str, hex_name: str, boards: Sequence[Board]) -> str:
    """The label VASL shows: the hex (or hexside) alone on a one-board map, board and hex
    otherwise (VASL writes the board once before a hexside's two hexes).

    >>> hex_label("4", "F2", [Board("4", 0, 0)]), hex_label("4", "F2", [Board("4", 0, 0)] * 2)
    ('F2', '4F2')
    >>> hex_label("4", "M4/N4", [Board("4", 0, 0)] * 2)
    '4M4/N4'
    """
    return hex_name if len(boards) <= 1 else f"{board}{hex_name}"
