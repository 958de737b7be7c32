r"""An independent reading of docs/maps.md's line of sight, for the oracle property tests.

Slow and plain on purpose; nothing here comes from the engine's sweep or trace.

Geometry. A flat-topped hex of circumradius 1 at axial ``(q, r)`` has its centre at
``x = 3q/2``, ``y = sqrt(3) (r + q/2)``. Scaling ``x`` by 2 and ``y`` by ``2 / sqrt(3)`` (an
affine map: it keeps straight lines straight and which point lies in which polygon) puts the
centre at ``(3q, 2r + q)`` and the six corners at ``(+-2, 0)`` and ``(+-1, +-1)`` from it, all
integers. The cell is then ``|Y| <= 1`` and ``|X| + |Y| <= 2`` around its centre::

        (-1,1)____(1,1)
             /    \
     (-2,0) <  C   > (2,0)
             \____/
       (-1,-1)    (1,-1)

The segment from the firer's centre to the target's is ``P(t) = A + t (B - A)``, ``t`` in
``[0, 1]``; clipping it by a cell's six half-planes gives, in exact fractions, the interval of
``t`` inside that closed cell. A hex is met when that interval has a length; two hexes met over
the same interval are a pair (the line runs along their common hexside: only a shared edge
gives two closed cells a common stretch of a line). Steps are ordered by where they start.

What a hex does to the line is each game's own (the test modules); :func:`walk` applies the
order docs/maps.md gives: from the firer outward, stop at the first step that blocks, counting
everything met up to and including it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from hypothesis import strategies as st

from ordnance.core.hexgrid import GridLabels, Hex, Hexside
from ordnance.core.maps import GameMap, LosVerdict

Point = tuple[int, int]

# The cell around its centre: (a, b, c) means a*dX + b*dY <= c.
_HALF_PLANES = ((0, 1, 1), (0, -1, 1), (1, 1, 2), (1, -1, 2), (-1, 1, 2), (-1, -1, 2))


def centre(hex: Hex) -> Point:
    return (3 * hex.q, 2 * hex.r + hex.q)


def hex_range(a: Hex, b: Hex) -> int:
    """Hexes between two centres, counting the far one (cube distance, written out here)."""
    dq, dr = b.q - a.q, b.r - a.r
    return max(abs(dq), abs(dr), abs(dq + dr))


def inside(hex: Hex, a: Point, b: Point) -> tuple[Fraction, Fraction] | None:
    """The interval of ``t`` over which the segment ``a``-``b`` lies in ``hex``'s closed cell."""
    cx, cy = centre(hex)
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = Fraction(0), Fraction(1)
    for p, q, c in _HALF_PLANES:
        start = p * (a[0] - cx) + q * (a[1] - cy)  # the constraint's value at t = 0
        slope = p * dx + q * dy
        if slope == 0:
            if start > c:
                return None
            continue
        bound = Fraction(c - start, slope)
        if slope > 0:
            high = min(high, bound)
        else:
            low = max(low, bound)
    return (low, high) if low <= high else None


@dataclass(frozen=True)
class Step:
    """One place on the line: a hex, or the two hexes of a pair; its range from the firer."""

    hexes: tuple[Hex, ...]
    range: int

    @property
    def is_pair(self) -> bool:
        return len(self.hexes) == 2


def steps(firer: Hex, target: Hex) -> list[Step]:
    """Every hex the line meets over a length, firer first, pairs together."""
    a, b = centre(firer), centre(target)
    far = hex_range(firer, target)
    met: dict[tuple[Fraction, Fraction], list[Hex]] = {}
    for q in range(min(firer.q, target.q) - 1, max(firer.q, target.q) + 2):
        for r in range(min(firer.r, target.r) - far - 1, max(firer.r, target.r) + far + 2):
            hex = Hex(q, r)
            interval = inside(hex, a, b)
            if interval is not None and interval[0] < interval[1]:
                met.setdefault(interval, []).append(hex)
    out = []
    for interval in sorted(met):
        hexes = tuple(sorted(met[interval]))
        assert len(hexes) <= 2, hexes
        ranges = {hex_range(firer, h) for h in hexes}
        assert len(ranges) == 1, hexes
        out.append(Step(hexes, ranges.pop()))
    assert out[0].hexes == (firer,) and out[-1].hexes == (target,)
    return out


@dataclass(frozen=True)
class Look:
    """What one step does to the line: it blocks or not, and the hindrance it counts."""

    blocks: bool = False
    hindrance: int = 0


@dataclass
class Verdict:
    """The oracle's verdict in the terms compared: blocked where, the hindrance at each range."""

    blocked_at: int | None
    by_range: dict[int, int] = field(default_factory=dict)

    def as_tuple(self) -> tuple[int | None, list[tuple[int, int]]]:
        return self.blocked_at, sorted((r, v) for r, v in self.by_range.items() if v)


Side = frozenset[Hex]  # a hexside, as the two hexes it lies between


def adjacent(a: Hex, b: Hex) -> bool:
    return hex_range(a, b) == 1


def crossed(before: Step, after: Step) -> list[Side]:
    """The hexsides the line crosses from one step into the next: those between a hex of one
    and an adjacent hex of the other (one through the middle of a side or hex to hex at a
    vertex; two into or out of a pair, at the vertex where its hexside ends)."""
    return [frozenset((a, b)) for a in before.hexes for b in after.hexes if adjacent(a, b)]


def along(step: Step) -> Side | None:
    """The hexside a pair's line runs along."""
    return frozenset(step.hexes) if step.is_pair else None


def touches(side: Side, hex: Hex) -> bool:
    """Whether ``hex`` has the side, or a corner at one of its ends: the hexes at a side's two
    ends are the common neighbours of the two hexes it lies between."""
    return hex in side or all(adjacent(hex, h) for h in side)


def walk(
    line: Sequence[Step],
    look: Callable[[int, Step], Look],
    *,
    per_range: Callable[[int, int], int],
    limit: int | None,
    limit_by_range: bool = False,
    cross: Callable[[int, list[Side]], Look] | None = None,
    run_along: Callable[[Side], Look] | None = None,
) -> Verdict:
    """Walk the steps from the firer; ``look(index, step)`` says what each does.

    Before each step after the firer's, ``cross(index, sides)`` says what the hexsides crossed
    into it do (met first: a block there stops the line before the step's hexes); a pair's own
    hexside, ``run_along(side)``, is met together with its hexes. ``per_range(old, new)`` adds
    a hindrance to what its range already counts (a sum, or the larger); ``limit``: the
    counted total at which the line is blocked, at the place that reaches it, or
    (``limit_by_range``) at the range whose count reaches it, once all of that range counts.
    """
    verdict = Verdict(None)
    reached_at: int | None = None

    def meet(range_: int, looks: list[Look]) -> bool:
        nonlocal reached_at
        for seen in looks:
            before = verdict.by_range.get(range_, 0)
            verdict.by_range[range_] = per_range(before, seen.hindrance)
        if any(seen.blocks for seen in looks):
            verdict.blocked_at = range_
            return True
        counted = sum(verdict.by_range.values())
        if limit is not None and reached_at is None and counted >= limit:
            if not limit_by_range:
                verdict.blocked_at = range_
                return True
            reached_at = range_
        return False

    for index, step in enumerate(line):
        if reached_at is not None and step.range != reached_at:
            break
        sides = crossed(line[index - 1], step) if index else []
        if cross is not None and sides and meet(step.range, [cross(index, sides)]):
            return verdict
        looks = [look(index, step)]
        side = along(step)
        if side is not None and run_along is not None:
            looks.append(run_along(side))
        if meet(step.range, looks):
            return verdict
    verdict.blocked_at = reached_at
    return verdict


def judged(verdict: LosVerdict) -> tuple[int | None, list[tuple[int, int]]]:
    """The engine's verdict in the same terms."""
    blocked_at = None if verdict.blocked is None else verdict.blocked.range
    return blocked_at, sorted((h.range, h.drm) for h in verdict.hindrances if h.drm)


# --- random small maps -----------------------------------------------------------------------

GRID = GridLabels(columns=7, rows=6)
HEXES = list(GRID.hexes())
EDGES = sorted(
    {frozenset((a, b)) for a in HEXES for b in HEXES if a < b and hex_range(a, b) == 1},
    key=sorted,
)


@dataclass(frozen=True)
class Layout:
    """A small random map: terrain, ground levels and markers by hex."""

    terrain: Mapping[Hex, str]
    levels: Mapping[Hex, int]
    markers: Mapping[Hex, tuple[str, ...]]
    sides: Mapping[Side, str] = field(default_factory=dict)

    def game_map(self, game: str) -> GameMap:
        return GameMap(
            "oracle",
            game,
            GRID,
            "open",
            dict(self.terrain),
            dict(self.levels),
            {Hexside.between(*sorted(side)): name for side, name in self.sides.items()},
            {h: m for h, m in self.markers.items() if m},
        )

    def side_of(self, side: Side) -> str | None:
        return self.sides.get(side)

    def terrain_of(self, hex: Hex) -> str:
        return self.terrain.get(hex, "open")

    def level_of(self, hex: Hex) -> int:
        return self.levels.get(hex, 0)

    def markers_of(self, hex: Hex) -> tuple[str, ...]:
        return self.markers.get(hex, ())


@st.composite
def layouts(
    draw: st.DrawFn,
    terrains: Sequence[str],
    markers: Sequence[str],
    max_level: int,
    hindering: Sequence[str],
    *,
    hexsides: Sequence[str] = (),
) -> Layout:
    """A map where many hexes hold something; a few are hills, some carry markers.

    Half the hills get a ``hindering`` terrain on top, so hexes that block (a hill) and
    hinder (its grain, brush, crops; SMOKE is drawn anywhere) at once are common.
    """
    places = st.sampled_from(HEXES)
    terrain = draw(st.dictionaries(places, st.sampled_from(terrains), max_size=30))
    levels = draw(st.dictionaries(places, st.integers(1, max_level), max_size=12))
    for hill in sorted(levels):
        if draw(st.booleans()):
            terrain[hill] = draw(st.sampled_from(hindering))
    marker_lists = st.lists(st.sampled_from(markers), min_size=1, max_size=2, unique=True)
    placed = draw(st.dictionaries(places, marker_lists.map(tuple), max_size=12))
    sides: dict[Side, str] = {}
    if hexsides:
        edges = st.sampled_from(EDGES)
        sides = draw(st.dictionaries(edges, st.sampled_from(hexsides), max_size=40))
    return Layout(terrain, levels, placed, sides)


def ends(draw: st.DrawFn) -> tuple[Hex, Hex]:
    """Two different hexes of the grid; half the time on one corner direction (along hexsides)."""
    firer = draw(st.sampled_from(HEXES))
    if draw(st.booleans()):
        along = [
            h for h in HEXES if h != firer and _on_corner_direction(h.q - firer.q, h.r - firer.r)
        ]
        if along:
            return firer, draw(st.sampled_from(along))
    return firer, draw(st.sampled_from([h for h in HEXES if h != firer]))


def _on_corner_direction(dq: int, dr: int) -> bool:
    # A centre-to-centre line along hexsides: its direction is one of the six corner directions,
    # i.e. it passes through a corner (X or Y offset of a corner, scaled) of the first hex.
    dx, dy = 3 * dq, 2 * dr + dq
    return dy == 0 or abs(dx) == abs(dy)


def pairs_of(line: Sequence[Step]) -> Iterator[Step]:
    return (s for s in line if s.is_pair)
