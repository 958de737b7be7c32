"""Every line out of every hex at once: the fan of shared line beginnings, in numpy.

The lines from one hex to all the others share their beginnings: the line to a far hex starts
with the same steps as the lines to nearer hexes in the same direction. Those beginnings form a
tree (the *fan*), the same for every firer, since the steps of a line depend only on the
displacement between its ends (:mod:`ordnance.core.hexgrid.los`). A node of the fan is one
beginning: its last step (a hex, or a pair of hexes along a hexside), its range, its parent.

:func:`fan_sweep` grows the fan one step at a time for every displacement still in play, and at
each step carries every (firer, node) whose line is still open to the node's children, all in a
few numpy operations per step:

- the geometry is the exact integer walk of :func:`ordnance.core.hexgrid.los.step_offsets`,
  vectorised over displacements (the same face comparisons by cross-multiplication, the same
  choice at a vertex, the same hex-pair-hex steps along a corner direction);
- the running hindrance is the game's: the per-range largest or the sum of every step, against
  the game's limit; a line whose running value reaches the limit is blocked, and so is every
  line beginning with it, so it is dropped with its whole subtree;
- a (firer, node) is also dropped when no hex its subtree leads to lies on the map, and a
  displacement stops being walked when no firer still has its line open.

The numbers per hex and role come from the caller (``visibility.py`` reads them from the game's
own terrain); the hexes the caller marks special (another level, beside a hexside feature) are
never judged here: a line that meets one before it is blocked is listed for the judge, as is
every line from or to one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ordnance.core.hexgrid.coords import Corner, Hex
from ordnance.core.hexgrid.los import step_offsets

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
SmallArray = npt.NDArray[np.int32]  # running values: below twice the limit

# Value of a special hex in the tables: never a hindrance, always a reason to ask the judge.
SPECIAL = -1


@dataclass
class FanTables:
    """The map, laid on a grid of cells (column-major, ``height`` cells a column) wide enough
    that a firer's cell plus any node's offset stays on it.

    ``tables[0]`` holds each cell's number as a hex a line passes through, ``tables[1]`` as the
    target's hex, ``tables[2 + k]`` as the first hex of the pair along the hexside toward
    corner ``k`` (:data:`CORNER_PAIRS`). A number is the hindrance, or ``cap`` when the cell
    blocks (or no line of the map can meet it), or :data:`SPECIAL`. ``where`` is each cell's
    index among the map's hexes, -1 off the map, -2 for a special hex of the map.
    """

    q0: int  # the q of cell column 0
    r0: int  # the r of cell row 0
    height: int
    tables: IntArray  # shape (2 + 6, cells)
    firer: IntArray  # each cell's number as the firer's hex (0 when the game does not ask)
    where: IntArray
    cap: int
    per_range_max: bool
    target_counts: bool
    has_special: bool
    # The map's extent: of q, and of 2r + q (twice the row, counted downward).
    x_span: int
    y_span: int

    def cell(self, hex: Hex) -> int:
        return (hex.q - self.q0) * self.height + (hex.r - self.r0)

    def hex(self, cell: int) -> Hex:
        return Hex(self.q0 + cell // self.height, self.r0 + cell % self.height)


# For corner k: the offsets of the pair's two hexes from the centre before it.
CORNER_PAIRS = tuple(
    (step_offsets(c.vector.q, c.vector.r)[1][0], step_offsets(c.vector.q, c.vector.r)[1][1])
    for c in Corner
)
_CORNER_UNITS = tuple((c.vector.q, c.vector.r) for c in Corner)


def _hex_range(q: IntArray, r: IntArray) -> IntArray:
    found: IntArray = np.maximum(np.maximum(np.abs(q), np.abs(r)), np.abs(q + r))
    return found


@dataclass
class _Walk:
    """The displacements still walked, each at its current step."""

    dq: IntArray
    dr: IntArray
    q: IntArray  # the current step's (first) hex
    r: IntArray
    corner: IntArray  # the corner index of a line along a corner direction, else -1
    node: IntArray  # the fan node of the current step (index within its step's nodes)

    def take(self, keep: IntArray | BoolArray) -> _Walk:
        return _Walk(
            self.dq[keep],
            self.dr[keep],
            self.q[keep],
            self.r[keep],
            self.corner[keep],
            self.node[keep],
        )


def _start(t: FanTables) -> _Walk:
    span_x, span_y = t.x_span, t.y_span
    dq_grid, y_grid = np.meshgrid(
        np.arange(-span_x, span_x + 1, dtype=np.int64),
        np.arange(-span_y - span_x, span_y + span_x + 1, dtype=np.int64),
        indexing="ij",
    )
    dq, y = dq_grid.ravel(), y_grid.ravel()
    two_dr = y - dq
    keep = (two_dr % 2 == 0) & (np.abs(y) <= span_y) & ((dq != 0) | (two_dr != 0))
    return walk_from(dq[keep], two_dr[keep] // 2)


def walk_from(dq: IntArray, dr: IntArray) -> _Walk:
    """The walks of these displacements, at the firer's hex."""
    ds = -dq - dr
    along = (dq == dr) | (dr == ds) | (ds == dq)
    corner = np.full(dq.shape, -1, dtype=np.int64)
    count = _hex_range(dq, dr) // 2
    for k, (uq, ur) in enumerate(_CORNER_UNITS):
        corner[along & (dq == uq * count) & (dr == ur * count)] = k
    zero = np.zeros(dq.shape, dtype=np.int64)
    return _Walk(dq, dr, zero, zero.copy(), corner, zero.copy())


def _advance(w: _Walk, k: int) -> tuple[IntArray, IntArray, IntArray]:
    """Step ``k`` (1 = the first after the firer's hex) of every line: (q, r, table index)."""
    q, r = w.q.copy(), w.r.copy()
    tid = np.zeros(q.shape, dtype=np.int64)
    general = w.corner < 0
    g = np.flatnonzero(general)
    if g.size:
        dq, dr = w.dq[g], w.dr[g]
        ds = -dq - dr
        du, dv, dw = dq - dr, dr - ds, ds - dq
        su, sv, sw = np.sign(du), np.sign(dv), np.sign(dw)
        au, av, aw = np.abs(du), np.abs(dv), np.abs(dw)
        cq, cr = q[g], r[g]
        cs = -cq - cr
        nu = 1 + su * (cq - cr)
        nv = 1 + sv * (cr - cs)
        nw = 1 + sw * (cs - cq)
        uv = nu * av - nv * au
        uw = nu * aw - nw * au
        vw = nv * aw - nw * av
        # The three face moves: u by (su, -su), v by (0, sv), w by (-sw, 0).
        can_u = (uv <= 0) & (uw <= 0)
        can_v = (uv >= 0) & (vw <= 0)
        can_w = (uw >= 0) & (vw >= 0)
        uq_, ur_ = su, -su
        vq_, vr_ = np.zeros_like(sv), sv
        wq_, wr_ = -sw, np.zeros_like(sw)
        # First and second candidate, in the order u, v, w (a single one: both the same).
        fq = np.where(can_u, uq_, np.where(can_v, vq_, wq_))
        fr = np.where(can_u, ur_, np.where(can_v, vr_, wr_))
        sq = np.where(can_w, wq_, np.where(can_v, vq_, uq_))
        sr = np.where(can_w, wr_, np.where(can_v, vr_, ur_))
        tie = (can_u.astype(np.int8) + can_v + can_w) > 1
        # At a vertex: the hex on the target's side of the third hexside (see _exit_tie).
        spq, spr = fq + sq, fr + sr
        toward = (spq * dr - spr * dq) > 0
        side = (sq * fr - sr * fq) > 0
        first = ~tie | (toward == side)
        q[g] = cq + np.where(first, fq, sq)
        r[g] = cr + np.where(first, fr, sr)
    c = np.flatnonzero(~general)
    if c.size:
        corner = w.corner[c]
        units = np.array(_CORNER_UNITS, dtype=np.int64)[corner]
        centre = k // 2
        if k % 2:
            pairs = np.array([p[0] for p in CORNER_PAIRS], dtype=np.int64)[corner]
            q[c] = units[:, 0] * centre + pairs[:, 0]
            r[c] = units[:, 1] * centre + pairs[:, 1]
            tid[c] = 2 + corner
        else:
            q[c] = units[:, 0] * centre
            r[c] = units[:, 1] * centre
    return q, r, tid


@dataclass
class FanResult:
    """What the fan decided: its clear lines' count and hindrance; and the lines it leaves to
    the judge, as (firer's row, target's cell) arrays."""

    clear: int = 0
    hindrance: int = 0
    judge: list[tuple[IntArray, IntArray]] = field(default_factory=list)


@dataclass
class _Nodes:
    """The fan's nodes at one step: where each is, what it adds, whose children they are."""

    node_of: IntArray  # each walked displacement's node
    end: BoolArray  # a line ends at the node (its hex is the target)
    offset: IntArray  # the node's (first) hex, as a cell offset from the firer's
    base: IntArray  # where its numbers start in the flat tables
    range: IntArray
    same: BoolArray | None  # at the same range as its parent (games counting the largest)
    child_start: IntArray  # per node of the step before: its first child (and one past)


@dataclass
class _Lines:
    """The (firer, node) whose line is still open: the firer's cell, the node, the running
    value (the completed ranges' and the current range's), whether it met a special hex."""

    cell: IntArray
    node: IntArray
    done: SmallArray
    current: SmallArray
    special: BoolArray | None  # None on a map without special hexes

    def take(self, keep: IntArray) -> _Lines:
        return _Lines(
            self.cell[keep],
            self.node[keep],
            self.done[keep],
            self.current[keep],
            None if self.special is None else self.special[keep],
        )


def fan_sweep(
    t: FanTables, origins: IntArray, rows: IntArray, grid: npt.NDArray[np.signedinteger[Any]]
) -> FanResult:
    """Every line from each cell of ``origins`` (non-special map hexes) to every map hex.

    A clear line's hindrance plus one goes to ``grid[row, target]`` (``rows`` has each
    origin's row); a blocked line leaves its 0.
    """
    return _Fan(t, origins, rows, grid).run()


class _Fan:
    """One sweep (see the module docstring)."""

    def __init__(
        self,
        t: FanTables,
        origins: IntArray,
        rows: IntArray,
        grid: npt.NDArray[np.signedinteger[Any]],
    ) -> None:
        self.t = t
        self.grid = grid
        self.flat = t.tables.ravel()
        self.cells = t.tables.shape[1]
        self.row_of = np.zeros(self.cells, dtype=np.int64)
        self.row_of[origins] = rows
        self.result = FanResult()
        self.walk = _start(t)
        first = t.firer[origins].astype(np.int32)
        none = np.zeros(origins.shape, dtype=np.int32)
        special = np.zeros(origins.shape, dtype=bool) if t.has_special else None
        start = _Lines(origins, np.zeros_like(origins), none, first, special)
        self.lines = start.take(np.flatnonzero(first < t.cap))
        self.ending = np.zeros(0, dtype=bool)
        self.ranges = np.zeros(1, dtype=np.int64)  # the nodes' ranges, at the step before
        # Keys of the nodes of one step: parent node, then table, then offset.
        self.span = 4 * (self.cells + 1)

    def run(self) -> FanResult:
        k = 0
        while self.lines.cell.size and self.walk.dq.size:
            k += 1
            nodes = self._grow(k)
            if not self._spread(nodes):
                break
        return self.result

    def _grow(self, k: int) -> _Nodes:
        """Step ``k`` of every walked displacement, and the fan's nodes there."""
        t, walk = self.t, self.walk
        q, r, tid = _advance(walk, k)
        is_end = (tid == 0) & (q == walk.dq) & (r == walk.dr)
        key = walk.node * (9 * self.span) + (tid * self.span + (q * t.height + r + 2 * self.cells))
        order = np.argsort(key, kind="stable")
        key = key[order]
        walk = self.walk = walk.take(order)
        walk.q, walk.r, tid, is_end = q[order], r[order], tid[order], is_end[order]
        new = np.empty(key.shape, dtype=bool)
        new[:1] = True
        np.not_equal(key[1:], key[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        parent = walk.node[starts]
        n_q, n_r = walk.q[starts], walk.r[starts]
        offset = n_q * t.height + n_r
        n_range = _hex_range(n_q, n_r)
        nodes = _Nodes(
            node_of=np.cumsum(new) - 1,
            end=np.logical_or.reduceat(is_end, starts),
            offset=offset,
            base=tid[starts] * self.cells + offset,
            range=n_range,
            same=(n_range == self.ranges[parent]) if t.per_range_max else None,
            # Contiguous, as keys sort by parent first.
            child_start=np.searchsorted(parent, np.arange(self.ranges.size + 1)),
        )
        self.ranges = n_range
        self.ending = is_end
        return nodes

    def _spread(self, nodes: _Nodes) -> bool:
        """Every open line on to each child of its node; False when there is none."""
        lines, t = self.lines, self.t
        first = nodes.child_start[lines.node]
        count = nodes.child_start[lines.node + 1] - first
        total = int(count.sum())
        if total == 0:
            return False
        child = np.repeat(first - np.cumsum(count) + count, count) + np.arange(total)
        cell = np.repeat(lines.cell, count)
        done, current = np.repeat(lines.done, count), np.repeat(lines.current, count)
        special = None if lines.special is None else np.repeat(lines.special, count)
        same = None if nodes.same is None else nodes.same[child]
        ends = np.flatnonzero(nodes.end[child])
        if ends.size:
            ending = _Lines(cell, child, done, current, special).take(ends)
            self._targets(nodes, ending, None if same is None else same[ends])
        value = self.flat[nodes.base[child] + cell].astype(np.int32)
        if special is not None:
            hit = value == SPECIAL
            value[hit] = 0
            special |= hit
        if same is not None:
            done = np.where(same, done, done + current)
            current = np.where(same, np.maximum(current, value), value)
        else:
            done, current = done + current, value
        keep = np.flatnonzero(done + current < t.cap)
        self.lines = _Lines(cell, child, done, current, special).take(keep)
        # Walk on only the displacements some open line still leads to.
        open_nodes = np.zeros(nodes.range.size, dtype=bool)
        open_nodes[self.lines.node] = True
        walk = self.walk
        go_on = open_nodes[nodes.node_of] & ~self.ending
        self.walk = walk.take(go_on)
        self.walk.node = nodes.node_of[go_on]
        return True

    def _targets(self, nodes: _Nodes, ending: _Lines, same: BoolArray | None) -> None:
        """The lines ending at these nodes: into the grid, or listed for the judge."""
        t, result = self.t, self.result
        target = ending.cell + nodes.offset[ending.node]
        where = t.where[target]
        on_map = np.flatnonzero(where >= 0)
        ending, target, where = ending.take(on_map), target[on_map], where[on_map]
        at_target = self.flat[self.cells + target] if t.target_counts else 0
        before, last = ending.done, ending.current
        if same is not None:
            same = same[on_map]
        value = before + (
            last + at_target
            if same is None
            else np.where(same, np.maximum(last, at_target), last + at_target)
        )
        rows = self.row_of[ending.cell]
        fine = value < t.cap
        if ending.special is not None:
            by_judge = ending.special
            if by_judge.any():
                result.judge.append((rows[by_judge], target[by_judge]))
            fine &= ~by_judge
        good = value[fine]
        self.grid[rows[fine], where[fine]] = good + 1
        result.clear += good.size
        result.hindrance += int(good.sum())
