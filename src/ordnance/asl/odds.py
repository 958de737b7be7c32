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
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

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
    if settings.hit_when_final_at_most_to_hit:
        return final_dr <= to_hit
    return final_dr < to_hit


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

    rulings = _depletion_rulings(depletion_number, breakdown, intensive_fire, settings)

    def label(roll: DR) -> str:
        hit = None if to_hit is None else hits(roll.total + drm, to_hit, settings)
        return shot_label(rulings[roll], hit)

    return Distribution.dr().map(label)


@lru_cache(maxsize=256)
def _depletion_rulings(
    depletion_number: int, breakdown: int | None, intensive_fire: bool, settings: Settings
) -> dict[DR, DepletionRuling]:
    """The ruling of every ordered DR; tables over To Hit numbers and DRMs share them."""
    return {
        roll: resolve_depletion(
            depletion_number, roll, breakdown, intensive_fire, settings=settings
        )
        for roll in DR.all()
    }


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
