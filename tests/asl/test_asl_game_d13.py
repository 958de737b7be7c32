"""D13 in game form: vehicles' smoke dispensers and grenades driven through the ASL ruleset on the
bundled map asl-village (boards 4 above 3), with physical dice.

The map's LOS decides who sees an MP expenditure (D13.2-defensive) and the sM's target (range,
TCA, LOS, Hindrance DRM; D13.32); the SMOKE placed joins the map's markers. Storage, replay and
export of such a game are tested in tests/game/test_d13_game_log.py.
"""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from ordnance.asl.game import AslRuleset
from ordnance.asl.game.mapfile import map_of, read_map
from ordnance.asl.los import asl_los
from ordnance.core.dice import DR, DieRoll, ManualDice
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.maps import BUNDLED_ONLY, MapFiles
from ordnance.core.maps.svg import render_svg
from ordnance.core.ruleset import Resolution
from ordnance.game.scenario import scenario_from_mapping

AMERICAN = {
    # An M24-like light tank with a smoke mortar; CE, 16 MP, TCA towards 4G4's corner.
    "m24": {
        "kind": "vehicle",
        "notation": "s5 WP7 sM8",
        "hex": "4F5",
        "ca": "NNE",
        "ce": True,
        "mp": 16,
    },
    # An OT tank destroyer with smoke pots, buttoned up (OT alone would start CE).
    "m10": {
        "kind": "vehicle",
        "notation": "sP5",
        "open_topped": True,
        "ce": False,
        "hex": "4E6",
        "ca": "E",
    },
    "baz": {"kind": "scw", "weapon": "BAZ", "hex": "4F6"},
}
GERMAN = {
    # A PzKpfw IVH with a smoke discharger, BU, in the open north-east of the street.
    "pz4": {"kind": "vehicle", "notation": "A5(2)/4(3)/3(4) s8 sD5", "hex": "4K3", "ca": "W"},
    # A Jagdpanzer with a Nahverteidigungswaffe, NT (its ca is the VCA), CE.
    "jgdpz": {
        "kind": "vehicle",
        "notation": "sN7(4)/8(5)",
        "mount": "NT",
        "hex": "4J3",
        "ca": "W",
        "ce": True,
    },
}


def scenario(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": "asl",
        "name": "D13 test",
        "date": "1945-02",
        "map": "asl-village",
        "turns": 2,
        "first": "american",
        "sides": {"american": {"units": AMERICAN}, "german": {"units": GERMAN}},
    }
    return {**data, **changes}


def _roll(text: str) -> DR | DieRoll:
    return DR.parse(text) if "," in text else DieRoll.parse(text)


class Play:
    """A game driven through the ruleset alone: commands in, events folded, rulings out."""

    def __init__(self, maps: MapFiles = BUNDLED_ONLY, **changes: Any) -> None:
        self.rules = AslRuleset()
        self.state = self.rules.initial_state(self.rules.load_scenario(scenario(**changes), maps))

    def do(self, side: str, text: str, *dice: str) -> Resolution:
        command = self.rules.parse_command(side, shlex.split(text))
        resolution = self.rules.resolve(self.state, command, ManualDice([_roll(d) for d in dice]))
        for event in resolution.events:
            self.state = self.rules.apply(self.state, event)
        return resolution

    def to(self, phase: str, player: str | None = None) -> None:
        for _ in range(40):
            if str(self.state.phase) == phase and player in (None, self.state.player):
                return
            self.do(self.state.phase_owner, "phase next")
        raise AssertionError(f"never reached {phase}")

    def refused(self, side: str, text: str, *dice: str) -> IllegalAction:
        before = self.state
        with pytest.raises(IllegalAction) as error:
            self.do(side, text, *dice)
        assert self.state is before  # a refusal changes nothing
        return error.value

    def view(self) -> dict[str, Any]:
        return self.rules.view(self.state)

    def afv(self, unit: str) -> dict[str, Any]:
        afv: dict[str, Any] = self.view()["units"][unit]["afv"]
        return afv

    def smoke(self) -> list[tuple[str, str, str]]:
        return [(s["hex"], s["marker"], s["unit"]) for s in self.view()["smoke"]]


def village():
    game_map = map_of(read_map("asl-village", MapFiles.bundled()))
    assert game_map is not None
    return game_map


# --- the AFV's own MPh, then the opponent's answer -------------------------------------------


@pytest.mark.clause("D13.32-place", "D13.32-drm", "D13.2-mp", "D13.2-defensive", "D13.31")
def test_an_afv_moves_smokes_a_hex_behind_grain_and_the_enemy_answers_with_its_sd():
    play = Play()
    play.to("MPh", "american")
    moved = play.do("american", "move m24 --to 4G5 --mp 1")  # road 1 MP, +1 MP in place
    assert moved.events[0].data["seen_by"] == ["pz4", "jgdpz"]  # both see 4G5 on the map

    fired = play.do("american", "dispense m24 --type sM --target 4I5", "1,2").ruling
    assert fired["fired"] and fired["target"] == "4I5"
    # The target is 2 hexes away in the TCA once it turns one hexspine from NNE to E.
    village_los = asl_los(village(), village().parse("4G5"), village().parse("4I5"))
    hindrance = next(d for d in fired["drms"] if d["reason"].startswith("LOS Hindrance"))
    assert hindrance["value"] == village_los.total == fired["los"]["total_hindrance"] == 1
    assert fired["los"]["hindrances"][0]["reason"] == "grain"
    assert [d["value"] for d in fired["drms"]] == [1, 2, 1]  # Case A T +1, moving +2, grain +1
    assert fired["final_dr"] == 7 and fired["placement"]["hex"] == "4I5"
    assert fired["later_fire"] == {
        "facing": "E",
        "drm": 1,
        "applies": False,
        "fire": "Bounding First Fire",
        "explanation": fired["later_fire"]["explanation"],
    }

    afv = play.afv("m24")
    assert (afv["mp_spent"], afv["mp_left"], afv["tca"]) == (3, 13, "E")  # 2 moving + 1 smoke
    assert play.view()["units"]["m24"]["ca"] == "E"
    assert play.smoke() == [("4I5", "dispersed smoke", "m24")]
    # The 1 MP of the smoke is itself an expenditure the Germans saw.
    assert play.view()["expenditure"] == {
        "unit": "m24",
        "side": "american",
        "hex": "4G5",
        "seen_by": ["jgdpz", "pz4"],
    }

    answer = play.do("german", "dispense pz4", "1,2").ruling
    assert answer["fired"] and answer["mp_cost"] == 0
    assert "D13.2-defensive" in answer["clauses"] and answer["final_dr"] == 4  # BU +1
    assert play.smoke()[-1] == ("4K3", "dispersed smoke", "pz4")
    assert play.afv("pz4")["mp_spent"] == 0

    # The map now holds the game's SMOKE: in its LOS hindrances and in its picture.
    live, chart = play.rules.live_map(play.state)
    assert asl_los(live, live.parse("4G5"), live.parse("4J5")).total == 1 + 2
    before = render_svg(village(), chart).count(">S+2<")
    assert render_svg(live, chart).count(">S+2<") == before + 2


@pytest.mark.clause("D13.32-place")
def test_an_sm_target_must_be_in_range_in_the_tca_and_in_los_on_the_map():
    play = Play()
    play.to("MPh", "american")
    far = play.refused("american", "dispense m24 --target 4J5", "1,1")
    assert far.clause == "D13.32-place" and "range 4" in str(far)
    behind = play.refused("american", "dispense m24 --target 4D6 --ca NNE", "1,1")
    assert behind.clause == "D13.32-place" and "outside" in str(behind)
    play.do("american", "move m24 --dest 4J2")  # around the Jagdpanzer in 4J3
    hidden = play.refused("american", "dispense m24 --target 4M4", "1,1")  # behind buildings
    assert hidden.clause == "D13.32-place" and "LOS" in str(hidden)
    with pytest.raises(BadInput, match="the map gives the LOS Hindrance"):
        play.do("american", "dispense m24 --target 4K3 --hindrance 2", "1,1")
    with pytest.raises(BadInput, match="only an sM is aimed"):
        play.do("german", "dispense pz4 --target 4K4", "1,1")


@pytest.mark.clause("D13.32-drm")
def test_without_a_map_the_players_give_the_hindrance():
    play = Play(map=None, boards="4/3")
    play.to("MPh", "american")
    ruling = play.do("american", "dispense m24 --target 4H4 --hindrance 2", "1,1").ruling
    assert ruling["los"] is None and "cannot judge LOS" in ruling["explanation"]
    assert ruling["drms"][-1] == {
        "value": 2,
        "reason": "LOS Hindrance to the target hex",
        "clause": "D13.32-drm",
    }


@pytest.mark.clause("D13.2-defensive")
def test_the_opponents_mph_needs_an_expenditure_the_afv_sees():
    hidden = {**AMERICAN, "m24": {**AMERICAN["m24"], "hex": "4B4"}}  # behind the woods
    play = Play(sides={"american": {"units": hidden}, "german": {"units": GERMAN}})
    play.to("MPh", "american")
    assert play.refused("german", "dispense pz4", "1,1").clause == "D13.2-defensive"
    play.do("american", "move m24 --to 4C4")  # into the woods (ALL its MP), out of pz4's LOS
    assert play.view()["expenditure"]["seen_by"] == []
    assert play.refused("german", "dispense pz4", "1,1").clause == "D13.2-defensive"
    play.do("american", "move baz --to 4G6")  # an SCW team spends MF in the open
    assert play.do("german", "dispense pz4", "6,6").ruling["fired"] is False
    assert play.afv("pz4")["dispenser_attempted"]


@pytest.mark.clause("D13.32-drm")
def test_a_defensive_sm_turn_adds_case_a_to_later_defensive_first_fire_in_that_mph():
    play = Play()
    play.to("MPh", "german")
    play.do("german", "move pz4 --to 4J3 --to 4I4")
    turned = play.do("american", "dispense m24 --target 4H4 --ca E", "1,1").ruling
    assert turned["later_fire"]["applies"] and turned["mp_cost"] == 0
    shot = play.do("american", "fire m24 --ammo HE --to-hit 6", "2,2").ruling
    assert "D13.32-drm" in shot["clauses"] and "Final DR 5" in shot["explanation"]
    play.do("german", "phase next")  # the MPh ends: so does the note
    assert play.afv("m24")["later_fire"] is None


# --- refusals, each naming its clause ----------------------------------------------------------


@pytest.mark.clause("D13.2-once")
def test_smoke_only_in_an_mph():
    play = Play()
    play.to("PFPh", "american")
    assert play.refused("american", "dispense m24 --target 4H4", "1,1").clause == "D13.2-once"
    assert play.refused("american", "grenades m24", "1").clause == "D13.2-once"


@pytest.mark.clause("D13.2-once", "D13.3", "D13.32-drm")
def test_one_attempt_per_player_turn_and_a_failure_may_be_repeated_in_another():
    play = Play()
    play.to("MPh", "american")
    failed = play.do("american", "dispense m24 --target 4H4 --ca E", "6,6").ruling
    assert failed["fired"] is False and failed["new_facing"] is None
    assert play.afv("m24")["mp_spent"] == 0  # a failure costs nothing (D13.2-mp)...
    assert play.afv("m24")["tca"] == "NNE"  # ...and turns nothing (D13.32-drm)
    again = play.refused("american", "dispense m24 --target 4H4", "1,1")
    assert again.clause == "D13.2-once" and "another Player Turn" in str(again)
    play.to("MPh", "german")
    play.do("german", "move pz4")
    assert play.do("american", "dispense m24 --target 4H4", "1,1").ruling["fired"]


@pytest.mark.clause("D13.2-state")
def test_no_smoke_after_firing_a_weapon_this_player_turn():
    play = Play()
    play.to("MPh", "american")
    play.do("american", "fire m24 --ammo HE", "3,4")  # Bounding First Fire
    assert play.afv("m24")["fired"]
    assert play.refused("american", "dispense m24 --target 4H4", "1,1").clause == "D13.2-state"
    assert play.refused("american", "grenades m24", "1").clause == "D13.2-state"
    play.do("american", "move m10")
    play.do("american", "mark m10 --fired")  # an MG the engine does not resolve
    assert play.refused("american", "dispense m10", "1,1").clause == "D13.2-state"


@pytest.mark.clause("D13.2-state")
def test_a_stunned_or_abandoned_crew_makes_no_smoke():
    play = Play()
    play.do("american", "mark m24 --crew stunned")
    play.to("MPh", "american")
    assert play.refused("american", "grenades m24", "1").clause == "D13.2-state"
    play.do("american", "mark m24 --crew ok --abandoned")
    refusal = play.refused("american", "dispense m24 --target 4H4", "1,1")
    assert refusal.clause == "D13.2-state" and "Abandoned" in str(refusal)


@pytest.mark.clause("D13.33")
def test_an_sp_needs_a_ce_crew():
    play = Play()
    play.to("MPh", "american")
    assert play.refused("american", "dispense m10", "1,1").clause == "D13.33"
    play.do("american", "mark m10 --ce")
    assert play.do("american", "dispense m10", "2,2").ruling["placement"]["hex"] == "4E6"


@pytest.mark.clause("D13.33")
def test_an_open_topped_vehicle_starts_ce_unless_the_scenario_buttons_it_up():
    open_m10 = {**AMERICAN, "m10": {k: v for k, v in AMERICAN["m10"].items() if k != "ce"}}
    play = Play(sides={"american": {"units": open_m10}, "german": {"units": GERMAN}})
    assert play.afv("m10")["ce"] and not play.afv("m10")["bu"]
    assert not play.afv("pz4")["ce"]  # a CT tank still starts BU
    play.to("MPh", "american")
    assert play.do("american", "dispense m10", "2,2").ruling["placement"]["hex"] == "4E6"
    assert not Play().afv("m10")["ce"]  # 'ce: false' in the scenario wins


@pytest.mark.clause("D13.34")
def test_an_sn_needs_a_bu_afv_and_fires_he_only_in_close_combat():
    play = Play()
    play.to("MPh", "german")
    assert play.refused("german", "dispense jgdpz", "1,1").clause == "D13.34"
    play.do("german", "mark jgdpz --bu")
    assert play.do("german", "dispense jgdpz", "3,4").ruling["usage_number"] == 8  # 1945
    play.to("CCPh", "german")
    cc = play.do("german", "dispense jgdpz --cc-he", "3,4").ruling
    assert cc["he_in_cc"] and cc["fired"] and cc["placement"] is None
    assert play.afv("jgdpz")["fired"]  # a weapon in Close Combat (D13.1 EXC)


@pytest.mark.clause("D13.35")
def test_a_ct_afv_needs_a_ce_crew_for_grenades():
    play = Play()
    play.to("MPh", "american")
    play.do("american", "move m24")
    refusal = play.refused("german", "grenades pz4", "1")
    assert refusal.clause == "D13.35" and "CE" in str(refusal)
    play.do("german", "mark pz4 --ce")
    placed = play.do("german", "grenades pz4", "2").ruling
    assert placed["placed"] and placed["needed"] == 2 and placed["mp_cost"] == 0


@pytest.mark.clause("D13.35")
def test_grenades_and_a_dispenser_not_in_the_same_mph():
    play = Play()
    play.to("MPh", "american")
    play.do("american", "grenades m24", "5")
    refusal = play.refused("american", "dispense m24 --target 4H4", "1,1")
    assert refusal.clause == "D13.35" and "not both" in str(refusal)
    play.do("american", "mark m10 --ce")
    play.do("american", "dispense m10", "6,6")
    assert play.refused("american", "grenades m10", "1").clause == "D13.35"


@pytest.mark.clause("D13.1", "D13.35")
def test_only_vehicles_carry_dispensers_and_grenades():
    play = Play()
    play.to("MPh", "american")
    assert play.refused("american", "dispense baz", "1,1").clause == "D13.1"
    assert play.refused("american", "grenades baz", "1").clause == "D13.35"
    assert play.refused("american", "dispense m24 --type sD", "1,1").clause == "D13.1"


@pytest.mark.clause("D13.2-mp")
def test_an_own_mph_attempt_needs_one_mp_left():
    play = Play()
    play.to("MPh", "american")
    assert "16 MP left" in play.refused("american", "move m24 --mp 17").sentence
    play.do("american", "move m24 --to 4G5 --mp 15")
    assert play.refused("american", "dispense m24 --target 4H4", "1,1").clause == "D13.2-mp"
    assert play.refused("american", "grenades m24", "1").clause == "D13.2-mp"


# --- SMOKE on the map: placed, and removed on time ---------------------------------------------


@pytest.mark.clause("D13.35")
def test_grenade_smoke_goes_at_the_end_of_the_mph():
    play = Play()
    play.to("MPh", "american")
    own = play.do("american", "grenades m24", "1").ruling
    assert own["placement"]["removal"] == "end of this MPh" and own["mp_cost"] == 1
    assert play.smoke() == [("4F5", "grenade smoke", "m24")]
    live, _ = play.rules.live_map(play.state)
    assert live.markers_in(live.parse("4F5")) == ("grenade smoke",)
    gone = play.do("american", "phase next").ruling
    assert play.smoke() == [] and "D13.35" in gone["clauses"] and "Removed" in gone["explanation"]
    play.to("MPh", "german")
    play.do("german", "move pz4")
    play.do("american", "grenades m24", "2")  # in the opponent's MPh
    assert play.smoke() == [("4F5", "grenade smoke", "m24")]
    play.do("german", "phase next")
    assert play.smoke() == []


@pytest.mark.clause("D13.35")
def test_the_setting_keeps_own_mph_grenade_smoke_until_the_owners_next_pfph():
    play = Play(settings={"grenade_smoke_gone_after_own_mph": False})
    play.to("MPh", "american")
    play.do("american", "grenades m24", "1")
    play.to("RPh", "german")
    assert play.smoke() == [("4F5", "grenade smoke", "m24")]
    play.to("PFPh", "american")
    assert play.smoke() == []


@pytest.mark.clause("D13.31")
def test_dispenser_smoke_goes_at_its_owners_next_pfph():
    play = Play()
    play.to("MPh", "american")
    play.do("american", "move m24")
    play.do("german", "dispense pz4", "1,1")
    play.to("RPh", "german")
    assert play.smoke() == [("4K3", "dispersed smoke", "pz4")]  # German Dispersed SMOKE...
    play.to("PFPh", "german")
    assert play.smoke() == []  # ...goes at the start of the Germans' PFPh (A24.4)


# --- the scenario's D13 keys -----------------------------------------------------------------


def test_the_scenario_sets_up_each_vehicles_d13_status():
    play = Play()
    m24, jgdpz = play.afv("m24"), play.afv("jgdpz")
    assert (m24["ce"], m24["bu"], m24["mount"], m24["mp"], m24["tca"]) == (
        True,
        False,
        "T",
        16,
        "NNE",
    )
    assert (jgdpz["mount"], jgdpz["vca"], jgdpz["tca"]) == ("NT", "W", None)
    assert play.view()["units"]["baz"]["afv"] is None
    assert play.view()["map"]["name"] == "Village on boards 4 and 3"


@pytest.mark.parametrize(
    ("unit", "fault"),
    [
        ({"kind": "vehicle", "armored": False, "ce": True}, "ce"),
        ({"kind": "vehicle", "mount": "XT"}, "mount"),
        ({"kind": "vehicle", "mount": "NT", "vca": "E"}, "vca"),
        ({"kind": "vehicle", "mp": 0}, "mp"),
        ({"kind": "vehicle", "crew": "asleep"}, "crew"),
        ({"kind": "gun", "ce": True}, "ce"),
        ({"kind": "vehicle", "hex": "5A1"}, "hex"),
    ],
)
def test_bad_d13_keys_are_refused_with_their_key(unit, fault):
    sides = {"american": {"units": {"x": {"notation": "", **unit}}}, "german": {}}
    with pytest.raises(BadInput, match=rf"units\.x\.{fault}"):
        scenario_from_mapping(scenario(sides=sides))


def test_boards_must_agree_with_the_map():
    with pytest.raises(BadInput, match="lays out its boards as 4/3"):
        AslRuleset().load_scenario(scenario(boards="4,3"))
