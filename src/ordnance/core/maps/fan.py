"""Every line out of every hex at once: the fan of shared line beginnings, in numpy.

The lines from one hex to all the others share their beginnings: the line to a far hex starts
with the same steps as the lines to nearer hexes in the same direction. Those beginnings form a
tree (the *fan*), the same for every firer, since the steps of a line depend only on the
displacement between its ends (:mod:`ordnance.core.hexgrid.los`).

A line is read as *groups* of steps, each adding one number to the line's running value:

- a hex passed through (its number as an inner hex), or a pair of hexes along a hexside (the
  game's pair rule);
- for a game counting only the largest hindrance per range, two hexes in a row at one range
  (a line clipping a hex) make one group, the larger of the two;
- the last group holds the target's hex (its number as a target, or nothing for a game that
  does not count it), with the hex before it when both are at one range.

A node of the fan is a beginning: a parent node and one more group. The last group of a line
makes a node of its own, a leaf, that only records the line's answer.

:func:`fan_sweep` grows the fan one group at a time for every displacement still in play, and
carries every (firer, node) whose line is still open to the node's children, in a few numpy
operations per group:

- the geometry is the exact integer walk of :func:`ordnance.core.hexgrid.los.step_offsets`,
  vectorised over displacements (the same face comparisons by cross-multiplication, the same
  choice at a vertex, the same hex-pair-hex steps along a corner direction);
- a line whose running value reaches the game's limit is blocked, and so is every line
  beginning with it: it is dropped with its whole subtree; a displacement stops being walked
  when no firer still has its line open.

The numbers come from the caller (``visibility.py`` reads them from the game's own terrain);
a hex the caller marks special (another level, beside a hexside feature) is never judged here:
a line that meets one before it is blocked is listed for the judge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ordnance.core.hexgrid.coords import Corner, Direction, Hex
from ordnance.core.hexgrid.los import step_offsets

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
SmallArray = npt.NDArray[np.int32]  # running values: below twice the limit

# Value of a special hex in the tables: never a hindrance, always a reason to ask the judge.
SPECIAL = -1

# For corner k: the offsets of the pair's two hexes from the centre before it.
CORNER_PAIRS = tuple(
    (step_offsets(c.vector.q, c.vector.r)[1][0], step_offsets(c.vector.q, c.vector.r)[1][1])
    for c in Corner
)
_CORNER_UNITS = tuple((c.vector.q, c.vector.r) for c in Corner)
# The six moves to a neighbour, for the second hex of two at one range.
NEIGHBOURS = tuple((d.vector.q, d.vector.r) for d in Direction)
# Which neighbour a move is, by (q + 1) * 3 + (r + 1).
_NEIGHBOUR_INDEX = np.full(9, -1, dtype=np.int64)
_NEIGHBOUR_INDEX[[(q + 1) * 3 + r + 1 for q, r in NEIGHBOURS]] = np.arange(6)

# The tables of FanTables, by group: the hex passed, the target, a pair toward corner k, two at
# one range (toward neighbour j), the target after a hex at its range, nothing.
INNER, TARGET, PAIR, TWO, TWO_TO_TARGET, NOTHING = 0, 1, 2, 8, 14, 20
TABLES = 21


@dataclass
class FanTables:
    """The map, laid on a grid of cells (column-major, ``height`` cells a column) wide enough
    that a firer's cell plus any group's offset stays on it.

    ``tables[INNER]`` holds each cell's number as a hex a line passes through,
    ``tables[TARGET]`` as the target's hex, ``tables[PAIR + k]`` as the first hex of the pair
    along the hexside toward corner ``k`` (:data:`CORNER_PAIRS`), ``tables[TWO + j]`` the
    larger of a hex and its neighbour ``j`` (:data:`NEIGHBOURS`) passed at one range,
    ``tables[TWO_TO_TARGET + j]`` the larger of a hex passed and the target beside it at its
    range, ``tables[NOTHING]`` zeros. A number is the hindrance, or ``cap`` when the cell
    blocks (or no line of the map can meet it), or :data:`SPECIAL`. ``where`` is each cell's
    index among the map's hexes, -1 off the map, -2 for a special hex of the map.
    """

    q0: int  # the q of cell column 0
    r0: int  # the r of cell row 0
    height: int
    tables: npt.NDArray[np.signedinteger[Any]]  # shape (TABLES, cells)
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


def _hex_range(q: IntArray, r: IntArray) -> IntArray:
    found: IntArray = np.maximum(np.maximum(np.abs(q), np.abs(r)), np.abs(q + r))
    return found


@dataclass
class _Walk:
    """The displacements still walked, each with its next step not yet grouped (*pending*)."""

    dq: IntArray
    dr: IntArray
    corner: IntArray  # the corner index of a line along a corner direction, else -1
    k: IntArray  # the pending step's index (1: the first after the firer's hex)
    q: IntArray  # the pending step's (first) hex
    r: IntArray
    tid: IntArray  # the pending step's table: INNER for a hex, PAIR + k for a pair
    node: IntArray  # the fan node the groups so far lead to

    def take(self, keep: IntArray | BoolArray) -> _Walk:
        return _Walk(
            self.dq[keep],
            self.dr[keep],
            self.corner[keep],
            self.k[keep],
            self.q[keep],
            self.r[keep],
            self.tid[keep],
            self.node[keep],
        )

    def moved(self, step: tuple[IntArray, IntArray, IntArray]) -> _Walk:
        """The same displacements with the next step pending."""
        q, r, tid = step
        return _Walk(self.dq, self.dr, self.corner, self.k + 1, q, r, tid, self.node)


def walk_from(dq: IntArray, dr: IntArray) -> _Walk:
    """The walks of these displacements, at the firer's hex (step 0 pending)."""
    ds = -dq - dr
    along = (dq == dr) | (dr == ds) | (ds == dq)
    corner = np.full(dq.shape, -1, dtype=np.int64)
    count = _hex_range(dq, dr) // 2
    for k, (uq, ur) in enumerate(_CORNER_UNITS):
        corner[along & (dq == uq * count) & (dr == ur * count)] = k
    zero = np.zeros(dq.shape, dtype=np.int64)
    return _Walk(dq, dr, corner, zero, zero.copy(), zero.copy(), zero.copy(), zero.copy())


def _start(t: FanTables) -> _Walk:
    """Every displacement between two hexes of the map's extent, its first step pending."""
    span_x, span_y = t.x_span, t.y_span
    dq_grid, y_grid = np.meshgrid(
        np.arange(-span_x, span_x + 1, dtype=np.int64),
        np.arange(-span_y - span_x, span_y + span_x + 1, dtype=np.int64),
        indexing="ij",
    )
    dq, y = dq_grid.ravel(), y_grid.ravel()
    two_dr = y - dq
    keep = (two_dr % 2 == 0) & (np.abs(y) <= span_y) & ((dq != 0) | (two_dr != 0))
    walk = walk_from(dq[keep], two_dr[keep] // 2)
    return walk.moved(_advance(walk))


def _advance(w: _Walk) -> tuple[IntArray, IntArray, IntArray]:
    """The step after the pending one of every line: (q, r, table)."""
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
        # Along a corner direction: hex, pair, hex...; the step after step k is step k + 1.
        corner = w.corner[c]
        k = w.k[c] + 1
        units = np.array(_CORNER_UNITS, dtype=np.int64)[corner]
        pairs = np.array([p[0] for p in CORNER_PAIRS], dtype=np.int64)[corner]
        odd = k % 2
        centre = k // 2
        q[c] = units[:, 0] * centre + pairs[:, 0] * odd
        r[c] = units[:, 1] * centre + pairs[:, 1] * odd
        tid[c] = np.where(odd == 1, PAIR + corner, INNER)
    return q, r, tid


@dataclass
class FanResult:
    """What the fan decided: its clear lines' count and hindrance; and the lines it leaves to
    the judge, as (firer's row, target's cell) arrays."""

    clear: int = 0
    hindrance: int = 0
    judge: list[tuple[IntArray, IntArray]] = field(default_factory=list)


@dataclass
class _Groups:
    """The next group of every walked displacement."""

    tid: IntArray  # its table
    offset: IntArray  # its (first) hex, as a cell offset from the firer's
    end: BoolArray  # the line's last group: a leaf
    key: IntArray  # for a leaf, the target's offset instead (a leaf is one line's)


@dataclass
class _Nodes:
    """The fan's nodes one group further: what each adds, whose children they are."""

    base: IntArray  # where its numbers start in the flat tables, plus its offset
    end: BoolArray  # a leaf: the line to ``target`` ends here
    target: IntArray  # a leaf's target, as a cell offset from the firer's
    child_start: IntArray  # per node one group nearer: its first child (and one past)


@dataclass
class _Lines:
    """The (firer, node) whose line is still open: the firer's cell, the node, the running
    value, whether it met a special hex."""

    cell: IntArray
    node: IntArray
    value: SmallArray
    special: BoolArray | None  # None on a map without special hexes

    def take(self, keep: IntArray) -> _Lines:
        return _Lines(
            self.cell[keep],
            self.node[keep],
            self.value[keep],
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
        special = np.zeros(origins.shape, dtype=bool) if t.has_special else None
        start = _Lines(origins, np.zeros_like(origins), first, special)
        self.lines = start.take(np.flatnonzero(first < t.cap))
        self.nodes = 1  # at the root: the firer's hex
        # Keys of the nodes one group further: parent node, then table and leaf, then offset.
        self.span = 4 * (self.cells + 1)

    def run(self) -> FanResult:
        while self.lines.cell.size and self.walk.dq.size:
            groups = self._group()
            nodes, node_of = self._grow(groups)
            self._spread(nodes, node_of)
        return self.result

    def _group(self) -> _Groups:
        """The next group of every walked displacement; the walks move past it."""
        t, w = self.t, self.walk
        height = t.height
        at_target = (w.tid == INNER) & (w.q == w.dq) & (w.r == w.dr)
        tid = w.tid.copy()
        q, r = w.q.copy(), w.r.copy()
        end = at_target.copy()
        key_q, key_r = q.copy(), r.copy()
        if not t.target_counts:
            tid[at_target] = NOTHING
        else:
            tid[at_target] = TARGET
        going = np.flatnonzero(~at_target)
        ahead = w.take(going)
        nq, nr, ntid = _advance(ahead)
        after = ahead.moved((nq, nr, ntid))
        if t.per_range_max:
            # Two hexes in a row at one range: one group, the larger.
            pq, pr = ahead.q, ahead.r
            two = (
                (ahead.tid == INNER) & (ntid == INNER) & (_hex_range(nq, nr) == _hex_range(pq, pr))
            )
            both = np.flatnonzero(two)
            if both.size:
                toward = _NEIGHBOUR_INDEX[(nq[both] - pq[both] + 1) * 3 + nr[both] - pr[both] + 1]
                last = (nq[both] == ahead.dq[both]) & (nr[both] == ahead.dr[both])
                at = going[both]
                # The target after a hex at its range: the last group (the hex alone when the
                # game does not count the target).
                tid[at] = np.where(
                    last, TWO_TO_TARGET + toward if t.target_counts else INNER, TWO + toward
                )
                end[at] = last
                key_q[at] = np.where(last, nq[both], q[at])
                key_r[at] = np.where(last, nr[both], r[at])
                # The walks that go on past the two: one step further still.
                on = both[~last]
                if on.size:
                    two_walk = after.take(on)
                    further = two_walk.moved(_advance(two_walk))
                    for name in ("k", "q", "r", "tid"):
                        getattr(after, name)[on] = getattr(further, name)
        w.k[going], w.q[going], w.r[going], w.tid[going] = after.k, after.q, after.r, after.tid
        offset = q * height + r
        key = np.where(end, key_q * height + key_r, offset)
        return _Groups(tid, offset, end, key)

    def _grow(self, groups: _Groups) -> tuple[_Nodes, IntArray]:
        """The fan's nodes one group further; the walks sorted by node."""
        walk, cells = self.walk, self.cells
        code = (groups.tid * 2 + groups.end) * self.span + groups.key + 2 * cells
        key = walk.node * (2 * TABLES * self.span) + code
        order = np.argsort(key, kind="stable")
        key = key[order]
        self.walk = walk.take(order)
        new = np.empty(key.shape, dtype=bool)
        new[:1] = True
        np.not_equal(key[1:], key[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        first = order[starts]
        parent = walk.node[first]
        nodes = _Nodes(
            base=groups.tid[first] * cells + groups.offset[first],
            end=groups.end[first],
            target=self.walk.dq[starts] * self.t.height + self.walk.dr[starts],
            # Contiguous, as keys sort by parent first.
            child_start=np.searchsorted(parent, np.arange(self.nodes + 1)),
        )
        self.nodes = starts.size
        self.ending = groups.end[order]
        return nodes, np.cumsum(new) - 1

    def _spread(self, nodes: _Nodes, node_of: IntArray) -> None:
        """Every open line on to each child of its node; the lines ending there recorded."""
        lines, t = self.lines, self.t
        first = nodes.child_start[lines.node]
        count = nodes.child_start[lines.node + 1] - first
        total = int(count.sum())
        child = np.repeat(first - np.cumsum(count) + count, count) + np.arange(total)
        cell = np.repeat(lines.cell, count)
        value = self.flat[nodes.base[child] + cell]
        special = None if lines.special is None else np.repeat(lines.special, count)
        if special is not None:
            hit = value == SPECIAL
            value[hit] = 0
            special |= hit
        value = np.repeat(lines.value, count) + value
        leaf = nodes.end[child]
        ends = np.flatnonzero(leaf)
        if ends.size:
            self._targets(nodes, _Lines(cell, child, value, special).take(ends))
        keep = np.flatnonzero(~leaf & (value < t.cap))
        self.lines = _Lines(cell, child, value, special).take(keep)
        # Walk on only the displacements some open line still leads to.
        open_nodes = np.zeros(nodes.end.size, dtype=bool)
        open_nodes[self.lines.node] = True
        walk = self.walk
        go_on = open_nodes[node_of] & ~self.ending
        self.walk = walk.take(go_on)
        self.walk.node = node_of[go_on]

    def _targets(self, nodes: _Nodes, ending: _Lines) -> None:
        """The lines ending at these leaves: into the grid, or listed for the judge."""
        t, result = self.t, self.result
        target = ending.cell + nodes.target[ending.node]
        where = t.where[target]
        on_map = np.flatnonzero(where >= 0)
        ending, target, where = ending.take(on_map), target[on_map], where[on_map]
        rows = self.row_of[ending.cell]
        value = ending.value
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
