"""SYS.odds for D13: the dispenser and grenade odds against brute force written here.

The brute force counts the ordered dice directly from the rule text (Final DR = Original + the
DRMs listed in D13.3/D13.32, fired when at most the Usage Number; grenades on dr 1 or 1-2);
it uses none of the modules under test except to build the inputs.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.asl.dispensers import (
    FIRED,
    NOT_FIRED,
    NOT_PLACED,
    PLACED,
    AfvState,
    Dispenser,
    Mount,
    SmokeMortarAim,
    dispenser_odds,
    grenade_odds,
    yes_no_table,
)
from ordnance.asl.notation import Family
from ordnance.asl.smoke import Phase
from ordnance.core.errors import IllegalAction
from ordnance.core.hexgrid import Corner, Hex

FACES = range(1, 7)
# Case A, (first, further) by mount, from reference/asl.md section 2.
CASE_A = {Mount.T: (1, 1), Mount.ST: (2, 1), Mount.NT: (3, 1), Mount.RST: (2, 1)}


def brute_fired(usage: int, drm: int) -> Fraction:
    hits = sum(1 for w in FACES for c in FACES if w + c + drm <= usage)
    return Fraction(hits, 36)


@pytest.mark.clause("SYS.odds", "D13.3")
@pytest.mark.parametrize("usage", range(1, 13))
@pytest.mark.parametrize("ce", [True, False])
def test_sd_odds_match_brute_force(usage, ce):
    odds = dispenser_odds(AfvState(ce=ce), Dispenser(Family.SMOKE_DISCHARGER, usage))
    expected = brute_fired(usage, 0 if ce else 1)
    assert odds[FIRED] == expected and odds[NOT_FIRED] == 1 - expected


@pytest.mark.clause("SYS.odds", "D13.32-drm", "D13.3")
@given(
    usage=st.integers(1, 12),
    ce=st.booleans(),
    moving=st.booleans(),
    in_motion=st.booleans(),
    mount=st.sampled_from(list(Mount)),
    turn=st.integers(0, 5),
    hindrance=st.integers(0, 5),
    dust=st.integers(0, 3),
)
def test_sm_odds_match_brute_force(*, usage, ce, moving, in_motion, mount, turn, hindrance, dust):
    facing = Corner.NNE.turned(turn)
    state = AfvState(
        ce=ce,
        moving=moving,
        in_motion=in_motion,
        mount=mount,
        hex=Hex(0, 0),
        vca=Corner.NNE,
        tca=Corner.NNE if mount is not Mount.NT else None,
    )
    aim = SmokeMortarAim(
        target=facing.vector, in_los=True, hindrance=hindrance, dust=dust, facing=facing
    )
    odds = dispenser_odds(state, Dispenser(Family.SMOKE_MORTAR, usage), aim=aim)
    spines = min(turn, 6 - turn)
    first, further = CASE_A[mount]
    case_a = first + further * (spines - 1) if spines else 0
    drm = (0 if ce else 1) + (2 if moving or in_motion else 0) + case_a + hindrance + dust
    assert odds[FIRED] == brute_fired(usage, drm)
    assert sum(p for _, p in odds.items()) == 1


@pytest.mark.clause("SYS.odds", "D13.34", "D13.3")
@pytest.mark.parametrize("usage", [6, 7, 8])
def test_sn_odds_with_and_without_the_cc_exception(usage):
    sn = Dispenser(Family.NAHVERTEIDIGUNGSWAFFE, usage)
    assert dispenser_odds(AfvState(), sn)[FIRED] == brute_fired(usage, 1)
    cc = AfvState(phase=Phase.CCPH)
    assert dispenser_odds(cc, sn, he_in_cc=True)[FIRED] == brute_fired(usage, 0)


@pytest.mark.clause("SYS.odds", "D13.35")
@pytest.mark.parametrize(
    ("state", "needed"),
    [
        (AfvState(armored=False), 1),
        (AfvState(open_topped=True), 1),
        (AfvState(ce=True), 2),
        (AfvState(ce=True, open_topped=True), 2),
    ],
)
def test_grenade_odds_match_brute_force(state, needed):
    odds = grenade_odds(state)
    expected = Fraction(sum(1 for dr in FACES if dr <= needed), 6)
    assert odds[PLACED] == expected and odds[NOT_PLACED] == 1 - expected


@pytest.mark.clause("SYS.odds", "D13.2-state", "D13.35")
def test_refused_attempts_have_no_odds():
    with pytest.raises(IllegalAction, match=r"^refused by D13\.2 \(D13\.2-state\):"):
        dispenser_odds(AfvState(abandoned=True), Dispenser(Family.SMOKE_DISCHARGER, 7))
    with pytest.raises(IllegalAction, match=r"^refused by D13\.35:"):
        grenade_odds(AfvState())


@pytest.mark.clause("SYS.odds")
def test_yes_no_table_lists_both_rows_even_when_certain():
    odds = dispenser_odds(AfvState(ce=True), Dispenser(Family.SMOKE_DISCHARGER, 12))
    rows = yes_no_table(odds, FIRED, NOT_FIRED)
    assert [(r.outcome, r.probability) for r in rows] == [(FIRED, 1), (NOT_FIRED, 0)]
    assert dataclasses.asdict(rows[1])["probability"] == 0
