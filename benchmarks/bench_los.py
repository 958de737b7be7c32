"""LOS benchmark: blocked or clear, and hindrances summed, for every ordered pair of hexes.

The map is generated: eight ASL geomorphic boards, by default stacked one above another (33 x 80
= 2,640 hexes, 6,966,960 ordered pairs; ``--layout 1,2/3,4/5,6/7,8`` lays them 2 x 4, 2,600
hexes, since boards side by side share their edge column). Terrain is drawn per hex from a
seeded random generator with this mix (the rest is open ground):

    woods     8%  blocks
    building  6%  blocks
    orchard   6%  hindrance +1
    grain    10%  hindrance +1
    smoke     2%  hindrance +3

Every line is judged by the library's default rule (``ordnance.core.hexgrid.DEFAULT_RULE``):
the firer's and target's own hexes do not count; a pair of hexes along a hexside blocks only if
both block and hinders by the larger hindrance; every other hex met counts.

What is timed, in one process:

- baseline: the straightforward way, one pair at a time. Red Blob style line drawing: the N + 1
  points at t = i / N interpolated in floats (ends nudged by an epsilon), each rounded to the
  nearest hex; then a dict look-up per hex, stopping at the first block. Approximate: it picks
  one hex of a hexside pair and misses hexes the line only clips (agreement is reported).
- fused baseline: the same, but it stops drawing at the first block (a stronger baseline).
- library: ``ordnance.core.hexgrid.trace`` per pair (exact, rich result), on a cold cache.
- sweep: the exact answer for every pair. The hexes a line meets depend only on its
  displacement, so per displacement the library's template (``iter_steps``) is laid over every
  firer at once. The map is packed into Python integers, cell by cell column after column: one
  8-bit lane per cell for hindrance, one bit per cell for blocking. Moving every firer one
  template step is then a single shift, and summing the shifted integers adds all lanes at once
  (CPython's big-integer arithmetic as the vector unit; no numpy). Pairs use pre-packed arrays
  (max of the two hindrances, both block) per hexside orientation. A displacement stops early
  once every firer's line is blocked, and is redone with 16-bit lanes if an 8-bit lane could
  overflow. ``--reciprocal`` sweeps only one of D and -D, as LOS is reciprocal (tested in
  tests/core/test_hex_los.py), and counts each result for both orders.

The sweep is checked against the library on a sample: they must agree on every pair.

Usage::

    .venv/bin/python benchmarks/bench_los.py                 # every ordered pair
    .venv/bin/python benchmarks/bench_los.py --sample 2000   # quick: displacements of a sample
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ordnance.core.hexgrid import DEFAULT_RULE, GeomorphicLabels, Hex, Sight, TerrainTable, trace
from ordnance.core.hexgrid.los import _template, _walk, iter_steps

TERRAIN_MIX = (
    # name, share of hexes, blocks, hindrance
    ("woods", 0.08, True, 0),
    ("building", 0.06, True, 0),
    ("orchard", 0.06, False, 1),
    ("grain", 0.10, False, 1),
    ("smoke", 0.02, False, 3),
)

Cell = tuple[bool, int]  # blocks, hindrance
Offset = tuple[int, int]
Pair = tuple[Hex, Hex]


def generate_terrain(hexes: Sequence[Hex], seed: int) -> dict[Hex, Cell]:
    """Seeded terrain per the mix above; open hexes are left out."""
    rng = random.Random(seed)
    terrain: dict[Hex, Cell] = {}
    for hex in hexes:
        roll = rng.random()
        for _name, share, blocks, hindrance in TERRAIN_MIX:
            if roll < share:
                terrain[hex] = (blocks, hindrance)
                break
            roll -= share
    return terrain


# --- baselines: the straightforward per-pair way -------------------------------------------

Cube = tuple[float, float, float]


def _lerp(a: Cube, b: Cube, t: float) -> Cube:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def _cube_round(x: float, y: float, z: float) -> Offset:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return rx, ry


def red_blob_line(a: Offset, b: Offset) -> list[Offset]:
    """The N + 1 hexes of the line from ``a`` to ``b``, by float interpolation and rounding."""
    n = max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[0] + a[1] - b[0] - b[1]))
    # The usual epsilon nudge, so that points on a hex edge round the same way every time.
    start = (a[0] + 1e-6, a[1] + 2e-6, -a[0] - a[1] - 3e-6)
    end = (b[0] + 1e-6, b[1] + 2e-6, -b[0] - b[1] - 3e-6)
    return [_cube_round(*_lerp(start, end, i / n)) for i in range(n + 1)]


def baseline_los(a: Offset, b: Offset, terrain: dict[Offset, Cell]) -> int | None:
    """Draw the line, then walk it: the hindrance total, or None when blocked."""
    total = 0
    for hex in red_blob_line(a, b)[1:-1]:
        cell = terrain.get(hex)
        if cell is not None:
            if cell[0]:
                return None
            total += cell[1]
    return total


def fused_baseline_los(a: Offset, b: Offset, terrain: dict[Offset, Cell]) -> int | None:
    """The same, drawing the line only as far as the first block."""
    n = max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[0] + a[1] - b[0] - b[1]))
    ax, ay, az = a[0] + 1e-6, a[1] + 2e-6, -a[0] - a[1] - 3e-6
    bx, by, bz = b[0] + 1e-6, b[1] + 2e-6, -b[0] - b[1] - 3e-6
    total = 0
    for i in range(1, n):
        t = i / n
        cell = terrain.get(_cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t))
        if cell is not None:
            if cell[0]:
                return None
            total += cell[1]
    return total


# --- sweep: every firer at once per displacement -------------------------------------------


@dataclass
class SweepResult:
    pairs: int = 0
    clear: int = 0
    hindrance: int = 0  # summed over clear pairs
    steps: int = 0  # template steps laid over the map
    redone: int = 0  # displacements redone with 16-bit lanes
    kept: dict[Offset, tuple[int, int, int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Lanes:
    """One lane width: packed hindrance for single hexes and for pairs by orientation."""

    bits: int
    single: int
    pairs: dict[Offset, int]


class PackedMap:
    """The map as Python integers, one lane per cell of a padded box.

    Cells are numbered column by column, ``(q - q0) * height + (r - r0)``, so moving every hex
    by one displacement is a shift by one constant. The box has a spare cell all round: a line
    between two map hexes can run along the map's zigzag edge, through half hexes off the map.
    """

    PAIR_STEPS = ((0, 1), (1, -1), (1, 0))  # from the first hex of a sorted pair to the second

    def __init__(self, hexes: Sequence[Hex], terrain: dict[Hex, Cell]) -> None:
        self.q0 = min(h.q for h in hexes) - 1
        self.r0 = min(h.r for h in hexes) - 1
        self.height = max(h.r for h in hexes) + 2 - self.r0
        width = max(h.q for h in hexes) + 2 - self.q0
        self.cells = width * self.height
        hindrance = [0] * self.cells
        blocks = [False] * self.cells
        self.on_map = 0
        for hex in hexes:
            cell = self.index(hex.q, hex.r)
            self.on_map |= 1 << cell
            blocks[cell], hindrance[cell] = terrain.get(hex, (False, 0))
        self.max_hindrance = max(*hindrance, 1)
        self.blocks = _bits(blocks)
        self.pair_blocks = {}
        pair_hindrance = {}
        for dq, dr in self.PAIR_STEPS:
            step = dq * self.height + dr
            self.pair_blocks[(dq, dr)] = self.blocks & (self.blocks >> step)
            pair_hindrance[(dq, dr)] = list(map(max, hindrance, hindrance[step:] + [0] * step))
        self.narrow, self.wide = (
            Lanes(
                bits, _pack(hindrance, bits), {k: _pack(v, bits) for k, v in pair_hindrance.items()}
            )
            for bits in (8, 16)
        )
        repeat = sum(1 << (column * self.height) for column in range(width))
        self._rows = {
            dr: sum(1 << row for row in range(self.height) if 0 <= row + dr < self.height) * repeat
            for dr in range(-self.height, self.height + 1)
        }

    def index(self, q: int, r: int) -> int:
        return (q - self.q0) * self.height + (r - self.r0)

    def sweep(self, dq: int, dr: int, result: SweepResult, keep: bool, wide: bool = False) -> None:
        """Judge displacement ``(dq, dr)`` for every firer at once."""
        shift = dq * self.height + dr
        moved = self.on_map >> shift if shift >= 0 else self.on_map << -shift
        # Cells whose row moved by dr leaves the box would wrap into the next column: masked.
        valid = self.on_map & moved & self._rows[dr]
        if not valid:
            return
        low = (valid & -valid).bit_length() - 1
        width = valid.bit_length() - low
        firers = valid >> low
        outcome = None if wide else self._lay(dq, dr, low, firers, self.narrow)
        if outcome is None:
            result.redone += not wide
            outcome = self._lay(dq, dr, low, firers, self.wide)
            assert outcome is not None
        lanes, sums, blocked, steps = outcome
        sums &= (1 << (lanes.bits * width)) - 1
        clear = firers & ~blocked
        result.steps += steps
        result.pairs += firers.bit_count()
        result.clear += clear.bit_count()
        result.hindrance += _lane_total(sums & _lane_mask(clear, width, lanes.bits), lanes.bits)
        if keep:
            result.kept[(dq, dr)] = (low, sums, clear, lanes.bits)

    def _lay(
        self, dq: int, dr: int, low: int, firers: int, lanes: Lanes
    ) -> tuple[Lanes, int, int, int] | None:
        """Sum the template's steps over every firer; None if a lane could overflow."""
        budget = ((1 << lanes.bits) - 1) // self.max_hindrance
        height, bits = self.height, lanes.bits
        sums = blocked = count = 0
        steps = iter_steps(dq, dr)
        next(steps)  # the firer's own hex does not count
        previous = next(steps)
        for step in steps:  # each step is laid when the next one shows it is not the target
            if len(previous) == 1:
                (q, r) = previous[0]
                packed, blocking = lanes.single, self.blocks
            else:
                (q, r), (q2, r2) = previous
                packed, blocking = lanes.pairs[(q2 - q, r2 - r)], self.pair_blocks[(q2 - q, r2 - r)]
            at = low + q * height + r
            sums += packed >> (bits * at)
            blocked |= blocking >> at
            count += 1
            previous = step
            if count & 7 == 0 and not firers & ~blocked:
                break  # every firer is blocked: the rest of the line changes nothing
            if count == budget and firers & ~blocked:
                return None
        return lanes, sums, blocked, count


def _pack(values: Iterable[int], bits: int) -> int:
    return int.from_bytes(b"".join(v.to_bytes(bits // 8, "little") for v in values), "little")


def _bits(flags: Sequence[bool]) -> int:
    return int("".join("1" if f else "0" for f in reversed(flags)) or "0", 2)


_WIDEN = {
    bits: [
        b"".join((b"\xff" if byte >> bit & 1 else b"\x00") * (bits // 8) for bit in range(8))
        for byte in range(256)
    ]
    for bits in (8, 16)
}


def _lane_mask(flags: int, width: int, bits: int) -> int:
    """Widen each flag bit to a whole lane of ones (table look-up per byte)."""
    raw = flags.to_bytes((width + 7) // 8, "little")
    return int.from_bytes(b"".join(map(_WIDEN[bits].__getitem__, raw)), "little")


def _lane_total(lanes: int, bits: int) -> int:
    data = lanes.to_bytes((lanes.bit_length() + bits - 1) // bits * (bits // 8), "little")
    return sum(memoryview(data).cast("B" if bits == 8 else "H"))


def run_sweep(
    packed: PackedMap,
    displacements: Iterable[Offset],
    wanted: set[Offset],
    reciprocal: bool,
    wide: bool,
) -> SweepResult:
    result = SweepResult()
    for dq, dr in displacements:
        if (dq, dr) == (0, 0):
            continue
        if reciprocal:
            if (dq, dr) < (0, 0):
                continue  # -D is the same lines reversed: counted twice below
            before = (result.pairs, result.clear, result.hindrance)
        keep = (dq, dr) in wanted or (reciprocal and (-dq, -dr) in wanted)
        packed.sweep(dq, dr, result, keep, wide)
        if reciprocal:
            result.pairs += result.pairs - before[0]
            result.clear += result.clear - before[1]
            result.hindrance += result.hindrance - before[2]
    return result


def sweep_answer(packed: PackedMap, result: SweepResult, a: Hex, b: Hex) -> int | None:
    """The sweep's answer for one pair: the hindrance total, or None when blocked."""
    if (b.q - a.q, b.r - a.r) not in result.kept:
        a, b = b, a  # swept as -D only (reciprocal run)
    low, sums, clear, bits = result.kept[(b.q - a.q, b.r - a.r)]
    lane = packed.index(a.q, a.r) - low
    if not clear >> lane & 1:
        return None
    return sums >> (bits * lane) & ((1 << bits) - 1)


# --- driver --------------------------------------------------------------------------------


@dataclass
class Setup:
    layout: str
    hexes: list[Hex]
    terrain: dict[Hex, Cell]
    sample: list[Pair]
    checked: list[Pair]  # the pairs the library judges, to check the sweep against


def rate(count: int, start: float) -> float:
    return count / (time.perf_counter() - start)


def measure_baselines(setup: Setup) -> tuple[float, float, list[int | None]]:
    by_offset = {(h.q, h.r): cell for h, cell in setup.terrain.items()}
    ends = [((a.q, a.r), (b.q, b.r)) for a, b in setup.sample]
    start = time.perf_counter()
    base = [baseline_los(a, b, by_offset) for a, b in ends]
    base_rate = rate(len(ends), start)
    start = time.perf_counter()
    fused = [fused_baseline_los(a, b, by_offset) for a, b in ends]
    fused_rate = rate(len(ends), start)
    assert fused == base, "the two baselines must draw the same lines"
    return base_rate, fused_rate, base


def measure_library(setup: Setup) -> tuple[float, list[int | None]]:
    table = TerrainTable(
        {h: Sight(hind, blocks, "terrain") for h, (blocks, hind) in setup.terrain.items()}
    )
    _template.cache_clear()
    start = time.perf_counter()
    sightings = [trace(a, b, table, DEFAULT_RULE) for a, b in setup.checked]
    library_rate = rate(len(setup.checked), start)
    return library_rate, [s.total if s.clear else None for s in sightings]


def measure_sweep(
    setup: Setup, quick: bool, reciprocal: bool, wide: bool
) -> tuple[float, float, PackedMap, SweepResult]:
    _walk.cache_clear()  # the sweep starts cold: packing and template walks are timed
    start = time.perf_counter()
    packed = PackedMap(setup.hexes, setup.terrain)
    wanted = {(b.q - a.q, b.r - a.r) for a, b in setup.checked}
    if quick:
        todo: Iterable[Offset] = sorted({(b.q - a.q, b.r - a.r) for a, b in setup.sample})
    else:
        span_q = max(h.q for h in setup.hexes) - min(h.q for h in setup.hexes)
        span_r = max(h.r for h in setup.hexes) - min(h.r for h in setup.hexes)
        todo = ((dq, dr) for dq in range(-span_q, span_q + 1) for dr in range(-span_r, span_r + 1))
    result = run_sweep(packed, todo, wanted, reciprocal, wide)
    elapsed = time.perf_counter() - start
    return result.pairs / elapsed, elapsed, packed, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="LOS with hindrances for every ordered pair")
    parser.add_argument("--layout", default="1/2/3/4/5/6/7/8", help="boards, e.g. 1,2/3,4/5,6/7,8")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--sample", type=int, help="quick run: sweep only the displacements of N random pairs"
    )
    parser.add_argument("--baseline-pairs", type=int, default=20_000)
    parser.add_argument("--reciprocal", action="store_true", help="sweep D or -D, not both")
    parser.add_argument("--wide", action="store_true", help="16-bit lanes throughout")
    args = parser.parse_args(argv)

    hexes = list(GeomorphicLabels.of(args.layout).hexes())
    rng = random.Random(args.seed + 1)
    sample = [
        (a, b) for a, b in (rng.sample(hexes, 2) for _ in range(args.sample or args.baseline_pairs))
    ]
    setup = Setup(args.layout, hexes, generate_terrain(hexes, args.seed), sample, sample[:5000])
    print(
        f"map {args.layout}: {len(hexes):,} hexes, {len(hexes) * (len(hexes) - 1):,} ordered pairs"
    )

    base_rate, fused_rate, base = measure_baselines(setup)
    library_rate, truth = measure_library(setup)
    sweep_rate, elapsed, packed, result = measure_sweep(
        setup, bool(args.sample), args.reciprocal, args.wide
    )
    answers = [sweep_answer(packed, result, a, b) for a, b in setup.checked]
    mismatches = sum(got != want for got, want in zip(answers, truth, strict=True))
    agree = sum(got == want for got, want in zip(base, truth, strict=False)) / len(truth)

    what = "the sample's displacements" if args.sample else "every ordered pair"
    print(
        f"baseline, Red Blob line then terrain: {base_rate:12,.0f} pairs/s ({len(sample):,} pairs)"
    )
    print(f"fused baseline, stops at first block: {fused_rate:12,.0f} pairs/s")
    print(f"library trace(), exact, cold cache:   {library_rate:12,.0f} pairs/s ({len(truth):,})")
    print(
        f"sweep, exact, {what}: {sweep_rate:,.0f} pairs/s ({result.pairs:,} pairs in "
        f"{elapsed:.2f} s; {result.steps:,} template steps laid; "
        f"{result.redone} displacements redone with 16-bit lanes)"
    )
    print(f"ratio sweep / baseline: {sweep_rate / base_rate:.1f}x")
    print(f"ratio sweep / fused baseline: {sweep_rate / fused_rate:.1f}x")
    print(
        f"clear pairs {result.clear:,} ({result.clear / result.pairs:.1%}); "
        f"mean hindrance of a clear line {result.hindrance / max(result.clear, 1):.3f}"
    )
    print(f"sweep vs library: {mismatches} mismatches on {len(truth):,} pairs")
    print(f"baseline agrees with the exact answer on {agree:.2%} of those pairs")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
