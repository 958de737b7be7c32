"""The exact search of the AI's fire planner (:mod:`ordnance.vv.ai`, whose docstring states
the problem and why the answer is exact): the dynamic programme over one class's subsets and
X-weapon budgets (:func:`programme`), and the knapsack that shares the side's pool among the
classes (:func:`share_pool`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ordnance.vv.ai_targets import Option
from ordnance.vv.board import Board
from ordnance.vv.numbers import RULES

NO_LEADER = 1 << 20  # above any Leadership Modifier: min() keeps the best leader's
ZERO = Fraction(0)


# A variant of a group at a target: grenades, satchels, value, the satchel users' mask.
Variant = tuple[int, int, Fraction, int]


def _variants(
    board: Board, option: Option, units: tuple[str, ...], budget: tuple[int, int]
) -> list[list[Variant]]:
    """For every subset S of the class, its worthwhile variants at this target."""
    settings = board.settings
    n = len(units)
    infantry = [board.unit(u).kind.infantry for u in units]
    leadership = [
        board.unit(u).leadership if option.lends[i] else None for i, u in enumerate(units)
    ]
    found: list[list[Variant]] = [[] for _ in range(1 << n)]
    total = [0] * (1 << n)
    lm = [NO_LEADER] * (1 << n)
    valid = [True] * (1 << n)
    grenades, satchels = budget if option.x_weapons else (0, 0)
    for mask in range(1, 1 << n):
        low = mask & -mask
        index = low.bit_length() - 1
        rest = mask ^ low
        apfp = option.apfp[index]
        valid[mask] = valid[rest] and apfp is not None
        total[mask] = total[rest] + (apfp or 0)
        own = leadership[index]
        lm[mask] = min(lm[rest], own) if own is not None else lm[rest]
        if not valid[mask]:
            continue
        led = 0 if lm[mask] == NO_LEADER else lm[mask]
        members = [i for i in range(n) if mask >> i & 1 and infantry[i]]
        gains = sorted(((option.satchel[i] or 0) - (option.apfp[i] or 0), i) for i in members)[::-1]
        for used_satchels in range(min(satchels, len(members)) + 1):
            chosen = gains[:used_satchels]
            apfp_total = total[mask] + sum(g for g, _ in chosen)
            if apfp_total <= 0:
                continue
            users = sum(1 << i for _, i in chosen)
            most = min(grenades, len(members) - used_satchels)
            if not settings.grenade_each:
                most = min(most, 1)
            for thrown in range(most + 1):
                drm = option.drm + led + RULES.grenade_drm * thrown
                value = (
                    option.worth(board, apfp_total, drm)
                    - thrown * settings.ai_grenade_value
                    - used_satchels * settings.ai_satchel_value
                )
                if value > 0:
                    found[mask].append((thrown, used_satchels, value, users))
    return found


def _budgets(budget: tuple[int, int]) -> list[tuple[int, int]]:
    return [(g, s) for g in range(budget[0] + 1) for s in range(budget[1] + 1)]


@dataclass
class ClassPlan:
    """A class's programme: the best value per budget and how to rebuild each plan."""

    units: tuple[str, ...]
    options: list[Option]
    best: dict[tuple[int, int], Fraction]
    cap: tuple[int, int]
    choices: list[dict[tuple[int, tuple[int, int]], tuple[int, Variant]]]


def programme(
    board: Board, units: tuple[str, ...], options: list[Option], budget: tuple[int, int]
) -> ClassPlan:
    """The dynamic programme of :mod:`ordnance.vv.ai`'s docstring for one class.

    The values are Fractions; the programme runs on whole numbers, every value times the
    least common denominator of the class's values, so its comparisons stay exact and cheap.
    """
    n = len(units)
    full = (1 << n) - 1
    budgets = _budgets(budget)
    width = budget[1] + 1
    slots = len(budgets)
    every = [_variants(board, option, units, budget) for option in options]
    scale = 1
    for variants in every:
        for found in variants:
            for variant in found:
                scale = math.lcm(scale, variant[2].denominator)
    best = [0] * ((full + 1) * slots)
    choices: list[dict[tuple[int, tuple[int, int]], tuple[int, Variant]]] = []
    for variants in every:
        after = best[:]
        choice: dict[tuple[int, tuple[int, int]], tuple[int, Variant]] = {}
        for mask in range(1, full + 1):
            sub = mask
            while sub:
                rest = (mask ^ sub) * slots
                for variant in variants[sub]:
                    thrown, used, value, _ = variant
                    whole = int(value * scale)
                    for g, s in budgets:
                        if thrown > g or used > s:
                            continue
                        candidate = whole + best[rest + (g - thrown) * width + s - used]
                        here = mask * slots + g * width + s
                        if candidate > after[here]:
                            after[here] = candidate
                            choice[(mask, (g, s))] = (sub, variant)
                sub = (sub - 1) & mask
        best = after
        choices.append(choice)
    values = {(g, s): Fraction(best[full * slots + g * width + s], scale) for g, s in budgets}
    return ClassPlan(units, options, values, budget, choices)


def share_pool(plans: dict[str, ClassPlan], pool: tuple[int, int]) -> dict[str, tuple[int, int]]:
    """The knapsack over the classes: each class's share of the pool in the best total."""
    budgets = _budgets(pool)
    total = {r: ZERO for r in budgets}
    picks: list[tuple[str, dict[tuple[int, int], tuple[int, int]]]] = []
    for key, plan in plans.items():
        after = dict(total)
        pick = {r: (0, 0) for r in budgets}
        for g, s in budgets:
            for mine in _budgets((min(g, plan.cap[0]), min(s, plan.cap[1]))):
                candidate = total[(g - mine[0], s - mine[1])] + plan.best[mine]
                if candidate > after[(g, s)]:
                    after[(g, s)] = candidate
                    pick[(g, s)] = mine
        total = after
        picks.append((key, pick))
    shares: dict[str, tuple[int, int]] = {}
    g, s = pool
    for key, pick in reversed(picks):
        mine = pick[(g, s)]
        shares[key] = mine
        g, s = g - mine[0], s - mine[1]
    return shares
