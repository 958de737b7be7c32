"""D13.35: vehicular smoke grenades, with the D13.2 rules they borrow."""

from __future__ import annotations

import dataclasses
import re

import pytest

from ordnance.asl.dispensers import (
    AfvState,
    Crew,
    Dispenser,
    check_grenades,
    grenade_number,
    resolve_dispenser,
    resolve_grenades,
)
from ordnance.asl.notation import Family
from ordnance.asl.settings import Settings
from ordnance.asl.smoke import Phase
from ordnance.core.clauses import cite
from ordnance.core.dice import DR, DieRoll
from ordnance.core.errors import IllegalAction
from ordnance.core.hexgrid import Hex

SD7 = Dispenser(Family.SMOKE_DISCHARGER, 7)
UNARMORED = AfvState(armored=False)
BU_OT = AfvState(open_topped=True)
CE_CT = AfvState(ce=True)
CE_OT = AfvState(ce=True, open_topped=True)
BU_CT = AfvState()


def refused(clause: str):
    return pytest.raises(IllegalAction, match=rf"^refused by {re.escape(cite(clause))}:")


def placed_on(state: AfvState) -> list[int]:
    return [dr for dr in range(1, 7) if resolve_grenades(state, DieRoll(dr)).placed]


@pytest.mark.clause("D13.35")
@pytest.mark.parametrize(("state", "needed"), [(UNARMORED, 1), (BU_OT, 1), (CE_CT, 2), (CE_OT, 2)])
def test_usage_dr_numbers(state, needed):
    assert grenade_number(state) == needed
    assert placed_on(state) == list(range(1, needed + 1))


@pytest.mark.clause("D13.35")
def test_ct_afv_crew_must_be_ce():
    with refused("D13.35") as error:
        resolve_grenades(BU_CT, DieRoll(1))
    assert "CE" in str(error.value)


@pytest.mark.clause("D13.35")
def test_only_a_vehicle_with_a_main_armament_carries_grenades():
    with refused("D13.35") as error:
        check_grenades(AfvState(ce=True, has_ma=False))
    assert "Main Armament" in str(error.value)


@pytest.mark.clause("D13.35")
def test_a_six_only_prohibits_placement():
    ruling = resolve_grenades(dataclasses.replace(CE_CT, mp_spent=2), DieRoll(6))
    assert not ruling.placed and ruling.placement is None and ruling.mp_cost == 0
    # Nothing beyond the failure: the MPh goes on, no MP is lost, nothing else is marked.
    assert ruling.state_after == dataclasses.replace(CE_CT, mp_spent=2, grenades_attempted=True)
    assert "A 6 only fails" in ruling.explanation


@pytest.mark.clause("D13.35", "D13.2-mp")
def test_success_places_a_half_inch_counter_in_the_own_location_for_one_mp():
    state = dataclasses.replace(CE_CT, hex=Hex(2, 0), mp_spent=3)
    ruling = resolve_grenades(state, DieRoll(2))
    placement = ruling.placement
    assert ruling.placed and placement is not None
    assert (placement.counter, placement.where, placement.hex) == (
        "half-inch SMOKE",
        "own Location",
        Hex(2, 0),
    )
    assert not placement.dispersed and placement.clause == "D13.35"
    assert ruling.mp_cost == 1 and ruling.state_after.mp_spent == 4


@pytest.mark.clause("D13.35", "D13.2-defensive")
def test_placed_in_the_opponents_mph_it_goes_when_that_mph_ends():
    state = dataclasses.replace(BU_OT, own_turn=False, enemy_expended_in_los=True)
    ruling = resolve_grenades(state, DieRoll(1))
    assert ruling.placement is not None and ruling.placement.removal == "end of this MPh"
    assert ruling.mp_cost == 0
    # The setting about the own MPh does not reach the opponent's MPh.
    keep = Settings(grenade_smoke_gone_after_own_mph=False)
    assert resolve_grenades(state, DieRoll(1), keep).placement.removal == "end of this MPh"
    with refused("D13.2-defensive"):
        resolve_grenades(dataclasses.replace(state, enemy_expended_in_los=False), DieRoll(1))


@pytest.mark.clause("D13.35")
def test_own_mph_removal_follows_the_setting():
    assert resolve_grenades(CE_CT, DieRoll(1)).placement.removal == "end of this MPh"
    keep = Settings().override({"grenade_smoke_gone_after_own_mph": "false"})
    assert resolve_grenades(CE_CT, DieRoll(1), keep).placement.removal == "owner's next PFPh"


@pytest.mark.clause("D13.35")
def test_never_grenades_and_a_dispenser_in_the_same_mph():
    after_dispenser = resolve_dispenser(CE_CT, SD7, DR(6, 6)).state_after
    with refused("D13.35"):
        resolve_grenades(after_dispenser, DieRoll(1))
    after_grenades = resolve_grenades(CE_CT, DieRoll(5)).state_after
    with refused("D13.35"):
        resolve_dispenser(after_grenades, SD7, DR(1, 1))


@pytest.mark.clause("D13.35", "D13.2-once")
def test_grenades_once_per_player_turn():
    after = resolve_grenades(CE_CT, DieRoll(4)).state_after
    with refused("D13.2-once"):
        resolve_grenades(after, DieRoll(1))
    next_turn = dataclasses.replace(
        after.next_player_turn(), phase=Phase.MPH, enemy_expended_in_los=True
    )
    assert resolve_grenades(next_turn, DieRoll(1)).placed


@pytest.mark.clause("D13.35", "D13.2-state", "D13.2-once")
@pytest.mark.parametrize(
    ("change", "clause"),
    [
        ({"phase": Phase.AFPH}, "D13.2-once"),
        ({"abandoned": True}, "D13.2-state"),
        ({"crew": Crew.SHOCKED}, "D13.2-state"),
        ({"fired_weapon": True}, "D13.2-state"),
        ({"mp_spent": 6, "mp_allowance": 6}, "D13.2-mp"),
    ],
)
def test_grenades_borrow_the_dispenser_refusals(change, clause):
    with refused(clause):
        resolve_grenades(dataclasses.replace(CE_CT, **change), DieRoll(1))


@pytest.mark.clause("D13.35")
def test_the_dr_takes_no_drm():
    # A BU OT AFV still places on a 1: no +1 for being buttoned up.
    ruling = resolve_grenades(BU_OT, DieRoll(1))
    assert ruling.placed and ruling.needed == 1
    assert "BU OT AFV" in ruling.explanation
