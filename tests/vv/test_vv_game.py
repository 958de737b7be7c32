"""V&V in play: the ruleset driven command by command (phases, fire, Opportunity Fire, CP,
rally), and a full Game Turn of the bundled scenario with the Germans played by the AI.

The dice are scripted: a command takes the rolls queued for it; otherwise AP attacks roll
1,2, rally rolls 1,1 and survival rolls 2, so every outcome below is fixed.
"""

from __future__ import annotations

import random
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.core.dice import DR, DieRoll, SeededDice
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.hexgrid import Direction
from ordnance.core.maps import MapFiles
from ordnance.core.ruleset import Resolution, passes_checks
from ordnance.core.scenario_schema import scenario_schema
from ordnance.game.scenario import load_scenario_file, scenario_from_mapping
from ordnance.vv.game import VvRuleset
from ordnance.vv.game.state import Phase
from ordnance.vv.numbers import RULES
from ordnance.vv.units import Kind, SwKind

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vv-hedgerow-ambush.yaml"


class Dice:
    """Queued rolls first, then the defaults of the module docstring."""

    def __init__(self) -> None:
        self.queue: list[DR | DieRoll] = []
        self.purposes: list[str] = []

    def roll_dr(self, purpose: str) -> DR:
        self.purposes.append(purpose)
        if self.queue:
            roll = self.queue.pop(0)
            assert isinstance(roll, DR)
            return roll
        return DR(1, 1) if purpose.startswith("rally") else DR(1, 2)

    def roll_die(self, purpose: str) -> DieRoll:
        self.purposes.append(purpose)
        if self.queue:
            roll = self.queue.pop(0)
            assert isinstance(roll, DieRoll)
            return roll
        return DieRoll(2)


class Play:
    """A game driven through the ruleset alone: commands in, events folded, rulings out."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.rules = VvRuleset()
        self.state = self.rules.initial_state(
            self.rules.load_scenario(data, MapFiles.folder(EXAMPLE.parent))
        )
        self.dice = Dice()
        self.log: list[tuple[str, str, list[str], dict[str, Any]]] = []

    def do(self, side: str, text: str, *rolls: str | int) -> Resolution:
        self.dice.queue = [DR.parse(r) if isinstance(r, str) else DieRoll(r) for r in rolls]
        command = self.rules.parse_command(side, shlex.split(text))
        resolution = self.rules.resolve(self.state, command, self.dice)
        for event in resolution.events:
            self.state = self.rules.apply(self.state, event)
        kinds = [e.kind for e in resolution.events]
        self.log.append((side, command.text, kinds, dict(resolution.ruling)))
        return resolution

    def refused(self, clause: str, side: str, text: str) -> IllegalAction:
        before = self.state
        with pytest.raises(IllegalAction) as caught:
            self.do(side, text)
        assert caught.value.clause == clause, str(caught.value)
        assert self.state is before
        return caught.value

    def ai(self, side: str) -> list[str]:
        sent = []
        while (text := self.rules.ai_command(self.state, side)) is not None:
            self.do(side, text)
            sent.append(text)
        return sent

    def status(self, unit: str):
        return self.state.board.status[unit]


def example(**changes: Any) -> dict[str, Any]:
    data = yaml.safe_load(EXAMPLE.read_text())
    return {**data, **changes}


@pytest.fixture
def play() -> Play:
    return Play(example())


def small(units_us: dict[str, Any], units_de: dict[str, Any], **changes: Any) -> Play:
    """A scenario on vv-hedgerows with the given units (Germans played by the AI)."""
    data = {
        "ruleset": "vv",
        "name": "test",
        "map": "vv-hedgerows",
        "turns": 1,
        "sides": {"us": {"units": units_us}, "de": {"ai": True, "units": units_de}},
        **changes,
    }
    return Play(data)


# --- the full turn ---------------------------------------------------------------------------


GREEDY = {
    "ai_evaluation": "cp",
    "ai_x_weapons": "false",
    "ai_opfire_lookahead": "0",
    "ai_moves": "false",
}


@pytest.mark.clause("VV.AP-phases", "VV.AP-resolve", "VV.AP-groups", "VV.AP-leader", "VV.AP-select")
def test_a_full_turn_with_the_germans_played_by_the_greedy_ai():
    """American Player Turn: fire (the AI fulfils CP), movement with the AI's Opportunity Fire,
    the AI's Defensive Fire, CP fulfilled, After-Action rally; then the AI's own Player Turn,
    in which the Americans only answer; the scenario ends after it. The AI plays the first
    policy (settings ai_*: raw CP, no X weapons, no look-ahead, no movement)."""
    data = example()
    play = Play({**data, "settings": {**data["settings"], **GREEDY}})
    play.do("american", "phase next")
    fired = play.do("american", "fire a1,a2,sgt --at E5", "2,3")
    assert fired.ruling["cp"] == 1 and fired.ruling["drm"] == 2  # crops, foxholes, hedge, -1
    assert play.ai("german") == ["assign-cp --auto"]
    assert play.status("lt").pinned and play.status("sgt").fired  # the leader is marked fired
    play.do("american", "phase next")
    moved = play.do("american", "move a3 --to C8")
    assert "window" in moved.events[-1].kind
    assert play.rules.to_move(play.state) == "german"
    play.refused("VV.AP-phases", "american", "move a3 --to C7")
    opportunity = play.ai("german")
    assert opportunity == ["opfire g1"]
    assert play.log[-1][3]["opportunity_fire"] and play.log[-1][3]["cp"] == 5
    play.do("american", "assign-cp a3:eliminate")
    assert play.state.window is None  # nothing left to fire at: the mover may go on
    play.do("american", "phase next")
    assert play.state.phase is Phase.DEFENSIVE_FIRE
    defensive = play.ai("german")
    assert defensive[0] == "fire g2 --at D8"
    play.do("american", "assign-cp a2:reduce+pin sgt:pin")
    assert play.ai("german")[0].startswith("fire pak --at D8")
    play.do("american", "assign-cp --auto")
    assert play.ai("german") == ["phase next"]
    play.do("american", "phase next")  # Advance & Assault ends
    assert play.state.phase is Phase.AFTER_ACTION
    rallied = play.do("american", "rally sgt")
    assert rallied.ruling["rallied"] and not play.status("sgt").pinned
    play.refused("V&V r. 14.8", "american", "rally sgt")
    play.do("american", "phase next")  # After-Action: markers off; the Germans' Command Phase
    assert not play.status("g1").fired and not play.status("lt").pinned  # auto rally
    assert play.state.player == "german" and play.state.phase is Phase.COMMAND
    # The AI plays its own Player Turn until the Americans must answer.
    while not play.state.over:
        side = play.rules.to_move(play.state)
        if side == "german":
            assert play.ai("german")
        elif play.state.pending is not None:
            play.do("american", "assign-cp --auto")
        else:
            play.do("american", "phase next")
    german = [text for side, text, _, _ in play.log if side == "german"]
    assert "fire g1,lt --at A8 --leader lt" in german
    kinds = {kind for _, _, events, _ in play.log for kind in events}
    assert {"fired", "attack", "casualty", "window", "rally", "cleanup", "over"} <= kinds


# --- phases and decisions ----------------------------------------------------------------------


@pytest.mark.clause("VV.AP-phases")
def test_who_fires_when(play):
    play.refused("VV.AP-phases", "american", "fire a1 --at E5")  # Command phase
    play.do("american", "phase next")
    play.refused("VV.AP-phases", "german", "fire g1 --at D8")  # the enemy's Fire phase
    play.refused("V&V r. 5", "german", "phase next")
    play.refused("VV.AP-phases", "german", "opfire g1")  # nobody is moving
    play.do("american", "phase next")
    play.refused("VV.AP-phases", "american", "fire a1 --at E5")  # Movement
    play.do("american", "phase next")
    assert play.rules.to_move(play.state) == "german"
    play.refused("VV.AP-phases", "american", "fire a1 --at E5")  # the defender's phase
    assert play.do("german", "fire g1,lt --at D8").ruling["opportunity_fire"] is False


@pytest.mark.clause("VV.AP-resolve")
def test_pending_cp_wait_for_the_defender_only(play):
    play.do("american", "phase next")
    play.do("american", "fire a1,a2,sgt --at E5", "1,1")
    pending = play.state.pending
    assert pending is not None and pending.defender == "german" and pending.cp == 4
    play.refused("VV.AP-resolve", "american", "fire sherman --at F6")
    play.refused("VV.AP-resolve", "american", "assign-cp --auto")
    with pytest.raises(IllegalAction, match="not a unit this attack affects"):
        play.do("german", "assign-cp pak:eliminate")
    play.do("german", "assign-cp g1:reduce+pin lt:pin")
    assert play.status("g1").reduced and play.status("g1").pinned
    assert play.state.pending is None
    play.refused("VV.AP-resolve", "german", "assign-cp --auto")


@pytest.mark.clause("VV.AP-targets", "VV.AP-resolve")
def test_the_result_falls_on_every_unit_in_the_hex(play):
    """A squad and a leader in E5 both stand to take the CP; an AFV's hex is no target."""
    play.do("american", "phase next")
    play.do("american", "fire sherman --at E5 --weapons gun", "1,1")
    assert set(play.state.pending.units) == {"g1", "lt"}


@pytest.mark.clause("VV.AP-phases", "VV.AP-targets")
def test_opportunity_fire_hits_only_the_movers_with_its_modifiers():
    play = small(
        {
            "a": {"kind": "squad", "counter": "4-6-5", "hex": "C8"},
            "b": {"kind": "squad", "counter": "4-6-5", "hex": "C7"},
        },
        {"g": {"kind": "squad", "counter": "4-6-5", "hex": "C5"}},
    )
    for _ in range(2):
        play.do("us", "phase next")
    play.do("us", "move a --to C7")
    assert play.state.window is not None and play.state.window.movers == ("a",)
    shot = play.do("de", "opfire g", "3,4")
    reasons = [d["reason"] for d in shot.ruling["drms"]]
    assert reasons == ["Opportunity Fire: no positive cover"] and shot.ruling["final"] == 6
    assert shot.ruling["cp"] == 1
    assert shot.ruling["affected"] == ["a"]
    assert play.state.pending.units == ("a",)  # b stood still in C7: untouched
    play.do("us", "assign-cp a:pin")
    assert play.state.window is None  # g has fired: nobody else can


@pytest.mark.clause("VV.AP-phases")
def test_adjacent_opportunity_fire_and_passing():
    play = small(
        {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C8"}},
        {
            "g": {"kind": "squad", "counter": "4-6-5", "hex": "C5"},
            "h": {"kind": "squad", "counter": "4-6-5", "hex": "D5", "pinned": True},
        },
    )
    for _ in range(2):
        play.do("us", "phase next")
    play.do("us", "move a --to C7")
    play.do("de", "pass")
    play.refused("VV.AP-phases", "de", "pass")
    play.do("us", "move a --to C6")
    assert play.rules.legal_actions(play.state, "de") == ("pass", "opfire g")
    shot = play.do("de", "opfire g", "3,3")
    assert [d["value"] for d in shot.ruling["drms"]] == [-1, -2]


@pytest.mark.clause("VV.AP-resolve")
def test_a_loaded_truck_takes_a_survival_roll_with_its_passengers():
    play = small(
        {
            "a": {
                "kind": "squad",
                "counter": "4-6-5",
                "hex": "C8",
                "sw": {"kind": "lmg", "apfp": 2, "range": 8},
            }
        },
        {
            "truck": {
                "kind": "vehicle",
                "casualty": 3,
                "transport": "T1",
                "hex": "C5",
                "facing": "S",
            },
            "p": {"kind": "squad", "counter": "4-6-5", "aboard": "truck"},
        },
    )
    play.do("us", "phase next")
    play.do("us", "fire a --at C5", "2,3")
    assert play.state.pending.cp == 3 and play.state.pending.units == ("truck", "p")
    play.do("de", "assign-cp truck:3", 4)  # survival roll 4 > 3: eliminated, and its passenger
    assert play.status("truck").eliminated and play.status("p").eliminated
    assert play.log[-1][3]["survival_rolls"] == [
        {"unit": "truck", "cp": 3, "die": 4, "result": "eliminated"}
    ]


@pytest.mark.clause("VV.AP-resolve")
def test_a_pinned_truck_pins_its_passengers_and_they_rally_with_it():
    play = small(
        {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C8"}},
        {
            "truck": {
                "kind": "vehicle",
                "casualty": 3,
                "transport": "T1",
                "hex": "C5",
                "facing": "S",
            },
            "p": {"kind": "squad", "counter": "4-6-5", "aboard": "truck"},
        },
        first="de",
    )
    for _ in range(3):
        play.do("de", "phase next")
    play.do("us", "fire a --at C5", "3,3")  # Defensive Fire: 4 APFP, 6: 1 CP
    play.do("de", "assign-cp truck:pin")
    assert play.status("p").pinned
    play.do("us", "phase next")
    play.do("de", "phase next")
    play.refused("V&V r. 14.8", "de", "rally p")
    play.do("de", "rally truck", "4,3")  # 7 against a vehicle's 7: rallied
    assert not play.status("truck").pinned and not play.status("p").pinned


@pytest.mark.clause("VV.AP-leader")
def test_a_leader_helps_a_rally_and_elite_units_rally_on_seven():
    play = small(
        {
            "a": {"kind": "squad", "counter": "4-6-5", "hex": "C8", "pinned": True},
            "e": {"kind": "squad", "counter": "4-6-5", "hex": "C8", "pinned": True, "elite": True},
            "lt": {"kind": "leader", "counter": "1-3-1", "leadership": -2, "hex": "C8"},
        },
        {"g": {"kind": "squad", "counter": "4-6-5", "hex": "J2"}},
    )
    for side in ("us", "us", "us", "de", "us"):
        play.do(side, "phase next")
    helped = play.do("us", "rally a --leader lt", "4,4")
    assert helped.ruling["modifier"] == -2 and helped.ruling["rallied"]
    with pytest.raises(IllegalAction, match="not an unpinned leader"):
        play.do("us", "rally e --leader a")
    assert play.do("us", "rally e", "3,4").ruling["rallied"]


def test_after_action_clears_markers_and_thins_smoke(play):
    assert play.state.board.smoke == {
        play.state.board.parse("G5"): 2,
        play.state.board.parse("H5"): 1,
    }
    play.do("american", "phase next")
    play.do("american", "fire a3 --at F6", "6,6")
    for _ in range(5):
        play.do(play.rules.to_move(play.state), "phase next")
    assert play.state.player == "german"
    assert not play.status("a3").fired and play.state.attacked == frozenset()
    assert play.state.board.smoke == {play.state.board.parse("G5"): 1}


def test_movement_costs_and_vehicles():
    play = small(
        {
            "a": {"kind": "squad", "counter": "4-6-5", "hex": "D6"},
            "b": {"kind": "squad", "counter": "4-6-5", "hex": "C8"},
            "jeep": {"kind": "vehicle", "casualty": 2, "mp": 4, "hex": "B8", "facing": "N"},
            "truck": {"kind": "vehicle", "casualty": 3, "mp": 8, "hex": "K4", "facing": "N"},
        },
        {"g": {"kind": "squad", "counter": "4-6-5", "hex": "N1"}},
    )
    for _ in range(2):
        play.do("us", "phase next")
    assert play.do("us", "move a --to D5").ruling["mp"] == {"a": 1}  # crops
    assert play.do("us", "move a --to D4").ruling["mp"] == {"a": 2}  # over the D5/N hedge
    assert play.do("us", "move a --to D3").ruling["mp"] == {"a": 1}
    with pytest.raises(IllegalAction, match="needs 1 MP to enter D2; 0 left"):
        play.do("us", "move a --to D2")
    assert play.do("us", "move b --to C7 --assault").ruling["mp"] == {"b": 2}
    with pytest.raises(IllegalAction, match="faces N"):
        play.do("us", "move jeep --to C8")
    # In reverse into a stream: 3 MP doubled; a first hex is always allowed (r. 6).
    assert play.do("us", "move jeep --to B9").ruling["mp"] == {"jeep": 6}
    with pytest.raises(BadInput):
        play.do("us", "move b --to C6 --facing N")
    with pytest.raises(IllegalAction, match="not next to"):
        play.do("us", "move jeep --to B5")
    assert play.status("jeep").moved and play.status("b").assault
    # Forward, then two hexsides of turning: the first is free.
    assert play.do("us", "move truck --to K3 --facing SE").ruling["mp"] == {"truck": 2}
    assert str(play.status("truck").facing) == "SE"


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"map": "nowhere"}, "map"),
        ({"turns": 0}, "turns"),
        ({"first": "russian"}, "first"),
        ({"settings": {"low_roll": "up"}}, "settings"),
        ({"fortifications": {"E5": "castle"}}, "fortifications.E5"),
        ({"sides": {"a": {}}}, "sides"),
    ],
)
def test_scenario_faults_name_their_key(change, where):
    with pytest.raises(BadInput) as caught:
        scenario_from_mapping(example(**change), MapFiles.folder(EXAMPLE.parent))
    assert caught.value.text == where


@pytest.mark.parametrize(
    ("unit", "problem"),
    [
        ({"kind": "tank", "hex": "B2"}, "expected squad, half-squad"),
        ({"kind": "squad", "hex": "B2"}, r"x\.counter': missing"),
        ({"kind": "squad", "counter": "4-6", "hex": "B2"}, "APFP-Range"),
        ({"kind": "squad", "counter": "4-6-5"}, "or 'aboard'"),
        ({"kind": "squad", "counter": "4-6-5", "hex": "F2"}, "no unit may stand"),
        (
            {"kind": "squad", "counter": "4-6-5", "hex": "B2", "facing": "N"},
            r"x\.facing': expected a key of a squad",
        ),
        ({"kind": "gun", "apfp": 4, "casualty": 3, "hex": "B2"}, "the hexside it faces"),
        (
            {"kind": "squad", "counter": "4-6-5", "hex": "B2", "gun": 4},
            r"x\.gun': expected a key of a squad",
        ),
        (
            {
                "kind": "squad",
                "counter": "4-6-5",
                "hex": "B2",
                "sw": {"kind": "mortar", "apfp": 4, "range": 9},
            },
            "mortars",
        ),
        (
            {
                "kind": "leader",
                "counter": "1-3-1",
                "hex": "B2",
                "sw": {"kind": "mmg", "apfp": 4, "range": 10},
            },
            "Light",
        ),
        ({"kind": "squad", "counter": "4-6-5", "aboard": "nobody"}, "no vehicle"),
    ],
)
def test_unit_faults_name_their_key(unit, problem):
    data = example()
    data["sides"]["american"]["units"]["x"] = unit
    with pytest.raises(BadInput, match=problem):
        scenario_from_mapping(data, MapFiles.folder(EXAMPLE.parent))


def test_the_example_loads_self_contained():
    scenario = load_scenario_file(EXAMPLE)
    assert scenario.ruleset == "vv" and scenario.sides == ("american", "german")
    assert "Hedgerow country" in scenario.body["map"]["text"]
    assert scenario.body["units"]["a2"]["reduced"] == "2-6-3"


@pytest.mark.clause("SYS.record")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 1000), max_size=60), st.integers(0, 2**16))
def test_random_legal_play_never_breaks(choices, seed):
    """Whatever legal command is sent, it resolves (or, past its roll, is refused cleanly) and
    the fold stays consistent; the AI's commands are always legal."""
    play = Play(example())
    play.dice = SeededDice(seed)  # type: ignore[assignment]
    for choice in choices:
        if play.state.over:
            break
        side = play.rules.to_move(play.state)
        if side == "german" and choice % 3 == 0:
            text = play.rules.ai_command(play.state, side)
            assert text is not None
            play.do(side, text)
            continue
        actions = play.rules.legal_actions(play.state, side)
        assert actions, f"{side} has nothing to do in {play.state.phase}"
        try:
            play.do(side, actions[choice % len(actions)])
        except OrdnanceError:
            pytest.fail(f"a legal action was refused: {actions[choice % len(actions)]}")


@pytest.mark.clause("VV.AP-phases", "SYS.record")
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 1000), min_size=5, max_size=40), st.integers(0, 2**16))
def test_a_step_is_allowed_exactly_when_it_would_resolve(choices, seed):
    """The legal actions ask a step only its checks (not whether it opens an Opportunity Fire
    window): every step of every unit of both sides, in every state random play reaches, is
    allowed exactly when the full resolution accepts it."""
    rng = random.Random(seed)
    play = Play(example())
    play.dice = SeededDice(seed)  # type: ignore[assignment]
    rules, state = play.rules, play.state
    moved = 0
    for choice in choices:
        if state.over:
            break
        board = state.board
        for side in state.sheet.sides:
            for unit in board.side_units(side):
                where = board.hex_of(unit)
                if where is None:
                    continue
                for to in where.neighbours():
                    if to not in board.game_map:
                        continue
                    extra = ["--assault"] if rng.random() < 0.3 else []
                    words = ["move", unit, "--to", board.label(to), *extra]
                    command = rules.parse_command(side, words)
                    expected = passes_checks(rules.resolve, state, command)
                    assert rules.allows(state, command) == expected, (state.phase, words)
                    moved += 1
        side = rules.to_move(state)
        actions = rules.legal_actions(state, side)
        play.do(side, actions[choice % len(actions)])
        state = play.state
    assert moved > 0


def test_the_schema_names_what_the_library_knows():
    schema = scenario_schema("ordnance.vv")
    unit = schema["$defs"]["unit"]["properties"]
    assert unit["kind"]["enum"] == [str(kind) for kind in Kind]
    assert unit["sw"]["properties"]["kind"]["enum"] == [str(kind) for kind in SwKind]
    assert unit["transport"]["enum"] == list(RULES.transport)
    assert unit["facing"]["enum"] == [str(d) for d in Direction]
    fortification = schema["properties"]["fortifications"]["additionalProperties"]
    assert fortification["enum"] == list(RULES.fortifications)
