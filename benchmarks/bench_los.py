"""LOS benchmark: every ordered pair of hexes judged by ASL's own rule, against a per-pair walk.

The maps: eight ASL geomorphic boards, stacked one above another (``1/2/.../8``: 2,640 hexes,
6,966,960 ordered pairs) and laid 4 x 2 (``1,2,3,4/5,6,7,8``). Terrain is drawn per hex from a
seeded random generator with this mix (the rest is open ground), by the names of ASL's terrain
table, so that ASL's own table says what each does:

    woods     8%  blocks
    building  6%  blocks
    orchard   6%  hindrance +1
    grain    10%  hindrance +1
    SMOKE     2%  hindrance +3 (+1 more out of the firer's own hex, A24.8)

The rule is ASL's (``ordnance.asl.los``): the largest hindrance per range, a hexside pair blocks
only if both hexes do, SMOKE counts in the end hexes, and hindrances adding up to 6 block (B.10).

What is timed (CPU seconds, in one process):

- baseline: the straightforward per-pair way, a float line walk with hindrances summed. Red Blob
  style: the points at t = i / N interpolated in floats (ends nudged by an epsilon), each
  rounded to the nearest hex, a dict look-up per hex, every hindrance added, stopping at the
  first block. It is approximate (it picks one hex of a hexside pair, misses hexes the line only
  clips, sums where ASL takes the largest per range): it does less than the rule asks, so it is
  a generous baseline.
- library: ``Visibility(map, asl.los.JUDGE).all_pairs()``, every ordered pair, exact, reading
  the map through ASL's own terrain from scratch (:mod:`ordnance.core.maps.visibility`): the
  fan of shared line beginnings walked once for every firer at once, in numpy
  (:mod:`ordnance.core.maps.fan`; docs/los-speed.md).

Then every answer on a sample of pairs is checked against ``asl_los``, the exact per-pair LOS
verdict: they must agree on every pair (blocked, or clear with the same hindrance total).

Usage::

    .venv/bin/python benchmarks/bench_los.py                       # both layouts
    .venv/bin/python benchmarks/bench_los.py --layout 1/2/3/4/5/6/7/8 --check 500
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from ordnance.asl.los import JUDGE, asl_los
from ordnance.asl.terrain import asl_chart
from ordnance.core.hexgrid import GeomorphicLabels, Hex
from ordnance.core.maps import GameMap
from ordnance.core.maps.visibility import Visibility

TERRAIN_MIX = (
    # name, share of hexes, is a marker
    ("woods", 0.08, False),
    ("building", 0.06, False),
    ("orchard", 0.06, False),
    ("grain", 0.10, False),
    ("smoke", 0.02, True),
)
LAYOUTS = ("1/2/3/4/5/6/7/8", "1,2,3,4/5,6,7,8")

Cell = tuple[bool, int]  # blocks, hindrance
Offset = tuple[int, int]


def generate_map(layout: str, seed: int) -> GameMap:
    """Seeded ASL terrain per the mix above; open hexes are left out."""
    labels = GeomorphicLabels.of(layout)
    rng = random.Random(seed)
    terrains: dict[Hex, str] = {}
    markers: dict[Hex, tuple[str, ...]] = {}
    for hex in labels.hexes():
        roll = rng.random()
        for name, share, marker in TERRAIN_MIX:
            if roll < share:
                if marker:
                    markers[hex] = (name,)
                else:
                    terrains[hex] = name
                break
            roll -= share
    return GameMap("bench", "asl", labels, "open", terrains, markers=markers)


def baseline_cells(game_map: GameMap) -> dict[Offset, Cell]:
    """What the baseline looks up per hex, from ASL's own table (SMOKE's hindrance included)."""
    chart = asl_chart()
    cells: dict[Offset, Cell] = {}
    for hex in game_map:
        terrain = chart.hex(game_map.terrain(hex))
        hindrance = terrain.hindrance + sum(
            chart.marker(name).hindrance for name in game_map.markers_in(hex)
        )
        if terrain.blocks or hindrance:
            cells[hex.q, hex.r] = (terrain.blocks, hindrance)
    return cells


def _cube_round(x: float, y: float, z: float) -> Offset:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return rx, ry


def baseline_los(a: Offset, b: Offset, terrain: dict[Offset, Cell]) -> int | None:
    """A float line walk from ``a`` to ``b``: the hindrance sum, or None at the first block."""
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


def cpu_rate(count: int, start: float) -> float:
    return count / (time.process_time() - start)


def bench_layout(layout: str, seed: int, baseline_pairs: int, check: int) -> float:
    game_map = generate_map(layout, seed)
    hexes: Sequence[Hex] = list(game_map)
    rng = random.Random(seed + 1)
    sample = [tuple(rng.sample(hexes, 2)) for _ in range(max(baseline_pairs, check))]
    print(f"map {layout}: {len(hexes):,} hexes, {len(hexes) * (len(hexes) - 1):,} ordered pairs")

    cells = baseline_cells(game_map)
    ends = [((a.q, a.r), (b.q, b.r)) for a, b in sample[:baseline_pairs]]
    start = time.process_time()
    for a, b in ends:
        baseline_los(a, b, cells)
    base_rate = cpu_rate(len(ends), start)

    start = time.process_time()
    pairs = Visibility(game_map, JUDGE).all_pairs()
    elapsed = time.process_time() - start
    sweep_rate = pairs.pairs / elapsed

    checked = sample[:check]
    start = time.process_time()
    truth = [asl_los(game_map, a, b) for a, b in checked]
    exact_rate = cpu_rate(len(checked), start)
    wrong = [
        (game_map.label(a), game_map.label(b))
        for (a, b), verdict in zip(checked, truth, strict=True)
        if pairs[a, b] != (verdict.total if verdict.clear else None)
    ]

    print(f"  baseline, float line walk, hindrances summed: {base_rate:12,.0f} pairs/s")
    print(f"  per-pair asl_los (exact verdict):              {exact_rate:12,.0f} pairs/s")
    print(
        f"  all_pairs, exact, ASL rule:                    {sweep_rate:12,.0f} pairs/s"
        f" ({pairs.pairs:,} pairs in {elapsed:.2f} s CPU)"
    )
    print(f"  ratio all_pairs / baseline:                    {sweep_rate / base_rate:12.1f} x")
    print(
        f"  clear pairs {pairs.clear:,} ({pairs.clear / pairs.pairs:.1%}); mean hindrance of a"
        f" clear line {pairs.hindrance / max(pairs.clear, 1):.3f}"
    )
    print(f"  all_pairs vs asl_los: {len(wrong)} mismatches on {len(checked):,} sampled pairs")
    if wrong:
        print(f"  first mismatches: {wrong[:5]}")
    return sweep_rate / base_rate if not wrong else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="ASL LOS for every ordered pair of hexes")
    parser.add_argument("--layout", action="append", help="boards, e.g. 1,2,3,4/5,6,7,8")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--baseline-pairs", type=int, default=20_000)
    parser.add_argument("--check", type=int, default=2_000, help="pairs checked with asl_los")
    args = parser.parse_args(argv)
    ratios = [
        bench_layout(layout, args.seed, args.baseline_pairs, args.check)
        for layout in args.layout or LAYOUTS
    ]
    return 0 if all(ratios) else 1


if __name__ == "__main__":
    sys.exit(main())
