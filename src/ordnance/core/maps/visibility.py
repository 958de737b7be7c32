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
pair rule) add up to the limit. Only the hexes a line of the map can meet are asked (the
map's *ring*, see :class:`_Box`). The hexes a line meets depend only on its displacement
(:mod:`ordnance.core.hexgrid.los`), so the lines out of every hex share their beginnings:
:meth:`Visibility.all_pairs` and :meth:`Visibility.visible_from` walk that fan of beginnings
once, for every firer at once, with numpy (:mod:`ordnance.core.maps.fan`);
:meth:`Visibility.seen` walks one line.

That reading holds where the ground is level and no hexside has a feature. Any other line (an
end on a different level or beside a wall or hedge, or a line meeting such a hex before it is
blocked) is handed to the judge itself, one line at a time, so the answer is the judge's in
every case. A line blocked before it meets such a hex is blocked for the judge too: the judge
walks from the firer and stops at the first block, and the hexes before it read the same.
Games without a :class:`SweepRule` are judged line by line throughout.

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
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ordnance.core.hexgrid import Hex, SameRange, Sight, SightLine
from ordnance.core.hexgrid.los import iter_steps
from ordnance.core.maps.fan import CORNER_PAIRS, NEIGHBOURS, SPECIAL, FanTables, fan_sweep
from ordnance.core.maps.levels import Ends
from ordnance.core.maps.model import GameMap
from ordnance.core.maps.sweep_rule import SweepRule

if TYPE_CHECKING:
    from ordnance.core.maps.verdict import LosJudge

__all__ = ["AllPairs", "Seen", "SweepRule", "Visibility"]

# What one line comes to: None when blocked, else the hindrance total.
Seen = int | None
Offset = tuple[int, int]
IntArray = npt.NDArray[np.int64]


# A place far off any map: the other end of the made-up lines a hex is asked about.
_FAR, _FARTHER = Hex(1 << 20, 0), Hex(1 << 21, 0)
_INNER_LINE = SightLine(_FAR, _FARTHER)

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

    A line between two hexes of the map meets only hexes of its *ring*: hexes whose ``q``
    lies within the map's and whose ``2r + q`` (twice the row) lies within one of the map's.
    The centres of the map's hexes lie in a rectangle of the plane, so does any line between
    two of them, and a hex met by the line holds a point of it: its centre is at most two
    thirds of a column across and half a hex up or down from that point. The ring lies inside
    the box; moving every hex by one displacement is adding one constant to its cell.
    """

    def __init__(self, hexes: list[Hex]) -> None:
        self.q0 = min(h.q for h in hexes) - 1
        self.r0 = min(h.r for h in hexes) - 1
        self.height = max(h.r for h in hexes) + 2 - self.r0
        self.width = max(h.q for h in hexes) + 2 - self.q0
        self.cells = self.width * self.height
        ys = [2 * h.r + h.q for h in hexes]
        self.x_low, self.x_high = self.q0 + 1, self.q0 + self.width - 2
        self.y_low, self.y_high = min(ys), max(ys)
        q = np.repeat(np.arange(self.width), self.height) + self.q0
        r = np.tile(np.arange(self.height), self.width) + self.r0
        y = 2 * r + q
        self.ring = (
            (q >= self.x_low) & (q <= self.x_high) & (y >= self.y_low - 1) & (y <= self.y_high + 1)
        )

    def cell(self, hex: Hex) -> int:
        return (hex.q - self.q0) * self.height + (hex.r - self.r0)

    def hex(self, cell: int) -> Hex:
        return Hex(self.q0 + cell // self.height, self.r0 + cell % self.height)

    def offset(self, q: int, r: int) -> int:
        return q * self.height + r

    def shifted(self, values: IntArray, toward: Offset, fill: int) -> IntArray:
        """Each cell's value at the cell ``toward`` from it (``fill`` off the box)."""
        grid = values.reshape(self.width, self.height)
        out = np.full_like(grid, fill)
        dq, dr = toward
        w, h = self.width, self.height
        out[max(0, -dq) : min(w, w - dq), max(0, -dr) : min(h, h - dr)] = grid[
            max(0, dq) : min(w, w + dq), max(0, dr) : min(h, h + dr)
        ]
        return out.ravel()


class _Compiled:
    """A map read once through a game's terrain: one number per hex and role (see module).

    Only the ring's hexes are asked as hexes passed through, only the map's as firer and
    target; every other cell reads as blocking (no line of the map meets it).
    """

    def __init__(self, game_map: GameMap, sweep: SweepRule) -> None:
        self.map_hexes = list(game_map)
        self.box = box = _Box(self.map_hexes)
        levels = Counter(game_map.elevation(h) for h in self.map_hexes)
        self.level = levels.most_common(1)[0][0]
        rule = self.rule = sweep.rule
        self.per_range_max = rule.same_range is SameRange.MAX
        terrain = sweep.terrain(game_map, Ends(self.level, self.level))
        ring = [int(c) for c in np.flatnonzero(box.ring)]
        on_map = [box.cell(h) for h in self.map_hexes]
        self.map_cells = np.array(on_map, dtype=np.int64)
        ids: dict[Sight, int] = {}
        inner_id = np.full(box.cells, -1, dtype=np.int64)
        for c in ring:
            inner_id[c] = ids.setdefault(terrain.hex_sight(box.hex(c), _INNER_LINE), len(ids))
        sights = list(ids)
        firer = [terrain.hex_sight(h, SightLine(h, _FAR)) for h in self.map_hexes]
        target = [terrain.hex_sight(h, SightLine(_FAR, h)) for h in self.map_hexes]
        # Hexes a line must be judged by the judge itself through: another level, or beside a
        # hexside with a feature.
        special = np.zeros(box.cells, dtype=bool)
        for c in ring:
            special[c] = game_map.elevation(box.hex(c)) != self.level
        for side in game_map.hexsides:
            for h in side.hexes:
                if 0 <= h.q - box.q0 < box.width and 0 <= h.r - box.r0 < box.height:
                    special[box.cell(h)] = True
        self.special_cells = special
        self.special = special.tolist()
        self.has_special = bool(special.any())
        limit = sweep.limit()
        if limit is None:
            # No limit: blocking must still read as more than any clear line can add up to.
            most = max((s.hindrance for s in (*sights, *firer, *target)), default=0)
            limit = 1 + most * (2 * (box.width + box.height) + 2)
        self.cap = cap = limit
        coded = np.array([self.encode(s) for s in sights] + [cap], dtype=np.int64)
        self.inner_sights = sights
        self.inner_id = inner_id  # -1 (off the ring) reads the last code: blocking
        self.inner = coded[inner_id]
        self.firer = np.zeros(box.cells, dtype=np.int64)
        if rule.firer_hex:
            self.firer[self.map_cells] = [self.encode(s) for s in firer]
        self.target = np.full(box.cells, cap, dtype=np.int64)
        self.target[self.map_cells] = [self.encode(s) for s in target]
        self.index = {h: number for number, h in enumerate(self.map_hexes)}
        self._pairs: dict[tuple[int, Offset], IntArray] = {}
        self._lists: dict[tuple[int, Offset], list[int]] = {}

    def encode(self, sight: Sight) -> int:
        return self.cap if sight.blocks else min(sight.hindrance, self.cap)

    def pair_values(self, kind: int, toward: Offset) -> IntArray:
        """The number of each cell's group of ``kind`` (the group's first hex in that cell)."""
        if kind == _INNER:
            return self.inner
        if kind == _TARGET:
            return self.target
        key = (kind, toward)
        made = self._pairs.get(key)
        if made is None:
            cap, box = self.cap, self.box
            if kind == _PAIR:
                n = len(self.inner_sights)
                table = np.full((n + 1, n + 1), cap, dtype=np.int64)
                for i, a in enumerate(self.inner_sights):
                    for j, b in enumerate(self.inner_sights):
                        table[i, j] = self.encode(self.rule.pair(a, b))
                other = box.shifted(self.inner_id, toward, -1)
                made = table[self.inner_id, other]
            elif kind == _TWO:
                made = np.maximum(self.inner, box.shifted(self.inner, toward, cap))
            else:
                made = np.maximum(self.inner, box.shifted(self.target, toward, cap))
            self._pairs[key] = made
        return made

    def values(self, kind: int, toward: Offset) -> list[int]:
        """:meth:`pair_values` as a list, for lines judged one at a time."""
        key = (kind, toward)
        made = self._lists.get(key)
        if made is None:
            made = self._lists[key] = self.pair_values(kind, toward).tolist()
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
        total = int(compiled.firer[here])
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
        if firer not in self.game_map:
            return {
                target: value
                for target in self.game_map
                if target != firer and (value := self.judged(firer, target)) is not None
            }
        pairs = self._sweep([firer])
        return {
            target: value
            for target in self.game_map
            if target != firer and (value := pairs[firer, target]) is not None
        }

    def all_pairs(self) -> AllPairs:
        """Every ordered pair of hexes of the map, judged at once."""
        return self._sweep(list(self.game_map))

    def _sweep(self, firers: list[Hex]) -> AllPairs:
        """Every line from ``firers`` (hexes of the map) to every other hex of the map: by the
        fan (:mod:`ordnance.core.maps.fan`), and by the judge for lines from, to or through a
        special hex (or all of them, for a game without a :class:`SweepRule`)."""
        hexes = list(self.game_map)
        index = {h: number for number, h in enumerate(hexes)}
        compiled = self._compiled
        wide = compiled is not None and compiled.cap >= 1 << 15
        pairs = AllPairs(self.game_map, firers, index, wide=wide)
        if compiled is None:
            for row, firer in enumerate(firers):
                for target in hexes:
                    if target != firer:
                        pairs.add(row, firer, target, self.judged(firer, target))
            return pairs
        special, box = compiled.special, compiled.box
        plain = [row for row, h in enumerate(firers) if not special[box.cell(h)]]
        tables = _fan_tables(compiled)
        origins = np.array([tables.cell(firers[row]) for row in plain], dtype=np.int64)
        result = fan_sweep(tables, origins, np.array(plain, dtype=np.int64), pairs.grid)
        pairs.clear += result.clear
        pairs.hindrance += result.hindrance
        for rows, target_cells in result.judge:
            for row, cell in zip(rows.tolist(), target_cells.tolist(), strict=True):
                firer, target = firers[row], tables.hex(cell)
                pairs.add(row, firer, target, self.judged(firer, target))
        # Lines from or to a special hex: the judge's, every one.
        special_hexes = [h for h in hexes if special[box.cell(h)]]
        for row, firer in enumerate(firers):
            targets = hexes if special[box.cell(firer)] else special_hexes
            for target in targets:
                if target != firer:
                    pairs.add(row, firer, target, self.judged(firer, target))
        return pairs


def _fan_tables(c: _Compiled) -> FanTables:
    """The compiled numbers laid on the fan's grid: the box with two more boxes each way
    (every cell a line from the box can reach, by any displacement within the box)."""
    box = c.box
    width, height = box.width, box.height
    grid_h, grid_w = 3 * height, 3 * width
    cap = c.cap

    def padded(values: IntArray, fill: int = cap) -> IntArray:
        out = np.full((grid_w, grid_h), fill, dtype=np.int64)
        out[width : 2 * width, height : 2 * height] = values.reshape(width, height)
        return out.ravel()

    special = c.special_cells

    def marked(values: IntArray, toward: Offset | None) -> IntArray:
        """``values`` with SPECIAL where the cell (or its cell ``toward``) is special."""
        out = values.copy()
        hit = special.copy()
        if toward is not None:
            hit |= box.shifted(special.astype(np.int64), toward, 0).astype(bool)
        out[hit] = SPECIAL
        return out

    tables = [padded(marked(c.inner, None)), padded(c.target)]
    for (aq, ar), (bq, br) in CORNER_PAIRS:
        toward = (bq - aq, br - ar)
        tables.append(padded(marked(c.pair_values(_PAIR, toward), toward)))
    for toward in NEIGHBOURS:
        tables.append(padded(marked(c.pair_values(_TWO, toward), toward)))
    for toward in NEIGHBOURS:
        tables.append(padded(marked(c.pair_values(_TWO_TO_TARGET, toward), None)))
    tables.append(np.zeros_like(tables[0]))
    where = np.full(box.cells, -1, dtype=np.int64)
    where[c.map_cells] = np.arange(len(c.map_hexes))
    where[c.map_cells[special[c.map_cells]]] = -2
    return FanTables(
        q0=box.q0 - width,
        r0=box.r0 - height,
        height=grid_h,
        # The narrowest numbers that hold the limit: the tables are read at random.
        tables=np.stack(tables).astype(np.min_scalar_type(-cap)),
        firer=padded(c.firer, 0),
        where=padded(where, -1),
        cap=cap,
        per_range_max=c.per_range_max,
        target_counts=c.rule.target_hex,
        has_special=c.has_special,
        x_span=box.x_high - box.x_low,
        y_span=box.y_high - box.y_low,
    )


class AllPairs:
    """The answer for every line from some hexes of a map (its firers) to every other hex.

    ``pairs``, ``clear`` and ``hindrance`` (summed over the clear lines) count them; ``[firer,
    target]`` is one line's :data:`Seen`.
    """

    def __init__(
        self, game_map: GameMap, firers: list[Hex], index: dict[Hex, int], *, wide: bool = False
    ) -> None:
        self.game_map = game_map
        self._rows = {h: row for row, h in enumerate(firers)}
        self._index = index
        # Each line's hindrance plus one; 0 when blocked (32 bits for a game without a limit
        # on a map large enough that a line's hindrance might not fit in 16).
        dtype = np.int32 if wide else np.int16
        self.grid: npt.NDArray[np.signedinteger[Any]] = np.zeros(
            (len(firers), len(index)), dtype=dtype
        )
        self.pairs = len(firers) * (len(index) - 1)
        self.clear = 0
        self.hindrance = 0

    def add(self, row: int, firer: Hex, target: Hex, seen: Seen) -> None:
        """One line's answer from elsewhere (the judge)."""
        if seen is not None:
            self.grid[row, self._index[target]] = seen + 1
            self.clear += 1
            self.hindrance += seen

    def __getitem__(self, pair: tuple[Hex, Hex]) -> Seen:
        """The answer for one ordered pair (firer, target) of the map's hexes."""
        firer, target = pair
        if firer not in self._rows or target not in self._index or firer == target:
            raise KeyError(pair)
        value = int(self.grid[self._rows[firer], self._index[target]])
        return None if value == 0 else value - 1

    def __repr__(self) -> str:
        return f"AllPairs(pairs={self.pairs}, clear={self.clear}, hindrance={self.hindrance})"
