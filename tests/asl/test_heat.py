"""HEAT (C8.3, C8.31): start dates, SCW, targets, HE Equivalency and Residual FP."""

from __future__ import annotations

import pytest

from ordnance.asl.dates import COMMONWEALTH
from ordnance.asl.heat import DATA, he_equivalency, heat_availability, heat_target, parse_weapon
from ordnance.asl.settings import Settings
from ordnance.core.errors import BadInput

# ---------------------------------------------------------------------------------------------
# C8.3: dates and SCW


@pytest.mark.clause("C8.3-heat-date")
@pytest.mark.parametrize(
    ("nationality", "before", "start"),
    [
        ("german", "1942-04", "1942-05"),
        ("american", "1942-12", "1943-01"),
        ("british", "1942-12", "1943-01"),
        ("russian", "1942-12", "1943-01"),
    ],
)
def test_heat_start_dates(nationality, before, start):
    early = heat_availability(nationality, before)
    assert not early.available
    assert early.depletion_number_applies
    assert early.clauses == ("C8.3-heat-date",)
    assert "not available" in early.explanation
    assert heat_availability(nationality, start).available
    assert heat_availability(nationality, "1945-05").available


@pytest.mark.clause("C8.3-heat-date", "C8.2-service")
@pytest.mark.parametrize("nationality", sorted(COMMONWEALTH))
def test_commonwealth_follows_british(nationality):
    assert not heat_availability(nationality, "1942-12").available
    ruling = heat_availability(nationality, "1943-01")
    assert ruling.available
    assert ruling.clauses == ("C8.3-heat-date", "C8.2-service")
    assert "British" in ruling.explanation


@pytest.mark.clause("C8.3-heat-date")
@pytest.mark.parametrize("nationality", ["italian", "japanese", "french", "finnish", "hungarian"])
def test_no_date_for_other_nationalities(nationality):
    ruling = heat_availability(nationality, "1944-06")
    assert not ruling.available
    assert "sets no HEAT date" in ruling.explanation
    assert "counter" in ruling.explanation


@pytest.mark.clause("C8.3-scw")
@pytest.mark.parametrize(
    ("nationality", "date"),
    [("american", "1942-11"), ("german", "1944-01"), ("japanese", "1944-06")],
)
def test_scw_heat_has_no_depletion_number(nationality, date):
    ruling = heat_availability(nationality, date, scw=True)
    assert ruling.available
    assert not ruling.depletion_number_applies
    assert ruling.clauses == ("C8.3-scw",)
    assert "X#" in ruling.explanation


def test_heat_bad_nationality_or_date():
    with pytest.raises(BadInput, match="nationality"):
        heat_availability("klingon", "1943-01")
    with pytest.raises(BadInput, match="date"):
        heat_availability("german", "1944", scw=True)


# ---------------------------------------------------------------------------------------------
# C8.31-target


@pytest.mark.clause("C8.31-target")
@pytest.mark.parametrize("target", ["vehicle", "gun", "Vehicle", " GUN "])
@pytest.mark.parametrize("tem", [None, "open", "woods", "building"])
def test_vehicles_and_guns_always(target, tem):
    ruling = heat_target(target, tem)
    assert ruling.allowed
    assert ruling.clauses == ("C8.31-target",)


@pytest.mark.clause("C8.31-target")
@pytest.mark.parametrize("target", ["infantry", "cavalry"])
@pytest.mark.parametrize("tem", ["wall", "building", "rubble", "pillbox", "Building"])
def test_infantry_and_cavalry_behind_qualifying_tem(target, tem):
    ruling = heat_target(target, tem)
    assert ruling.allowed
    assert ruling.tem == tem.lower()


@pytest.mark.clause("C8.31-target")
@pytest.mark.parametrize("target", ["infantry", "cavalry"])
@pytest.mark.parametrize("tem", sorted(DATA.all_tem - set(DATA.qualifying_tem)))
def test_infantry_and_cavalry_elsewhere_refused(target, tem):
    ruling = heat_target(target, tem)
    assert not ruling.allowed
    assert ruling.clauses == ("C8.31-target",)
    assert "does not qualify" in ruling.explanation


@pytest.mark.clause("C8.31-target")
def test_infantry_needs_a_tem():
    with pytest.raises(BadInput, match="--tem"):
        heat_target("infantry")


@pytest.mark.parametrize(
    ("target", "tem", "what"), [("tank", None, "target"), ("infantry", "moon", "TEM")]
)
def test_unknown_target_or_tem(target, tem, what):
    with pytest.raises(BadInput) as caught:
        heat_target(target, tem)
    assert caught.value.what == what


# ---------------------------------------------------------------------------------------------
# C8.31-heq, C8.31-residual, C8.31-atr


@pytest.mark.clause("C8.31-heq", "C8.31-residual")
@pytest.mark.parametrize(
    ("weapon", "caliber", "he_fp", "fp", "residual"),
    [
        ("AP", 20, None, 1, False),
        ("AP", 36, None, 1, False),
        ("AP", 37, None, 2, False),
        ("AP", 88, None, 2, False),
        ("APCR", None, None, 1, False),
        ("APCR", 75, None, 1, False),  # all APCR/APDS count as under 37mm
        ("APDS", 57, None, 1, False),
        ("BAZ", None, None, 8, True),
        ("PIAT", None, None, 8, True),
        ("PSK", None, None, 12, True),
        ("PFk", None, None, 12, False),
        ("pfk", None, None, 12, False),
        ("PF", None, None, 16, False),
        ("H9", None, None, 12, False),
        ("H#[9]", None, None, 12, False),
        ("ordnance", None, 12, 8, True),
    ],
)
def test_every_weapon(weapon, caliber, he_fp, fp, residual):
    ruling = he_equivalency(weapon, caliber, he_fp)
    assert (ruling.fp, ruling.residual) == (fp, residual)
    assert {"C8.31-heq", "C8.31-residual"} <= set(ruling.clauses)
    assert str(fp) in ruling.explanation


@pytest.mark.clause("C8.31-heq", "C8.31-residual")
def test_every_table_weapon_is_tested():
    assert set(DATA.weapons) == {
        "AP",
        "APCR",
        "APDS",
        "ATR",
        "BAZ",
        "PIAT",
        "PSK",
        "PFk",
        "PF",
        "H9",
        "ordnance",
    }


@pytest.mark.clause("C8.31-atr", "C8.31-residual")
@pytest.mark.parametrize(("caliber", "fp"), [(20, 1), (14, None), (7, None), (13, None)])
def test_atr_only_at_20mm(caliber, fp):
    ruling = he_equivalency("ATR", caliber)
    assert ruling.fp == fp
    assert not ruling.residual
    assert "C8.31-atr" in ruling.clauses
    if fp is None:
        assert "only at 20mm" in ruling.explanation


@pytest.mark.clause("C8.31-heq")
@pytest.mark.parametrize(
    ("he_fp", "fp"),
    [
        (2, 1),
        (4, 2),
        (6, 4),
        (8, 6),
        (10, 6),
        (12, 8),
        (16, 12),
        (20, 16),
        (24, 20),
        (30, 24),
        (36, 30),
        (48, 30),
    ],
)
def test_ordnance_heat_uses_the_column_left(he_fp, fp):
    ruling = he_equivalency("ordnance", he_fp=he_fp)
    assert ruling.fp == fp
    assert ruling.residual


@pytest.mark.clause("C8.31-heq", "C8.31-residual")
def test_ordnance_heat_with_no_column_left():
    ruling = he_equivalency("ordnance", he_fp=1)
    assert ruling.fp is None
    assert not ruling.residual
    assert "there is none" in ruling.explanation


@pytest.mark.clause("C8.31-heq", "C8.31-atr")
def test_h9_value_is_the_setting():
    assert he_equivalency("H9", settings=Settings(h9_he_equivalency=8)).fp == 8
    ruling = he_equivalency("h#[9]", settings=Settings().override({"h9_he_equivalency": "8"}))
    assert (ruling.fp, ruling.residual, ruling.weapon) == (8, False, "H9")
    assert "h9_he_equivalency" in ruling.explanation


@pytest.mark.clause("C8.31-residual")
@pytest.mark.parametrize("weapon", ["APCR", "APDS"])
def test_ap_types_never_leave_residual(weapon):
    assert "never leave Residual FP" in he_equivalency(weapon).explanation


@pytest.mark.parametrize(
    ("weapon", "caliber", "he_fp", "option"),
    [
        ("AP", None, None, "--caliber"),
        ("ATR", None, None, "--caliber"),
        ("ordnance", None, None, "--he-fp"),
    ],
)
def test_missing_option_is_named(weapon, caliber, he_fp, option):
    with pytest.raises(BadInput) as caught:
        he_equivalency(weapon, caliber, he_fp)
    assert caught.value.text == option


@pytest.mark.parametrize(
    ("weapon", "caliber", "he_fp"), [("AP", 0, None), ("ATR", -20, None), ("ordnance", None, 0)]
)
def test_non_positive_numbers_are_bad_input(weapon, caliber, he_fp):
    with pytest.raises(BadInput, match="above 0"):
        he_equivalency(weapon, caliber, he_fp)


@pytest.mark.clause("C8.31-heq")
@pytest.mark.parametrize("word", ["MG", "hmg", "LMG", "MMG"])
def test_mg_is_not_a_weapon_here(word):
    with pytest.raises(BadInput, match="MGs"):
        parse_weapon(word)


def test_unknown_weapon():
    with pytest.raises(BadInput, match="unknown weapon"):
        he_equivalency("railgun")
