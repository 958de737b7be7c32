"""Exact odds of LnLT shells against independent brute force.

The oracle here is written from the rule texts, not from the modules under test: it walks the
36 ordered dice by hand, reads hit / short / beyond / none in the order of the rule (natural 2
hits, natural 12 and missed doubles place nothing, then parity), finds the hex one short or
beyond with the core geometry and keeps it only with a clear LOS. The WP check is checked
against icepool, the pool against every sequence of depletion dice.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from tests.lnl.hamlet import GRID, grid_map

from ordnance.core.hexgrid import one_beyond, one_short
from ordnance.lnl.los import lnl_los
from ordnance.lnl.odds import expected_shots, shell_odds, shots_odds, wp_check_odds
from ordnance.lnl.wp import Subject

MAPS = {
    "open": grid_map(),
    "woods behind": grid_map({"E3": "woods", "B2": "woods"}),
    "degraded": grid_map({"E5": "brush", "C3": "wheat field"}, {"E4": ("smoke 1",)}),
    "edge": grid_map(),
}
SHOTS = [
    ("open", "E7", "E3"),
    ("open", "A3", "E3"),
    ("woods behind", "E7", "E3"),
    ("woods behind", "A3", "E3"),
    ("degraded", "E7", "E3"),
    ("degraded", "A3", "E3"),
    ("edge", "E4", "E1"),
    ("open", "E7", "E6"),
]


def brute_force(m, firer, target, to_hit, drm):
    """Landing hex label (or ``A|B`` for the enemy's choice, or ``none``) -> probability."""
    f, t = GRID.parse(firer), GRID.parse(target)

    def visible(h):
        return h in m and (h == f or lnl_los(m, f, h).clear)

    counts: Counter[str] = Counter()
    for white in range(1, 7):
        for colored in range(1, 7):
            natural = white + colored
            final = natural + drm
            if natural == 2 or (natural != 12 and final <= to_hit):
                where = (t,)
            elif white == colored:
                where = ()
            elif natural % 2:
                where = one_short(f, t)
            else:
                where = one_beyond(f, t)
            seen = [GRID.label(h) for h in where if visible(h)]
            counts["|".join(seen) if seen else "none"] += 1
    return {k: Fraction(v, 36) for k, v in counts.items()}


@pytest.mark.clause("SYS.odds", "LNL.S-miss", "LNL.S-los")
@pytest.mark.parametrize(("name", "firer", "target"), SHOTS)
@pytest.mark.parametrize(("to_hit", "drm"), [(7, 0), (9, 0), (4, 0), (12, 0), (8, 2), (6, -1)])
def test_the_landing_odds_agree_with_brute_force(name, firer, target, to_hit, drm):
    m = MAPS[name]
    odds = shell_odds(
        m, GRID.parse(firer), GRID.parse(target), to_hit=to_hit, drms=[drm] * bool(drm)
    )
    found = {row.outcome: row.probability for row in odds.outcomes}
    total = drm + sum(d.value for d in odds.drms if d.reason.startswith("degrading"))
    assert found == brute_force(m, firer, target, to_hit, total)
    assert sum(found.values()) == 1
    assert odds.nothing_placed["total"] == found.get("none", 0)
    assert sum(v for k, v in odds.nothing_placed.items() if k != "total") == found.get("none", 0)


@pytest.mark.clause("SYS.odds", "LNL.S-los")
def test_the_chance_that_nothing_lands_because_the_los_is_blocked():
    """From E7 at E3 with woods in E3: every even, non-double miss goes beyond, unseen."""
    odds = shell_odds(MAPS["woods behind"], GRID.parse("E7"), GRID.parse("E3"), to_hit=7)
    # Even misses at 8, 10, 12 that are not doubles: 4 + 2 + 0 of 36.
    assert odds.nothing_placed["blocked"] == Fraction(6, 36)
    assert odds.nothing_placed["double"] == Fraction(3, 36)
    assert odds.results == {
        "hit": Fraction(21, 36),
        "short": Fraction(6, 36),
        "beyond": Fraction(6, 36),
        "none": Fraction(3, 36),
    }
    edge = shell_odds(MAPS["edge"], GRID.parse("E4"), GRID.parse("E1"), to_hit=7)
    assert edge.nothing_placed["off map"] == Fraction(6, 36)


@pytest.mark.clause("SYS.odds", "LNL.S-los")
def test_a_pair_the_enemy_chooses_from_is_one_outcome():
    odds = shell_odds(MAPS["open"], GRID.parse("A3"), GRID.parse("E3"), to_hit=7)
    rows = {row.outcome: row for row in odds.outcomes}
    assert rows["D2|D3"].enemy_chooses and rows["D2|D3"].result == "short"
    assert rows["F2|F3"].hexes == ("F2", "F3")
    assert rows["E3"].to_json()["probability"] == "7/12"


ICE_TOTAL_OPEN = icepool.d6 + 1
ICE_TOTAL_CLOSED = icepool.highest(icepool.d6, icepool.d6) + 1


@pytest.mark.clause("SYS.odds", "LNL.W-check", "LNL.W-closed")
@pytest.mark.parametrize(
    ("subject", "oracle", "shift"),
    [
        (Subject("sq", "squad"), ICE_TOTAL_OPEN, 0),
        (Subject("sq", "squad", closed_space=True), ICE_TOTAL_CLOSED, 0),
        (Subject("sq", "squad", closed_space=True, leader_lm=1), ICE_TOTAL_CLOSED, -1),
        (Subject("ht", "vehicle", open=True, closed_space=True), ICE_TOTAL_OPEN, 0),
    ],
)
def test_the_wp_check_totals_agree_with_icepool(subject, oracle, shift):
    odds = wp_check_odds(subject)
    expected = {outcome + shift: Fraction(oracle.probability(outcome)) for outcome in oracle}
    assert {k: odds[k] for k in odds} == expected


def depletion_oracle(count, number, limit):
    """Expected shots over every sequence of ``limit`` depletion dice (6 ** limit of them)."""
    total = Fraction(0)
    for dice in itertools.product(range(1, 7), repeat=limit):
        left, shots = count, 0
        for die in dice:
            if left == 0:
                break
            shots += 1
            if number is None or die < number:
                left -= 1
        total += shots
    return total / 6**limit


@pytest.mark.clause("SYS.odds", "LNL.S-deplete", "LNL.W-deplete")
@pytest.mark.parametrize(("count", "number"), [(1, 4), (2, 3), (2, None), (3, 6), (1, 1), (0, 4)])
def test_the_expected_shots_of_a_pool_agree_with_every_dice_sequence(count, number):
    for limit in (1, 3, 5):
        assert expected_shots(count, number, limit) == depletion_oracle(count, number, limit)
    assert sum(p for _, p in shots_odds(count, number, 4).items()) == 1


@pytest.mark.clause("LNL.S-deplete")
def test_without_a_limit_each_counter_lasts_six_over_d_minus_one_shots():
    assert expected_shots(2, 4) == 4  # each shot loses the counter with chance 3/6
    assert expected_shots(1, 2) == 6
    assert expected_shots(3, None) == 3  # the optional rule off: one shot per counter
    assert expected_shots(2, 1) is None  # a die is never below 1: the pool never runs out
    # The capped value approaches the formula.
    assert expected_shots(2, 4, 60) == pytest.approx(4, abs=1e-9)
