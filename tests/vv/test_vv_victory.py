"""Victory conditions read from the scenario and a winner declared at the end; the AI's movement
in its Movement Phase (every step through the player's checks); a bundled scenario played to
its end with one side played by the AI."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ordnance.core.dice import SeededDice
from ordnance.core.errors import BadInput
from ordnance.core.maps import MapFiles
from ordnance.game.scenario import scenario_from_mapping
from ordnance.vv.ai import AiPolicy
from ordnance.vv.game.movement import allowance
from ordnance.vv.game.scenario import load_scenario
from ordnance.vv.game.selfplay import play_out
from ordnance.vv.game.state import Phase

from .test_vv_game import Play, small

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MEETING = EXAMPLES / "vv-meeting-engagement.yaml"


def squad(hex: str, **more):
    return {"kind": "squad", "counter": "4-6-5", "hex": hex, **more}


def to_the_end(play: Play, human: str) -> None:
    """The AI plays its side; the other side only ends phases, passes and takes CP its way."""
    while not play.state.over:
        side = play.rules.to_move(play.state)
        if side != human:
            assert play.ai(side)
        elif play.state.pending is not None:
            play.do(human, "assign-cp --auto")
        elif play.state.window is not None:
            play.do(human, "pass")
        else:
            play.do(human, "phase next")


@pytest.mark.clause("VV.AP-phases")
def test_a_bundled_scenario_is_played_to_its_end_with_a_winner():
    """The meeting engagement with the Germans played by the AI and the Americans sitting
    still: the AI moves onto the free objectives and wins on points."""
    play = Play(yaml.safe_load(MEETING.read_text()))
    to_the_end(play, "american")
    result = play.state.result
    assert play.state.over and result is not None
    assert result["winner"] == "german" and result["clause"] == "V&V r. 2"
    held = [hex for hex, owner in result["objectives"].items() if owner == "german"]
    assert held and result["points"]["german"] > result["points"]["american"]
    moves = [text for side, text, _, _ in play.log if side == "german" and text.startswith("move")]
    assert moves  # it moved
    last = play.log[-1]
    assert "over" in last[2] and "german wins" in last[3]["explanation"]
    view = play.rules.view(play.state)
    assert view["winner"] == "german" and view["result"]["points"] == result["points"]


@pytest.mark.clause("VV.AP-phases")
def test_the_ai_moves_by_legal_steps_toward_a_free_objective():
    """The Germans (AI) start out of reach of the Americans' fire: in their Movement Phase
    their stack steps toward the free objective, every step through the player's checks, and
    no hex holds more than four infantry units."""
    play = small(
        {"a": squad("N1")},
        {
            "g": squad("B10"),
            "h": squad("C10"),
            "lt": {"kind": "leader", "counter": "1-3-1", "leadership": -1, "hex": "C10"},
        },
        victory={"objectives": {"E6": 2}},
    )
    start = {u: play.state.board.hex_of(u) for u in ("g", "h", "lt")}
    while not (play.state.player == "de" and play.state.phase is Phase.DEFENSIVE_FIRE):
        side = play.rules.to_move(play.state)
        if side == "de":
            play.ai("de")
        else:
            play.do("us", "pass" if play.state.window is not None else "phase next")
    board = play.state.board
    objective = board.parse("E6")
    moved = [u for u in ("g", "h", "lt") if board.hex_of(u) != start[u]]
    assert moved == ["g", "h", "lt"]
    for unit_id in moved:
        assert board.hex_of(unit_id).distance(objective) < start[unit_id].distance(objective)
        assert board.status[unit_id].mp_used <= allowance(board, unit_id)
    texts = [text for side, text, _, _ in play.log if side == "de" and text.startswith("move")]
    assert len(texts) >= 3  # one hex a command, each checked as a player's would be
    hexes = [board.hex_of(u) for u in board.side_units("de")]
    assert all(hexes.count(h) <= 4 for h in hexes)  # the stacking limit


def test_victory_points_control_and_a_draw():
    """The side entering an objective controls it; casualties score full ratings; equal points
    with no 'tie' are a draw."""
    body = load_scenario(
        {
            "map": "vv-hedgerows",
            "turns": 1,
            "victory": {"objectives": {"B9": 1}, "casualties": True},
            "sides": {"us": {"units": {"a": squad("A10")}}, "de": {"units": {"g": squad("N1")}}},
        },
    )
    game = play_out(body, {"us": AiPolicy(), "de": AiPolicy()}, SeededDice(3))
    result = game.state.result
    assert result is not None and result["objectives"] == {"B9": "us"}
    assert result["points"] == {"us": 1, "de": 0} and result["winner"] == "us"
    still = play_out(
        body, {"us": AiPolicy.greedy(), "de": AiPolicy.greedy()}, SeededDice(3)
    ).state.result
    assert still is not None and still["winner"] is None and still["points"] == {"us": 0, "de": 0}


@pytest.mark.parametrize(
    ("victory", "where"),
    [
        ({"objectives": {"Z99": 1}}, "victory.objectives.Z99"),
        ({"objectives": {"B9": 1}, "control": {"C9": "us"}}, "victory.control.C9"),
        ({"objectives": {"B9": 1}, "control": {"B9": "fr"}}, "victory.control.B9"),
        ({"tie": "fr"}, "victory.tie"),
        ({"objectives": {"B9": -1}}, "victory.objectives.B9"),
        ({"points": 3}, "victory"),
    ],
)
def test_victory_faults_name_their_key(victory, where):
    with pytest.raises(BadInput) as caught:
        scenario_from_mapping(
            {
                "ruleset": "vv",
                "name": "victory faults",
                "map": "vv-hedgerows",
                "victory": victory,
                "sides": {"us": {"units": {"a": squad("A10")}}, "de": {"units": {}}},
            },
        )
    assert where in str(caught.value)


def test_every_bundled_scenario_reads_its_victory():
    for path in sorted(EXAMPLES.glob("vv-*.yaml")):
        data = yaml.safe_load(path.read_text())
        body = load_scenario(data, MapFiles.folder(path.parent))
        assert body["victory"]["objectives"] or body["victory"]["casualties"], path.name
