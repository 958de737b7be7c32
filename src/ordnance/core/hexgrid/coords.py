"""Hexes on exact integer cube coordinates: directions, corners, distance, rotations, rings.

The grid is flat-topped: hexes stand in vertical columns and a hex has a side to the north and
south and a corner to the east and west. A hex is ``(q, r, s)`` with ``q + r + s == 0``; ``q``
grows to the east, ``r`` to the south-west and ``s`` to the north-west. Only ``q`` and ``r`` are
stored. The same type serves as a position and as a displacement between two positions.

>>> a = Hex(0, 0)
>>> b = a + Direction.NE.vector * 3 + Direction.SE.vector
>>> b, str(b), distance(a, b)
(Hex(4, -3), '4,-3,-1', 4)
>>> [str(h) for h in a.ring(1)][:3]
['0,-1,1', '1,-1,0', '1,0,-1']
>>> b.rotated(1), distance(a, b.rotated(1))
(Hex(3, 1), 4)
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from ordnance.core.errors import BadInput, shown
from ordnance.core.limits import MAX_NUMBER, whole_number


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One hex (or the step between two hexes) in cube coordinates; ``s`` is implied.

    Text form ``q,r,s``: the three cube coordinates, which must sum to zero.

    >>> Hex.parse("2,-1,-1")
    Hex(2, -1)
    >>> Hex.parse("2,-1,0")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad hex '2,-1,0' at position 0: cube coordinates must sum to 0
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    @property
    def cube(self) -> tuple[int, int, int]:
        return (self.q, self.r, -self.q - self.r)

    @classmethod
    def parse(cls, text: str) -> Hex:
        parts = text.split(",")
        if len(parts) != 3:
            raise BadInput("hex", text, "expected three cube coordinates q,r,s, e.g. 1,-2,1", 0)
        values = []
        position = 0
        for part in parts:
            try:
                values.append(whole_number(part, "hex", -MAX_NUMBER, MAX_NUMBER))
            except BadInput as error:
                raise BadInput(
                    "hex", text, f"{shown(part)} is not a whole number ({error.problem})", position
                ) from None
            position += len(part) + 1
        if sum(values) != 0:
            raise BadInput("hex", text, "cube coordinates must sum to 0", 0)
        return cls(values[0], values[1])

    def __str__(self) -> str:
        return f"{self.q},{self.r},{self.s}"

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def __mul__(self, factor: int) -> Hex:
        return Hex(self.q * factor, self.r * factor)

    @property
    def length(self) -> int:
        """The distance from the origin, read as a displacement: its range in hexes."""
        return max(abs(self.q), abs(self.r), abs(self.q + self.r))

    def distance(self, other: Hex) -> int:
        """Hexes from here to ``other``, counting ``other`` but not this hex."""
        return (other - self).length

    def neighbour(self, direction: Direction) -> Hex:
        return self + direction.vector

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, clockwise from the north."""
        return tuple(self + d.vector for d in Direction)

    def direction_to(self, other: Hex) -> Direction | None:
        """The direction of an adjacent hex, or None if ``other`` is not adjacent."""
        return _DIRECTION_OF.get(other - self)

    def rotated(self, steps: int, about: Hex | None = None) -> Hex:
        """Turn ``steps`` times 60 degrees clockwise (negative: anticlockwise) about a centre.

        >>> Hex(1, -1).rotated(1), Hex(1, -1).rotated(-1), Hex(1, -1).rotated(6)
        (Hex(1, 0), Hex(0, -1), Hex(1, -1))
        """
        centre = about if about is not None else ORIGIN
        x, y, z = (self - centre).cube
        for _ in range(steps % 6):
            # One clockwise turn in cube coordinates: (x, y, z) -> (-y, -z, -x).
            x, y, z = -y, -z, -x
        return centre + Hex(x, y)

    def ring(self, radius: int) -> tuple[Hex, ...]:
        """The hexes exactly ``radius`` away, clockwise from the one due north.

        >>> len(Hex(0, 0).ring(3)), Hex(0, 0).ring(0)
        (18, (Hex(0, 0),))
        """
        if radius < 0:
            raise ValueError("a ring's radius cannot be negative")
        if radius == 0:
            return (self,)
        result = []
        current = self + Direction.N.vector * radius
        # Walk the six edges of the ring; the edge after corner N heads south-east, and so on.
        for direction in Direction:
            step = direction.turned(2).vector
            for _ in range(radius):
                result.append(current)
                current = current + step
        return tuple(result)

    def within(self, radius: int) -> Iterator[Hex]:
        """Every hex at most ``radius`` away, by rings from this hex outward."""
        for distance_ in range(radius + 1):
            yield from self.ring(distance_)


ORIGIN = Hex(0, 0)


def distance(a: Hex, b: Hex) -> int:
    """The range from ``a`` to ``b``: the hexes to ``b``, counting ``b`` but not ``a``.

    >>> distance(Hex(0, 0), Hex(3, -1)), distance(Hex(2, 2), Hex(2, 2))
    (3, 0)
    """
    return (b - a).length


class Direction(enum.IntEnum):
    """The six hexside directions of a flat-topped hex, clockwise from the north.

    A direction names both a side of a hex and the neighbour across it.

    >>> Direction.parse("se"), Direction.SE.opposite, Direction.NW.turned(1)
    (Direction.SE, Direction.NW, Direction.N)
    """

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def vector(self) -> Hex:
        return _DIRECTION_VECTORS[self]

    @property
    def opposite(self) -> Direction:
        return Direction((self + 3) % 6)

    def turned(self, steps: int) -> Direction:
        """Turn ``steps`` hexsides clockwise (negative: anticlockwise)."""
        return Direction((self + steps) % 6)

    @classmethod
    def parse(cls, text: str) -> Direction:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(d.name for d in cls)
            raise BadInput("direction", text, f"expected one of {names}") from None

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Direction.{self.name}"


class Corner(enum.IntEnum):
    """The six corner (vertex) directions of a flat-topped hex, clockwise from north-north-east.

    Corner ``k`` lies between side ``k`` and side ``k + 1``: NNE between N and NE, E between NE
    and SE, and so on. Its ``vector`` is the hex two hexsides away straight through the corner,
    whose centre the line from this hex's centre through the corner reaches.

    >>> Corner.E.sides, Corner.E.vector, Corner.parse("nnw").turned(1)
    ((Direction.NE, Direction.SE), Hex(2, -1), Corner.NNE)
    """

    NNE = 0
    E = 1
    SSE = 2
    SSW = 3
    W = 4
    NNW = 5

    @property
    def sides(self) -> tuple[Direction, Direction]:
        """The two hexsides that meet at this corner, anticlockwise one first."""
        return (Direction(self.value), Direction((self.value + 1) % 6))

    @property
    def vector(self) -> Hex:
        first, second = self.sides
        return first.vector + second.vector

    @property
    def opposite(self) -> Corner:
        return Corner((self + 3) % 6)

    def turned(self, steps: int) -> Corner:
        return Corner((self + steps) % 6)

    @classmethod
    def parse(cls, text: str) -> Corner:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(c.name for c in cls)
            raise BadInput("corner", text, f"expected one of {names}") from None

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Corner.{self.name}"


_DIRECTION_VECTORS = {
    Direction.N: Hex(0, -1),
    Direction.NE: Hex(1, -1),
    Direction.SE: Hex(1, 0),
    Direction.S: Hex(0, 1),
    Direction.SW: Hex(-1, 1),
    Direction.NW: Hex(-1, 0),
}
_DIRECTION_OF = {vector: direction for direction, vector in _DIRECTION_VECTORS.items()}


def cross(a: Hex, b: Hex) -> int:
    """The signed area spanned by two displacements: > 0 when ``b`` lies clockwise of ``a``.

    Exact orientation tests on the grid (which side of a line a hex lies) reduce to the sign
    of this number; the axial coordinates are an affine image of the plane, so signs agree.

    >>> north, north_east = Direction.N.vector, Direction.NE.vector
    >>> cross(north, north_east), cross(north_east, north)
    (1, -1)
    """
    return a.q * b.r - a.r * b.q
