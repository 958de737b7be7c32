"""Which hexes can see which, and through how much hindrance: every line judged by a game's rule.

:class:`Visibility` answers for one map and one ruleset's :class:`~ordnance.core.maps.LosJudge`:

- :meth:`Visibility.seen`: one line, ``None`` when blocked, else the hindrance total (the same
  answer as the judge's own verdict: ``verdict.total`` when ``verdict.clear``);
- :meth:`Visibility.visible_from`: every hex a hex can see, with its hindrance (the "what can
  this unit see" overlay);
- :meth:`Visibility.all_pairs`: every ordered pair at once.

How it is fast and still exact. A judge that offers a :class:`SweepRule` (its terrain, its
:class:`~ordnance.core.hexgrid.SightRule` and its limit on accumulated hindrance) is asked once
per hex what that hex does to a line passing through it, and to a line starting or ending in
it. Each answer becomes one small number: the hindrance, or the limit itself when it blocks;
a line is then blocked exactly when the numbers of its steps (the larger of two steps at one
range, for a game that counts only the largest per range; a pair along a hexside by the game's
pair rule) add up to the limit. The hexes a line meets depend only on its displacement
(:mod:`ordnance.core.hexgrid.los`), so :meth:`Visibility.all_pairs` lays each displacement's
steps over every firer at once, with the map packed into one Python integer of 8-bit lanes
(one lane per hex; a shift moves every firer one step, one addition adds every lane).

That reading holds where the ground is level and no hexside has a feature. Any other line (an
end or a hex met on a different level, or a hex beside a wall or hedge) is handed to the judge
itself, one line at a time, so the answer is the judge's in every case. Games without a
:class:`SweepRule` are judged line by line throughout.

>>> from ordnance.core.hexgrid import GridLabels, Sight, SightRule, TerrainTable, trace
>>> from ordnance.core.maps.model import GameMap
>>> from ordnance.core.maps.verdict import LosJudge, build_verdict
>>> grid = GridLabels(columns=6, rows=4)
>>> m = GameMap("demo", "test", grid, "open")
>>> table = TerrainTable({grid.parse("C2"): Sight(blocks=True, reason="woods")})
>>> rule = SweepRule(lambda game_map, ends: table, SightRule())
>>> judge = LosJudge(
...     "test", chart=lambda: None,
...     los=lambda m, a, b: build_verdict(m, trace(a, b, table), game="test"), sweep=rule)
>>> sight = Visibility(m, judge)
>>> sight.seen(grid.parse("A2"), grid.parse("E2")) is None
True
>>> sight.seen(grid.parse("A1"), grid.parse("F1"))  # clear, no hindrance
0
>>> pairs = sight.all_pairs()
>>> pairs[grid.parse("A2"), grid.parse("E2")] is None, pairs.pairs
(True, 552)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ordnance.core.hexgrid import Hex, SameRange, Sight, SightLine, SightRule, Terrain
from ordnance.core.hexgrid.los import iter_steps
from ordnance.core.maps.levels import Ends
from ordnance.core.maps.model import GameMap

if TYPE_CHECKING:
    from ordnance.core.maps.verdict import LosJudge

__all__ = ["AllPairs", "Seen", "SweepRule", "Visibility"]

# What one line comes to: None when blocked, else the hindrance total.
Seen = int | None
Offset = tuple[int, int]


@dataclass(frozen=True)
class SweepRule:
    """What a ruleset offers for judging many lines at once (see the module docstring).

    ``terrain`` makes the game's own :class:`~ordnance.core.hexgrid.Terrain` for a map and the
    two ends' levels; ``rule`` is the game's sight rule; ``limit`` the accumulated hindrance
    that blocks a line, or None when the game has no such limit.
    """

    terrain: Callable[[GameMap, Ends], Terrain]
    rule: SightRule
    limit: Callable[[], int | None] = lambda: None


# A place far off any map: the other end of the made-up lines a hex is asked about.
_FAR, _FARTHER = Hex(1 << 20, 0), Hex(1 << 21, 0)

# The kinds of step groups a line is made of (see _plan).
_INNER, _TARGET, _PAIR, _TWO, _TWO_TO_TARGET = range(5)


# One group: its kind, the offset of its (first) hex from the firer, and from there to the second.
Group = tuple[int, int, int, int, int]


def _groups(dq: int, dr: int, per_range_max: bool, target_counts: bool) -> Iterator[Group]:
    """The step groups of the line to ``(dq, dr)`` after the firer's hex, nearest first.

    Lazy, so that a sweep whose lines are all blocked stops walking.
    """
    steps = iter_steps(dq, dr)
    next(steps)  # the firer's hex
    pending: tuple[int, int, int] | None = None  # a single hex not laid yet: (q, r, range)
    for step in steps:
        q, r = step[0]
        at_range = max(abs(q), abs(r), abs(q + r))
        is_target = q == dq and r == dr
        if pending is not None:
            pq, pr, before = pending
            pending = None
            if per_range_max and before == at_range and len(step) == 1:
                # A line clipping a hex: two hexes at one range, only the larger counts.
                if not is_target:
                    yield (_TWO, pq, pr, q - pq, r - pr)
                    continue
                if target_counts:
                    yield (_TWO_TO_TARGET, pq, pr, q - pq, r - pr)
                    return
            yield (_INNER, pq, pr, 0, 0)
        if len(step) == 2:
            (q2, r2) = step[1]
            yield (_PAIR, q, r, q2 - q, r2 - r)
        elif is_target:
            if target_counts:
                yield (_TARGET, q, r, 0, 0)
        else:
            pending = (q, r, at_range)


@functools.lru_cache(maxsize=1 << 16)
def _plan(dq: int, dr: int, per_range_max: bool, target_counts: bool) -> tuple[Group, ...]:
    """All of :func:`_groups`, kept for lines judged one at a time."""
    return tuple(_groups(dq, dr, per_range_max, target_counts))


class _Box:
    """The map's hexes numbered column by column in a box one hex larger all round.

    A line between two hexes of the map can pass through half hexes just off it (along its
    zigzag edge), never farther: rounding a point of the line to a hex moves each coordinate by
    at most one. Moving every hex by one displacement is then adding one constant to its cell.
    """

    def __init__(self, hexes: list[Hex]) -> None:
        self.q0 = min(h.q for h in hexes) - 1
        self.r0 = min(h.r for h in hexes) - 1
        self.height = max(h.r for h in hexes) + 2 - self.r0
        self.width = max(h.q for h in hexes) + 2 - self.q0
        self.cells = self.width * self.height

    def cell(self, hex: Hex) -> int:
        return (hex.q - self.q0) * self.height + (hex.r - self.r0)

    def hexes(self) -> Iterator[Hex]:
        for column in range(self.width):
            for row in range(self.height):
                yield Hex(self.q0 + column, self.r0 + row)

    def offset(self, q: int, r: int) -> int:
        return q * self.height + r


class _Compiled:
    """A map read once through a game's terrain: one number per hex and role (see module)."""

    def __init__(self, game_map: GameMap, sweep: SweepRule) -> None:
        self.map_hexes = list(game_map)
        self.box = box = _Box(self.map_hexes)
        levels = Counter(game_map.elevation(h) for h in self.map_hexes)
        self.level = levels.most_common(1)[0][0]
        rule = self.rule = sweep.rule
        self.per_range_max = rule.same_range is SameRange.MAX
        terrain = sweep.terrain(game_map, Ends(self.level, self.level))
        cells = list(box.hexes())
        inner = [terrain.hex_sight(h, SightLine(_FAR, _FARTHER)) for h in cells]
        firer = [terrain.hex_sight(h, SightLine(h, _FAR)) for h in cells]
        target = [terrain.hex_sight(h, SightLine(_FAR, h)) for h in cells]
        # Hexes a line must be judged by the judge itself through: another level, or beside a
        # hexside with a feature.
        special = [game_map.elevation(h) != self.level for h in cells]
        for side in game_map.hexsides:
            for h in side.hexes:
                if 0 <= h.q - box.q0 < box.width and 0 <= h.r - box.r0 < box.height:
                    special[box.cell(h)] = True
        self.special = special
        self.has_special = any(special)
        limit = sweep.limit()
        if limit is None:
            # No limit: blocking must still read as more than any clear line can add up to.
            most = max((s.hindrance for s in (*inner, *firer, *target)), default=0)
            limit = 1 + most * (2 * (box.width + box.height) + 2)
        self.cap = limit
        self.inner = [self.encode(s) for s in inner]
        self.firer = [self.encode(s) for s in firer] if rule.firer_hex else [0] * len(cells)
        self.target = [self.encode(s) for s in target]
        self.inner_sights = inner
        self.on_map = [False] * len(cells)
        for h in self.map_hexes:
            self.on_map[box.cell(h)] = True
        self._pairs: dict[tuple[int, Offset], list[int]] = {}

    def encode(self, sight: Sight) -> int:
        return self.cap if sight.blocks else min(sight.hindrance, self.cap)

    def values(self, kind: int, toward: Offset) -> list[int]:
        """The number of each cell's group of ``kind`` (the group's first hex in that cell)."""
        if kind == _INNER:
            return self.inner
        if kind == _TARGET:
            return self.target
        key = (kind, toward)
        made = self._pairs.get(key)
        if made is None:
            step = self.box.offset(*toward)
            cells = self.box.cells
            made = []
            for c in range(cells):
                d = c + step
                if not 0 <= d < cells:
                    made.append(0)  # off the box: no line of the map has this group here
                elif kind == _PAIR:
                    made.append(
                        self.encode(self.rule.pair(self.inner_sights[c], self.inner_sights[d]))
                    )
                elif kind == _TWO:
                    made.append(max(self.inner[c], self.inner[d]))
                else:
                    made.append(max(self.inner[c], self.target[d]))
            self._pairs[key] = made
        return made

    def plan(self, dq: int, dr: int) -> tuple[Group, ...]:
        return _plan(dq, dr, self.per_range_max, self.rule.target_hex)


class Visibility:
    """Lines of sight on one map by one game's rule (see the module docstring)."""

    def __init__(self, game_map: GameMap, judge: LosJudge) -> None:
        self.game_map = game_map
        self.judge = judge
        self._compiled = None if judge.sweep is None else _Compiled(game_map, judge.sweep)

    def judged(self, firer: Hex, target: Hex) -> Seen:
        """The judge's own verdict on one line, reduced to ``None`` or the hindrance."""
        verdict = self.judge.los(self.game_map, firer, target)
        return verdict.total if verdict.clear else None

    def seen(self, firer: Hex, target: Hex) -> Seen:
        """``None`` when the line from ``firer`` to ``target`` is blocked, else its hindrance."""
        compiled = self._compiled
        if compiled is None:
            return self.judged(firer, target)
        box = compiled.box
        if firer not in self.game_map or target not in self.game_map or firer == target:
            return self.judged(firer, target)
        here = box.cell(firer)
        special = compiled.special
        if special[here] or special[box.cell(target)]:
            return self.judged(firer, target)
        cap = compiled.cap
        total = compiled.firer[here]
        for kind, q, r, tq, tr in compiled.plan(target.q - firer.q, target.r - firer.r):
            cell = here + box.offset(q, r)
            if special[cell] or (kind >= _PAIR and special[cell + box.offset(tq, tr)]):
                return self.judged(firer, target)
            total += compiled.values(kind, (tq, tr))[cell]
            if total >= cap:
                return None  # blocked before any hex that would need the judge
        return total if total < cap else None

    def visible_from(self, firer: Hex) -> dict[Hex, int]:
        """Every other hex of the map ``firer`` can see, with the hindrance of that line."""
        seen: dict[Hex, int] = {}
        for target in self.game_map:
            if target != firer:
                value = self.seen(firer, target)
                if value is not None:
                    seen[target] = value
        return seen

    def all_pairs(self) -> AllPairs:
        """Every ordered pair of hexes of the map, judged at once."""
        if self._compiled is None:
            pairs = AllPairs(self.game_map)
            for firer in self.game_map:
                for target in self.game_map:
                    if firer != target:
                        pairs.add(firer, target, self.judged(firer, target))
            return pairs
        return _Sweep(self, self._compiled).run()


@dataclass
class AllPairs:
    """The answer for every ordered pair: counts, and each pair's :data:`Seen` on request."""

    game_map: GameMap
    pairs: int = 0
    clear: int = 0
    hindrance: int = 0  # summed over the clear pairs
    _lines: dict[tuple[Hex, Hex], Seen] = field(default_factory=dict, repr=False)
    _packed: dict[Offset, tuple[int, int, int]] = field(default_factory=dict, repr=False)
    _read: Callable[[Offset, int, int, int, int], Seen] | None = field(default=None, repr=False)
    _cell: Callable[[Hex], int] | None = field(default=None, repr=False)

    def add(self, firer: Hex, target: Hex, seen: Seen) -> None:
        self._lines[firer, target] = seen
        self.pairs += 1
        if seen is not None:
            self.clear += 1
            self.hindrance += seen

    def __getitem__(self, pair: tuple[Hex, Hex]) -> Seen:
        """The answer for one ordered pair (firer, target) of the map's hexes."""
        firer, target = pair
        if pair in self._lines:
            return self._lines[pair]
        if self._read is None or self._cell is None:
            raise KeyError(pair)
        d = (target.q - firer.q, target.r - firer.r)
        low, sums, clear = self._packed[d]
        return self._read(d, self._cell(firer) - low, low, sums, clear)


class _Sweep:
    """Every displacement's steps laid over every firer at once (see the module docstring)."""

    def __init__(self, visibility: Visibility, compiled: _Compiled) -> None:
        self.visibility = visibility
        self.c = compiled
        # The narrowest lanes that hold the limit twice over below their top bit.
        bits = self.BITS = next(b for b in (8, 16, 32, 64) if compiled.cap * 2 < 1 << (b - 1))
        top = bits - 1
        # Groups laid between two normalisations: every lane stays below the top bit.
        self.every = min(8, ((1 << top) - 1 - compiled.cap) // compiled.cap)
        cells = compiled.box.cells
        self.lane_top = _pack([1 << top] * cells, bits)
        self.lane_add = _pack([(1 << top) - compiled.cap] * cells, bits)
        self.lane_cap = _pack([compiled.cap] * cells, bits)
        plain = [m and not s for m, s in zip(compiled.on_map, compiled.special, strict=True)]
        self.on_map = _bits(compiled.on_map)
        self.plain = _bits(plain)
        self.special = _bits(compiled.special)
        height = compiled.box.height
        column = sum(1 << row for row in range(height))
        repeat = sum(1 << (c * height) for c in range(compiled.box.width))
        self.rows = {
            # Firers whose row moved by ``dr`` stays in the column (else it wraps to the next).
            dr: ((column >> dr) if dr >= 0 else (column & (column << -dr))) * repeat
            for dr in range(-height, height + 1)
        }
        self.firer = _pack(compiled.firer, bits)
        self.arrays: dict[tuple[int, Offset], int] = {}

    def array(self, kind: int, toward: Offset) -> int:
        key = (kind, toward)
        packed = self.arrays.get(key)
        if packed is None:
            packed = self.arrays[key] = _pack(self.c.values(kind, toward), self.BITS)
        return packed

    def run(self) -> AllPairs:
        c = self.c
        box = c.box
        result = AllPairs(self.visibility.game_map)
        span_q = box.width - 2
        span_r = box.height - 2
        for dq in range(-span_q, span_q + 1):
            for dr in range(-span_r, span_r + 1):
                if dq or dr:
                    self.displacement(dq, dr, result)
        result._read = self.read
        result._cell = box.cell
        return result

    def displacement(self, dq: int, dr: int, result: AllPairs) -> None:
        c, bits = self.c, self.BITS
        shift = c.box.offset(dq, dr)
        moved = self.on_map >> shift if shift >= 0 else self.on_map << -shift
        ends = self.on_map & moved & self.rows[dr]
        if not ends:
            return
        plain_moved = self.plain >> shift if shift >= 0 else self.plain << -shift
        fast = ends & self.plain & plain_moved
        for cell in _ones(ends & ~fast):
            self.judge_one(cell, dq, dr, result)
        if not fast:
            return
        low = (fast & -fast).bit_length() - 1
        firers = fast >> low
        width = firers.bit_length()
        sums = self.firer >> (bits * low)
        special = 0
        height = c.box.height
        has_special = c.has_special
        every = count = self.every
        firer_top = _widen(firers, width, bits) & self.lane_top
        inner = self.array(_INNER, (0, 0))
        arrays = self.arrays
        for kind, q, r, tq, tr in _groups(dq, dr, c.per_range_max, c.rule.target_hex):
            at = low + q * height + r
            if kind == _INNER:
                sums += inner >> (bits * at)
            else:
                packed = arrays.get((kind, (tq, tr)))
                if packed is None:
                    packed = self.array(kind, (tq, tr))
                sums += packed >> (bits * at)
            if has_special:
                special |= self.special >> at
                if kind >= _PAIR:
                    special |= self.special >> (at + tq * height + tr)
            count -= 1
            if not count:
                count = every
                sums, over = self.normalise(sums, low)
                if over & firer_top == firer_top:
                    break  # every line is blocked: the rest changes nothing
        sums, over = self.normalise(sums, low)
        sums &= (1 << (bits * width)) - 1
        clear_top = firer_top & ~over
        if special:
            # Lines that met a hex the judge must see (before or after a block): the judge's.
            for lane in _ones(special & firers):
                clear_top &= ~(1 << (bits * lane + bits - 1))
                self.judge_one(low + lane, dq, dr, result)
            firers &= ~special
        result.pairs += firers.bit_count()
        result.clear += clear_top.bit_count()
        result.hindrance += _lane_total(sums & _widen_top(clear_top, bits), bits)
        result._packed[dq, dr] = (low, sums, clear_top)

    def normalise(self, sums: int, low: int) -> tuple[int, int]:
        """Lanes at or over the limit set to the limit; also which lanes those are (top bits)."""
        bits = self.BITS
        over = (sums + (self.lane_add >> (bits * low))) & (self.lane_top >> (bits * low))
        full = (over - (over >> (bits - 1))) | over
        return (sums & ~full) | ((self.lane_cap >> (bits * low)) & full), over

    def judge_one(self, cell: int, dq: int, dr: int, result: AllPairs) -> None:
        box = self.c.box
        firer = Hex(box.q0 + cell // box.height, box.r0 + cell % box.height)
        target = Hex(firer.q + dq, firer.r + dr)
        result.add(firer, target, self.visibility.judged(firer, target))

    def read(self, d: Offset, lane: int, low: int, sums: int, clear: int) -> Seen:
        bits = self.BITS
        if lane < 0 or not clear >> (bits * lane + bits - 1) & 1:
            return None
        return sums >> (bits * lane) & ((1 << bits) - 1)


def _pack(values: list[int], bits: int) -> int:
    width = bits // 8
    return int.from_bytes(b"".join(v.to_bytes(width, "little") for v in values), "little")


def _bits(flags: list[bool]) -> int:
    return int("".join("1" if f else "0" for f in reversed(flags)) or "0", 2)


def _ones(value: int) -> Iterator[int]:
    while value:
        low = value & -value
        yield low.bit_length() - 1
        value ^= low


@functools.cache
def _widening(bits: int) -> list[bytes]:
    """For each byte of flags, its eight lanes of ``bits`` ones or zeros."""
    lane = bits // 8
    return [
        b"".join((b"\xff" if byte >> bit & 1 else b"\x00") * lane for bit in range(8))
        for byte in range(256)
    ]


def _widen(flags: int, width: int, bits: int) -> int:
    """Each flag bit widened to a whole lane of ones."""
    raw = flags.to_bytes((width + 7) // 8, "little")
    return int.from_bytes(b"".join(map(_widening(bits).__getitem__, raw)), "little")


def _widen_top(tops: int, bits: int) -> int:
    """Lanes whose top bit is set, widened to whole lanes of ones."""
    return (tops - (tops >> (bits - 1))) | tops


def _lane_total(lanes: int, bits: int) -> int:
    data = lanes.to_bytes((lanes.bit_length() + bits - 1) // bits * (bits // 8), "little")
    width = bits // 8
    if width == 1:
        return sum(data)
    return sum(int.from_bytes(data[i : i + width], "little") for i in range(0, len(data), width))
