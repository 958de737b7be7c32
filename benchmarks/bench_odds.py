"""Exact depletion/To Hit odds against a Monte Carlo baseline (DESIGN.md, Odds).

The table: every Depletion Number 2-12 x To Hit number 2-12 x DRM -3..+3 (847 cells), each the
distribution of ``ordnance.asl.odds.depletion_odds``. The baseline: the same table estimated by
Monte Carlo with plain ``random`` (seeded), ``--rolls`` DRs per cell. Both run here, timed; the
maximum absolute difference between estimate and exact value is a sanity cross-check, and the
largest z-score (difference over its binomial standard error) says whether it is plausible noise.

The Monte Carlo side classifies each sampled DR with the same resolution function, called once
per distinct roll of a cell (the procedure is deterministic in the roll), so what it measures
against the exact side is the sampling, not a second copy of the rules.

Run: ``.venv/bin/python benchmarks/bench_odds.py [--rolls N] [--seed S]``
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from fractions import Fraction

from ordnance.asl.depletion import resolve_depletion
from ordnance.asl.odds import depletion_odds, hits, shot_label
from ordnance.core.dice import DR, FACES

NUMBERS = range(2, 13)
TO_HITS = range(2, 13)
DRMS = range(-3, 4)
Cell = tuple[int, int, int]


def cells() -> list[Cell]:
    return [(n, t, d) for n in NUMBERS for t in TO_HITS for d in DRMS]


def exact_table(grid: list[Cell]) -> dict[Cell, dict[str, Fraction]]:
    return {(n, t, d): dict(depletion_odds(n, to_hit=t, drm=d).items()) for n, t, d in grid}


def _labels(number: int, to_hit: int, drm: int) -> dict[tuple[int, int], str]:
    """The outcome of each ordered roll of one cell, from the resolution function itself."""
    return {
        (roll.white, roll.colored): shot_label(
            resolve_depletion(number, roll), hits(roll.total + drm, to_hit)
        )
        for roll in DR.all()
    }


def monte_carlo_table(grid: list[Cell], rolls: int, seed: int) -> dict[Cell, dict[str, float]]:
    rng = random.Random(seed)
    faces = list(FACES)
    table: dict[Cell, dict[str, float]] = {}
    for cell in grid:
        labels = _labels(*cell)
        whites = rng.choices(faces, k=rolls)
        coloreds = rng.choices(faces, k=rolls)
        counts: Counter[str] = Counter()
        for roll, n in Counter(zip(whites, coloreds, strict=True)).items():
            counts[labels[roll]] += n
        table[cell] = {outcome: n / rolls for outcome, n in counts.items()}
    return table


def compare(
    exact: dict[Cell, dict[str, Fraction]], estimate: dict[Cell, dict[str, float]], rolls: int
) -> tuple[float, float]:
    """The largest absolute difference and the largest z-score over every cell and outcome."""
    worst_diff = worst_z = 0.0
    for cell, odds in exact.items():
        for outcome in odds.keys() | estimate[cell].keys():
            p = float(odds.get(outcome, Fraction(0)))
            diff = abs(estimate[cell].get(outcome, 0.0) - p)
            worst_diff = max(worst_diff, diff)
            error = math.sqrt(p * (1 - p) / rolls)
            if error > 0:
                worst_z = max(worst_z, diff / error)
    return worst_diff, worst_z


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000, help="Monte Carlo DRs per cell")
    parser.add_argument("--seed", type=int, default=1, help="Monte Carlo seed")
    args = parser.parse_args()
    grid = cells()

    start = time.perf_counter()
    exact = exact_table(grid)
    exact_seconds = time.perf_counter() - start

    start = time.perf_counter()
    estimate = monte_carlo_table(grid, args.rolls, args.seed)
    mc_seconds = time.perf_counter() - start

    assert all(sum(odds.values()) == 1 for odds in exact.values())
    worst_diff, worst_z = compare(exact, estimate, args.rolls)
    print(f"cells: {len(grid)} (Depletion 2-12 x To Hit 2-12 x DRM -3..+3)")
    print(f"exact (Fractions, 36 DRs per cell):   {exact_seconds:8.3f} s")
    print(f"Monte Carlo ({args.rolls:,} DRs per cell):  {mc_seconds:8.3f} s  (seed {args.seed})")
    print(f"ratio Monte Carlo / exact:            {mc_seconds / exact_seconds:8.1f} x")
    print(f"max |Monte Carlo - exact|:            {worst_diff:8.5f}")
    print(f"max z-score (|diff| / binomial SE):   {worst_z:8.2f}")


if __name__ == "__main__":
    main()
