"""The AI's movement policy (ordnance.vv.game.ai_moves): the objective's pull, urgency as the
end approaches, unarmored vehicles leaving enemy fire lanes and holding fire to move; and the
redesigned hedgerow ambush played to its end by the AI."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ordnance.vv.ai import AiPolicy
from ordnance.vv.game.ai_moves import _Context, _drive, drive_gain, next_step, urgency
from ordnance.vv.game.movement import allowance
from ordnance.vv.game.player import ai_command
from ordnance.vv.game.state import Phase
from ordnance.vv.settings import VvSettings

from .test_vv_game import Play, small
from .test_vv_victory import to_the_end

AMBUSH = Path(__file__).resolve().parents[2] / "examples" / "vv-hedgerow-ambush.yaml"
LMG = {"kind": "lmg", "apfp": 2, "range": 8}
FULL = AiPolicy()


def squad(hex: str, **more: Any) -> dict[str, Any]:
    return {"kind": "squad", "counter": "4-6-5", "hex": hex, **more}


def platoon(hex: str) -> dict[str, Any]:
    """Three American squads (two with LMGs) and a leader in ``hex``: a strong fire lane."""
    return {
        "a": squad(hex, sw=LMG),
        "b": squad(hex, sw=LMG),
        "c": squad(hex),
        "lt": {"kind": "leader", "counter": "1-3-1", "leadership": -1, "hex": hex},
    }


def jeep(hex: str, facing: str) -> dict[str, Any]:
    """A German jeep with a squad aboard."""
    return {
        "jeep": {
            "kind": "vehicle",
            "casualty": 3,
            "transport": "T1",
            "mp": 8,
            "mg360": 2,
            "hex": hex,
            "facing": facing,
        },
        "r": {"kind": "squad", "counter": "4-6-5", "aboard": "jeep"},
    }


def at(phase: Phase, us: dict[str, Any], de: dict[str, Any], **changes: Any) -> Play:
    """The Germans (moving first) at the start of their ``phase``."""
    play = small(us, de, first="de", **changes)
    while play.state.phase is not phase:
        play.do("de", "phase next")
    return play


def test_the_movement_settings_are_documented_and_read_into_the_policy():
    described = {s["name"]: s for s in VvSettings.describe()}
    for name in (
        "ai_move_objective",
        "ai_move_urgency",
        "ai_vehicles_move",
        "ai_vehicles_hold_fire",
    ):
        assert described[name]["tag"] == "[default]" and "AI policy" in described[name]["rule"]
        assert len(described[name]["doc"]) > 60
    settings_ = VvSettings().override(
        {
            "ai_move_objective": "3",
            "ai_move_urgency": "0",
            "ai_vehicles_move": "false",
            "ai_vehicles_hold_fire": "no",
        }
    )
    policy = AiPolicy.of(settings_)
    assert (policy.move_objective, policy.move_urgency) == (Fraction(3), Fraction(0))
    assert not policy.vehicles_move and not policy.vehicles_hold_fire
    assert AiPolicy.of(VvSettings()) == FULL
    greedy = AiPolicy.greedy()
    assert not (greedy.moves or greedy.vehicles_move or greedy.vehicles_hold_fire)


@pytest.mark.clause("VV.AP-phases")
def test_urgency_grows_as_the_last_turn_approaches():
    """1 + u / (k + 1): k the Game Turns after this one; flat without an end or with u = 0."""
    five = at(Phase.MOVEMENT, {"a": squad("N1")}, {"g": squad("A10")}, turns=5).state
    last = at(Phase.MOVEMENT, {"a": squad("N1")}, {"g": squad("A10")}, turns=1).state
    endless = at(Phase.MOVEMENT, {"a": squad("N1")}, {"g": squad("A10")}, turns=None).state
    assert urgency(five, FULL) == pytest.approx(1 + 2 / 5)
    assert urgency(last, FULL) == pytest.approx(3)
    assert urgency(endless, FULL) == 1
    assert urgency(last, AiPolicy(move_urgency=Fraction(0))) == 1
    factors = []
    for turn in range(1, 6):
        factors.append(urgency(dataclasses.replace(five, turn=turn), FULL))
    assert factors == sorted(factors) and factors[-1] == pytest.approx(3)


@pytest.mark.clause("VV.AP-phases")
def test_objective_weight_two_pulls_a_squad_out_of_the_wood():
    """A German squad in the wood at K7, an American squad at H8, the objective G5 two fields
    away: with the first mover's weight 1 cover and the fire lane keep it in the wood; with
    weight 2 it sets out (J6, on the way to G5)."""
    play = at(
        Phase.MOVEMENT,
        {"a": squad("H8")},
        {"g": squad("K7")},
        turns=5,
        victory={"objectives": {"G5": 2}},
    )
    flat = Fraction(0)
    assert (
        next_step(play.state, "de", AiPolicy(move_objective=Fraction(1), move_urgency=flat)) is None
    )
    step = next_step(play.state, "de", AiPolicy(move_urgency=flat))
    assert step == "move g --to J6"
    play.do("de", step)  # a legal step
    board = play.state.board
    assert board.hex_of("g").distance(board.parse("G5")) < board.parse("K7").distance(
        board.parse("G5")
    )


@pytest.mark.clause("VV.AP-phases")
def test_in_the_last_turn_urgency_sends_a_squad_out_of_its_house():
    """A German squad in the house at J2 next to a strong American stack at I4, the objective
    K4: without urgency it keeps its cover; in the last turn urgency sends it toward K4, and
    only then (on the first of five turns it stays)."""
    us, de, victory = platoon("I4"), {"g": squad("J2")}, {"objectives": {"K4": 1}}
    last = at(Phase.MOVEMENT, us, de, turns=1, victory=victory)
    assert next_step(last.state, "de", AiPolicy(move_urgency=Fraction(0))) is None
    step = next_step(last.state, "de", FULL)
    assert step == "move g --to K3"
    last.do("de", step)
    first = at(Phase.MOVEMENT, us, de, turns=5, victory=victory)
    assert urgency(first.state, FULL) < urgency(last.state, FULL)


@pytest.mark.clause("VV.AP-phases", "VV.AP-targets")
def test_an_unarmored_vehicle_leaves_the_fire_lane_with_its_passengers():
    """A German jeep with a squad aboard at C6, in the fire lane of the American stack at G6:
    it drives (turning as it goes) to a hex where that stack can hurt it less, every step
    through the player's checks; with ai_vehicles_move off it stays."""
    play = at(Phase.MOVEMENT, platoon("G6"), jeep("C6", "NE"), turns=5)
    assert next_step(play.state, "de", AiPolicy(vehicles_move=False)) is None
    context = _Context(play.state, "de", FULL)
    before = context.threat(play.state.board.parse("C6"), opfire=False)
    sent = []
    while (text := next_step(play.state, "de", FULL)) is not None:
        play.do("de", text)
        sent.append(text)
        if play.state.window is not None:
            play.do("us", "pass")
    assert sent and sent[0] == "move jeep --to D5 --facing N"
    board = play.state.board
    where = board.hex_of("jeep")
    assert where != board.parse("C6") and board.hex_of("r") == where  # the passenger rode along
    assert _Context(play.state, "de", FULL).threat(where, opfire=False) < before
    assert board.status["jeep"].mp_used <= allowance(board, "jeep")


@pytest.mark.clause("VV.AP-phases")
def test_a_vehicle_holds_its_fire_to_leave_the_lane():
    """In the Germans' Fire Phase the jeep could fire its MG at the stack in G6; its move is
    worth more, so it keeps its fire (a unit that fired may not move); with
    ai_vehicles_hold_fire off it fires."""
    play = at(Phase.FIRE, platoon("G6"), jeep("C6", "NE"), turns=5)
    assert drive_gain(play.state, "de", "jeep", FULL) > 0
    assert ai_command(play.state, "de", FULL) == "phase next"
    fired = ai_command(play.state, "de", AiPolicy(vehicles_hold_fire=False))
    assert fired is not None and fired.startswith("fire jeep,r --at G6")
    # Staying safe out of every lane, it has nothing to gain by holding: it fires.
    assert drive_gain(play.state, "de", "jeep", AiPolicy(vehicles_move=False)) == 0


@settings(max_examples=25, deadline=None)
@given(
    start=st.sampled_from(["C6", "F7", "H7", "D7", "B4", "K3", "M6", "G3"]),
    facing=st.sampled_from(["N", "NE", "SE", "S", "SW", "NW"]),
    index=st.integers(0, 40),
)
def test_every_drive_the_ai_plans_is_legal_and_costs_what_it_planned(start, facing, index):
    """Any hex the vehicle search reaches, followed step by step through the move command
    (forward or reverse, then the turn), is accepted and costs the MP the search counted."""
    play = at(Phase.MOVEMENT, {"a": squad("N1")}, jeep(start, facing), turns=5)
    board = play.state.board
    status = board.status["jeep"]
    reach = _drive(
        board, board.parse(start), status.facing, left=8, moved=False, avoid={board.parse("N1")}
    )
    targets = sorted(reach, key=lambda h: (h.q, h.r))
    to = targets[index % len(targets)]
    spent, steps = reach[to]
    for hex, turned in steps:
        words = f"move jeep --to {board.label(hex)}"
        if turned is not None and turned != play.state.board.status["jeep"].facing:
            words += f" --facing {turned.name}"
        play.do("de", words)
        if play.state.window is not None:
            play.do("us", "pass")
    assert play.state.board.hex_of("jeep") == to
    assert play.state.board.status["jeep"].mp_used == spent


@pytest.mark.clause("VV.AP-phases")
def test_the_hedgerow_ambush_is_a_five_turn_race_played_to_a_winner():
    """The bundled ambush: five Game Turns, the village's three houses worth 4 each, ties to
    the Germans. With the Germans played by the AI and the Americans only ending phases, the
    AI takes houses and a winner is declared at the end."""
    data = yaml.safe_load(AMBUSH.read_text())
    assert data["turns"] == 5
    assert data["victory"]["objectives"] == {"H2": 4, "I2": 4, "I3": 4}
    assert data["victory"]["tie"] == "german"
    play = Play(data)
    to_the_end(play, "american")
    result = play.state.result
    assert play.state.over and result is not None and result["clause"] == "V&V r. 2"
    assert result["winner"] == "german"
    assert any(owner == "german" for owner in result["objectives"].values())
    moves = [text for side, text, _, _ in play.log if side == "german" and text.startswith("move")]
    assert moves
