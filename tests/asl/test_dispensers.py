"""D13.1-D13.34: usage numbers from the counter, refusals, the usage DR, placement, MP and CA."""

from __future__ import annotations

import dataclasses
import re

import pytest

from ordnance.asl.capabilities import AmmoContext, evaluate
from ordnance.asl.dates import ScenarioDate
from ordnance.asl.depletion import require_depletion_applies, resolve_depletion
from ordnance.asl.dispensers import (
    AfvState,
    Crew,
    Dispenser,
    SmokeMortarAim,
    pick_dispenser,
    resolve_dispenser,
)
from ordnance.asl.notation import Family, Token, parse_capabilities
from ordnance.asl.smoke import Phase
from ordnance.core.clauses import cite
from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Corner, Hex

SD7 = Dispenser(Family.SMOKE_DISCHARGER, 7, "sD7")
SP5 = Dispenser(Family.SMOKE_POT, 5, "sP5")
SN8 = Dispenser(Family.NAHVERTEIDIGUNGSWAFFE, 8, "sN7(4)/8(5)")


def on(date: str, elite: bool = False) -> AmmoContext:
    return AmmoContext(ScenarioDate.parse(date), elite=elite)


def pick(notation: str, date: str = "1944-08", kind: Family | None = None, elite: bool = False):
    return pick_dispenser(parse_capabilities(notation), on(date, elite), kind)


def refused(clause: str):
    return pytest.raises(IllegalAction, match=rf"^refused by {re.escape(cite(clause))}:")


# --- D13.1: what the counter carries ---------------------------------------------------------


@pytest.mark.clause("D13.1")
@pytest.mark.parametrize(
    ("notation", "kind", "number"),
    [
        ("sD7", Family.SMOKE_DISCHARGER, 7),
        ("sM8(4+)", Family.SMOKE_MORTAR, 8),
        ("sP5", Family.SMOKE_POT, 5),
    ],
)
def test_usage_number_read_from_the_counter(notation, kind, number):
    dispenser = pick(f"A5(4)/6(5) s8 {notation}")
    assert (dispenser.family, dispenser.usage_number) == (kind, number)


@pytest.mark.clause("D13.1")
def test_daggered_dispenser_keeps_its_number_and_a_numberless_one_is_bad_input():
    assert pick("sD7!1").usage_number == 7
    with pytest.raises(BadInput, match="no Usage Number"):
        pick("sD!")


@pytest.mark.clause("D13.1")
def test_no_dispenser_on_the_counter_is_refused():
    with refused("D13.1"):
        pick("A5(4)/6(5) s8")
    with refused("D13.1"):
        pick("sD7", kind=Family.SMOKE_MORTAR)


@pytest.mark.clause("D13.1")
def test_several_dispenser_types_need_a_choice():
    with pytest.raises(BadInput, match="sD and sM"):
        pick("sM8 sD7")
    assert pick("sM8 sD7", kind=Family.SMOKE_MORTAR).usage_number == 8


@pytest.mark.clause("D13.1")
def test_a_dated_dispenser_out_of_its_dates_is_refused_by_d13_1():
    with refused("D13.1"):
        pick("sM8(4+)", date="1943-12")


@pytest.mark.clause("D13.1", "C8.2-elite")
@pytest.mark.parametrize("notation", ["sD7", "sM8(4+)", "sP5", "sN7(4)/8(5)", "sD9!"])
def test_elite_never_changes_a_usage_number(notation):
    plain = pick(notation, "1945-03")
    elite = pick(notation, "1945-03", elite=True)
    assert elite.usage_number == plain.usage_number
    assert elite.elite and not plain.elite
    mortar = elite.family is Family.SMOKE_MORTAR
    state = AfvState(
        ce=elite.family is not Family.NAHVERTEIDIGUNGSWAFFE, hex=Hex(0, 0), tca=Corner.NNE
    )
    aim = SmokeMortarAim(target=Hex(0, -1), in_los=True) if mortar else None
    ruling = resolve_dispenser(state, elite, DR(1, 1), aim=aim)
    assert ruling.usage_number == plain.usage_number
    assert "Elite status leaves a Usage Number as printed" in ruling.explanation


@pytest.mark.clause("D13.1")
def test_a_dispenser_is_not_a_weapon_so_firing_it_leaves_fired_weapon_unset():
    ruling = resolve_dispenser(AfvState(), SD7, DR(1, 1))
    assert ruling.fired and not ruling.state_after.fired_weapon


@pytest.mark.clause("D13.1")
def test_an_unarmored_vehicle_has_no_dispenser():
    with refused("D13.1"):
        resolve_dispenser(AfvState(armored=False), SD7, DR(1, 1))


# --- C8.9-scope: Usage Numbers, not Depletion Numbers ----------------------------------------


@pytest.mark.clause("C8.9-scope")
def test_depletion_numbers_do_not_apply_to_dispensers():
    capability = evaluate(Token.parse("sD7"), on("1944-08", elite=True))
    assert capability.depletion_number is None and capability.usage_number == 7
    with refused("C8.9-scope"):
        require_depletion_applies(Family.SMOKE_DISCHARGER)
    # The same dice would be "used-last" against a Depletion Number 7; D13.3 reads the Final
    # DR (+1 BU) against the Usage Number, and nothing is exhausted.
    assert resolve_depletion(7, DR(3, 4)).outcome == "used-last"
    ruling = resolve_dispenser(AfvState(), SD7, DR(3, 4))
    assert not ruling.fired and "C8.9-scope" in ruling.clauses
    two_turns_on = ruling.state_after.next_player_turn().next_player_turn()
    again = resolve_dispenser(dataclasses.replace(two_turns_on, phase=Phase.MPH), SD7, DR(1, 1))
    assert again.fired


# --- D13.34: the dated sN ----------------------------------------------------------------------


@pytest.mark.clause("D13.34")
@pytest.mark.parametrize(
    ("date", "number"),
    [("1944-07", 7), ("1944-09", 7), ("1944-12", 7), ("1945-01", 8), ("1945-05", 8)],
)
def test_dated_sn_uses_the_first_number_in_late_1944_and_the_second_in_1945(date, number):
    assert pick("sN7(4)/8(5)", date).usage_number == number


@pytest.mark.clause("D13.34")
@pytest.mark.parametrize("date", ["1944-01", "1944-06", "1943-11"])
def test_dated_sn_before_july_1944_is_refused(date):
    with refused("D13.34"):
        pick("sN7(4)/8(5)", date)


@pytest.mark.clause("D13.34")
def test_sn_needs_a_bu_afv():
    with refused("D13.34"):
        resolve_dispenser(AfvState(ce=True), SN8, DR(1, 1))
    ruling = resolve_dispenser(AfvState(), SN8, DR(3, 4))
    assert ruling.fired and ruling.final_dr == 8
    assert ruling.placement is not None and ruling.placement.where == "own hex"
    assert ruling.placement.clause == "D13.34" and ruling.placement.white


@pytest.mark.clause("D13.34", "D13.3", "D13.1")
def test_sn_he_in_close_combat_has_no_bu_drm_and_places_no_smoke():
    state = AfvState(phase=Phase.CCPH)
    ruling = resolve_dispenser(state, SN8, DR(4, 4), he_in_cc=True)
    assert ruling.drms == () and ruling.final_dr == 8 and ruling.fired
    assert ruling.placement is None and ruling.he_in_cc
    # In Close Combat the sN is a weapon (D13.1 EXC).
    assert ruling.state_after.fired_weapon
    with refused("D13.34"):
        resolve_dispenser(AfvState(), SN8, DR(4, 4), he_in_cc=True)
    with refused("D13.34"):
        resolve_dispenser(state, SD7, DR(4, 4), he_in_cc=True)
    with refused("D13.34"):
        resolve_dispenser(dataclasses.replace(state, ce=True), SN8, DR(4, 4), he_in_cc=True)


# --- D13.33: the sP ----------------------------------------------------------------------------


@pytest.mark.clause("D13.33")
def test_sp_needs_a_ce_crew_and_smokes_its_own_hex():
    with refused("D13.33"):
        resolve_dispenser(AfvState(), SP5, DR(1, 1))
    ruling = resolve_dispenser(AfvState(ce=True, hex=Hex(3, -1)), SP5, DR(2, 3))
    assert ruling.fired and ruling.drms == ()
    placement = ruling.placement
    assert placement is not None
    assert (placement.where, placement.hex, placement.level, placement.clause) == (
        "own hex",
        Hex(3, -1),
        "Base Level",
        "D13.33",
    )


# --- D13.31: the sD ----------------------------------------------------------------------------


@pytest.mark.clause("D13.31")
def test_sd_places_white_dispersed_smoke_at_base_level_of_its_own_hex():
    ruling = resolve_dispenser(AfvState(hex=Hex(1, 2)), SD7, DR(2, 2))
    placement = ruling.placement
    assert placement is not None
    assert placement.counter == "Dispersed SMOKE" and placement.white and placement.dispersed
    assert (placement.where, placement.hex, placement.range, placement.level) == (
        "own hex",
        Hex(1, 2),
        0,
        "Base Level",
    )
    assert "D13.31" in ruling.clauses


# --- D13.3: the usage DR -----------------------------------------------------------------------


@pytest.mark.clause("D13.3")
@pytest.mark.parametrize(
    ("ce", "roll", "final", "fired"),
    [
        (False, DR(3, 3), 7, True),  # BU: 6 + 1 = 7 <= 7
        (False, DR(3, 4), 8, False),  # BU: 7 + 1 = 8 > 7
        (True, DR(3, 4), 7, True),  # CE: no DRM
        (True, DR(4, 4), 8, False),
    ],
)
def test_final_dr_at_most_the_usage_number_fires(ce, roll, final, fired):
    ruling = resolve_dispenser(AfvState(ce=ce), SD7, roll)
    assert (ruling.original_dr, ruling.final_dr, ruling.fired) == (roll.total, final, fired)
    assert [d.value for d in ruling.drms] == ([] if ce else [1])
    if not ce:
        assert ruling.drms[0].reason == "the AFV is buttoned up"
        assert ruling.drms[0].clause == "D13.3"


@pytest.mark.clause("D13.3", "D13.2-once")
def test_a_failed_attempt_places_nothing_and_may_be_repeated_next_player_turn():
    ruling = resolve_dispenser(AfvState(), SD7, DR(6, 6))
    assert not ruling.fired and ruling.placement is None and ruling.mp_cost == 0
    assert ruling.state_after.dispenser_attempted
    with refused("D13.2-once"):
        resolve_dispenser(ruling.state_after, SD7, DR(1, 1))
    # The opponent's Player Turn is another Player Turn.
    later = dataclasses.replace(
        ruling.state_after.next_player_turn(), phase=Phase.MPH, enemy_expended_in_los=True
    )
    assert resolve_dispenser(later, SD7, DR(1, 1)).fired


# --- D13.2-once / D13.2-state: when and who ----------------------------------------------------


@pytest.mark.clause("D13.2-once")
@pytest.mark.parametrize("phase", [p for p in Phase if p is not Phase.MPH])
def test_attempts_outside_the_mph_are_refused(phase):
    with refused("D13.2-once"):
        resolve_dispenser(AfvState(phase=phase), SD7, DR(1, 1))


@pytest.mark.clause("D13.2-state")
def test_abandoned_afv_is_refused():
    with refused("D13.2-state") as error:
        resolve_dispenser(AfvState(abandoned=True), SD7, DR(1, 1))
    assert "Abandoned" in str(error.value)


@pytest.mark.clause("D13.2-state")
@pytest.mark.parametrize("crew", [Crew.STUNNED, Crew.SHOCKED, Crew.BROKEN])
def test_stunned_shocked_or_broken_crew_is_refused(crew):
    with refused("D13.2-state") as error:
        resolve_dispenser(AfvState(crew=crew), SD7, DR(1, 1))
    assert str(crew) in str(error.value)


@pytest.mark.clause("D13.2-state")
@pytest.mark.parametrize("own_turn", [True, False])
def test_afv_that_fired_any_weapon_this_player_turn_is_refused(own_turn):
    state = AfvState(fired_weapon=True, own_turn=own_turn, enemy_expended_in_los=True)
    with refused("D13.2-state") as error:
        resolve_dispenser(state, SD7, DR(1, 1))
    assert "First Fire" in str(error.value)


# --- D13.2-mp -----------------------------------------------------------------------------------


@pytest.mark.clause("D13.2-mp")
def test_firing_in_the_own_mph_costs_one_mp_and_failing_costs_none():
    state = AfvState(mp_spent=4, mp_allowance=12)
    fired = resolve_dispenser(state, SD7, DR(1, 2))
    assert fired.mp_cost == 1 and fired.state_after.mp_spent == 5
    assert "spent for this alone" in fired.explanation
    failed = resolve_dispenser(state, SD7, DR(6, 5))
    assert failed.mp_cost == 0 and failed.state_after.mp_spent == 4


@pytest.mark.clause("D13.2-mp")
def test_an_afv_with_no_mp_left_cannot_try_in_its_own_mph():
    with refused("D13.2-mp"):
        resolve_dispenser(AfvState(mp_spent=10, mp_allowance=10), SD7, DR(1, 1))
    # In the opponent's MPh a success costs nothing, so the allowance does not matter.
    state = AfvState(mp_spent=10, mp_allowance=10, own_turn=False, enemy_expended_in_los=True)
    assert resolve_dispenser(state, SD7, DR(1, 1)).mp_cost == 0


# --- D13.2-defensive ---------------------------------------------------------------------------


@pytest.mark.clause("D13.2-defensive")
def test_opponents_mph_needs_an_enemy_expenditure_in_los():
    with refused("D13.2-defensive"):
        resolve_dispenser(AfvState(own_turn=False), SD7, DR(1, 1))
    ruling = resolve_dispenser(
        AfvState(own_turn=False, enemy_expended_in_los=True, mp_spent=0), SD7, DR(2, 2)
    )
    assert ruling.fired and ruling.mp_cost == 0 and ruling.state_after.mp_spent == 0
    assert "D13.2-defensive" in ruling.clauses


@pytest.mark.clause("D13.31")
def test_without_a_map_the_smoke_goes_in_an_unnamed_own_hex():
    state = AfvState(hex=None, tca=None, vca=None)
    assert resolve_dispenser(state, SD7, DR(1, 1)).placement is not None
    assert resolve_dispenser(state, SD7, DR(1, 1)).placement.hex is None


def test_contradictory_states_are_bad_input():
    with pytest.raises(BadInput):
        AfvState(armored=False, ce=True)
    with pytest.raises(BadInput):
        AfvState(armored=False, open_topped=True)
    with pytest.raises(BadInput):
        AfvState(mp_spent=-1)
    with pytest.raises(BadInput):
        Dispenser(Family.SMOKE_DISCHARGER, 13)


def test_next_player_turn_keeps_motion_and_facing():
    state = AfvState(in_motion=True, tca=Corner.E, grenades_attempted=True, mp_spent=2)
    after = state.next_player_turn()
    assert after.in_motion and after.tca is Corner.E
    assert not after.grenades_attempted and after.mp_spent == 0 and not after.own_turn
