"""C8.5, C8.51, C8.52, C8.6: when ordnance may place SMOKE and WP, and what it places."""

from __future__ import annotations

import pytest

from ordnance.asl.smoke import Phase, smoke_placement
from ordnance.core.errors import BadInput

PHASES = ["RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh"]

# Written out by hand from C8.5/C8.51 (SMOKE) and C8.6 (WP), not derived from the module.
SMOKE_PHASES = {"PFPh", "DFPh"}
WP_PHASES = {"PFPh", "DFPh", "AFPh"}


@pytest.mark.clause("C8.5-phase", "C8.51", "C8.6")
@pytest.mark.parametrize("ammo", ["SMOKE", "WP"])
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("after", [False, True])
def test_every_phase_ammo_and_prior_fire(ammo, phase, after):
    ruling = smoke_placement(ammo, phase, after_non_smoke_fire=after)
    legal_phase = phase in (SMOKE_PHASES if ammo == "SMOKE" else WP_PHASES)
    assert ruling.allowed == (legal_phase and not after)
    assert ruling.ammo == ammo and ruling.phase == phase
    if ruling.allowed:
        assert ruling.dispersed == (phase != "PFPh")
        assert ruling.level == "ground" and ruling.hindrance_levels == 2
    else:
        assert ruling.dispersed is None and ruling.level is None
        expected = "C8.5-phase" if ammo == "SMOKE" else "C8.6"
        assert ruling.clauses == (expected,)
        assert expected in ruling.explanation


@pytest.mark.clause("C8.51")
def test_full_strength_smoke_only_in_the_prep_fire_phase():
    assert smoke_placement("SMOKE", "PFPh", False).dispersed is False
    assert smoke_placement("SMOKE", "DFPh", False).dispersed is True


@pytest.mark.clause("C8.6")
def test_wp_outside_prep_fire_is_dispersed():
    assert smoke_placement("WP", "PFPh", False).dispersed is False
    assert smoke_placement("WP", "DFPh", False).dispersed is True
    assert smoke_placement("WP", "AFPh", False).dispersed is True


@pytest.mark.clause("C8.6")
def test_wp_refusal_explains_that_the_phase_is_not_a_fire_phase():
    ruling = smoke_placement("WP", "MPh", False)
    assert not ruling.allowed and "not one" in ruling.explanation


@pytest.mark.clause("C8.5-phase")
def test_smoke_after_other_fire_is_refused():
    ruling = smoke_placement("SMOKE", "PFPh", after_non_smoke_fire=True)
    assert not ruling.allowed and "other than SMOKE" in ruling.explanation


@pytest.mark.clause("C8.52")
@pytest.mark.parametrize("ammo", ["SMOKE", "WP"])
@pytest.mark.parametrize("phase", PHASES)
def test_never_in_the_guns_own_hex(ammo, phase):
    ruling = smoke_placement(ammo, phase, False, own_hex=True)
    assert not ruling.allowed and ruling.clauses == ("C8.52",)
    assert "own hex" in ruling.explanation


@pytest.mark.clause("C8.52")
def test_ground_level_except_in_an_interior_building_hex():
    assert smoke_placement("SMOKE", "PFPh", False).level == "ground"
    inside = smoke_placement("SMOKE", "PFPh", False, interior_building=True)
    assert inside.allowed and inside.level == "targeted"
    assert "Interior Building" in inside.explanation


@pytest.mark.clause("C8.5-effect")
@pytest.mark.parametrize("ammo", ["SMOKE", "WP"])
def test_smoke_is_a_two_level_hindrance(ammo):
    ruling = smoke_placement(ammo, "PFPh", False)
    assert ruling.hindrance_levels == 2 and "C8.5-effect" in ruling.clauses


@pytest.mark.parametrize("text", ["pfph", "PFPH", " PFPh ", "pFpH"])
def test_phase_input_is_case_insensitive_and_output_canonical(text):
    assert Phase.parse(text) is Phase.PFPH
    assert smoke_placement("smoke", text, False).to_json()["phase"] == "PFPh"


def test_unknown_phase_lists_the_phases():
    with pytest.raises(BadInput) as bad:
        smoke_placement("SMOKE", "Fire", False)
    for phase in PHASES:
        assert phase in str(bad.value)


@pytest.mark.parametrize("ammo", ["HE", "APCR", "sD", "nonsense"])
def test_only_smoke_ammunition(ammo):
    with pytest.raises(BadInput, match="SMOKE"):
        smoke_placement(ammo, "PFPh", False)


def test_json_of_a_refusal_has_nulls():
    data = smoke_placement("SMOKE", "AFPh", False).to_json()
    assert data["allowed"] is False and data["dispersed"] is None
