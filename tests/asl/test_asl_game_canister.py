"""Canister in one command: one IFT DR for the target and the adjacent hex(es) (C8.4-dr, C8.41).

The one DR is the attack's DR on every hex, the depletion check and the breakdown check; the
ruling lists each hex's attack. ManualDice holds exactly one roll, so a second DR would fail.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.asl import test_asl_game_d13 as d13
from tests.asl.test_asl_game import aimed, kinds


def rows(ruling: dict[str, Any]) -> list[tuple[str, str, Any, str]]:
    return [(h["hex"], h["role"], h["fp"], h["result"]) for h in ruling["hexes"]]


@pytest.mark.clause("C8.4-target", "C8.41", "C8.4-dr", "C8.4-noth")
def test_the_cluster_and_both_hexes_along_a_hexside_on_one_dr():
    play = aimed()
    play.to("PFPh")
    done = play.do("german", "canister stug --aim 3", "1,2")  # one roll only
    ruling = done.ruling
    assert rows(ruling) == [  # the IFT: DR 3 on the 12 column K/3, on the 2 column (3 FP) 1MC
        ("4I5", "target", 12, "K/3"),
        ("4J4", "target", 12, "K/3"),
        ("4J5", "target", 12, "K/3"),
        ("4H4", "adjacent", 3, "1MC"),
        ("4H5", "adjacent", 3, "1MC"),
    ]
    # The same DR was the depletion check (C7: DR 3 uses it) and is recorded once.
    assert ruling["canister"]["depletion"] == "used" and kinds(done) == ["record", "fired"]
    assert ruling["adjacent"]["original_dr"] == ruling["canister"]["original_dr"] == 3
    assert "C8.41" in ruling["clauses"] and "same DR" in ruling["explanation"]


@pytest.mark.clause("C8.41", "C8.4-dr")
def test_one_adjacent_hex_is_halved_and_has_its_own_drm():
    play = aimed()
    play.to("PFPh")
    ruling = play.do("german", "canister stug --aim 1 --drm 1 --adjacent-drm 2", "2,3").ruling
    targets = [r for r in rows(ruling) if r[1] == "target"]
    near = [r for r in rows(ruling) if r[1] == "adjacent"]
    assert len(targets) == 3 and len(near) == 1 and near[0][2] == 6
    assert ruling["canister"]["final_dr"] == 6 and ruling["adjacent"]["final_dr"] == 7


@pytest.mark.clause("C8.9-gt", "C8.4-dr")
def test_a_dr_that_finds_no_canister_attacks_no_hex():
    play = aimed()
    play.to("PFPh")
    done = play.do("german", "canister stug --aim 3", "6,5")  # 11 > 7: none
    assert {r[3] for r in rows(done.ruling)} == {"-"} and kinds(done) == ["record"]
    # it counts as not fired: the stug may fire again this phase with other ammunition
    assert play.do("german", "fire stug --ammo AP", "1,1").ruling["fired"]


@pytest.mark.clause("C8.41")
def test_a_target_above_the_firer_attacks_no_adjacent_hex():
    """On asl-village a Gun in 3F4 aims at a vertex on the level-1 hill (3H4, 3H5, 3I5)."""
    units = {"at": {"notation": "C8", "size": "45L", "canister_fp": 8, "hex": "3F4", "ca": "E"}}
    play = d13.Play(sides={"russian": {"units": units}, "german": {"units": {}}}, first="russian")
    play.to("PFPh")
    assert play.refused("russian", "canister at --aim 4 --adjacent hex", "1,1").clause == "C8.41"
    ruling = play.do("russian", "canister at --aim 4", "1,1").ruling
    assert [r[1] for r in rows(ruling)] == ["target"] * 3 and ruling["adjacent"] is None
