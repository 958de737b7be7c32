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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ordnance.core.hexgrid.coords import Corner, Hex
from ordnance.core.hexgrid.los import step_offsets

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

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
    return np.maximum(np.maximum(np.abs(q), np.abs(r)), np.abs(q + r))


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
    dq, y = np.meshgrid(
        np.arange(-span_x, span_x + 1, dtype=np.int64),
        np.arange(-span_y - span_x, span_y + span_x + 1, dtype=np.int64),
        indexing="ij",
    )
    dq, y = dq.ravel(), y.ravel()
    two_dr = y - dq
    keep = (two_dr % 2 == 0) & (np.abs(y) <= span_y) & ((dq != 0) | (two_dr != 0))
    dq, dr = dq[keep], two_dr[keep] // 2
    ds = -dq - dr
    du, dv, dw = dq - dr, dr - ds, ds - dq
    corner = np.full(dq.shape, -1, dtype=np.int64)
    along = (du == 0) | (dv == 0) | (dw == 0)
    length = _hex_range(dq, dr)
    for k, (uq, ur) in enumerate(_CORNER_UNITS):
        count = length // 2
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

    clear: int
    hindrance: int
    judge: list[tuple[IntArray, IntArray]]


def fan_sweep(
    t: FanTables, origins: IntArray, rows: IntArray, grid: npt.NDArray[np.int16]
) -> FanResult:
    """Every line from each cell of ``origins`` (non-special map hexes) to every map hex.

    A clear line's hindrance plus one goes to ``grid[row, target]`` (``rows`` has each
    origin's row); a blocked line leaves its 0.
    """
    clear = hindrance = 0
    judged: list[tuple[IntArray, IntArray]] = []
    where = t.where
    flat = t.tables.ravel()
    cells = t.tables.shape[1]
    target_base = cells
    height = t.height
    cap = t.cap
    per_range_max, has_special = t.per_range_max, t.has_special
    row_of = np.zeros(cells, dtype=np.int64)
    row_of[origins] = rows

    walk = _start(t)
    # Each (firer, node) with its line still open: the firer's cell, the node, the running
    # value as the completed ranges' plus the current range's, and whether it met a special hex.
    fo = origins.astype(np.int64)
    comp = np.zeros(fo.shape, dtype=np.int64)
    cur = t.firer[fo].astype(np.int64)
    alive = np.flatnonzero(cur < cap)
    fo, comp, cur = fo[alive], comp[alive], cur[alive]
    fp = np.zeros(fo.shape, dtype=np.int64)
    spec = np.zeros(fo.shape, dtype=bool)
    prev_range = np.zeros(1, dtype=np.int64)
    k = 0
    span = np.int64(4 * (cells + 1))
    while fo.size and walk.dq.size:
        k += 1
        q, r, tid = _advance(walk, k)
        is_end = (tid == 0) & (q == walk.dq) & (r == walk.dr)
        key = walk.node * (9 * span) + (tid * span + (q * height + r + 2 * cells))
        order = np.argsort(key, kind="stable")
        key = key[order]
        walk = walk.take(order)
        walk.q, walk.r, tid, is_end = q[order], r[order], tid[order], is_end[order]
        new = np.empty(key.shape, dtype=bool)
        new[:1] = True
        np.not_equal(key[1:], key[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        node_of = np.cumsum(new) - 1
        # The nodes of this step: parent, step, range, whether a line ends there.
        parent = walk.node[starts]
        n_q, n_r = walk.q[starts], walk.r[starts]
        n_range = _hex_range(n_q, n_r)
        n_end = np.logical_or.reduceat(is_end, starts)
        n_off = n_q * height + n_r
        n_base = tid[starts] * cells + n_off
        # Children of each node of the previous step: contiguous, as keys sort by parent.
        child_start = np.searchsorted(parent, np.arange(prev_range.size + 1))
        first = child_start[fp]
        count = child_start[fp + 1] - first
        total = int(count.sum())
        if total == 0:
            break
        rep = np.repeat(np.arange(fp.size), count)
        child = np.repeat(first - np.cumsum(count) + count, count) + np.arange(total)
        o = fo[rep]
        c_comp, c_cur = comp[rep], cur[rep]
        same = (n_range == prev_range[parent])[child] if per_range_max else None
        # Targets: the lines ending at these nodes.
        ends = np.flatnonzero(n_end[child])
        if ends.size:
            e_cell = o[ends] + n_off[child[ends]]
            e_where = where[e_cell]
            on_map = e_where >= 0
            ends, e_cell, e_where = ends[on_map], e_cell[on_map], e_where[on_map]
            vt = flat[target_base + e_cell] if t.target_counts else 0
            ec, eu = c_comp[ends], c_cur[ends]
            if same is not None:
                value = np.where(same[ends], ec + np.maximum(eu, vt), ec + eu + vt)
            else:
                value = ec + eu + vt
            e_rows = row_of[o[ends]]
            fine = value < cap
            if has_special:
                by_judge = spec[rep[ends]]
                if by_judge.any():
                    judged.append((e_rows[by_judge], e_cell[by_judge]))
                fine &= ~by_judge
            good = value[fine]
            grid[e_rows[fine], e_where[fine]] = good + 1
            clear += good.size
            hindrance += int(good.sum())
        # The lines going on through these nodes.
        v = flat[n_base[child] + o]
        if has_special:
            hit = v == SPECIAL
            v[hit] = 0
            c_spec = spec[rep] | hit
        if same is not None:
            comp_new = np.where(same, c_comp, c_comp + c_cur)
            cur_new = np.where(same, np.maximum(c_cur, v), v)
        else:
            comp_new, cur_new = c_comp + c_cur, v
        keep = np.flatnonzero(comp_new + cur_new < cap)
        fo, fp = o[keep], child[keep]
        comp, cur = comp_new[keep], cur_new[keep]
        if has_special:
            spec = c_spec[keep]
        prev_range = n_range
        # Walk on only the displacements some open line still leads to.
        open_nodes = np.zeros(starts.size, dtype=bool)
        open_nodes[fp] = True
        go_on = open_nodes[node_of] & ~is_end
        walk = walk.take(go_on)
        walk.node = node_of[go_on]
    return FanResult(clear, hindrance, judged)
