"""C8.4, C8.41, C8.42: Canister on the IFT, its Area Fire, and the DR's triple duty."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ordnance.asl.canister import canister_attack, canister_may
from ordnance.asl.settings import Settings
from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.rulings import DRM

TEM = DRM(+1, "wooden building", "C8.4-noth")
HINDRANCE = DRM(+1, "LOS Hindrance", "C8.4-noth")
CA_CHANGE = DRM(+2, "CA change", "C8.4-noth")


FFMO_FFNAM = DRM(-2, "FFMO and FFNAM")


# Golden cases read off ift.toml by hand: FP, dice, DRMs -> (column, Final DR, result).
@pytest.mark.clause("C8.4-noth")
@pytest.mark.parametrize(
    ("fp", "roll", "drms", "expected"),
    [
        (12, DR(3, 4), (), (12, 7, "1MC")),
        (16, DR(1, 2), (), (16, 3, "1KIA")),
        (8, DR(2, 2), (), (8, 4, "2MC")),
        (36, DR(1, 1), (FFMO_FFNAM,), (36, 0, "7KIA")),
        (36, DR(6, 6), (CA_CHANGE, HINDRANCE), (36, 15, "PTC")),
        (20, DR(6, 6), (CA_CHANGE, HINDRANCE), (20, 15, "-")),
        (24, DR(2, 3), (TEM,), (24, 6, "4MC")),
        (10, DR(1, 3), (TEM, HINDRANCE), (8, 6, "1MC")),
        (1, DR(1, 1), (), (1, 2, "1MC")),
    ],
)
def test_golden_cases_from_the_ift(fp, roll, drms, expected):
    ruling = canister_attack(fp, roll, drms=drms)
    assert (ruling.column, ruling.final_dr, ruling.result) == expected
    assert ruling.original_dr == roll.total
    assert ruling.fp == fp
    assert "C8.4-noth" in ruling.clauses and "No To Hit DR" in ruling.explanation


@pytest.mark.clause("C8.4-noth")
def test_drms_are_listed_with_their_reasons():
    ruling = canister_attack(12, DR(3, 4), drms=(TEM, DRM(-1, "Hero")))
    assert ruling.final_dr == 7
    assert [d["reason"] for d in ruling.to_json()["drms"]] == ["wooden building", "Hero"]


@pytest.mark.clause("C8.4-halve")
@pytest.mark.parametrize(("moved", "manned"), [(True, False), (False, True), (True, True)])
def test_moving_halves_the_fp_as_area_fire(moved, manned):
    ruling = canister_attack(16, DR(2, 2), moved=moved, manned_after_moving=manned)
    assert ruling.fp == 8 and ruling.fire_factor == Fraction(1, 2)
    assert (ruling.column, ruling.result) == (8, "2MC")
    assert "C8.4-halve" in ruling.clauses and "Area Fire" in ruling.explanation


@pytest.mark.clause("C8.4-halve")
def test_halving_may_leave_a_fraction_read_on_the_next_lower_column():
    ruling = canister_attack(7, DR(2, 3), moved=True)
    assert ruling.fp == Fraction(7, 2) and ruling.column == 2 and ruling.result == "NMC"
    assert ruling.to_json()["fp"] == 3.5 and ruling.to_json()["base_fp"] == 7


@pytest.mark.clause("C8.41")
def test_adjacent_hex_is_halved_without_pbf():
    ruling = canister_attack(12, DR(3, 3), adjacent="hex")
    assert ruling.fp == 6 and ruling.column == 6 and ruling.result == "1MC"
    assert "C8.41" in ruling.clauses and "Point Blank" in ruling.explanation


@pytest.mark.clause("C8.41")
def test_adjacent_along_a_hexside_is_quartered():
    ruling = canister_attack(12, DR(1, 1), adjacent="hexside")
    assert ruling.fp == 3 and ruling.column == 2 and ruling.result == "K/1"
    assert "both adjacent hexes" in ruling.explanation


@pytest.mark.clause("C8.4-halve", "C8.41")
@pytest.mark.parametrize(
    ("adjacent", "once", "factor"),
    [
        ("hex", True, Fraction(1, 2)),
        ("hexside", True, Fraction(1, 4)),
        ("hex", False, Fraction(1, 4)),
        ("hexside", False, Fraction(1, 8)),
    ],
)
def test_area_fire_for_two_reasons(adjacent, once, factor):
    settings = Settings(canister_area_fire_once=once)
    ruling = canister_attack(16, DR(2, 2), moved=True, adjacent=adjacent, settings=settings)
    assert ruling.fire_factor == factor and ruling.fp == 16 * factor
    assert f"canister_area_fire_once={str(once).lower()}" in ruling.explanation


@pytest.mark.clause("C8.41")
def test_fp_below_the_one_column_has_no_effect():
    ruling = canister_attack(2, DR(1, 1), adjacent="hexside")
    assert ruling.fp == Fraction(1, 2) and ruling.column is None and ruling.result == "-"
    assert "below" in ruling.explanation
    assert ruling.to_json()["fp"] == 0.5


@pytest.mark.clause("C8.4-armor")
def test_armored_targets_are_unaffected():
    ruling = canister_attack(36, DR(1, 1), armored=True)
    assert ruling.result == "-" and ruling.column is None
    assert "C8.4-armor" in ruling.clauses and "Vulnerable PRC" in ruling.explanation


@pytest.mark.clause("C8.4-dr", "C8.9-lt", "C8.9-eq", "C8.9-gt")
@pytest.mark.parametrize(
    ("roll", "outcome", "result"),
    [(DR(4, 5), "used", "NMC"), (DR(5, 5), "used-last", "PTC"), (DR(5, 6), "none", "-")],
)
def test_the_ift_dr_is_the_depletion_check(roll, outcome, result):
    ruling = canister_attack(12, roll, depletion_number=10)
    assert ruling.depletion == outcome and ruling.result == result
    assert ruling.exhausted == (outcome != "used")
    assert ruling.counts_as_fired == (outcome != "none")
    assert "C8.4-dr" in ruling.clauses


@pytest.mark.clause("C8.4-dr", "C8.9-gt")
def test_no_canister_means_no_attack_even_on_a_killing_dr():
    ruling = canister_attack(36, DR(3, 4), depletion_number=6)
    assert ruling.depletion == "none" and ruling.result == "-" and ruling.column is None
    assert ruling.may_fire_again and not ruling.counts_as_fired
    assert "No Canister was fired" in ruling.explanation


@pytest.mark.clause("C8.4-dr")
def test_depletion_reads_the_original_or_the_final_dr_by_setting():
    roll, drms = DR(4, 4), (DRM(-1, "Hero"),)
    original = canister_attack(12, roll, drms=drms, depletion_number=8)
    final = canister_attack(
        12,
        roll,
        drms=drms,
        depletion_number=8,
        settings=Settings(canister_depletion_on_original=False),
    )
    assert original.depletion == "used-last" and final.depletion == "used"
    assert "Original IFT DR" in original.explanation and "Final IFT DR" in final.explanation


@pytest.mark.clause("C8.4-dr")
@pytest.mark.parametrize("depletion", [None, 12])
def test_the_ift_dr_is_the_breakdown_check(depletion):
    resolves = canister_attack(36, DR(5, 6), breakdown=11, depletion_number=depletion)
    assert resolves.malfunctioned and resolves.result == "2MC"
    void = canister_attack(
        36,
        DR(5, 6),
        breakdown=11,
        depletion_number=depletion,
        settings=Settings(malf_shot_still_resolves=False),
    )
    assert void.malfunctioned and void.result == "-"
    assert not canister_attack(36, DR(5, 5), breakdown=11).malfunctioned


@pytest.mark.clause("C8.4-dr", "C8.9-gt")
def test_no_canister_and_a_malfunction_on_one_dr():
    ruling = canister_attack(12, DR(6, 6), depletion_number=9, breakdown=12)
    assert ruling.depletion == "none" and ruling.malfunctioned
    assert not ruling.may_fire_again and ruling.result == "-"


@pytest.mark.clause("C8.42")
@pytest.mark.parametrize("purpose", ["rubble", "fire", "wire", "Wire "])
def test_canister_cannot_rubble_burn_or_clear_wire(purpose):
    with pytest.raises(IllegalAction) as refused:
        canister_may(purpose)
    assert refused.value.clause == "C8.42"


@pytest.mark.clause("C8.42")
def test_canister_may_attack():
    canister_may("attack")
    with pytest.raises(BadInput):
        canister_may("dig")


@pytest.mark.clause("C8.42")
def test_a_kia_notes_the_sw_destruction_chance():
    ruling = canister_attack(16, DR(1, 2))
    assert ruling.result == "1KIA" and "C8.42" in ruling.clauses
    assert "SW" in ruling.explanation and "HE KIA" in ruling.explanation
    assert "C8.42" not in canister_attack(12, DR(3, 4)).clauses


@pytest.mark.parametrize("fp", [0, -4, Fraction(-1, 2)])
def test_fp_must_be_positive(fp):
    with pytest.raises(BadInput):
        canister_attack(fp, DR(3, 4))


def test_adjacent_must_be_hex_or_hexside():
    with pytest.raises(BadInput, match="hexside"):
        canister_attack(12, DR(3, 4), adjacent="vertex")  # type: ignore[arg-type]
