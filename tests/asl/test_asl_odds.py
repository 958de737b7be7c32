"""SYS.odds: the exact odds of depletion, To Hit with depletion, and Canister.

Each distribution is checked against a brute-force count over the 36 ordered dice written here
from the rule texts (not from the modules under test), and the depletion odds against icepool.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from fractions import Fraction
from importlib import resources

import icepool
import pytest

from ordnance.asl.depletion import resolve_depletion
from ordnance.asl.odds import (
    SHOT_ORDER,
    canister_odds,
    canister_table,
    depletion_grid,
    depletion_odds,
    depletion_table,
    result_severity,
    supply_label,
    supply_table,
)
from ordnance.asl.odds import shot_label as odds_label
from ordnance.asl.settings import Settings
from ordnance.core.dice import DR
from ordnance.core.rulings import DRM

DICE = [(white, colored) for white in range(1, 7) for colored in range(1, 7)]
TWO_D6 = icepool.d6 + icepool.d6


def as_dict(distribution):
    return dict(distribution.items())


def brute(label):
    """Count a labelling of the 36 ordered dice, as exact fractions."""
    counts = Counter(label(white + colored) for white, colored in DICE)
    return {outcome: Fraction(n, 36) for outcome, n in counts.items()}


def shot_label(dr, number, *, to_hit=None, drm=0, breakdown=None, still_resolves=True):
    """C8.9 by hand: < D used, = D last round, > D none; B# on the same Original DR."""
    if dr < number:
        depletion = "used"
    elif dr == number:
        depletion = "used-last"
    else:
        depletion = "none"
    malfunction = breakdown is not None and dr >= breakdown
    parts = [depletion]
    if to_hit is not None and depletion != "none" and (still_resolves or not malfunction):
        parts.append("hit" if dr + drm <= to_hit else "miss")
    if malfunction:
        parts.append("malfunction")
    return ", ".join(parts)


@pytest.mark.clause("SYS.odds", "C8.9-lt", "C8.9-eq", "C8.9-gt")
@pytest.mark.parametrize("number", range(1, 13))
def test_depletion_odds_match_brute_force(number):
    assert as_dict(depletion_odds(number)) == brute(lambda dr: shot_label(dr, number))


@pytest.mark.clause("SYS.odds", "C8.9-lt", "C8.9-eq", "C8.9-gt")
@pytest.mark.parametrize("number", range(2, 13))
def test_depletion_odds_match_icepool(number):
    odds = depletion_odds(number)
    assert odds["used"] == TWO_D6.probability("<", number)
    assert odds["used-last"] == TWO_D6.probability(number)
    assert odds["none"] == TWO_D6.probability(">", number)


@pytest.mark.clause("SYS.odds")
@pytest.mark.parametrize("number", range(2, 13))
def test_joint_to_hit_odds_match_icepool(number):
    for to_hit in range(2, 13):
        for drm in range(-3, 4):
            oracle = TWO_D6.map(lambda dr, t=to_hit, d=drm: shot_label(dr, number, to_hit=t, drm=d))
            odds = depletion_odds(number, to_hit=to_hit, drm=drm)
            assert as_dict(odds) == {o: oracle.probability(o) for o in oracle.outcomes()}


@pytest.mark.clause("SYS.odds", "C8.9-gt")
@pytest.mark.parametrize("breakdown", [None, 8, 10, 11, 12])
@pytest.mark.parametrize("still_resolves", [True, False])
def test_joint_odds_with_breakdown_match_brute_force(breakdown, still_resolves):
    settings = Settings(malf_shot_still_resolves=still_resolves)
    for number in range(2, 13):
        for to_hit in (None, 4, 7, 10):
            for drm in (-2, 0, 3):
                odds = depletion_odds(
                    number, to_hit=to_hit, drm=drm, breakdown=breakdown, settings=settings
                )
                expected = brute(
                    lambda dr, n=number, t=to_hit, d=drm: shot_label(
                        dr, n, to_hit=t, drm=d, breakdown=breakdown, still_resolves=still_resolves
                    )
                )
                assert as_dict(odds) == expected


@pytest.mark.clause("SYS.odds", "C8.92")
def test_intensive_fire_changes_only_the_malfunction_odds():
    plain = depletion_odds(10, breakdown=12)
    intensive = depletion_odds(10, breakdown=12, intensive_fire=True)
    assert plain["used-last, malfunction"] == 0
    assert intensive["used-last, malfunction"] == Fraction(3, 36)  # DR 10 reaches B# 12-2
    assert plain["none, malfunction"] == Fraction(1, 36)
    assert intensive["none, malfunction"] == Fraction(3, 36)
    for outcome in ("used", "used-last", "none"):
        total_plain = plain[outcome] + plain[f"{outcome}, malfunction"]
        total_intensive = intensive[outcome] + intensive[f"{outcome}, malfunction"]
        assert total_plain == total_intensive


def test_hit_comparison_follows_the_setting():
    strict = Settings(hit_when_final_at_most_to_hit=False)
    assert depletion_odds(12, to_hit=7, settings=strict)["used, hit"] == Fraction(15, 36)
    assert depletion_odds(12, to_hit=7)["used, hit"] == Fraction(21, 36)


@pytest.mark.clause("SYS.odds")
def test_every_distribution_sums_to_exactly_one():
    for number in range(1, 13):
        for to_hit in (None, 2, 7, 12):
            for breakdown in (None, 9, 12):
                odds = depletion_odds(number, to_hit=to_hit, breakdown=breakdown)
                assert sum(p for _, p in odds.items()) == 1
                assert sum(row.probability for row in depletion_table(odds)) == 1


def test_depletion_table_is_in_reading_order():
    rows = depletion_table(depletion_odds(7, to_hit=7, breakdown=11))
    labels = [row.outcome for row in rows]
    assert labels == sorted(labels, key=SHOT_ORDER.index)
    assert rows[0].to_json() == {
        "outcome": "used, hit",
        "probability": "5/12",
        "percent": pytest.approx(41.6667, abs=1e-3),
    }


# --- Canister, brute force from the IFT data file and C8.4/C8.41 by hand ---------------------

IFT_DATA = tomllib.loads(
    resources.files("ordnance.asl").joinpath("data", "ift.toml").read_text(encoding="utf-8")
)


def ift_by_hand(fp, final_dr):
    columns = IFT_DATA["columns"]
    usable = [i for i, column in enumerate(columns) if column <= fp]
    if not usable or final_dr > 15:
        return "-"
    return IFT_DATA["rows"][str(max(final_dr, 0))][usable[-1]]


def canister_by_hand(
    fp, dr, *, moved=False, adjacent=None, drm=0, armored=False, depletion=None, breakdown=None
):
    factor = Fraction(1)
    if moved:
        factor = Fraction(1, 2)
    if adjacent == "hex":
        factor = Fraction(1, 2)
    if adjacent == "hexside":
        factor = Fraction(1, 4)
    if depletion is not None and dr > depletion:
        return "-"
    if armored:
        return "-"
    return ift_by_hand(fp * factor, dr + drm)


CANISTER_CASES = [
    {"fp": fp, "moved": moved, "adjacent": adjacent, "drm": drm}
    for fp in (1, 4, 7, 12, 16, 20, 36)
    for moved in (False, True)
    for adjacent in (None, "hex", "hexside")
    for drm in (-3, 0, 2)
]


@pytest.mark.clause("SYS.odds", "C8.4-noth", "C8.4-halve", "C8.41")
@pytest.mark.parametrize("case", CANISTER_CASES, ids=str)
def test_canister_odds_match_brute_force(case):
    drms = (DRM(case["drm"], "TEM"),) if case["drm"] else ()
    odds = canister_odds(case["fp"], moved=case["moved"], adjacent=case["adjacent"], drms=drms)
    expected = brute(lambda dr: canister_by_hand(dr=dr, **case))
    assert as_dict(odds) == expected
    assert sum(p for _, p in odds.items()) == 1


@pytest.mark.clause("SYS.odds", "C8.4-dr", "C8.4-armor")
@pytest.mark.parametrize("depletion", [None, 6, 9, 12])
@pytest.mark.parametrize("armored", [False, True])
def test_canister_odds_with_depletion_match_brute_force(depletion, armored):
    odds = canister_odds(24, depletion_number=depletion, armored=armored)
    expected = brute(lambda dr: canister_by_hand(24, dr, depletion=depletion, armored=armored))
    assert as_dict(odds) == expected


@pytest.mark.clause("SYS.odds", "C8.4-dr")
def test_canister_supply_odds_match_brute_force():
    odds = canister_odds(16, depletion_number=9, breakdown=11, label=supply_label)

    def by_hand(dr):
        head = shot_label(dr, 9)
        return f"{head}, malfunction" if dr >= 11 else head

    assert as_dict(odds) == brute(by_hand)
    assert [row.outcome for row in supply_table(odds)] == [
        "used",
        "used-last",
        "none",
        "none, malfunction",
    ]


def test_canister_supply_without_depletion_reads_fired():
    odds = canister_odds(16, breakdown=12, label=supply_label)
    assert as_dict(odds) == {"fired": Fraction(35, 36), "fired, malfunction": Fraction(1, 36)}


def test_canister_table_runs_from_worst_to_none():
    rows = canister_table(canister_odds(36))
    labels = [row.outcome for row in rows]
    assert labels[0] == "5KIA" and labels[-1] == "1MC"  # Final DR 2 and 12 on the 36 column
    assert labels == sorted(labels, key=result_severity)


@pytest.mark.clause("SYS.odds", "C8.9-lt", "C8.9-eq", "C8.9-gt", "C8.92")
@pytest.mark.parametrize("intensive_fire", [False, True])
@pytest.mark.parametrize("still_resolves", [True, False])
def test_rolls_with_one_total_get_one_label(intensive_fire, still_resolves):
    # The odds resolve one roll per total (asl/odds.py); every ordered roll must agree with it.
    settings = Settings(malf_shot_still_resolves=still_resolves)
    for number in range(1, 13):
        for breakdown in (None, *range(4, 13)):
            labels: dict[int, set[tuple[str, str, str]]] = {}
            for roll in DR.all():
                ruling = resolve_depletion(
                    number, roll, breakdown, intensive_fire, settings=settings
                )
                labels.setdefault(roll.total, set()).add(
                    tuple(odds_label(ruling, hit) for hit in (None, True, False))
                )
            assert all(len(seen) == 1 for seen in labels.values())


@pytest.mark.clause("SYS.odds")
@pytest.mark.parametrize("breakdown", [None, 9])
def test_grid_cells_match_brute_force(breakdown):
    strict = Settings(hit_when_final_at_most_to_hit=False)
    grid = depletion_grid(range(2, 13), [None, *range(1, 14)], range(-4, 5), breakdown=breakdown)
    strict_grid = depletion_grid([7], [7], [-1, 0, 1], settings=strict)
    for (number, to_hit, drm), odds in grid.items():
        expected = brute(
            lambda dr, n=number, t=to_hit, d=drm: shot_label(
                dr, n, to_hit=t, drm=d, breakdown=breakdown
            )
        )
        assert as_dict(odds) == odds.fractions() == expected
    for (_, _, drm), odds in strict_grid.items():
        # Strictly below the To Hit number: used (DR < 7) and Final DR < 7.
        used_hit = brute(lambda dr, d=drm: dr < 7 and dr + d < 7)[True]
        assert odds == depletion_odds(7, to_hit=7, drm=drm, settings=strict)
        assert odds["used, hit"] == used_hit
