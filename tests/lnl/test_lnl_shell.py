r"""Firing a Smoke or WP shell at a hex (LnLT 14.2.2, 14.2.3): golden cases of the roll and of
where the marker lands.

Most cases fire from E7 straight up column E at E3 on an open 10 x 8 grid: one short of E3 is
E4, one beyond is E2. The row case fires from A3 at E3, along hexsides: one short is the pair
D2|D3 and one beyond the pair F2|F3::

      column E                       row 3
        E2   beyond                   __    __    __
        E3   target                __/D2\__/F2\
        E4   short                /A3\__/  \__/E3\__/
        E5                        \__/  \__/D3\__/F3\
        E6                               \__/  \__/
        E7   firer
"""

from __future__ import annotations

import pytest
from tests.lnl.hamlet import GRID, grid_map

from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.lnl.landing import Landing, Nothing, Result, land, settle
from ordnance.lnl.settings import LnlSettings
from ordnance.lnl.shell import ShellKind, ToHitTable, fire_shell, judge_roll

E7, E3, A3 = GRID.parse("E7"), GRID.parse("E3"), GRID.parse("A3")


def fire(m=None, *, roll="3,4", to_hit=7, kind=ShellKind.SMOKE, firer=E7, target=E3, **more):
    return fire_shell(
        m or grid_map(), firer, target, kind=kind, to_hit=to_hit, roll=DR.parse(roll), **more
    )


# --- the roll: hit, odd short, even beyond, double none ---------------------------------------


@pytest.mark.clause("LNL.S-hit", "LNL.S-fire")
def test_a_hit_places_smoke_1_in_the_target_hex():
    shot = fire(roll="3,4", to_hit=7)
    assert (shot.result, shot.hex, shot.marker, shot.candidates) == ("hit", "E3", "smoke 1", ())
    assert shot.final_dr == 7 and "LNL.S-hit" in shot.clauses


@pytest.mark.clause("LNL.S-miss")
@pytest.mark.parametrize(
    ("roll", "result", "hex"),
    [
        ("4,5", "short", "E4"),  # 9, odd: one hex short along the LOS
        ("3,6", "short", "E4"),
        ("5,6", "short", "E4"),  # 11
        ("3,5", "beyond", "E2"),  # 8, even: one hex beyond
        ("4,6", "beyond", "E2"),  # 10
        ("4,4", "none", None),  # 8 on doubles: nothing is placed
        ("5,5", "none", None),
    ],
)
def test_a_miss_goes_short_when_odd_beyond_when_even_and_nowhere_on_doubles(roll, result, hex):
    shot = fire(roll=roll, to_hit=7)
    assert (shot.result, shot.hex) == (result, hex)
    if result == "none":
        assert shot.nothing_placed is Nothing.DOUBLE and shot.marker is None


@pytest.mark.clause("LNL.S-miss", "LNL.S-hit")
def test_doubles_are_tested_before_parity_but_only_on_a_miss():
    assert judge_roll(DR(4, 4), 7, 0).result is Result.NONE  # even, yet not beyond
    assert judge_roll(DR(3, 3), 7, 0).result is Result.HIT  # a double that hits is a hit
    assert judge_roll(DR(3, 3), 5, 0).result is Result.NONE


@pytest.mark.clause("LNL.S-hit", "LNL.S-miss")
def test_a_natural_2_hits_and_a_natural_12_places_nothing_whatever_the_numbers():
    # 1,1 with +3 against To Hit 2: final 5 would miss, but a natural 2 always hits.
    two = fire(roll="1,1", to_hit=2, opportunity=True, drms=[1])
    assert (two.final_dr, two.result, two.hex) == (5, "hit", "E3")
    # 6,6 against To Hit 12: 12 <= 12 would hit, but a natural 12 misses, and on doubles.
    twelve = fire(roll="6,6", to_hit=12)
    assert (twelve.result, twelve.hex, twelve.nothing_placed) == ("none", None, Nothing.DOUBLE)
    assert judge_roll(DR(6, 6), 12, -5).result is Result.NONE


@pytest.mark.clause("LNL.S-miss")
def test_parity_reads_the_natural_roll_unless_set_to_the_final_one():
    # 4,5 = 9 natural (odd: short); +1 modifier makes 10 final (even).
    natural = fire(roll="4,5", to_hit=7, drms=[1])
    assert natural.result == "short"
    final = fire(roll="4,5", to_hit=7, drms=[1], settings=LnlSettings(parity_of="final"))
    assert final.result == "beyond"


# --- the modifiers the shot keeps and ignores ---------------------------------------------------


@pytest.mark.clause("LNL.S-mods")
def test_the_target_hex_tm_is_ignored_but_degrading_hexes_and_opportunity_fire_count():
    # Stone building in the target hex: TM +3, not counted. Brush in E5: one degrading hex, +1.
    m = grid_map({"E3": "stone building", "E5": "brush"})
    shot = fire(m, roll="3,3", to_hit=7, opportunity=True)
    assert [d.value for d in shot.drms] == [1, 2]
    assert shot.final_dr == 9 and shot.result == "none"  # a missed double
    assert any("TM" in word for word in shot.ignored)
    assert any("Acquired" in word for word in shot.ignored)
    plain = fire(m, roll="3,3", to_hit=7, settings=LnlSettings(degrading_hexes_count=False))
    assert plain.drms == () and plain.result == "hit"


@pytest.mark.clause("LNL.S-hex")
def test_the_target_is_a_hex_in_los_and_not_the_firers_own():
    walled = grid_map({"E5": "woods"})
    with pytest.raises(IllegalAction) as refusal:
        fire(walled)
    assert refusal.value.clause == "LNL.S-hex" and "not in LOS" in str(refusal.value)
    with pytest.raises(IllegalAction, match=r"LNL\.S-hex"):
        fire(target=E7)
    with pytest.raises(BadInput):
        fire(target=GRID.parse("E3") + GRID.parse("E3") * 20)  # off the map


@pytest.mark.clause("LNL.S-fire")
def test_the_to_hit_number_comes_from_the_counters_table_by_range():
    table = ToHitTable.of({14: 7, 7: 9})
    assert [table.number(r) for r in (1, 7, 8, 14)] == [9, 9, 7, 7]
    with pytest.raises(IllegalAction, match=r"LNL\.S-fire"):
        table.number(15)
    with pytest.raises(BadInput):
        ToHitTable.of({7: 13})


@pytest.mark.clause("LNL.W-proc")
def test_a_wp_shell_follows_the_same_procedure_with_a_wp_marker():
    hit = fire(roll="3,4", kind=ShellKind.WP)
    assert (hit.result, hit.hex, hit.marker) == ("hit", "E3", "wp")
    assert hit.clauses[0] == "LNL.W-proc" and "LNL.W-remove" in hit.clauses
    short = fire(roll="4,5", kind=ShellKind.WP)
    assert (short.result, short.hex, short.marker) == ("short", "E4", "wp")
    none = fire(roll="4,4", kind=ShellKind.WP)
    assert (none.result, none.hex) == ("none", None)


# --- where it lands: clear LOS to the final hex, the enemy's choice -----------------------------


@pytest.mark.clause("LNL.S-los")
def test_nothing_lands_where_the_firer_has_no_clear_los():
    """Woods in the target hex: seen into, not through; the long miss behind it places nothing."""
    m = grid_map({"E3": "woods"})
    beyond = fire(m, roll="3,5")
    assert (beyond.result, beyond.hex, beyond.nothing_placed) == ("beyond", None, "blocked")
    assert "LNL.S-los" in beyond.clauses
    assert fire(m, roll="4,5").hex == "E4"  # the short one is seen


@pytest.mark.clause("LNL.S-los")
def test_a_degraded_los_is_clear_unless_the_setting_demands_no_degrading_hex():
    m = grid_map({"E5": "brush"})
    assert fire(m, roll="4,5", to_hit=5).hex == "E4"
    strict = LnlSettings(clear_allows_degrading=False)
    assert fire(m, roll="4,5", to_hit=5, settings=strict).nothing_placed == "blocked"


@pytest.mark.clause("LNL.S-los", "LNL.S-miss")
def test_along_a_hexside_the_enemy_chooses_and_the_shot_waits():
    shot = fire(roll="5,6", firer=A3)  # 11: short, into the pair D2|D3
    assert (shot.result, shot.hex, shot.candidates, shot.waits_for_enemy) == (
        "short",
        None,
        ("D2", "D3"),
        True,
    )
    assert "enemy side chooses D2 or D3" in shot.explanation
    chosen = fire(roll="5,6", firer=A3, choice=GRID.parse("D3"))
    assert (chosen.hex, chosen.waits_for_enemy) == ("D3", False)
    with pytest.raises(IllegalAction, match="lands in D2 or D3") as refused:
        fire(roll="5,6", firer=A3, choice=GRID.parse("E4"))
    assert refused.value.clause == "LNL.S-los"


@pytest.mark.clause("LNL.S-los")
def test_a_candidate_out_of_sight_is_no_choice_unless_the_setting_says_both():
    """Woods in B2 hide D2 (and F2) from A3: the short miss goes to D3 alone."""
    m = grid_map({"B2": "woods"})
    assert fire(m, roll="5,6", firer=A3).hex == "D3"
    both = LnlSettings(choice_among="both")
    waiting = fire(m, roll="5,6", firer=A3, settings=both)
    assert waiting.candidates == ("D2", "D3")
    hidden = settle(m, A3, land(m, A3, E3, Result.SHORT, both), GRID.parse("D2"), both)
    assert hidden.nothing is Nothing.BLOCKED


@pytest.mark.clause("LNL.S-los")
def test_an_automated_opponent_takes_the_first_hex_in_map_order():
    lowest = LnlSettings(enemy_choice="lowest")
    assert fire(roll="5,6", firer=A3, settings=lowest).hex == "D2"
    assert fire(roll="4,6", firer=A3, settings=lowest).hex == "F2"  # beyond: F2|F3


@pytest.mark.clause("LNL.S-miss")
def test_short_of_an_adjacent_target_is_the_firers_hex_and_off_the_map_is_nowhere():
    adjacent = fire(roll="4,5", target=GRID.parse("E6"))
    assert adjacent.hex == "E7"
    own = fire(roll="4,5", target=GRID.parse("E6"), settings=LnlSettings(short_into_own_hex=False))
    assert own.nothing_placed == "own hex"
    edge = fire(roll="3,5", target=GRID.parse("E1"))
    assert (edge.result, edge.hex, edge.nothing_placed) == ("beyond", None, "off map")


def test_a_landing_that_does_not_wait_takes_no_choice():
    with pytest.raises(BadInput, match="no choice"):
        settle(grid_map(), E7, Landing(Result.HIT, E3), E3)
