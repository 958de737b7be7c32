"""C8.9 depletion, its breakdown interplay, Intensive Fire, declarations and multiple ROF."""

from __future__ import annotations

import pytest

from ordnance.asl.depletion import (
    Declaration,
    check_declaration,
    require_depletion_applies,
    resolve_depletion,
    resolve_shots,
)
from ordnance.asl.notation import Family
from ordnance.asl.settings import Settings
from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction

STILL_RESOLVES = Settings(malf_shot_still_resolves=True)
NOT_RESOLVED = Settings(malf_shot_still_resolves=False)


@pytest.mark.clause("C8.9-lt")
def test_below_the_number_uses_the_ammunition():
    ruling = resolve_depletion(7, DR(2, 4))
    assert ruling.outcome == "used"
    assert ruling.original_dr == 6
    assert ruling.counts_as_fired and ruling.resolved_with_special_ammo
    assert not ruling.exhausted and not ruling.may_fire_again and not ruling.malfunctioned
    assert ruling.clauses == ("C8.9-lt",)


@pytest.mark.clause("C8.9-eq")
def test_equal_to_the_number_uses_the_last_round():
    ruling = resolve_depletion(7, DR(3, 4))
    assert ruling.outcome == "used-last"
    assert ruling.exhausted and ruling.counts_as_fired and ruling.resolved_with_special_ammo
    assert not ruling.may_fire_again
    assert "C8.9-eq" in ruling.clauses


@pytest.mark.clause("C8.9-gt")
def test_above_the_number_means_there_was_none():
    ruling = resolve_depletion(7, DR(4, 4))
    assert ruling.outcome == "none"
    assert ruling.exhausted
    assert not ruling.counts_as_fired and not ruling.resolved_with_special_ammo
    assert ruling.may_fire_again
    assert "other ammunition" in ruling.explanation


@pytest.mark.clause("C8.9-lt", "C8.9-eq", "C8.9-gt")
@pytest.mark.parametrize("number", range(1, 13))
def test_every_original_dr_against_every_number(number):
    for roll in DR.all():
        expected = (
            "used" if roll.total < number else "used-last" if roll.total == number else "none"
        )
        assert resolve_depletion(number, roll).outcome == expected


@pytest.mark.parametrize("number", [0, 13, -1])
def test_depletion_number_out_of_range_is_bad_input(number):
    with pytest.raises(BadInput, match="1 to 12"):
        resolve_depletion(number, DR(3, 3))


def test_breakdown_out_of_range_is_bad_input():
    with pytest.raises(BadInput, match="2 to 12"):
        resolve_depletion(7, DR(3, 3), breakdown=13)


# The four combinations of (DR vs D) x (DR vs B#), under both readings of malf_shot_still_resolves.
@pytest.mark.clause("C8.9-gt")
@pytest.mark.parametrize("settings", [STILL_RESOLVES, NOT_RESOLVED])
def test_above_number_and_at_breakdown_malfunctions_without_firing(settings):
    ruling = resolve_depletion(7, DR(5, 6), breakdown=11, settings=settings)
    assert ruling.outcome == "none" and ruling.malfunctioned
    assert not ruling.counts_as_fired and not ruling.resolved_with_special_ammo
    assert ruling.exhausted and not ruling.may_fire_again
    assert "malfunction" in ruling.explanation and "reading" in ruling.explanation


@pytest.mark.clause("C8.9-gt")
@pytest.mark.parametrize("settings", [STILL_RESOLVES, NOT_RESOLVED])
def test_above_number_below_breakdown_may_fire_again(settings):
    ruling = resolve_depletion(7, DR(4, 5), breakdown=11, settings=settings)
    assert ruling.outcome == "none" and not ruling.malfunctioned
    assert ruling.may_fire_again and not ruling.counts_as_fired


@pytest.mark.clause("C8.9-lt", "C8.9-eq")
@pytest.mark.parametrize(("roll", "outcome"), [(DR(4, 5), "used"), (DR(5, 5), "used-last")])
def test_within_number_and_at_breakdown_resolves_when_the_setting_says_so(roll, outcome):
    ruling = resolve_depletion(10, roll, breakdown=9, settings=STILL_RESOLVES)
    assert ruling.outcome == outcome and ruling.malfunctioned
    assert ruling.resolved_with_special_ammo and ruling.counts_as_fired
    assert "malf_shot_still_resolves=true" in ruling.explanation


@pytest.mark.clause("C8.9-lt", "C8.9-eq")
@pytest.mark.parametrize(("roll", "outcome"), [(DR(4, 5), "used"), (DR(5, 5), "used-last")])
def test_within_number_and_at_breakdown_is_void_when_the_setting_says_so(roll, outcome):
    ruling = resolve_depletion(10, roll, breakdown=9, settings=NOT_RESOLVED)
    assert ruling.outcome == outcome and ruling.malfunctioned
    assert not ruling.resolved_with_special_ammo and ruling.counts_as_fired
    # The depletion comparison stands: a DR equal to D still exhausts the ammunition.
    assert ruling.exhausted == (outcome == "used-last")
    assert "malf_shot_still_resolves=false" in ruling.explanation


@pytest.mark.clause("C8.9-lt")
@pytest.mark.parametrize("settings", [STILL_RESOLVES, NOT_RESOLVED])
def test_within_number_below_breakdown_is_a_plain_shot(settings):
    ruling = resolve_depletion(10, DR(3, 4), breakdown=9, settings=settings)
    assert ruling.outcome == "used" and not ruling.malfunctioned
    assert ruling.resolved_with_special_ammo


def test_no_breakdown_means_no_breakdown_check():
    ruling = resolve_depletion(12, DR(6, 6))
    assert ruling.breakdown is None and not ruling.malfunctioned
    assert "No B#" in ruling.explanation


@pytest.mark.clause("C8.92")
def test_intensive_fire_lowers_the_breakdown_but_not_the_depletion_number():
    plain = resolve_depletion(10, DR(5, 5), breakdown=12)
    intensive = resolve_depletion(10, DR(5, 5), breakdown=12, intensive_fire=True)
    assert plain.depletion_number == intensive.depletion_number == 10
    assert plain.outcome == intensive.outcome == "used-last"
    assert not plain.malfunctioned and intensive.malfunctioned
    assert intensive.breakdown == 10
    assert "C8.92" in intensive.clauses and "unchanged" in intensive.explanation


@pytest.mark.clause("C8.92")
def test_intensive_fire_drop_is_a_setting():
    ruling = resolve_depletion(
        7,
        DR(5, 5),
        breakdown=12,
        intensive_fire=True,
        settings=Settings(intensive_fire_breakdown_drop=1),
    )
    assert ruling.breakdown == 11 and not ruling.malfunctioned


@pytest.mark.clause("C8.92")
@pytest.mark.parametrize("number", range(2, 13))
def test_intensive_fire_never_changes_any_depletion_outcome(number):
    for roll in DR.all():
        assert (
            resolve_depletion(number, roll).outcome
            == resolve_depletion(number, roll, breakdown=12, intensive_fire=True).outcome
        )


@pytest.mark.clause("C8.9-scope")
@pytest.mark.parametrize("family", [f for f in Family if f.is_dispenser])
def test_dispensers_have_no_depletion_number(family):
    with pytest.raises(IllegalAction) as refused:
        require_depletion_applies(family)
    assert refused.value.clause == "C8.9-scope"
    with pytest.raises(IllegalAction, match=r"C8\.9-scope"):
        resolve_depletion(7, DR(2, 2), declaration=Declaration(family))


@pytest.mark.clause("C8.9-scope")
@pytest.mark.parametrize("family", [f for f in Family if not f.is_dispenser])
def test_ammunition_families_do_deplete(family):
    require_depletion_applies(family)


@pytest.mark.clause("C8.1-announce")
def test_declaration_before_the_roll_is_accepted():
    check_declaration(Declaration(Family.APCR, before_roll=True))
    ruling = resolve_depletion(5, DR(1, 2), declaration=Declaration(Family.APDS))
    assert ruling.ammo == "APDS" and "APDS" in ruling.explanation


@pytest.mark.clause("C8.1-announce")
def test_declaration_after_the_roll_is_refused():
    late = Declaration(Family.APCR, before_roll=False)
    with pytest.raises(IllegalAction) as refused:
        check_declaration(late)
    assert refused.value.clause == "C8.1-announce"
    with pytest.raises(IllegalAction, match=r"C8\.1-announce"):
        resolve_depletion(5, DR(1, 2), declaration=late)


@pytest.mark.clause("C8.1-rof")
def test_each_shot_of_a_multiple_rof_gun_declares_its_own_ammunition():
    numbers = {Family.APCR: 6, Family.HEAT: 8}
    shots = [
        (Declaration(Family.APCR), DR(1, 2)),
        (Declaration(Family.HE), DR(3, 3)),
        (Declaration(Family.HEAT), DR(2, 2)),
        (Declaration(Family.APCR), DR(2, 2)),
    ]
    rulings = resolve_shots(shots, numbers)
    assert [r.outcome if r else None for r in rulings] == ["used", None, "used", "used"]
    assert [r.ammo for r in rulings if r] == ["APCR", "HEAT", "APCR"]


@pytest.mark.clause("C8.1-rof", "C8.9-eq")
def test_a_later_shot_may_not_use_ammunition_an_earlier_shot_exhausted():
    shots = [(Declaration(Family.APCR), DR(3, 3)), (Declaration(Family.APCR), DR(1, 1))]
    with pytest.raises(IllegalAction, match=r"C8\.9-eq"):
        resolve_shots(shots, {Family.APCR: 6})


@pytest.mark.clause("C8.1-rof", "C8.9-gt")
def test_after_no_ammunition_the_gun_fires_other_ammunition():
    shots = [(Declaration(Family.APCR), DR(5, 5)), (Declaration(Family.AP), DR(2, 3))]
    first, second = resolve_shots(shots, {Family.APCR: 6})
    assert first is not None and first.outcome == "none" and first.may_fire_again
    assert second is None


@pytest.mark.clause("C8.1-rof", "C8.9-gt")
def test_no_shot_after_a_malfunction():
    shots = [(Declaration(Family.APCR), DR(6, 6)), (Declaration(Family.AP), DR(2, 3))]
    with pytest.raises(IllegalAction, match="malfunctioned"):
        resolve_shots(shots, {Family.APCR: 6}, breakdown=12)


@pytest.mark.clause("C8.1-rof", "C8.1-announce")
def test_a_late_declaration_in_a_rof_sequence_is_refused():
    shots = [(Declaration(Family.AP), DR(2, 3)), (Declaration(Family.APCR, False), DR(2, 3))]
    with pytest.raises(IllegalAction, match=r"C8\.1-announce"):
        resolve_shots(shots, {Family.APCR: 6})


def test_depletion_dr_replaces_only_the_depletion_comparison():
    ruling = resolve_depletion(7, DR(3, 3), breakdown=6, depletion_dr=8)
    assert ruling.outcome == "none" and ruling.original_dr == 6 and ruling.depletion_dr == 8
    assert ruling.malfunctioned  # the breakdown check still reads the Original DR


def test_ruling_serialises_to_json():
    data = resolve_depletion(7, DR(3, 4), breakdown=11).to_json()
    assert data["outcome"] == "used-last"
    assert data["dice"] == {"white": 3, "colored": 4, "total": 7}
    assert data["clauses"] == ["C8.9-eq"]
    for key in ("exhausted", "counts_as_fired", "malfunctioned", "may_fire_again"):
        assert isinstance(data[key], bool)
