"""Exact depletion/To Hit odds against icepool and a numpy Monte Carlo (DESIGN.md, Odds).

The table: every Depletion Number 2-12 x To Hit number 2-12 x DRM -3..+3 (847 cells), each the
distribution of ``ordnance.asl.odds.depletion_odds`` (here through ``depletion_grid``, which makes
the 36 rulings once per Depletion Number and reads each cell off prefix sums of integer counts).

Two baselines, timed in the same run:

* icepool, the field's dice-probability library: per cell, 2d6 mapped through the C8.9 and C3
  comparisons (written here from the rules, independently of the package), probabilities read as
  fractions. Every cell of the exact table must equal icepool's, fraction for fraction.
* a numpy-vectorised Monte Carlo with ``--rolls`` sampled DRs per cell: both dice drawn as arrays,
  the 36 ordered rolls counted with ``bincount`` and labelled with the package's own resolution
  (called once per distinct roll, so the baseline measures sampling, not a second copy of the
  rules). Its largest z-score against the exact table says whether the noise is plausible.

Times are the best of ``--repeat`` runs for the exact table and icepool (each from cold caches),
one run for the Monte Carlo (it is thousands of times longer).

Run: ``.venv/bin/python benchmarks/bench_odds.py [--rolls N] [--seed S] [--repeat R]``
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import icepool
import numpy as np

from ordnance.asl.depletion import resolve_depletion
from ordnance.asl.odds import _ShotCounts, depletion_grid, hits, shot_label
from ordnance.core.dice import DR

NUMBERS = range(2, 13)
TO_HITS = range(2, 13)
DRMS = range(-3, 4)
Cell = tuple[int, int, int]
Table = dict[Cell, dict[str, Fraction]]
R = TypeVar("R")


def cells() -> list[Cell]:
    return [(n, t, d) for n in NUMBERS for t in TO_HITS for d in DRMS]


def exact_table() -> Table:
    _ShotCounts.of.cache_clear()
    grid = depletion_grid(NUMBERS, TO_HITS, DRMS)
    return {(n, t, d): odds.fractions() for (n, t, d), odds in grid.items() if t is not None}


def _rules_label(total: int, number: int, to_hit: int, drm: int) -> str:
    """C8.9 (Original DR against D) and C3 (Final DR at most the To Hit number), no B#."""
    if total > number:
        return "none"
    outcome = "used" if total < number else "used-last"
    return f"{outcome}, {'hit' if total + drm <= to_hit else 'miss'}"


def icepool_table(grid: list[Cell]) -> Table:
    two_d6 = icepool.d6 + icepool.d6
    table: Table = {}
    for n, t, d in grid:
        odds = two_d6.map(lambda total, n=n, t=t, d=d: _rules_label(total, n, t, d))
        denominator = odds.denominator()
        table[n, t, d] = {o: Fraction(odds.quantity(o), denominator) for o in odds.outcomes()}
    return table


def monte_carlo_table(grid: list[Cell], rolls: int, seed: int) -> dict[Cell, dict[str, float]]:
    rng = np.random.default_rng(seed)
    everything = list(DR.all())
    table: dict[Cell, dict[str, float]] = {}
    for number, to_hit, drm in grid:
        labels = [
            shot_label(resolve_depletion(number, roll), hits(roll.total + drm, to_hit))
            for roll in everything
        ]
        dice = rng.integers(0, 6, size=(2, rolls), dtype=np.int8)
        seen = np.bincount(dice[0].astype(np.intp) * 6 + dice[1], minlength=36)
        counts: dict[str, int] = {}
        for label, n in zip(labels, seen.tolist(), strict=True):
            counts[label] = counts.get(label, 0) + n
        table[number, to_hit, drm] = {o: n / rolls for o, n in counts.items() if n}
    return table


def z_scores(exact: Table, estimate: dict[Cell, dict[str, float]], rolls: int) -> float:
    """The largest z-score (difference over its binomial standard error) over every outcome."""
    worst = 0.0
    for cell, odds in exact.items():
        for outcome in odds.keys() | estimate[cell].keys():
            p = float(odds.get(outcome, Fraction(0)))
            error = math.sqrt(p * (1 - p) / rolls)
            if error > 0:
                worst = max(worst, abs(estimate[cell].get(outcome, 0.0) - p) / error)
    return worst


def best_of(repeat: int, run: Callable[[], R]) -> tuple[float, R]:
    best, result = math.inf, None
    for _ in range(repeat):
        start = time.process_time()
        result = run()
        best = min(best, time.process_time() - start)
    assert result is not None
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000, help="Monte Carlo DRs per cell")
    parser.add_argument("--seed", type=int, default=1, help="Monte Carlo seed")
    parser.add_argument(
        "--repeat", type=int, default=25, help="runs of the exact and icepool sides"
    )
    args = parser.parse_args()
    grid = cells()

    exact_seconds, exact = best_of(args.repeat, exact_table)
    icepool_seconds, oracle = best_of(args.repeat, lambda: icepool_table(grid))
    mc_seconds, estimate = best_of(1, lambda: monte_carlo_table(grid, args.rolls, args.seed))

    assert len(exact) == len(grid) and all(sum(o.values()) == 1 for o in exact.values())
    unequal = [cell for cell in grid if exact[cell] != oracle[cell]]
    print(f"cells: {len(grid)} (Depletion 2-12 x To Hit 2-12 x DRM -3..+3), CPU seconds")
    print(
        f"exact (integer counts, prefix sums):    {exact_seconds:9.4f} s  (best of {args.repeat})"
    )
    print(f"icepool {icepool.__version__} (2d6 mapped per cell):  {icepool_seconds:9.4f} s")
    print(f"numpy Monte Carlo ({args.rolls:,} DRs/cell): {mc_seconds:9.4f} s  (seed {args.seed})")
    print(f"ratio icepool / exact:                  {icepool_seconds / exact_seconds:9.1f} x")
    print(f"ratio Monte Carlo / exact:              {mc_seconds / exact_seconds:9.1f} x")
    print(f"cells equal to icepool's as fractions:  {len(grid) - len(unequal):5d} / {len(grid)}")
    print(f"max z-score of the Monte Carlo:         {z_scores(exact, estimate, args.rolls):9.2f}")
    if unequal:
        raise SystemExit(f"cells differing from icepool: {unequal[:5]}")


if __name__ == "__main__":
    main()
