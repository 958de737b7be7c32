"""Exact odds of the ASL special-ammunition procedures (SYS.odds).

Every distribution here runs the procedure's own resolution function (depletion.py,
canister.py) over the 36 ordered DRs and labels what it returns; no rule is restated here, so
the odds cannot drift from the rulings.

Outcome labels of a declared special-ammunition shot, joined by ", " in this order:

1. the C8.9 outcome: ``used``, ``used-last`` or ``none``;
2. with a To Hit number, and only when the shot is resolved with the special ammunition:
   ``hit`` or ``miss``;
3. with a B#, when that DR malfunctions the Gun: ``malfunction``.

So ``"used-last, hit"``, ``"none"``, ``"none, malfunction"``; with the setting
``malf_shot_still_resolves=false`` a malfunctioning DR at most D reads ``"used, malfunction"``
(no hit or miss: the shot is not resolved).

>>> odds = depletion_odds(7)
>>> odds["used"], odds["used-last"], odds["none"]
(Fraction(5, 12), Fraction(1, 6), Fraction(5, 12))
>>> depletion_odds(7, to_hit=6, drm=1)["used, hit"]
Fraction(5, 18)
>>> canister_odds(12)["1MC"]  # Final DR 7 or 8 on the 12 FP column
Fraction(11, 36)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

from ordnance.asl.canister import Adjacent, CanisterRuling, canister_attack
from ordnance.asl.depletion import OUTCOMES, DepletionRuling, resolve_depletion
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.dice import DR
from ordnance.core.odds import Distribution, OutcomeOdds
from ordnance.core.rulings import DRM

HIT, MISS, MALFUNCTION = "hit", "miss", "malfunction"

# Every label a shot can get, in reading order: the outcomes of C8.9, then hit before miss
# before "not resolved", then without before with a malfunction.
SHOT_ORDER: tuple[str, ...] = tuple(
    ", ".join(part for part in (outcome, shot, malf) if part)
    for outcome in OUTCOMES
    for shot in (HIT, MISS, "")
    for malf in ("", MALFUNCTION)
    if outcome != "none" or not shot
)


def hits(final_dr: int, to_hit: int, settings: Settings = DEFAULT) -> bool:
    """The C3 comparison of a Final To Hit DR with the Modified To Hit number.

    >>> hits(7, 7), hits(7, 7, Settings(hit_when_final_at_most_to_hit=False))
    (True, False)
    """
    return final_dr <= highest_hitting_dr(to_hit, settings)


def highest_hitting_dr(to_hit: int, settings: Settings = DEFAULT) -> int:
    """The highest Final DR that still hits (C3): the To Hit number, or one less when strict.

    >>> highest_hitting_dr(7), highest_hitting_dr(7, Settings(hit_when_final_at_most_to_hit=False))
    (7, 6)
    """
    return to_hit if settings.hit_when_final_at_most_to_hit else to_hit - 1


def shot_label(ruling: DepletionRuling, hit: bool | None) -> str:
    """The outcome label of one declared shot (see the module docstring).

    ``hit`` is None when no To Hit number was asked about.
    """
    parts: list[str] = [ruling.outcome]
    if hit is not None and ruling.resolved_with_special_ammo:
        parts.append(HIT if hit else MISS)
    if ruling.malfunctioned:
        parts.append(MALFUNCTION)
    return ", ".join(parts)


def depletion_odds(
    depletion_number: int,
    *,
    to_hit: int | None = None,
    drm: int = 0,
    breakdown: int | None = None,
    intensive_fire: bool = False,
    settings: Settings = DEFAULT,
) -> Distribution[str]:
    """The odds of each outcome of one declared special-ammunition To Hit DR.

    Depletion reads the Original DR (C8.9); the hit reads the Final DR, Original + ``drm``.

    >>> depletion_odds(6, breakdown=11)["none, malfunction"]
    Fraction(1, 12)
    """

    counts = _ShotCounts.of(depletion_number, breakdown, intensive_fire, settings)
    return counts.cell(to_hit, drm, settings)


def depletion_grid(
    depletion_numbers: Iterable[int],
    to_hits: Iterable[int | None],
    drms: Iterable[int],
    *,
    breakdown: int | None = None,
    intensive_fire: bool = False,
    settings: Settings = DEFAULT,
) -> dict[tuple[int, int | None, int], Distribution[str]]:
    """:func:`depletion_odds` of every (Depletion Number, To Hit, DRM) cell, keyed so.

    The 36 rulings are made once per Depletion Number; each cell is then read off prefix sums
    in constant time.

    >>> grid = depletion_grid([7], [6], [0, 1])
    >>> grid[7, 6, 1] == depletion_odds(7, to_hit=6, drm=1)
    True
    """
    tos, modifiers = list(to_hits), list(drms)
    grid: dict[tuple[int, int | None, int], Distribution[str]] = {}
    for number in depletion_numbers:
        counts = _ShotCounts.of(number, breakdown, intensive_fire, settings)
        for to_hit in tos:
            for drm in modifiers:
                grid[number, to_hit, drm] = counts.cell(to_hit, drm, settings)
    return grid


# The Original DR totals a DR can show, and the index of each total in the prefix sums below.
_LOWEST, _HIGHEST = 2, 12
_ROLLS = 36


def _rolls_by_total() -> tuple[tuple[DR, int], ...]:
    """One ordered roll for each total, with the number of ordered rolls showing that total."""
    first: dict[int, DR] = {}
    ways: dict[int, int] = {}
    for roll in DR.all():
        first.setdefault(roll.total, roll)
        ways[roll.total] = ways.get(roll.total, 0) + 1
    return tuple((first[total], ways[total]) for total in sorted(first))


_ONE_ROLL_PER_TOTAL = _rolls_by_total()


class _ShotCounts:
    """The 36 depletion rulings of one Depletion Number, counted by label and DR total.

    A shot's label is what its ruling says plus hit or miss. The depletion and breakdown checks
    read the Original DR, the total of the two dice (C8.9, C8.92), so every ordered roll with one
    total gets the same ruling: one roll per total is resolved and weighted by how many of the
    36 show that total (tests check the premise against all 36). Whether it hits reads only the
    Final DR, Original total + DRM (C3). So the count of each label in a cell is a prefix sum
    over totals: ``below[i][j]`` counts the rolls of the i-th kind of ruling whose total is under
    ``_LOWEST + j``.
    """

    __slots__ = ("below", "by_cut", "labels")

    def __init__(self, rulings: Iterable[tuple[DepletionRuling, int]]) -> None:
        by_total: dict[tuple[str, str, str], list[int]] = {}
        for ruling, ways in rulings:
            # The labels without a To Hit number, with a hit and with a miss.
            key = (
                shot_label(ruling, None),
                shot_label(ruling, True),
                shot_label(ruling, False),
            )
            row = by_total.setdefault(key, [0] * (_HIGHEST - _LOWEST + 1))
            row[ruling.original_dr - _LOWEST] += ways
        self.labels = list(by_total)
        self.below = [list(accumulate(row, initial=0)) for row in by_total.values()]
        self.by_cut: list[Distribution[str] | None] = [None] * (_HIGHEST - _LOWEST + 2)

    @staticmethod
    @lru_cache(maxsize=256)
    def of(
        depletion_number: int, breakdown: int | None, intensive_fire: bool, settings: Settings
    ) -> _ShotCounts:
        return _ShotCounts(
            (
                resolve_depletion(
                    depletion_number, roll, breakdown, intensive_fire, settings=settings
                ),
                ways,
            )
            for roll, ways in _ONE_ROLL_PER_TOTAL
        )

    def cell(self, to_hit: int | None, drm: int, settings: Settings) -> Distribution[str]:
        """The counts over 36 of every label, for one To Hit number and DRM."""
        counts: dict[str, int] = {}
        if to_hit is None:
            for (plain, _, _), below in zip(self.labels, self.below, strict=True):
                counts[plain] = counts.get(plain, 0) + below[-1]
            return Distribution.from_counts(counts, _ROLLS)
        # The rolls that hit are those whose Original total is at most the highest hitting
        # Final DR less the DRM: a prefix of the totals.
        cut = highest_hitting_dr(to_hit, settings) - drm + 1 - _LOWEST
        index = 0 if cut < 0 else min(cut, _HIGHEST - _LOWEST + 1)
        # Cells with the same cut share one (immutable) distribution.
        made = self.by_cut[index]
        if made is not None:
            return made
        for (_, hit, miss), below in zip(self.labels, self.below, strict=True):
            hits_here = below[index]
            if hits_here:
                counts[hit] = counts.get(hit, 0) + hits_here
            if hits_here != below[-1]:
                counts[miss] = counts.get(miss, 0) + below[-1] - hits_here
        # Each row of ``below`` ends with its share of the 36 rolls, so the counts add up.
        made = self.by_cut[index] = Distribution.trusted_counts(counts, _ROLLS)
        return made


def depletion_table(distribution: Distribution[str]) -> list[OutcomeOdds]:
    """Rows in :data:`SHOT_ORDER`."""
    return distribution.table(order=SHOT_ORDER)


def result_label(ruling: CanisterRuling) -> str:
    """The IFT result ("-" also when no Canister was fired)."""
    return ruling.result


def canister_odds(
    fp: int | Fraction,
    *,
    moved: bool = False,
    manned_after_moving: bool = False,
    drms: tuple[DRM, ...] = (),
    adjacent: Adjacent | None = None,
    armored: bool = False,
    depletion_number: int | None = None,
    breakdown: int | None = None,
    settings: Settings = DEFAULT,
    label: Callable[[CanisterRuling], str] = result_label,
) -> Distribution[str]:
    """The odds of each label of a Canister attack: by default its IFT result.

    ``label=supply_label`` asks instead what the same IFT DR does to the Canister supply and the
    Gun (C8.4-dr).

    >>> canister_odds(16, adjacent="hexside")["-"]
    Fraction(5, 12)
    >>> canister_odds(12, depletion_number=10, label=supply_label)["none"]
    Fraction(1, 12)
    """

    def resolve(roll: DR) -> str:
        return label(
            canister_attack(
                fp,
                roll,
                moved=moved,
                manned_after_moving=manned_after_moving,
                drms=drms,
                adjacent=adjacent,
                armored=armored,
                depletion_number=depletion_number,
                breakdown=breakdown,
                settings=settings,
            )
        )

    return Distribution.dr().map(resolve)


def supply_label(ruling: CanisterRuling) -> str:
    """The C8.9 outcome (``fired`` when no Depletion Number is given), plus ``, malfunction``."""
    head = ruling.depletion or "fired"
    return f"{head}, {MALFUNCTION}" if ruling.malfunctioned else head


SUPPLY_ORDER: tuple[str, ...] = tuple(
    f"{head}{malf}" for head in ("fired", *OUTCOMES) for malf in ("", f", {MALFUNCTION}")
)

_NUMBERED = re.compile(r"(\d+)KIA|K/(\d+)|(\d+)MC")


def result_severity(result: str) -> tuple[int, int]:
    """A sort key putting the worst IFT result first: KIA, K/#, #MC, NMC, PTC, no effect.

    >>> sorted(["-", "NMC", "1MC", "K/2", "2KIA", "PTC", "3MC"], key=result_severity)
    ['2KIA', 'K/2', '3MC', '1MC', 'NMC', 'PTC', '-']
    """
    match = _NUMBERED.fullmatch(result)
    if match is not None:
        kind = next(i for i, group in enumerate(match.groups()) if group is not None)
        return kind, -int(match.group(kind + 1))
    return {"NMC": 3, "PTC": 4}.get(result, 5), 0


def canister_table(distribution: Distribution[str]) -> list[OutcomeOdds]:
    """Rows from the worst result to no effect."""
    return distribution.table(order=sorted(distribution, key=result_severity))


def supply_table(distribution: Distribution[str]) -> list[OutcomeOdds]:
    """Rows in :data:`SUPPLY_ORDER`."""
    return distribution.table(order=SUPPLY_ORDER)
