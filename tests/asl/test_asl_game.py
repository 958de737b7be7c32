"""The C8 rules in game form: the ASL ruleset driven command by command, with physical dice.

Each test plays commands against the tracked state (phase, what fired, the side record) and
checks that the state changes exactly as the clause says, or that the command is refused with
that clause. The service around the ruleset (storage, tokens, fair dice) is tested in
tests/game/.
"""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from ordnance.asl.game import AslRuleset
from ordnance.asl.notation import Family
from ordnance.core.dice import DR, ManualDice
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.maps import MapFiles
from ordnance.core.ruleset import Resolution
from ordnance.game.scenario import scenario_from_mapping

GERMAN_UNITS = {
    "pak": {"notation": "A5(2)/4(3)/3(4) s7 WP6 IR", "size": "75L", "breakdown": 11},
    "pz4": {"kind": "vehicle", "notation": "A5(2)/4(3)/3(4) s8 sD5", "size": "75L"},
    "stug": {"kind": "vehicle", "notation": "H6(3+) C7 AP7 HE6", "canister_fp": 12, "he_fp": 8},
    "psk": {"kind": "scw", "weapon": "PSK"},
}
RUSSIAN_UNITS = {
    "t34": {"kind": "vehicle", "notation": "A5(4)/6(5) s8", "size": "85L"},
    "at45": {"notation": "A C8", "size": "45L", "canister_fp": 8},
}


def scenario(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": "asl",
        "name": "game-form test",
        "date": "1944-09",
        "turns": 2,
        "first": "german",
        "sides": {
            "german": {"units": GERMAN_UNITS},
            "russian": {"units": RUSSIAN_UNITS},
        },
    }
    return {**data, **changes}


class Play:
    """A game driven through the ruleset alone: commands in, events folded, rulings out."""

    def __init__(self, **changes: Any) -> None:
        self.rules = AslRuleset()
        self.state = self.rules.initial_state(self.rules.load_scenario(scenario(**changes)))

    def do(self, side: str, text: str, *dice: str) -> Resolution:
        command = self.rules.parse_command(side, shlex.split(text))
        roll_source = ManualDice([DR.parse(d) for d in dice])
        resolution = self.rules.resolve(self.state, command, roll_source)
        for event in resolution.events:
            self.state = self.rules.apply(self.state, event)
        return resolution

    def to(self, phase: str, player: str | None = None) -> None:
        """Advance (each phase ended by its owner) to ``phase`` of ``player``'s Player Turn."""
        for _ in range(40):
            if str(self.state.phase) == phase and player in (None, self.state.player):
                return
            self.do(self.state.phase_owner, "phase next")
        raise AssertionError(f"never reached {phase}")

    def ammo(self, unit: str) -> dict[str, dict[str, Any]]:
        view = self.rules.view(self.state)
        return {row["ammo"]: row for row in view["units"][unit]["ammunition"]}

    def refused(self, side: str, text: str, *dice: str) -> IllegalAction:
        before = self.state
        with pytest.raises(IllegalAction) as error:
            self.do(side, text, *dice)
        assert self.state is before  # a refusal changes nothing
        return error.value


def kinds(resolution: Resolution) -> list[str]:
    return [event.kind for event in resolution.events]


# --- C8.0, C8.9: the side record -------------------------------------------------------------


@pytest.mark.clause("C8.0")
def test_every_gun_starts_with_its_counter_in_the_side_record():
    play = Play()
    view = play.rules.view(play.state)
    assert set(view["records"]["german"]) == {"pak", "pz4", "stug"}  # not the SCW
    assert view["records"]["russian"]["t34"] == {"capabilities": "A5(4)/6(5) s8", "exhausted": []}
    assert play.ammo("pak")["APCR"]["usable"] and play.ammo("pak")["APCR"]["depletion_number"] == 3


@pytest.mark.clause("C8.0", "C8.9-lt")
def test_a_dr_below_the_depletion_number_uses_it_and_keeps_it():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "fire pak --ammo APCR", "1,1")
    assert done.ruling["depletion"]["outcome"] == "used"
    assert kinds(done) == ["record", "fired"]
    assert play.ammo("pak")["APCR"]["usable"] and not play.ammo("pak")["APCR"]["exhausted"]


@pytest.mark.clause("C8.0", "C8.9-eq")
def test_a_dr_equal_to_the_depletion_number_is_the_last_round():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "fire pak --ammo APCR", "1,2")
    assert done.ruling["depletion"]["outcome"] == "used-last" and done.ruling["fired"]
    assert play.ammo("pak")["APCR"]["exhausted"]
    assert play.state.records["german"].guns["pak"].exhausted == frozenset({Family.APCR})
    refusal = play.refused("german", "fire pak --ammo APCR", "1,1")
    assert refusal.clause == "C8.9-eq"
    play.to("PFPh", "german")  # next Game Turn: still out, for the whole scenario
    assert play.refused("german", "fire pak --ammo APCR", "1,1").clause == "C8.9-eq"


@pytest.mark.clause("C8.9-gt", "C8.5-phase")
def test_a_dr_above_it_means_none_and_the_gun_has_not_fired():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "fire pak --ammo APCR", "3,3")
    assert done.ruling["depletion"]["outcome"] == "none"
    assert kinds(done) == ["record"]  # no 'fired': it counts as not having fired
    assert not done.ruling["fired"] and play.state.shots == ()
    assert play.ammo("pak")["APCR"]["exhausted"]
    # ... so the phase is still open to SMOKE, and the Gun may fire again with other ammo;
    # that shot counts, so a third one is refused (no Rate of Fire in these texts).
    assert play.do("german", "fire pak --ammo SMOKE", "2,2").ruling["fired"]
    assert play.refused("german", "fire pak --ammo AP", "4,4").clause == "A3"


@pytest.mark.clause("C8.9-gt")
def test_a_malfunctioned_gun_may_not_fire_again():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "fire pak --ammo APCR", "6,5")  # none, and 11 reaches the B#
    assert done.ruling["malfunctioned"] and "malfunction" in kinds(done)
    assert play.refused("german", "fire pak --ammo AP", "1,1").clause == "C8.9-gt"


@pytest.mark.clause("C8.9-scope")
def test_a_smoke_dispenser_is_not_fired_through_depletion():
    play = Play()
    play.to("PFPh")
    assert play.refused("german", "fire pz4 --ammo sD", "1,1").clause == "C8.9-scope"
    assert play.ammo("pz4")["sD"]["depletion_number"] is None


@pytest.mark.clause("C8.92")
def test_intensive_fire_lowers_the_breakdown_number_not_the_depletion_number():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "fire pak --ammo SMOKE --intensive-fire", "4,5")
    depletion = done.ruling["depletion"]
    assert depletion["depletion_number"] == 7 and depletion["breakdown"] == 9
    assert depletion["outcome"] == "none" and done.ruling["malfunctioned"]
    assert "C8.92" in done.ruling["clauses"]


# --- C8.1, C8.2, C8.91: what a Gun has on the scenario date ------------------------------------


@pytest.mark.clause("C8.1-announce")
def test_the_ammunition_is_declared_in_the_command_before_any_roll():
    play = Play()
    play.to("PFPh")
    dice = ManualDice([DR(1, 1)])
    with pytest.raises(BadInput, match="needs --ammo"):
        play.rules.resolve(play.state, play.rules.parse_command("german", ["fire", "pak"]), dice)
    assert dice.roll_dr("still there") == DR(1, 1)  # nothing was rolled for it


@pytest.mark.clause("C8.1-rof")
def test_each_shot_of_one_gun_declares_its_own_ammunition():
    play = Play()
    play.to("PFPh")
    first = play.do("german", "fire pak --ammo APCR", "1,1")
    assert [s.ammo for s in play.state.shots] == [Family.APCR]
    play.to("DFPh", "russian")
    second = play.do("german", "fire pak --ammo AP", "2,2")
    play.to("PFPh", "german")
    third = play.do("german", "fire pak --ammo APCR", "1,1")
    assert [r.ruling["ammo"] for r in (first, second, third)] == ["APCR", "AP", "APCR"]


@pytest.mark.clause("C8.1-date", "C8.91")
def test_a_dated_number_follows_the_scenario_year():
    early = Play(date="1943-06")
    early.to("DFPh")
    assert early.refused("russian", "fire t34 --ammo APCR", "1,1").clause == "C8.1-date"
    assert Play(date="1944-06").ammo("t34")["APCR"]["depletion_number"] == 5
    assert Play(date="1945-02").ammo("t34")["APCR"]["depletion_number"] == 6


@pytest.mark.clause("C8.1-date", "C8.2-chart")
def test_a_counter_without_a_number_takes_it_from_the_chart():
    play = Play()
    assert play.ammo("at45")["APCR"]["depletion_number"] == 6  # russian 45L, 1944
    play.to("DFPh")
    done = play.do("russian", "fire at45 --ammo APCR", "3,3")
    assert done.ruling["depletion"]["outcome"] == "used-last"
    assert "C8.2-chart" in done.ruling["clauses"] and "1944 column" in done.ruling["explanation"]


@pytest.mark.clause("C8.2-month", "C8.2-chart")
def test_the_chart_month_starts_availability():
    units = {"m10": {"kind": "vehicle", "notation": "A", "size": "76L"}}
    sides = {"american": {"units": units}, "german": {"units": GERMAN_UNITS}}
    july = Play(date="1944-07", sides=sides, first="american")
    july.to("PFPh")
    assert july.refused("american", "fire m10 --ammo APCR", "1,1").clause == "C8.2-chart"
    august = Play(date="1944-08", sides=sides, first="american")
    assert august.ammo("m10")["APCR"]["depletion_number"] == 4


@pytest.mark.clause("C8.2-counter")
def test_the_counters_own_number_overrides_the_chart():
    units = {"su85": {"kind": "vehicle", "notation": "A7", "size": "85L"}}
    play = Play(sides={"german": {"units": GERMAN_UNITS}, "russian": {"units": units}})
    assert play.ammo("su85")["APCR"]["depletion_number"] == 7  # the chart says 5


@pytest.mark.clause("C8.2-elite")
def test_elite_adds_one_to_counter_and_chart_numbers():
    sides = {
        "german": {"units": GERMAN_UNITS, "elite": True},
        "russian": {"units": RUSSIAN_UNITS, "elite": True},
    }
    play = Play(sides=sides)
    assert play.ammo("pak")["APCR"]["depletion_number"] == 4
    assert play.ammo("at45")["APCR"]["depletion_number"] == 7
    assert play.ammo("pz4")["sD"]["depletion_number"] is None  # a Usage Number gets no bonus


@pytest.mark.clause("C8.2-service")
def test_a_commonwealth_side_uses_the_american_row_for_an_american_gun():
    units = {"firefly": {"kind": "vehicle", "notation": "A", "size": "76L"}}
    sides = {"canadian": {"units": units}, "german": {"units": GERMAN_UNITS}}
    play = Play(date="1944-09", sides=sides, first="canadian")
    row = play.ammo("firefly")["APCR"]
    assert row["depletion_number"] == 4 and "american 76L" in row["why"]


# --- C8.3, C8.31: HEAT ---------------------------------------------------------------------------


@pytest.mark.clause("C8.3-heat-date")
def test_german_ordnance_heat_starts_in_may_1942():
    units = {"pz3": {"kind": "vehicle", "notation": "H6"}}
    sides = {"german": {"units": units}, "russian": {"units": RUSSIAN_UNITS}}
    april = Play(date="1942-04", sides=sides)
    april.to("PFPh")
    refusal = april.refused("german", "fire pz3 --ammo HEAT --target vehicle", "1,1")
    assert refusal.clause == "C8.3-heat-date"
    june = Play(date="1942-06", sides=sides)
    june.to("PFPh")
    assert june.do("german", "fire pz3 --ammo HEAT --target vehicle", "1,1").ruling["fired"]


@pytest.mark.clause("C8.3-scw", "C8.31-heq", "C8.31-residual")
def test_an_scw_fires_heat_without_a_depletion_number_or_record():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "fire psk --ammo HEAT --target vehicle", "6,6")
    assert done.ruling["depletion"] is None and kinds(done) == ["fired"]
    assert "C8.3-scw" in done.ruling["clauses"]
    assert done.ruling["he_equivalency"]["fp"] == 12 and done.ruling["he_equivalency"]["residual"]
    assert "psk" not in play.rules.view(play.state)["records"]["german"]


@pytest.mark.clause("C8.31-target")
def test_heat_only_at_vehicles_guns_or_covered_infantry():
    play = Play()
    play.to("PFPh")
    refusal = play.refused("german", "fire stug --ammo HEAT --target infantry --tem woods", "1,1")
    assert refusal.clause == "C8.31-target"
    assert play.do("german", "fire stug --ammo HEAT --target infantry --tem building", "1,1")


@pytest.mark.clause("C8.31-heq", "C8.31-residual")
def test_ap_type_shots_carry_their_he_equivalency_and_leave_no_residual():
    play = Play()
    play.to("PFPh")
    apcr = play.do("german", "fire pak --ammo APCR", "1,1").ruling["he_equivalency"]
    ap = play.do("german", "fire pz4 --ammo AP", "2,2").ruling["he_equivalency"]
    heat = play.do("german", "fire stug --ammo HEAT --target gun", "1,2").ruling["he_equivalency"]
    assert (apcr["fp"], apcr["residual"]) == (1, False)
    assert (ap["fp"], ap["residual"]) == (2, False)  # 75mm
    assert heat["fp"] == 6  # the IFT column left of 8


@pytest.mark.clause("C8.31-atr")
def test_only_a_20mm_atr_has_the_ap_he_equivalency():
    units = {
        "atr14": {"kind": "atr", "caliber": 14},
        "atr20": {"kind": "atr", "caliber": 20},
    }
    play = Play(sides={"german": {"units": units}, "russian": {"units": RUSSIAN_UNITS}})
    play.to("PFPh")
    assert play.do("german", "fire atr14 --ammo AP", "2,2").ruling["he_equivalency"]["fp"] is None
    assert play.do("german", "fire atr20 --ammo AP", "2,2").ruling["he_equivalency"]["fp"] == 1


# --- C8.4: canister ------------------------------------------------------------------------------


@pytest.mark.clause("C8.4-noth", "C8.4-dr")
def test_canister_rolls_one_ift_dr_that_is_also_the_depletion_check():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "canister stug --drm 1", "3,4")
    attack = done.ruling["canister"]
    assert attack["original_dr"] == 7 and attack["final_dr"] == 8
    assert attack["depletion"] == "used-last" and play.ammo("stug")["Canister"]["exhausted"]
    assert kinds(done) == ["record", "fired"]
    assert play.refused("german", "canister stug", "1,1").clause == "C8.9-eq"


@pytest.mark.clause("C8.4-armor")
def test_canister_has_no_effect_on_an_armored_target():
    play = Play()
    play.to("PFPh")
    assert play.do("german", "canister stug --armored", "1,1").ruling["canister"]["result"] == "-"


@pytest.mark.clause("C8.4-halve")
def test_canister_is_halved_after_the_afv_moved_this_player_turn():
    play = Play()
    play.to("MPh")
    play.do("german", "move stug")
    play.to("AFPh")
    assert play.do("german", "canister stug", "1,1").ruling["canister"]["fp"] == 6
    play.to("RPh", "russian")
    play.to("AFPh", "german")  # a new Player Turn forgets the movement
    assert play.do("german", "canister stug", "1,1").ruling["canister"]["fp"] == 12


@pytest.mark.clause("C8.4-halve")
def test_canister_is_halved_in_the_afph_when_infantry_manned_the_gun_in_the_mph():
    play = Play(first="russian")
    play.to("MPh")
    play.do("russian", "man at45")
    assert play.state.status["at45"].manned
    play.to("AFPh")
    assert play.do("russian", "canister at45", "1,1").ruling["canister"]["fp"] == 4


@pytest.mark.clause("C8.41", "C8.4-dr")
def test_canister_on_the_adjacent_hex_is_halved_or_quartered_on_the_same_dr():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "canister stug --adjacent hex", "1,1").ruling
    assert done["canister"]["fp"] == 12 and done["adjacent"]["fp"] == 6
    assert [(h["role"], h["fp"]) for h in done["hexes"]] == [("target", 12), ("adjacent", 6)]
    play.to("DFPh", "russian")
    quartered = play.do("german", "canister stug --adjacent hexside", "1,1").ruling
    assert [(h["role"], h["fp"]) for h in quartered["hexes"]] == [
        ("target", 12),
        ("adjacent", 3),
        ("adjacent", 3),
    ]


def aimed(**changes: Any) -> Play:
    units = {**GERMAN_UNITS, "stug": {**GERMAN_UNITS["stug"], "hex": "4G5", "ca": "E"}}
    sides = {"german": {"units": units}, "russian": {"units": RUSSIAN_UNITS}}
    return Play(boards="4,3", sides=sides, **changes)


@pytest.mark.clause("C8.4-target", "C8.41")
def test_canister_aims_at_one_of_five_vertices_two_hexsides_out():
    play = aimed()
    play.to("PFPh")
    middle = play.do("german", "canister stug --aim 3 --adjacent hexside", "1,1").ruling
    assert middle["aim"]["cluster"] == ["4I5", "4J4", "4J5"]
    assert middle["aim"]["adjacent"] == ["4H4", "4H5"] and "C8.4-target" in middle["clauses"]
    play.to("DFPh", "russian")
    refusal = play.refused("german", "canister stug --aim 1 --adjacent hexside", "1,1")
    assert refusal.clause == "C8.41"  # aiming point 1's line passes one hex only
    with pytest.raises(BadInput, match="1 to 5"):
        play.do("german", "canister stug --aim 6", "1,1")


@pytest.mark.clause("C8.4-target")
def test_a_moved_afv_aims_from_its_new_hex_and_ca():
    play = aimed()
    play.to("MPh")
    play.do("german", "move stug --to 4H5 --ca SSE")
    assert play.rules.view(play.state)["units"]["stug"]["hex"] == "4H5"
    play.to("AFPh")
    aim = play.do("german", "canister stug --aim 1", "1,1").ruling["aim"]
    assert len(aim["cluster"]) == 3 and "4H5" not in aim["cluster"]


@pytest.mark.clause("C8.4-building")
def test_canister_at_three_levels_of_a_building_two_hexes_away():
    play = aimed()
    play.to("PFPh")
    done = play.do("german", "canister stug --building 4I5 --level 1 --top 2", "1,1").ruling
    assert done["aim"] == {"building": "4I5", "levels": [0, 1, 2]}
    play.to("DFPh", "russian")
    too_near = "canister stug --building 4H5 --level 1 --top 2"
    assert play.refused("german", too_near, "1,1").clause == "C8.4-building"
    too_high = "canister stug --building 4I5 --level 2 --top 2"
    assert play.refused("german", too_high, "1,1").clause == "C8.4-building"


@pytest.mark.clause("C8.42")
def test_canister_cannot_rubble_set_fires_or_clear_wire():
    play = Play()
    play.to("PFPh")
    assert play.refused("german", "canister stug --purpose wire", "1,1").clause == "C8.42"


# --- C8.5, C8.51, C8.52, C8.6: SMOKE and WP from the tracked phase -----------------------------


@pytest.mark.clause("C8.5-phase", "C8.51", "C8.5-effect")
def test_smoke_at_the_start_of_the_pfph_is_full_strength():
    play = Play()
    play.to("PFPh")
    placement = play.do("german", "fire pak --ammo SMOKE", "1,1").ruling["placement"]
    assert placement["allowed"] and placement["dispersed"] is False
    assert placement["hindrance_levels"] == 2


@pytest.mark.clause("C8.5-phase")
def test_no_smoke_once_anything_else_was_fired_this_phase():
    play = Play()
    play.to("PFPh")
    play.do("german", "fire pz4 --ammo AP", "4,4")
    assert play.refused("german", "fire pak --ammo SMOKE", "1,1").clause == "C8.5-phase"
    play.to("MPh")
    assert play.refused("german", "fire pak --ammo SMOKE", "1,1").clause == "C8.5-phase"


@pytest.mark.clause("C8.5-phase", "C8.51")
def test_smoke_in_the_defenders_dfph_is_dispersed():
    play = Play()
    play.to("DFPh")
    placement = play.do("russian", "fire t34 --ammo SMOKE", "1,1").ruling["placement"]
    assert placement["dispersed"] is True
    play.to("AFPh")
    assert play.refused("german", "fire pak --ammo SMOKE", "1,1").clause == "C8.5-phase"


@pytest.mark.clause("C8.52")
def test_a_gun_may_not_smoke_its_own_hex():
    play = Play()
    play.to("PFPh")
    assert play.refused("german", "fire pak --ammo SMOKE --own-hex", "1,1").clause == "C8.52"
    inside = play.do("german", "fire pak --ammo SMOKE --interior-building", "1,1")
    assert inside.ruling["placement"]["level"] == "targeted"


@pytest.mark.clause("C8.6")
def test_wp_in_any_friendly_fire_phase_before_other_fire():
    play = Play()
    play.to("PFPh")
    play.do("german", "fire pz4 --ammo SMOKE", "1,1")  # smoke does not close the phase
    assert play.do("german", "fire pak --ammo WP", "1,1").ruling["placement"]["dispersed"] is False
    play.to("RPh", "russian")
    play.to("AFPh", "german")  # the next German Player Turn: pak did not Prep Fire in it
    assert play.do("german", "fire pak --ammo WP", "1,1").ruling["placement"]["dispersed"] is True
    play.do("german", "fire pz4 --ammo HE", "1,1")
    assert play.refused("german", "fire pak --ammo WP", "1,1").clause == "C8.6"
    play.to("MPh", "russian")
    assert play.refused("german", "fire pak --ammo WP", "1,1").clause == "C8.6"


# --- C8.7, C8.8 ----------------------------------------------------------------------------------


@pytest.mark.clause("C8.7")
def test_illuminating_rounds_are_recorded_not_fired():
    play = Play()
    play.to("PFPh")
    assert play.ammo("pak")["IR"]["usable"] is False
    assert play.refused("german", "fire pak --ammo IR", "1,1").clause == "C8.7"


@pytest.mark.clause("C8.8")
def test_limited_stowage_is_a_depletion_number_for_ap_or_he():
    play = Play()
    play.to("PFPh")
    done = play.do("german", "fire stug --ammo HE", "3,3")
    assert done.ruling["depletion"]["outcome"] == "used-last"
    assert play.refused("german", "fire stug --ammo HE", "1,1").clause == "C8.9-eq"
    play.to("DFPh", "russian")
    assert play.do("german", "fire stug --ammo AP", "1,1").ruling["depletion"]["outcome"] == "used"
    # A Gun without limited stowage fires AP with no depletion check at all.
    assert play.do("german", "fire pz4 --ammo AP", "1,1").ruling["depletion"] is None


# --- the sequence of play the C8 rules read from ----------------------------------------------


@pytest.mark.clause("SYS.cite")
def test_fire_only_in_the_sides_own_fire_phases():
    play = Play()
    assert play.refused("german", "fire pak --ammo AP", "1,1").clause == "A3"  # RPh
    play.to("DFPh")
    assert play.refused("german", "fire pak --ammo AP", "1,1").clause == "A3"
    assert play.refused("german", "phase next").clause == "A3"  # the DFPh is the defender's


@pytest.mark.clause("SYS.record")
def test_a_side_cannot_act_for_the_other_sides_units():
    play = Play()
    play.to("MPh")
    assert play.refused("german", "fire t34 --ammo AP", "1,1").clause == "SYS.record"


def test_the_scenario_ends_after_the_last_player_turn():
    play = Play(turns=1)
    play.to("CCPh", "russian")
    done = play.do("russian", "phase next")
    assert kinds(done) == ["over"] and play.rules.is_over(play.state)
    assert play.rules.to_move(play.state) is None
    assert play.refused("german", "phase next").clause == "A3"


def test_legal_actions_are_exactly_the_commands_that_pass_their_checks():
    play = Play()
    play.to("PFPh")
    actions = play.rules.legal_actions(play.state, "german")
    assert "fire pak --ammo APCR" in actions and "fire pak --ammo IR" not in actions
    assert "canister stug" in actions and "move stug" not in actions
    assert play.rules.legal_actions(play.state, "russian") == ()
    for text in actions:
        play.rules.parse_command("german", shlex.split(text))


@pytest.mark.parametrize(
    ("changes", "fault"),
    [
        ({"date": "1944"}, "date"),
        ({"sides": {"german": {}}}, "exactly two sides"),
        ({"sides": {"german": {"units": {"x": {"notation": "Q7"}}}, "r": {}}}, "notation"),
        ({"sides": {"german": {"units": {"x": {"notation": "A"}}}, "r": {}}}, "gun size"),
        ({"sides": {"german": {"units": {"x": {"kind": "tank"}}}, "r": {}}}, "kind"),
        ({"colour": "red"}, "unknown key"),
        ({"settings": {"nonsense": 1}}, "unknown setting"),
        ({"first": "italian"}, "names no side"),
    ],
)
def test_a_malformed_scenario_is_bad_input_naming_the_key(changes, fault):
    with pytest.raises(BadInput, match=fault):
        scenario_from_mapping(scenario(**changes))


def test_a_unit_can_come_from_vasl_templates_by_name(vasl_templates):
    units = {"pak": {"template": "7.5cm PaK 40", "size": "75L"}}
    data = scenario(
        vasl_templates=str(vasl_templates),
        sides={"german": {"units": units}, "russian": {"units": RUSSIAN_UNITS}},
    )
    files = MapFiles.folder(vasl_templates.parent)  # the CLI's: a folder may be read
    body = AslRuleset().load_scenario(data, files)
    assert body["units"]["pak"]["notation"] == "A5(2)/4(3)/3(4) s7"
    assert body["units"]["pak"]["source"].startswith("vasl-templates ge/o:")
    with pytest.raises(BadInput, match="no vehicle or Gun named"):
        AslRuleset().load_scenario(
            {**data, "sides": {"german": {"units": {"x": {"template": "Tiger 9"}}}, "r": {}}},
            files,
        )
