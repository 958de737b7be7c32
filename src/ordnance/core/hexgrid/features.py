"""Hexsides and vertices as values: the edge between two hexes and the point shared by three.

Each has one canonical form, so equal features compare and hash equal however they were named.
A hexside is kept as the hex on its south-west side plus one of the directions N, NE, SE; a
vertex as the hex of which it is the east or west corner. Text forms: ``0,0,0/NE``, ``0,0,0/E``.

>>> Hexside.of(Hex(0, 0), Direction.S) == Hexside.of(Hex(0, 1), Direction.N)
True
>>> Hexside.parse("0,0,0/S")
Hexside.parse('0,1,-1/N')
>>> Vertex.of(Hex(0, 0), Corner.NNE).hexes
(Hex(0, -1), Hex(0, 0), Hex(1, -1))
"""

from __future__ import annotations

from dataclasses import dataclass

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid.coords import Corner, Direction, Hex

# Canonical owners: a hexside belongs to the hex whose N, NE or SE side it is, a vertex to the
# hex whose E or W corner it is. Every hexside and vertex has exactly one such owner.
_SIDE_OWNERS = (Direction.N, Direction.NE, Direction.SE)
_CORNER_OWNERS = (Corner.E, Corner.W)


def _split(text: str, what: str) -> tuple[Hex, str, int]:
    hex_text, slash, name = text.rpartition("/")
    if not slash:
        raise BadInput(what, text, "expected HEX/NAME, e.g. 0,0,0/NE", len(text))
    try:
        return Hex.parse(hex_text), name, len(hex_text) + 1
    except BadInput as err:
        raise BadInput(what, text, err.problem, err.position) from None


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The edge between two adjacent hexes.

    >>> side = Hexside.between(Hex(0, 0), Hex(1, -1))
    >>> side, side.hexes
    (Hexside.parse('0,0,0/NE'), (Hex(0, 0), Hex(1, -1)))
    >>> [str(v) for v in side.vertices]
    ['1,-1,0/W', '0,0,0/E']
    """

    hex: Hex
    direction: Direction

    def __post_init__(self) -> None:
        if self.direction not in _SIDE_OWNERS:
            raise ValueError("use Hexside.of() to name a hexside from any of its two hexes")

    @classmethod
    def of(cls, hex: Hex, direction: Direction) -> Hexside:
        """The side ``direction`` of ``hex``."""
        if direction in _SIDE_OWNERS:
            return cls(hex, direction)
        return cls(hex + direction.vector, direction.opposite)

    @classmethod
    def between(cls, a: Hex, b: Hex) -> Hexside:
        """The hexside between two adjacent hexes."""
        direction = a.direction_to(b)
        if direction is None:
            raise BadInput("hexside", f"{a}|{b}", "the two hexes are not adjacent")
        return cls.of(a, direction)

    @classmethod
    def parse(cls, text: str) -> Hexside:
        hex, name, position = _split(text, "hexside")
        try:
            return cls.of(hex, Direction.parse(name))
        except BadInput as err:
            raise BadInput("hexside", text, err.problem, position) from None

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes, the owner first."""
        return (self.hex, self.hex + self.direction.vector)

    @property
    def vertices(self) -> tuple[Vertex, Vertex]:
        """The two ends, anticlockwise one first as seen from the owner."""
        before = Corner((self.direction - 1) % 6)
        after = Corner(self.direction.value)
        return (Vertex.of(self.hex, before), Vertex.of(self.hex, after))

    def __str__(self) -> str:
        return f"{self.hex}/{self.direction}"

    def __repr__(self) -> str:
        return f"Hexside.parse('{self}')"


@dataclass(frozen=True, order=True, slots=True)
class Vertex:
    """The point where three hexes meet.

    ``thirds`` is the point in cube coordinates times three (the sum of the three hex centres),
    an exact integer handle for geometry: a vertex lies a third of the way between grid points.

    >>> v = Vertex.among(Hex(0, 0), Hex(1, -1), Hex(1, 0))
    >>> v, v.thirds
    (Vertex.parse('0,0,0/E'), (2, -1, -1))
    >>> Vertex.parse("1,-1,0/SSW") == v
    True
    """

    hex: Hex
    corner: Corner

    def __post_init__(self) -> None:
        if self.corner not in _CORNER_OWNERS:
            raise ValueError("use Vertex.of() to name a vertex from any of its three hexes")

    @classmethod
    def of(cls, hex: Hex, corner: Corner) -> Vertex:
        """The corner ``corner`` of ``hex``."""
        x, y, z = (3 * c for c in hex.cube)
        v = corner.vector
        return cls.from_thirds((x + v.q, y + v.r, z + v.s))

    @classmethod
    def from_thirds(cls, thirds: tuple[int, int, int]) -> Vertex:
        """The vertex at ``thirds`` (three times its cube coordinates)."""
        x, y, z = thirds
        if x + y + z != 0 or not (x % 3 == y % 3 == z % 3 != 0):
            raise ValueError(f"{thirds} is not three times a vertex's cube coordinates")
        # East corners sit at 3C + (2, -1, -1): every coordinate is 2 mod 3. West corners at
        # 3C + (-2, 1, 1): every coordinate is 1 mod 3.
        corner = Corner.E if x % 3 == 2 else Corner.W
        v = corner.vector
        return cls(Hex((x - v.q) // 3, (y - v.r) // 3), corner)

    @classmethod
    def among(cls, a: Hex, b: Hex, c: Hex) -> Vertex:
        """The vertex shared by three mutually adjacent hexes."""
        if any(x.direction_to(y) is None for x, y in ((a, b), (b, c), (a, c))):
            raise BadInput(
                "vertex",
                f"{a}|{b}|{c}",
                "three hexes meet at a vertex only if each two are adjacent",
            )
        return cls.from_thirds((a.q + b.q + c.q, a.r + b.r + c.r, a.s + b.s + c.s))

    @classmethod
    def parse(cls, text: str) -> Vertex:
        hex, name, position = _split(text, "vertex")
        try:
            return cls.of(hex, Corner.parse(name))
        except BadInput as err:
            raise BadInput("vertex", text, err.problem, position) from None

    @property
    def thirds(self) -> tuple[int, int, int]:
        v = self.corner.vector
        return (3 * self.hex.q + v.q, 3 * self.hex.r + v.r, 3 * self.hex.s + v.s)

    @property
    def hexes(self) -> tuple[Hex, Hex, Hex]:
        """The three hexes that meet here, in sorted order."""
        first, second = self.corner.sides
        trio = sorted((self.hex, self.hex + first.vector, self.hex + second.vector))
        return (trio[0], trio[1], trio[2])

    @property
    def hexsides(self) -> tuple[Hexside, Hexside, Hexside]:
        """The three hexsides that end here, in sorted order."""
        a, b, c = self.hexes
        trio = sorted((Hexside.between(a, b), Hexside.between(a, c), Hexside.between(b, c)))
        return (trio[0], trio[1], trio[2])

    def __str__(self) -> str:
        return f"{self.hex}/{self.corner}"

    def __repr__(self) -> str:
        return f"Vertex.parse('{self}')"
