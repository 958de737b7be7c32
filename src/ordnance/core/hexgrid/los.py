"""Line of sight geometry: the hexes a centre-to-centre line passes through, exactly.

A hex is the set of points at least as close to its centre as to any other; the line from the
firer's centre to the target's centre passes through a hex when it meets that hex over a
length, not just at a point. Where the line runs along a hexside, both hexes beside it are met,
and the two are reported together as one *pair* step.

How it is exact: with ``u = q - r``, ``v = r - s`` and ``w = s - q``, the hex ``H`` is the set
of points with ``|u - u_H| <= 1``, ``|v - v_H| <= 1`` and ``|w - w_H| <= 1``. Walking the line
``t * D`` from hex to hex, the exit from the current hex is the smallest of three fractions
``(u_H +- 1) / du``; comparing them by cross-multiplication is an integer sign test, and a tie
is the line passing exactly through a vertex. The line runs along hexsides exactly when one of
``du``, ``dv``, ``dw`` is zero, i.e. along one of the six corner directions (from a centre
straight through a vertex); there the steps alternate one hex, a pair, one hex... Nothing is
rounded and no epsilon is used.

The crossed hexes depend only on the displacement between the two ends, so each displacement
is computed once and cached; a line between two hexes is that template moved into place.

Ranges count the target hex, not the firer's. A line can pass through two hexes in a row at
the same range (it clips a hex it does not stay in); both are listed, each as its own step.

>>> line = SightLine.between(Hex(0, 0), Hex(2, -1))
>>> str(line)
'0,0,0 > 1,-1,0|1,0,-1 > 2,-1,-1'
>>> [step.range for step in line.steps], line.steps[1].along
([0, 1, 2], Hexside.parse('1,0,-1/N'))
>>> [str(h) for h in SightLine.between(Hex(0, 0), Hex(3, -1)).hexes]
['0,0,0', '1,0,-1', '2,-1,-1', '3,-1,-2']
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field

from ordnance.core.hexgrid.coords import ORIGIN, Corner, Direction, Hex, cross
from ordnance.core.hexgrid.features import Hexside, Vertex

Offset = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Step:
    """One place along a line: a hex, or two hexes where the line runs along their hexside.

    ``range`` is the distance from the firer; the two hexes of a pair are at the same range.
    ``along`` is the hexside the line runs along, for a pair.
    """

    hexes: tuple[Hex, ...]
    range: int
    along: Hexside | None = None

    @property
    def is_pair(self) -> bool:
        return len(self.hexes) == 2

    def moved(self, by: Hex) -> Step:
        along = None if self.along is None else Hexside(self.along.hex + by, self.along.direction)
        return Step(tuple(h + by for h in self.hexes), self.range, along)

    def __str__(self) -> str:
        return "|".join(str(h) for h in self.hexes)


class Passage(enum.StrEnum):
    """How a line passes a hexside."""

    ACROSS = "across"  # through the middle of it, from one of its hexes into the other
    AT_END = "at end"  # exactly through one of its two end vertices
    ALONG = "along"  # lengthwise, between the two hexes of a pair


@dataclass(frozen=True, slots=True)
class Crossing:
    """Where a line leaves one step for the next.

    Most crossings go through the middle of one hexside. When the line passes exactly through
    a vertex, ``vertex`` is set and ``sides`` are the hexsides at that vertex that separate the
    step before from the step after: one when the line goes from hex to hex (the third hex
    there is only touched at the point), two when it enters or leaves a pair.
    """

    sides: tuple[Hexside, ...]
    vertex: Vertex | None = None

    @property
    def passage(self) -> Passage:
        return Passage.ACROSS if self.vertex is None else Passage.AT_END

    def moved(self, by: Hex) -> Crossing:
        sides = tuple(Hexside(side.hex + by, side.direction) for side in self.sides)
        vertex = None if self.vertex is None else Vertex(self.vertex.hex + by, self.vertex.corner)
        return Crossing(sides, vertex)


@dataclass(frozen=True, slots=True)
class SightLine:
    """The steps of a line of sight from the firer's centre to the target's centre, in order.

    ``steps[0]`` is the firer's hex and ``steps[-1]`` the target's; ``crossings[i]`` lies
    between ``steps[i]`` and ``steps[i + 1]``. A line is fully decided by its two ends, so it
    is stored as those two; the steps are the cached template for the displacement, moved to
    the firer on first use. The line from the target back to the firer has the same steps in
    reverse order (:meth:`reversed`).

    >>> line = SightLine.between(Hex(0, 0), Hex(1, 1))
    >>> line, [str(c.sides[0]) for c in line.crossings]
    (SightLine.between(Hex(0, 0), Hex(1, 1)), ['0,0,0/SE', '0,1,-1/SE'])
    """

    firer: Hex
    target: Hex
    _moved: tuple[tuple[Step, ...], tuple[Crossing, ...]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @classmethod
    def between(cls, firer: Hex, target: Hex) -> SightLine:
        return cls(firer, target)

    def _parts(self) -> tuple[tuple[Step, ...], tuple[Crossing, ...]]:
        if self._moved is None:
            steps, crossings = _template(self.target.q - self.firer.q, self.target.r - self.firer.r)
            if self.firer != ORIGIN:
                steps = tuple(step.moved(self.firer) for step in steps)
                crossings = tuple(crossing.moved(self.firer) for crossing in crossings)
            object.__setattr__(self, "_moved", (steps, crossings))  # frozen: a one-time cache
            return steps, crossings
        return self._moved

    @property
    def steps(self) -> tuple[Step, ...]:
        return self._parts()[0]

    @property
    def crossings(self) -> tuple[Crossing, ...]:
        return self._parts()[1]

    @property
    def range(self) -> int:
        return self.firer.distance(self.target)

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex met, in order from the firer (a pair's two hexes in sorted order)."""
        return tuple(h for step in self.steps for h in step.hexes)

    def at_range(self, range_: int) -> tuple[Step, ...]:
        """The steps at one range from the firer (usually one, sometimes two in a row)."""
        return tuple(step for step in self.steps if step.range == range_)

    def reversed(self) -> SightLine:
        """The same line traced from the target back to the firer."""
        return SightLine(self.target, self.firer)

    def __str__(self) -> str:
        return " > ".join(str(step) for step in self.steps)

    def __repr__(self) -> str:
        return f"SightLine.between({self.firer!r}, {self.target!r})"


def sight_line(firer: Hex, target: Hex) -> SightLine:
    """The line of sight from ``firer`` to ``target`` (see :class:`SightLine`)."""
    return SightLine.between(firer, target)


def step_offsets(dq: int, dr: int) -> tuple[tuple[Offset, ...], ...]:
    """The steps of the line from the origin to ``Hex(dq, dr)`` as bare ``(q, r)`` offsets.

    The bulk form of :class:`SightLine` for callers that sweep many lines (one template per
    displacement, added to every firer): one or two offsets per step, firer and target included.

    >>> step_offsets(2, -1)
    (((0, 0),), ((1, -1), (1, 0)), ((2, -1),))
    """
    return _walk(dq, dr)[0]


Template = tuple[tuple[Step, ...], tuple[Crossing, ...]]


@functools.lru_cache(maxsize=1 << 16)
def _template(dq: int, dr: int) -> Template:
    """The steps and crossings from the origin to ``Hex(dq, dr)``; other lines are moved copies."""
    offsets, vertices = _walk(dq, dr)
    steps = []
    for offset in offsets:
        if len(offset) == 1:
            q, r = offset[0]
            steps.append(Step((Hex(q, r),), max(abs(q), abs(r), abs(q + r))))
        else:
            a, b = Hex(*offset[0]), Hex(*offset[1])
            steps.append(Step((a, b), a.length, _side(a, b)))
    crossings = []
    for before, after, thirds in zip(steps[:-1], steps[1:], vertices, strict=True):
        vertex = None if thirds is None else Vertex.from_thirds(thirds)
        if len(before.hexes) == len(after.hexes) == 1:
            sides: tuple[Hexside, ...] = (_side(before.hexes[0], after.hexes[0]),)
        else:
            # Entering or leaving a pair: the two hexsides at the vertex between the steps.
            sides = tuple(sorted(_side(x, y) for x in before.hexes for y in after.hexes))
        crossings.append(Crossing(sides, vertex))
    return tuple(steps), tuple(crossings)


def _side(a: Hex, b: Hex) -> Hexside:
    """The hexside between two adjacent hexes, without the checks of Hexside.between."""
    on_b, direction = _SIDE_OF_MOVE[(b.q - a.q, b.r - a.r)]
    return Hexside(b if on_b else a, direction)


# For a move to an adjacent hex: whether the hexside belongs to the hex moved to, and its
# canonical direction (N, NE or SE from its owner).
_SIDE_OF_MOVE = {
    (d.vector.q, d.vector.r): (d.value >= 3, d.opposite if d.value >= 3 else d) for d in Direction
}


Walk = tuple[tuple[tuple[Offset, ...], ...], tuple[tuple[int, int, int] | None, ...]]
Thirds = tuple[int, int, int]


def iter_steps(dq: int, dr: int) -> Iterator[tuple[Offset, ...]]:
    """:func:`step_offsets`, lazily: for sweeps that may stop before the target.

    >>> steps = iter_steps(12, -7)
    >>> next(steps), next(steps), next(steps)
    (((0, 0),), ((1, -1),), ((2, -1),))
    """
    yield ((0, 0),)
    for step, _ in _iter_walk(dq, dr):
        yield step


@functools.lru_cache(maxsize=1 << 16)
def _walk(dq: int, dr: int) -> Walk:
    """The whole walk, cached: the steps, and per crossing the vertex passed (in thirds)."""
    steps: list[tuple[Offset, ...]] = [((0, 0),)]
    vertices: list[Thirds | None] = []
    for step, thirds in _iter_walk(dq, dr):
        steps.append(step)
        vertices.append(thirds)
    return tuple(steps), tuple(vertices)


def _iter_walk(dq: int, dr: int) -> Iterator[tuple[tuple[Offset, ...], Thirds | None]]:
    """The exact walk on bare integers: each step after the firer's, and the vertex passed.

    The line is ``t * D``. With ``u = q - r``, ``v = r - s``, ``w = s - q`` the current hex is
    left where ``t * du`` reaches ``u + 1`` (``du > 0``) or ``u - 1`` (``du < 0``), likewise for
    ``v`` and ``w``: three fractions ``n / d`` with ``d > 0``, compared by cross-multiplying.
    Crossing the ``u`` face moves by ``(1, -1)`` (or back), ``v`` by ``(0, 1)``, ``w`` by
    ``(-1, 0)``. A tie between two faces is the line passing through the vertex where they meet.
    """
    ds = -dq - dr
    du, dv, dw = dq - dr, dr - ds, ds - dq
    if du == 0 or dv == 0 or dw == 0:
        yield from _iter_along_corner(dq, dr)
        return
    su, sv, sw = (1 if d > 0 else -1 for d in (du, dv, dw))
    au, av, aw = abs(du), abs(dv), abs(dw)
    move_u, move_v, move_w = (su, -su), (0, sv), (-sw, 0)
    q = r = 0
    while q != dq or r != dr:
        s = -q - r
        # Numerators of the exit fractions: distance (in u, v, w) to the face ahead, always > 0.
        nu, nv, nw = 1 + su * (q - r), 1 + sv * (r - s), 1 + sw * (s - q)
        uv, uw, vw = nu * av - nv * au, nu * aw - nw * au, nv * aw - nw * av
        if uv < 0 and uw < 0:
            q, r = q + move_u[0], r + move_u[1]
        elif uv > 0 and vw < 0:
            r += move_v[1]
        elif uw > 0 and vw > 0:
            q += move_w[0]
        else:
            # Two faces tie for first; never three, as a vertex joins only two faces of a hex.
            moves = []
            if uv <= 0 and uw <= 0:
                moves.append(move_u)
            if uv >= 0 and vw <= 0:
                moves.append(move_v)
            if uw >= 0 and vw >= 0:
                moves.append(move_w)
            (q, r), thirds = _exit_tie((q, r), moves[0], moves[1], (dq, dr))
            yield ((q, r),), thirds
            continue
        yield ((q, r),), None


def _exit_tie(
    here: Offset, first: Offset, second: Offset, target: Offset
) -> tuple[Offset, tuple[int, int, int]]:
    """Leaving hex ``here`` through the vertex where faces ``first`` and ``second`` meet.

    Three hexes meet there; the third hexside at the vertex leads away along ``first +
    second``. The line goes on into the hex on its side of that hexside: the hex across
    ``first`` lies on the side where ``cross(second, first)`` points.
    """
    q, r = here
    spine = Hex(first[0] + second[0], first[1] + second[1])
    thirds = (3 * q + spine.q, 3 * r + spine.r, -3 * q - 3 * r + spine.s)
    toward = cross(spine, Hex(*target)) > 0
    if toward == (cross(Hex(*second), Hex(*first)) > 0):
        return (q + first[0], r + first[1]), thirds
    return (q + second[0], r + second[1]), thirds


def _iter_along_corner(dq: int, dr: int) -> Iterator[tuple[tuple[Offset, ...], Thirds | None]]:
    """A line along a corner direction: hex, pair, hex... through the centres on the way."""
    target = Hex(dq, dr)
    count = target.length // 2
    if count == 0:
        return
    unit = Hex(dq // count, dr // count)
    corner = next(c for c in Corner if c.vector == unit)
    left, right = (side.vector for side in corner.sides)
    for k in range(count):
        centre = unit * k
        a, b = sorted((centre + left, centre + right))
        x, y, z = (3 * c for c in centre.cube)
        # The line passes a corner a third and two thirds of the way to the next centre.
        yield ((a.q, a.r), (b.q, b.r)), (x + unit.q, y + unit.r, z + unit.s)
        after = ((centre.q + unit.q, centre.r + unit.r),)
        yield after, (x + 2 * unit.q, y + 2 * unit.r, z + 2 * unit.s)
