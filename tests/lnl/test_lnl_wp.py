"""The WP damage check (LNL.W-check, LNL.W-closed), its table file, and WP as Smoke 2 for LOS
(LNL.W-smoke). Entering and removal are played in tests/lnl/test_lnl_game.py."""

from __future__ import annotations

import pytest
from tests.lnl.hamlet import GRID, grid_map

from ordnance.core.dice import DR, DieRoll, ManualDice
from ordnance.core.errors import BadInput
from ordnance.lnl.los import lnl_los
from ordnance.lnl.settings import LnlSettings
from ordnance.lnl.wp import (
    Subject,
    check_dice,
    closed_space,
    eligible,
    parse_dct,
    roll_wp_check,
    wp_check,
    wp_table,
)


@pytest.mark.clause("LNL.W-check")
def test_leg_units_and_open_vehicles_check_closed_vehicles_do_not():
    assert all(eligible(kind, False) for kind in ("squad", "half-squad", "team", "leader", "hero"))
    assert eligible("vehicle", open=True) and not eligible("vehicle", open=False)
    assert check_dice(Subject("m4", "vehicle")) == 0
    with pytest.raises(BadInput, match="no WP check"):
        wp_check(Subject("m4", "vehicle"), (3,), hex="E3")


@pytest.mark.clause("LNL.W-check")
def test_the_check_adds_one_to_the_die():
    squad = wp_check(Subject("sq", "squad"), (4,), hex="E4")
    half_track = wp_check(Subject("ht", "vehicle", open=True), (6,), hex="E4")
    assert (squad.kept, squad.modifier, squad.total) == (4, 1, 5)
    assert half_track.total == 7 and half_track.unit_class == "open vehicle"
    assert squad.result is None and "module's DCT" in squad.explanation


@pytest.mark.clause("LNL.W-closed")
def test_a_leg_unit_in_a_closed_space_rolls_two_dice_and_keeps_the_higher():
    inside = Subject("sq", "squad", closed_space=True)
    assert check_dice(inside) == 2
    check = wp_check(inside, (2, 5), hex="E3")
    assert (check.kept, check.total, check.clauses) == (5, 6, ("LNL.W-check", "LNL.W-closed"))
    # The closed space changes nothing for an Open vehicle: one die.
    assert check_dice(Subject("ht", "vehicle", open=True, closed_space=True)) == 1
    rolled = roll_wp_check(inside, ManualDice([DR(6, 1)]), hex="E3")
    assert rolled.dice == (6, 1) and rolled.total == 7
    with pytest.raises(BadInput, match="2 dice"):
        wp_check(inside, (3,), hex="E3")


@pytest.mark.clause("LNL.W-closed")
def test_which_hexes_are_closed_spaces_is_a_setting_of_terrain_and_marker_names():
    m = grid_map({"E3": "stone building", "C3": "woods"}, {"D4": ("bunker",), "F4": ("cave",)})
    assert [closed_space(m, GRID.parse(h)) for h in ("E3", "D4", "F4", "C3")] == [
        True,
        True,
        True,
        False,
    ]
    woods = LnlSettings(wp_closed_space="woods")
    assert closed_space(m, GRID.parse("C3"), woods) and not closed_space(m, GRID.parse("E3"), woods)


@pytest.mark.clause("LNL.W-check")
def test_a_leaders_lm_and_the_hero_chance_follow_the_core_damage_check_by_setting():
    led = Subject("sq", "squad", leader_lm=2)
    assert wp_check(led, (1,), hex="E3").total == 0
    assert wp_check(led, (1,), hex="E3").hero_chance
    plain = LnlSettings(wp_leader_lm=False, wp_hero_on_one=False)
    check = wp_check(led, (1,), hex="E3", settings=plain)
    assert check.total == 2 and not check.hero_chance
    # Open vehicles take no leader's LM and no Hero.
    car = wp_check(Subject("ht", "vehicle", open=True, leader_lm=2), (1,), hex="E3")
    assert car.total == 2 and not car.hero_chance
    assert not wp_check(Subject("lt", "leader"), (1,), hex="E3").hero_chance


@pytest.mark.clause("LNL.W-check")
def test_a_scenarios_damage_check_table_names_the_result():
    table = parse_dct({"leg": {"1-4": "No Effect", "5-6": "Shaken", "7+": "Eliminated"}})
    check = wp_check(Subject("sq", "squad"), (6,), hex="E3", dct=table)
    assert check.result == "Eliminated" and check.explanation.endswith("Eliminated.")
    car = wp_check(Subject("ht", "vehicle", open=True), (6,), hex="E3", dct=table)
    assert car.result is None  # no bands for open vehicles
    for bad in ({"leg": {"1-3": "A", "3-4": "B"}}, {"tank": {}}, {"leg": {"x": "A"}}):
        with pytest.raises(BadInput):
            parse_dct(bad)


def test_the_table_file_holds_the_rule_and_says_where_it_comes_from():
    table = wp_table()
    assert table.modifier == 1
    assert "lnlt-14.2.3" in table.source and "CLAUSES.md" in table.source
    rows = {(r.unit, r.where): (r.dice, r.keep) for r in table.rows}
    assert rows[("leg", "closed space")] == (2, "highest")
    assert rows[("leg", "open")] == rows[("open vehicle", "any")] == (1, "only")
    assert rows[("closed vehicle", "any")] == (0, "none")
    assert table.dct == {"leg": (), "open vehicle": ()}  # no DCT ships: it is not public
    assert all(row.note.startswith("[") for row in table.rows)  # each row tagged


@pytest.mark.clause("LNL.W-smoke")
def test_a_wp_marker_degrades_los_as_smoke_2_even_over_a_building():
    """Hills A1 and G4 see over the building in E3 (level 2 over a level-1 top); WP in E3
    makes it a degrading hex, as Smoke 2 would."""
    hills = {"A1": 2, "G4": 2}
    before = lnl_los(grid_map({"E3": "building"}, levels=hills), GRID.parse("A1"), GRID.parse("G4"))
    assert before.clear and before.total == 0
    wp = grid_map({"E3": "building"}, {"E3": ("wp",)}, hills)
    smoke = grid_map({"E3": "building"}, {"E3": ("smoke 2",)}, hills)
    after = lnl_los(wp, GRID.parse("A1"), GRID.parse("G4"))
    assert after.total == 1 and after.hindrances[0].reason == "wp (as smoke 2)"
    assert lnl_los(smoke, GRID.parse("A1"), GRID.parse("G4")).total == after.total
    assert "LNL.W-smoke" in after.clauses


def test_one_die_checks_use_a_single_die_roll():
    check = roll_wp_check(Subject("sq", "squad"), ManualDice([DieRoll(3)]), hex="E4")
    assert check.dice == (3,) and check.total == 4
