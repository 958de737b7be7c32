"""Multiple Rate of Fire (C8.1-rof) and the hex a shot is fired at (``--at``).

C8.1 lets a Gun with Multiple ROF declare a different ammunition for each shot. How ROF is kept
is the engine's reading (asl/game/fire_at.py): the coloured die of the To Hit DR at most the ROF,
the shot fired, no malfunction, no Intensive Fire. The C8.91 example's T-34/85 (A5(4)/6(5): 5 in
1944) and a PaK 40 with ROF 3 play it out.
"""

from __future__ import annotations

import pytest
from tests.asl.test_asl_game import GERMAN_UNITS, RUSSIAN_UNITS, Play

from ordnance.core.errors import BadInput, IllegalAction

ROF_GERMANS = {**GERMAN_UNITS, "pak": {**GERMAN_UNITS["pak"], "rof": 3}}
ROF_RUSSIANS = {**RUSSIAN_UNITS, "t34": {**RUSSIAN_UNITS["t34"], "rof": 1}}


def rof_play(**changes: object) -> Play:
    sides = {"german": {"units": ROF_GERMANS}, "russian": {"units": ROF_RUSSIANS}}
    return Play(sides=sides, **changes)


@pytest.mark.clause("C8.1-rof")
def test_a_shot_whose_coloured_die_is_at_most_the_rof_keeps_it_and_the_next_declares_afresh():
    play = rof_play()
    play.to("PFPh")
    first = play.do("german", "fire pak --ammo APCR", "4,3")  # 7 > 3: none (C8.9-gt)
    assert not first.ruling["fired"] and not first.ruling["rof_kept"]
    second = play.do("german", "fire pak --ammo AP --to-hit 8", "5,3")  # coloured 3 <= ROF 3
    assert second.ruling["rof_kept"] and "C8.1-rof" in second.ruling["clauses"]
    assert "Coloured die 3 <= ROF 3" in second.ruling["explanation"]
    third = play.do("german", "fire pak --ammo HE --to-hit 8", "1,4")  # another ammunition
    assert third.ruling["ammo"] == "HE" and not third.ruling["rof_kept"]
    assert "Coloured die 4 > ROF 3" in third.ruling["explanation"]
    refusal = play.refused("german", "fire pak --ammo AP", "1,1")
    assert refusal.clause == "A3"
    assert "C8.1-rof" in refusal.sentence and "did not keep its Multiple Rate of Fire (ROF 3)" in (
        refusal.sentence
    )
    assert not any(a.startswith("fire pak") for a in play.rules.legal_actions(play.state, "german"))


@pytest.mark.clause("C8.1-rof", "C8.91", "C8.9-eq")
def test_the_c8_91_t34_keeps_rof_1_on_a_coloured_1_even_when_its_apcr_runs_out():
    play = rof_play()
    play.to("DFPh")
    done = play.do("russian", "fire t34 --ammo APCR", "4,1")  # 5 = the 1944 number: used-last
    assert done.ruling["depletion"]["outcome"] == "used-last" and done.ruling["rof_kept"]
    assert play.refused("russian", "fire t34 --ammo APCR", "1,1").clause == "C8.9-eq"
    assert play.do("russian", "fire t34 --ammo AP", "2,2").ruling["fired"]  # kept: fires again


@pytest.mark.clause("C8.1-rof", "C8.9-gt")
def test_a_malfunction_or_intensive_fire_keeps_no_rof():
    play = rof_play()
    play.to("PFPh")
    assert play.do("german", "fire pak --ammo AP", "6,1").ruling["rof_kept"]  # coloured 1
    play = rof_play()
    play.to("PFPh")
    broke = play.do("german", "fire pak --ammo AP", "5,6")  # 11 >= B11: malfunction
    assert broke.ruling["malfunctioned"] and not broke.ruling["rof_kept"]
    assert play.refused("german", "fire pak --ammo HE", "1,1").clause == "C8.9-gt"
    play = rof_play()
    play.to("PFPh")
    hard = play.do("german", "fire pak --ammo AP --intensive-fire", "1,1")
    assert (
        not hard.ruling["rof_kept"]
        and "Intensive Fire keeps no ROF" in (hard.ruling["explanation"])
    )
    play = rof_play(settings={"rof_keeps_on_intensive_fire": True})
    play.to("PFPh")
    assert play.do("german", "fire pak --ammo AP --intensive-fire", "1,1").ruling["rof_kept"]


@pytest.mark.clause("C8.1-rof", "C8.4-dr")
def test_canister_keeps_rof_on_its_ift_dr_and_a_gun_without_rof_says_why_it_stops():
    units = {**ROF_GERMANS, "stug": {**GERMAN_UNITS["stug"], "rof": 2}}
    play = Play(sides={"german": {"units": units}, "russian": {"units": RUSSIAN_UNITS}})
    play.to("PFPh")
    assert play.do("german", "canister stug", "3,2").ruling["rof_kept"]
    assert not play.do("german", "canister stug", "1,3").ruling["rof_kept"]
    play.do("german", "fire pz4 --ammo AP", "1,1")
    refusal = play.refused("german", "fire pz4 --ammo HE", "1,1")
    assert "gives it no Multiple Rate of Fire ('rof')" in refusal.sentence


@pytest.mark.clause("C8.1-rof", "SYS.record")
def test_rof_kept_is_an_event_fact_and_old_events_without_it_replay():
    play = rof_play()
    play.to("PFPh")
    kept = play.do("german", "fire pak --ammo AP", "2,1")
    assert [e.data for e in kept.events if e.kind == "fired"] == [
        {"unit": "pak", "ammo": "AP", "smoke": False, "rof_kept": True}
    ]
    lost = rof_play()
    lost.to("PFPh")
    done = lost.do("german", "fire pz4 --ammo AP", "2,1")  # no ROF: the event as before
    assert [e.data for e in done.events if e.kind == "fired"] == [
        {"unit": "pz4", "ammo": "AP", "smoke": False}
    ]


# --- --at: range and line of sight -----------------------------------------------------------

MAPPED_GERMANS = {
    "pak": {**GERMAN_UNITS["pak"], "hex": "4K3", "ca": "W"},
    "pz4": {**GERMAN_UNITS["pz4"], "hex": "4K2", "ca": "W"},
}
MAPPED_RUSSIANS = {
    "t34": {**RUSSIAN_UNITS["t34"], "hex": "4E4", "ca": "E"},
    "at45": {**RUSSIAN_UNITS["at45"], "hex": "4A3", "ca": "E"},  # behind the woods
}


def mapped(**changes: object) -> Play:
    sides = {"german": {"units": MAPPED_GERMANS}, "russian": {"units": MAPPED_RUSSIANS}}
    return Play(map="asl-village", sides=sides, **changes)


@pytest.mark.clause("SYS.cite")
def test_a_shot_at_a_hex_gives_range_and_los_and_with_to_hit_says_hit_or_miss():
    play = mapped()
    play.to("PFPh")
    done = play.do("german", "fire pz4 --ammo AP --at 4e4 --to-hit 7", "2,2")
    ruling = done.ruling
    assert ruling["at"] == "4E4" and ruling["range"] == 6
    assert ruling["los"]["clear"] and ruling["los"]["hindrance"] == 0
    assert ruling["hit"] is True and "A6" in ruling["clauses"]
    assert "At 4E4, range 6: LOS clear (A6)." in ruling["explanation"]
    assert "Final DR 4 against To Hit 7: a hit." in ruling["explanation"]
    assert done.ruling["command"] == "fire pz4 --ammo AP --to-hit 7 --at 4E4"


@pytest.mark.clause("SYS.cite")
def test_a_blocked_line_refuses_the_shot_unless_the_setting_resolves_it():
    play = mapped()
    play.to("DFPh", "german")
    refusal = play.refused("russian", "fire at45 --ammo AP --at 4K3", "1,1")
    assert refusal.clause == "A6" and "out of at45's LOS" in refusal.sentence
    loose = mapped(settings={"fire_needs_los": False})
    loose.to("DFPh", "german")
    done = loose.do("russian", "fire at45 --ammo AP --at 4K3 --to-hit 9", "1,1")
    assert not done.ruling["los"]["clear"] and "LOS blocked" in done.ruling["explanation"]


def test_at_refuses_the_own_hex_and_a_unit_without_a_hex_in_one_line():
    play = mapped()
    play.to("PFPh")
    with pytest.raises(BadInput, match="pz4's own hex"):
        play.do("german", "fire pz4 --ammo AP --at 4K2", "1,1")
    with pytest.raises(IllegalAction, match=r"C8\.52"):
        play.do("german", "fire pak --ammo SMOKE --at 4K3", "1,1")
    unplaced = Play(map="asl-village")
    unplaced.to("PFPh")
    with pytest.raises(BadInput, match="no hex, so it cannot fire at one"):
        unplaced.do("german", "fire pz4 --ammo AP --at 4E4", "1,1")


@pytest.mark.clause("C8.52", "C8.51")
def test_smoke_takes_at_as_its_target_and_without_to_hit_places_nothing():
    play = mapped()
    play.to("PFPh")
    done = play.do("german", "fire pak --ammo SMOKE --at 4G4 --to-hit 8", "2,1")
    assert done.ruling["marker"]["hex"] == "4G4" and done.ruling["range"] == 4
    other = mapped()
    other.to("PFPh")
    quiet = other.do("german", "fire pak --ammo SMOKE --at 4G4", "2,1")
    assert "marker" not in quiet.ruling and "Without --to-hit N" in quiet.ruling["explanation"]
    both = mapped()
    both.to("PFPh")
    with pytest.raises(BadInput, match="different hexes"):
        both.do("german", "fire pak --ammo SMOKE --at 4G4 --target 4G5 --to-hit 8", "2,1")
