r"""LnLT Smoke and WP shells in game form: the ruleset driven command by command with given dice.

The hamlet of tests/lnl/hamlet.py: a Panzer IV in E7 fires up column E at the building in E3,
where a US squad (sq1), an open half-track (ht) and a closed Sherman (m4) stand; a second squad
(sq2) waits in E2 to enter; hills in A1 and G4 see over the building::

    A1 (hill)          E2 sq2
                       E3 building: sq1, ht, m4        G4 (hill)
                       E4  (one short)
                       E7 pz4 (German), C7 stug, F7 pg
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from tests.lnl.hamlet import GRID, hamlet_scenario

from ordnance.core.dice import DR, DieRoll, ManualDice
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.maps import MapFiles
from ordnance.core.maps.svg import render_svg
from ordnance.core.ruleset import Resolution
from ordnance.lnl.game import LnlRuleset
from ordnance.lnl.los import lnl_los
from ordnance.lnl.terrain import lnl_chart


class Play:
    """A game driven through the ruleset alone: commands in, events folded, rulings out."""

    def __init__(self, base: Path, **changes: Any) -> None:
        self.rules = LnlRuleset()
        body = self.rules.load_scenario(hamlet_scenario(**changes), MapFiles.folder(base))
        self.state = self.rules.initial_state(body)

    def do(self, side: str, text: str, *dice: str) -> Resolution:
        command = self.rules.parse_command(side, shlex.split(text))
        rolls = [DR.parse(d) if "," in d else DieRoll.parse(d) for d in dice]
        resolution = self.rules.resolve(self.state, command, ManualDice(rolls))
        for event in resolution.events:
            self.state = self.rules.apply(self.state, event)
        return resolution

    def refused(self, side: str, text: str, *dice: str) -> IllegalAction:
        before = self.state
        with pytest.raises(IllegalAction) as error:
            self.do(side, text, *dice)
        assert self.state is before  # a refusal changes nothing
        return error.value

    def operations(self) -> None:
        self.do("german", "phase next")

    @property
    def view(self) -> dict[str, Any]:
        return self.rules.view(self.state)

    def los(self, a: str, b: str):
        return lnl_los(self.state.game_map, GRID.parse(a), GRID.parse(b))


def kinds(resolution: Resolution) -> list[str]:
    return [event.kind for event in resolution.events]


@pytest.fixture
def play(hamlet_dir: Path) -> Play:
    game = Play(hamlet_dir)
    game.operations()
    return game


# --- the game of the issue ---------------------------------------------------------------------


@pytest.mark.clause(
    "LNL.W-proc",
    "LNL.W-check",
    "LNL.W-closed",
    "LNL.W-enter",
    "LNL.W-smoke",
    "LNL.W-remove",
    "LNL.W-pool",
    "LNL.W-deplete",
    "LNL.S-mods",
)
def test_a_tank_fires_wp_into_a_building_and_the_marker_burns_for_one_turn(play: Play):
    assert play.los("A1", "G4").total == 0  # the hills see over the building
    # To Hit 3,4 = 7 <= 9: a hit. Checks in unit-id order: ht (open vehicle, one die: 4),
    # m4 (closed: none), sq1 (Leg unit in a building: two dice, 2,5). Depletion die 5 vs 4.
    done = play.do("german", "wp-shell pz4 --at E3", "3,4", "4", "2,5", "5")
    ruling = done.ruling
    assert (ruling["result"], ruling["hex"], ruling["marker"]) == ("hit", "E3", "wp")
    assert kinds(done) == ["fired", "acquired-removed", "marker-placed", "wp-check", "wp-check",
                           "pool"]  # fmt: skip
    checks = {c["unit"]: c for c in ruling["checks"]}
    assert set(checks) == {"ht", "sq1"}  # not the closed Sherman
    assert (checks["ht"]["dice"], checks["ht"]["total"]) == ([4], 5)
    assert (checks["sq1"]["dice"], checks["sq1"]["kept"], checks["sq1"]["total"]) == ([2, 5], 5, 6)
    assert checks["sq1"]["closed_space"] and len(checks["ht"]["dice"]) == 1  # one die in a vehicle
    # The depletion roll: 5 is not below 4, so the WP counter goes back to the pool.
    assert ruling["pool"] == {**ruling["pool"], "die": 5, "removed": False, "left": 1}
    assert play.view["pools"]["german"]["wp"] == {"left": 1, "depletion_number": 4}
    # The firer's Acquired marker is gone (and its modifier was never counted).
    assert ruling["acquired_removed"] == "C5" and play.view["units"]["pz4"]["acquired"] is None
    # WP counts as Smoke 2 for LOS: the hills no longer see clearly over E3.
    assert play.los("A1", "G4").total == 1
    assert play.los("A1", "G4").hindrances[0].reason == "wp (as smoke 2)"

    play.do("german", "end")
    entered = play.do("american", "move sq2 --to E3", "6,1")
    check = entered.ruling["checks"][0]
    assert (check["unit"], check["entering"], check["dice"], check["total"]) == (
        "sq2",
        True,
        [6, 1],
        7,
    )
    assert "LNL.W-enter" in entered.ruling["clauses"]

    for side in ("german", "american", "german"):
        done = play.do(side, "pass")
    assert play.view["phase"] == "admin"
    assert {"kind": "marker-removed", "data": {"hex": "E3", "marker": "wp"}} in [
        e.to_json() for e in done.events
    ]
    assert "E3" not in play.view["markers"] and play.los("A1", "G4").total == 0
    assert "LNL.W-remove" in done.ruling["clauses"]


@pytest.mark.clause("LNL.W-deplete", "LNL.W-pool")
def test_a_low_depletion_die_removes_the_wp_counter_and_the_pool_is_empty(hamlet_dir: Path):
    sides = hamlet_scenario()["sides"]
    sides["german"]["units"]["stug"]["shells"] = ["wp"]
    play = Play(hamlet_dir, sides=sides)
    play.operations()
    done = play.do("german", "wp-shell pz4 --at E3", "5,5", "2")  # a missed double, die 2 < 4
    assert (done.ruling["result"], done.ruling["hex"]) == ("none", None)
    assert done.ruling["pool"]["removed"] and play.view["pools"]["german"]["wp"]["left"] == 0
    assert "marker-placed" not in kinds(done)
    play.do("german", "end")
    play.do("american", "pass")
    assert play.refused("german", "wp-shell stug --at E3", "3,4").clause == "LNL.W-pool"


@pytest.mark.clause("LNL.S-pool")
def test_a_side_without_a_counter_left_is_refused(hamlet_dir: Path):
    sides = hamlet_scenario()["sides"]
    sides["german"]["wp_shells"] = 0
    play = Play(hamlet_dir, sides=sides)
    play.operations()
    refusal = play.refused("german", "wp-shell pz4 --at E3", "3,4")
    assert refusal.clause == "LNL.W-pool"
    sides["german"]["smoke_shells"] = 0
    play = Play(hamlet_dir, sides=sides)
    play.operations()
    assert play.refused("german", "smoke-shell pz4 --at E3", "3,4").clause == "LNL.S-pool"


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.clause("LNL.S-fire")
def test_only_a_smoke_shell_equipped_vehicle_fires_one(play: Play):
    assert play.refused("german", "smoke-shell stug --at E3", "3,4").clause == "LNL.S-fire"
    assert play.refused("german", "wp-shell stug --at E3", "3,4").clause == "LNL.W-proc"
    with pytest.raises(BadInput):
        play.do("german", "smoke-shell nobody --at E3")


@pytest.mark.clause("LNL.S-hex")
def test_the_target_hex_must_be_in_los_and_hold_an_enemy_unit(hamlet_dir: Path):
    play = Play(hamlet_dir)
    play.operations()
    refusal = play.refused("german", "smoke-shell pz4 --at E5", "3,4")
    assert refusal.clause == "LNL.S-hex" and "no enemy unit" in refusal.sentence
    free = Play(hamlet_dir, settings={"target_needs_enemy": False})
    free.operations()
    assert free.do("german", "smoke-shell pz4 --at E5", "3,4", "6").ruling["hex"] == "E5"


@pytest.mark.clause("LNL.S-hex")
def test_a_target_out_of_los_is_refused(hamlet_dir: Path):
    sides = hamlet_scenario()["sides"]
    sides["american"]["units"]["sq2"]["hex"] = "E1"  # behind the building from E7
    play = Play(hamlet_dir, sides=sides)
    play.operations()
    refusal = play.refused("german", "smoke-shell pz4 --at E1", "3,4")
    assert refusal.clause == "LNL.S-hex" and "not in LOS" in refusal.sentence


@pytest.mark.clause("LNL.S-mg")
def test_mgs_may_fire_after_the_shell_in_the_same_action_never_before(play: Play):
    done = play.do("german", "smoke-shell pz4 --at E3", "3,4", "6")
    assert play.view["action"] == {"unit": "pz4", "shell": "smoke"}
    assert play.rules.to_move(play.state) == "german"
    assert "mg pz4 --at E3" in play.rules.legal_actions(play.state, "german")
    after = play.do("german", "mg pz4 --at E3")
    assert after.ruling["after_shell"] and "LNL.S-mg" in after.ruling["clauses"]
    assert play.view["impulse"] == "american" and play.view["action"] is None
    assert done.ruling["result"] == "hit"


@pytest.mark.clause("LNL.S-mg")
def test_a_shell_after_the_vehicles_mgs_is_refused(play: Play):
    play.do("german", "mg pz4 --at E3")
    play.do("american", "pass")
    refusal = play.refused("german", "smoke-shell pz4 --at E3", "3,4")
    assert refusal.clause == "LNL.S-mg" and "MGs have fired" in refusal.sentence
    assert "smoke-shell pz4 --at E3" not in play.rules.legal_actions(play.state, "german")


@pytest.mark.clause("LNL.S-fire")
def test_the_sequence_of_play_is_kept(play: Play):
    assert play.refused("american", "pass").clause == "LnLT sequence of play"  # not its impulse
    play.do("german", "smoke-shell pz4 --at E3", "3,4", "6")
    assert "action is open" in play.refused("german", "pass").sentence
    # one shell per action: a second one in the same action is refused (no Rate of Fire)
    assert play.refused("german", "wp-shell pz4 --at E3", "1,1").clause == "LNL.S-fire"
    play.do("german", "end")
    play.do("american", "pass")
    assert "already acted" in play.refused("german", "move pz4 --to E6").sentence
    assert "already acted" in play.refused("german", "smoke-shell pz4 --at E3", "1,1").sentence
    jump = play.refused("german", "move pg --to F5")
    assert jump.clause == "LnLT movement" and "not adjacent" in jump.sentence


# --- the enemy's choice --------------------------------------------------------------------------


@pytest.mark.clause("LNL.S-los")
def test_an_ambiguous_landing_waits_for_the_enemy_sides_choice(hamlet_dir: Path):
    """From A3 at E3 the LOS runs along hexsides: a short miss (5,6 = 11) lands in D2 or D3."""
    sides = hamlet_scenario()["sides"]
    sides["german"]["units"]["pz4"]["hex"] = "A3"
    play = Play(hamlet_dir, sides=sides)
    play.operations()
    fired = play.do("german", "smoke-shell pz4 --at E3", "5,6", "6")
    assert fired.ruling["waits_for"] == "american" and fired.ruling["candidates"] == ["D2", "D3"]
    assert fired.ruling["hex"] is None and "pending" in kinds(fired)
    assert "pool" in kinds(fired)  # the depletion die is the firer's, rolled now
    assert play.rules.to_move(play.state) == "american"
    assert play.rules.legal_actions(play.state, "american") == ("choose D2", "choose D3")
    assert play.rules.legal_actions(play.state, "german") == ()
    assert play.refused("german", "end").clause == "LNL.S-los"
    assert play.refused("german", "choose D2").clause == "LNL.S-los"  # the enemy chooses
    # A well-formed hex the rule does not offer is refused with the clause, not bad input.
    assert play.refused("american", "choose E4").clause == "LNL.S-los"
    assert play.refused("american", "choose F4").clause == "LNL.S-los"
    chosen = play.do("american", "choose d3")
    assert chosen.ruling["hex"] == "D3" and kinds(chosen) == ["chosen", "marker-placed"]
    assert play.view["markers"]["D3"] == ["smoke 1"] and play.view["pending"] is None
    assert play.rules.to_move(play.state) == "german"  # back to the firer's open action
    play.do("german", "end")


@pytest.mark.clause("LNL.S-los", "LNL.W-check")
def test_a_wp_shell_whose_landing_is_chosen_rolls_its_checks_with_the_choice(hamlet_dir: Path):
    sides = hamlet_scenario()["sides"]
    sides["german"]["units"]["pz4"]["hex"] = "A3"
    sides["american"]["units"]["sq2"]["hex"] = "D2"
    play = Play(hamlet_dir, sides=sides)
    play.operations()
    play.do("german", "wp-shell pz4 --at E3", "5,6", "6")
    chosen = play.do("american", "choose D2", "3")
    assert [c["unit"] for c in chosen.ruling["checks"]] == ["sq2"]
    assert chosen.ruling["checks"][0]["total"] == 4


# --- the smoke cycle, settings, the picture -----------------------------------------------------


@pytest.mark.clause("LNL.S-cycle")
def test_smoke_1_becomes_smoke_2_then_goes(play: Play):
    play.do("german", "smoke-shell pz4 --at E3", "5,6", "6")  # 11, odd: short, E4
    assert play.view["markers"]["E4"] == ["smoke 1"]
    play.do("german", "end")
    for side in ("american", "german", "american"):
        play.do(side, "pass")
    assert play.view["phase"] == "admin" and play.view["markers"]["E4"] == ["smoke 2"]
    play.do("german", "phase next")
    play.do("german", "phase next")
    for side in ("german", "american", "german"):
        done = play.do(side, "pass")
    assert "E4" not in play.view["markers"] and "LNL.S-cycle" in done.ruling["clauses"]
    assert play.refused("german", "pass").clause == "LnLT sequence of play"  # admin phase
    over = play.do("german", "phase next")
    assert kinds(over) == ["over"] and play.rules.is_over(play.state)


@pytest.mark.clause("LNL.S-cycle")
def test_the_smoke_cycle_and_the_passes_are_settings(hamlet_dir: Path):
    play = Play(hamlet_dir, settings={"smoke_cycle": "remove", "passes_end_operations": 2})
    play.operations()
    play.do("german", "smoke-shell pz4 --at E3", "5,6", "6")
    play.do("german", "end")
    play.do("american", "pass")
    play.do("german", "pass")
    assert play.view["phase"] == "admin" and "E4" not in play.view["markers"]


@pytest.mark.clause("LNL.W-enter")
def test_a_unit_checks_each_entry_or_once_per_marker_by_setting(hamlet_dir: Path):
    sides = hamlet_scenario()["sides"]
    sides["american"]["units"]["sq2"]["hex"] = "E5"
    once = Play(hamlet_dir, sides=sides, settings={"wp_check_every_entry": False})
    once.operations()
    once.do("german", "wp-shell pz4 --at E3", "5,6", "6")  # short: WP in E4, nobody there
    once.do("german", "end")
    done = once.do("american", "move sq2 --to E4 --to E3 --to E4", "2")
    assert [c["hex"] for c in done.ruling["checks"]] == ["E4"]
    assert "already checked" in done.ruling["explanation"]
    every = Play(hamlet_dir, sides=sides)
    every.operations()
    every.do("german", "wp-shell pz4 --at E3", "5,6", "6")
    every.do("german", "end")
    done = every.do("american", "move sq2 --to E4 --to E3 --to E4", "2", "5")
    assert [c["total"] for c in done.ruling["checks"]] == [3, 6]
    assert done.ruling["path"] == ["E4", "E3", "E4"]


def test_the_game_map_draws_the_smoke_and_wp_markers(hamlet_dir: Path):
    sides = hamlet_scenario()["sides"]
    sides["german"]["units"]["stug"]["shells"] = ["smoke"]
    play = Play(hamlet_dir, sides=sides)
    play.operations()
    play.do("german", "wp-shell pz4 --at E3", "3,4", "4", "2,5", "5")
    play.do("german", "end")
    play.do("american", "pass")
    play.do("german", "smoke-shell stug --at E3", "1,2", "6")
    assert play.view["markers"]["E3"] == ["wp", "smoke 1"]
    game_map, chart = play.rules.live_map(play.state)
    assert chart is lnl_chart()
    svg = render_svg(game_map, chart)
    assert ">WP<" in svg and ">S1<" in svg  # the discs on E3
    assert "wp (WP)" in svg and "smoke 1 (S1)" in svg  # and the legend


@pytest.mark.clause("SYS.cite")
def test_a_move_into_an_enemy_hex_is_refused_as_melee_not_modelled(hamlet_dir: Path):
    sides = hamlet_scenario()["sides"]
    sides["german"]["units"]["pg"]["hex"] = "E4"
    play = Play(hamlet_dir, sides=sides)
    play.operations()
    refused = play.refused("german", "move pg --to E3")
    assert refused.clause == "LnLT melee" and "sq1" in refused.sentence
    assert play.do("german", "move pg --to F4").ruling["path"] == ["F4"]
