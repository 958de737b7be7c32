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

import numpy as np
import numpy.typing as npt

from ordnance.core.hexgrid import Hex, SameRange, Sight, SightLine, SightRule, Terrain
from ordnance.core.hexgrid.los import iter_steps
from ordnance.core.maps.fan import _CORNER_PAIRS, SPECIAL, FanTables, fan_sweep
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
        self.index = {h: number for number, h in enumerate(self.map_hexes)}
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
        compiled = self._compiled
        if compiled is None or firer not in self.game_map or compiled.special[
            compiled.box.cell(firer)
        ]:
            seen: dict[Hex, int] = {}
            for target in self.game_map:
                if target != firer:
                    value = self.judged(firer, target)
                    if value is not None:
                        seen[target] = value
            return seen
        pairs = self._fan([firer])
        return {
            target: value
            for target in self.game_map
            if target != firer and (value := pairs[firer, target]) is not None
        }

    def all_pairs(self) -> AllPairs:
        """Every ordered pair of hexes of the map, judged at once."""
        if self._compiled is None:
            pairs = AllPairs(self.game_map)
            for firer in self.game_map:
                for target in self.game_map:
                    if firer != target:
                        pairs.add(firer, target, self.judged(firer, target))
            pairs.finish()
            return pairs
        return self._fan(list(self.game_map))

    def _fan(self, firers: list[Hex]) -> AllPairs:
        """The fan sweep (:mod:`ordnance.core.maps.fan`) from ``firers``; the judge where it
        must (lines from, to or through a special hex)."""
        compiled = self._compiled
        assert compiled is not None
        tables = _fan_tables(compiled)
        hexes = compiled.map_hexes
        special = compiled.special
        box = compiled.box
        plain = [h for h in firers if not special[box.cell(h)]]
        origins = np.array([tables.cell(h.q, h.r) for h in plain], dtype=np.int64)
        result = fan_sweep(tables, origins)
        pairs = AllPairs(
            self.game_map, _grid=result.grid, _index=compiled.index, _rows=frozenset(plain)
        )
        for firer_cells, target_cells in result.judge:
            for fc, tc in zip(firer_cells.tolist(), target_cells.tolist(), strict=True):
                firer, target = tables.hex(fc), tables.hex(tc)
                pairs.add(firer, target, self.judged(firer, target))
        # Lines from or to a special hex: the judge's, every one.
        special_hexes = [h for h in hexes if special[box.cell(h)]]
        for firer in firers:
            targets = hexes if special[box.cell(firer)] else special_hexes
            for target in targets:
                if target != firer:
                    pairs.add(firer, target, self.judged(firer, target))
        pairs.finish()
        return pairs


def _fan_tables(c: _Compiled) -> FanTables:
    """The compiled numbers laid on the fan's padded grid (three boxes each way)."""
    box = c.box
    width, height = box.width, box.height
    grid_h, grid_w = 3 * height, 3 * width
    cap = c.cap

    def padded(values: list[int]) -> npt.NDArray[np.int64]:
        out = np.full((grid_w, grid_h), cap, dtype=np.int64)
        out[width : 2 * width, height : 2 * height] = np.array(values, dtype=np.int64).reshape(
            width, height
        )
        return out.ravel()

    special = np.array(c.special, dtype=bool)
    special_grid = np.zeros((grid_w, grid_h), dtype=bool)
    special_grid[width : 2 * width, height : 2 * height] = special.reshape(width, height)
    special_flat = special_grid.ravel()
    inner = padded(c.inner)
    inner[special_flat] = SPECIAL
    tables = [inner, padded(c.target)]
    for (aq, ar), (bq, br) in _CORNER_PAIRS:
        vec = (bq - aq, br - ar)
        pair = padded(c.values(_PAIR, vec))
        step = vec[0] * grid_h + vec[1]
        other = np.roll(special_flat, -step)
        pair[special_flat | other] = SPECIAL
        tables.append(pair)
    where = np.full((grid_w, grid_h), -1, dtype=np.int64)
    index = np.full(box.cells, -1, dtype=np.int64)
    for number, h in enumerate(c.map_hexes):
        index[box.cell(h)] = -2 if c.special[box.cell(h)] else number
    where[width : 2 * width, height : 2 * height] = index.reshape(width, height)
    xs = [h.q for h in c.map_hexes]
    ys = [2 * h.r + h.q for h in c.map_hexes]
    return FanTables(
        q0=box.q0 - width,
        r0=box.r0 - height,
        height=grid_h,
        tables=np.stack(tables),
        firer=padded(c.firer),
        where=where.ravel(),
        cap=cap,
        per_range_max=c.per_range_max,
        target_counts=c.rule.target_hex,
        x_low=min(xs),
        x_high=max(xs),
        y_low=min(ys),
        y_high=max(ys),
    )


@dataclass
class AllPairs:
    """The answer for every ordered pair: counts, and each pair's :data:`Seen` on request."""

    game_map: GameMap
    pairs: int = 0
    clear: int = 0
    hindrance: int = 0  # summed over the clear pairs
    _lines: dict[tuple[Hex, Hex], Seen] = field(default_factory=dict, repr=False)
    _grid: npt.NDArray[np.int16] | None = field(default=None, repr=False)
    _index: dict[Hex, int] = field(default_factory=dict, repr=False)
    _rows: frozenset[Hex] = field(default=frozenset(), repr=False)

    def add(self, firer: Hex, target: Hex, seen: Seen) -> None:
        """One line's answer: in the grid when its firer's row is swept, else kept apart."""
        if self._grid is not None and firer in self._rows:
            self._grid[self._index[firer], self._index[target]] = -1 if seen is None else seen
        else:
            self._lines[firer, target] = seen

    def finish(self) -> None:
        """Count the answers: the swept rows (but each firer's own hex) and the lines apart."""
        self.pairs = self.clear = self.hindrance = 0
        for seen in self._lines.values():
            self.pairs += 1
            if seen is not None:
                self.clear += 1
                self.hindrance += seen
        if self._grid is None or not self._rows:
            return
        rows = np.array(sorted(self._index[h] for h in self._rows), dtype=np.int64)
        block = self._grid[rows].astype(np.int64)
        block[np.arange(rows.size), rows] = -1
        good = block >= 0
        self.pairs += rows.size * (block.shape[1] - 1)
        self.clear += int(good.sum())
        self.hindrance += int(block[good].sum())

    def __getitem__(self, pair: tuple[Hex, Hex]) -> Seen:
        """The answer for one ordered pair (firer, target) of the map's hexes."""
        if pair in self._lines:
            return self._lines[pair]
        firer, target = pair
        if self._grid is None or firer not in self._index or target not in self._index:
            raise KeyError(pair)
        value = int(self._grid[self._index[firer], self._index[target]])
        return None if value < 0 else value
