"""One shot per Gun/AFV and phase, and none in the AFPh after Prep Fire (A3 reading, C8.9-gt).

A unit without Multiple ROF (no ``rof`` in the scenario) is refused a second shot, the refusal
naming C8.1-rof and why (test_asl_game_rof.py plays ROF); a shot that counts as not fired
(C8.9-gt: the Gun had none) leaves the Gun free to fire again in that phase.
"""

from __future__ import annotations

import pytest
from tests.asl.test_asl_game import Play


@pytest.mark.clause("C8.9-gt", "SYS.cite")
def test_a_second_shot_in_a_phase_is_refused_but_not_after_none():
    play = Play()
    play.to("PFPh")
    play.do("german", "fire pak --ammo AP", "2,2")
    refusal = play.refused("german", "fire pak --ammo HE", "1,1")
    assert refusal.clause == "A3" and "Rate of Fire" in refusal.sentence
    assert "C8.1-rof" in refusal.sentence and "gives it no Multiple Rate of Fire" in (
        refusal.sentence
    )
    assert not any(a.startswith("fire pak") for a in play.rules.legal_actions(play.state, "german"))
    # another Gun of the side still fires; a shot that "had none" leaves its Gun free
    none = play.do("german", "fire pz4 --ammo APCR", "4,4")  # 8 > 3: none (C8.9-gt)
    assert none.ruling["depletion"]["outcome"] == "none" and not none.ruling["fired"]
    assert play.do("german", "fire pz4 --ammo AP", "1,1").ruling["fired"]
    assert play.refused("german", "fire pz4 --ammo HE", "1,1").clause == "A3"


@pytest.mark.clause("C8.4-dr", "C8.9-gt")
def test_canister_is_a_shot_too_and_prep_fire_closes_the_afph():
    play = Play()
    play.to("PFPh")
    play.do("german", "canister stug", "1,1")
    assert play.refused("german", "fire stug --ammo AP", "1,1").clause == "A3"
    play.to("AFPh")
    refusal = play.refused("german", "canister stug", "1,1")
    assert refusal.clause == "A3" and "PFPh" in refusal.sentence
    assert play.do("german", "fire pz4 --ammo AP", "1,1").ruling["fired"]  # did not Prep Fire
    play.to("RPh", "russian")
    play.to("PFPh", "german")  # a new Player Turn: the stug fires again
    assert "fired" in [e.kind for e in play.do("german", "canister stug", "1,1").events]


@pytest.mark.clause("C8.9-gt")
def test_a_gun_that_had_none_in_the_pfph_may_still_fire_in_the_afph():
    play = Play()
    play.to("PFPh")
    assert not play.do("german", "fire pak --ammo APCR", "3,3").ruling["fired"]
    play.to("AFPh")
    assert play.do("german", "fire pak --ammo AP", "1,1").ruling["fired"]
