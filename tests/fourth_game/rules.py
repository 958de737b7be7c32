"""Dice race: the sides take turns; each rolls a die and moves that far, or rests. The first
to reach the goal wins. A game small enough to read in one sitting, with every part a game
needs: a scenario, sides, settings, legal actions, a roll, events, a view, an end, exact odds.

It is written as the rulesets in ``src/ordnance`` are, with the kit they share: module
functions for the rules, a thin adapter (:class:`~ordnance.core.adapter.RulesetBase`) that
names them and says which commands are worth asking about, rulings in the one shape
(:func:`~ordnance.core.rulings.command_ruling`) and its one reading as a
:class:`~ordnance.core.settings.GameSettings`.

>>> rules = RaceRules()
>>> state = rules.initial_state(load_scenario({"sides": ["red", "blue"], "goal": 5}))
>>> rules.to_move(state), rules.legal_actions(state, "red"), rules.legal_actions(state, "blue")
('red', ('roll', 'rest'), ())
>>> state = rules.apply(state, Event("moved", {"side": "red", "by": 6}))
>>> rules.is_over(state), rules.view(state)["result"]["winner"]
(True, 'red')
>>> rules.describe_event(Event("moved", {"side": "red", "by": 6}))
'red moves 6.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ordnance.core.adapter import RulesetBase
from ordnance.core.dice import DiceSource, DieRoll
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.maps import MapFiles
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, Event, JsonObject, Resolution
from ordnance.core.rulings import command_ruling
from ordnance.core.settings import GameSettings, setting

VERBS = ("roll", "rest")


@dataclass(frozen=True)
class RaceSettings(GameSettings):
    """Where the race's rule book is silent, one documented reading each (``--set`` or a
    scenario's ``settings:`` overrides it)."""

    exact_finish: bool = setting(
        False,
        "[default]",
        "RACE.win",
        "A roll past the goal is lost (true) or still wins (false).",
    )


@dataclass(frozen=True)
class RaceState:
    sides: tuple[str, ...]
    goal: int
    positions: tuple[int, ...]
    settings: RaceSettings = RaceSettings()
    turn: int = 1  # counts every command
    winner: str | None = None

    @property
    def over(self) -> bool:  # what RulesetBase.is_over reads
        return self.winner is not None

    @property
    def acting(self) -> str:
        return self.sides[(self.turn - 1) % len(self.sides)]


def load_scenario(data: Mapping[str, Any], maps: MapFiles | None = None) -> JsonObject:
    # The schema (data/scenario.schema.json) checked the shape; the rest is checked here.
    settings = RaceSettings.scenario_values(data.get("settings"))
    return {"sides": list(data["sides"]), "goal": int(data["goal"]), "settings": settings}


def initial_state(scenario: Mapping[str, Any]) -> RaceState:
    sides = tuple(scenario["sides"])
    settings = RaceSettings().override(scenario.get("settings") or {})
    return RaceState(sides, int(scenario["goal"]), (0,) * len(sides), settings)


def parse_command(side: str, words: Sequence[str]) -> Command:
    if len(words) != 1 or words[0].lower() not in VERBS:
        raise BadInput("command", " ".join(words), f"expected one of: {', '.join(VERBS)}")
    return Command(side, words[0].lower(), {}, words[0].lower())


def to_move(state: RaceState) -> str | None:
    return None if state.over else state.acting


def resolve(state: RaceState, command: Command, dice: DiceSource) -> Resolution:
    if command.side != to_move(state):
        raise IllegalAction("RACE.turn", f"it is not {command.side}'s turn")
    if command.verb == "rest":
        said = f"{command.side} rests."
        return Resolution(
            (Event("rested", {"side": command.side}),), command_ruling(command, ["RACE.move"], said)
        )
    rolled = dice.roll_die("Race dr").value
    event = Event("moved", {"side": command.side, "by": rolled})
    said = f"{command.side} rolls dr {rolled} and moves {rolled}."
    return Resolution((event,), command_ruling(command, ["RACE.move"], said, {"dr": rolled}))


def apply_stored(state: RaceState, kind: str, data: Mapping[str, Any]) -> RaceState:
    """The fold step: the state after the event ``kind`` with ``data``."""
    at = state.sides.index(data["side"])
    if kind == "rested":
        return replace(state, turn=state.turn + 1)
    moved = state.positions[at] + int(data["by"])
    if moved > state.goal and state.settings.exact_finish:
        moved = state.positions[at]  # past the goal: the roll is lost
    positions = (*state.positions[:at], moved, *state.positions[at + 1 :])
    winner = state.sides[at] if moved >= state.goal else None
    return replace(state, positions=positions, turn=state.turn + 1, winner=winner)


def describe(kind: str, data: Mapping[str, Any]) -> str:
    return f"{data['side']} rests." if kind == "rested" else f"{data['side']} moves {data['by']}."


def view(state: RaceState) -> JsonObject:
    points = dict(zip(state.sides, state.positions, strict=True))
    return {
        "turn": state.turn,
        "phase": "race",
        "goal": state.goal,
        "positions": points,
        "over": state.over,
        "result": {"points": points, "winner": state.winner, "clause": "RACE.win"},
    }


class RaceRules(RulesetBase[RaceState]):
    """The ruleset: the base keeps ``legal_actions``, ``sides``, ``apply``, ``is_over`` and
    ``describe_event``; the race adds exact odds (``chance_outcomes``)."""

    name = "race"
    load_scenario = staticmethod(load_scenario)
    initial_state = staticmethod(initial_state)
    parse_command = staticmethod(parse_command)
    to_move = staticmethod(to_move)
    resolve = staticmethod(resolve)
    apply_stored = staticmethod(apply_stored)
    describe = staticmethod(describe)
    view = staticmethod(view)

    def candidates(self, state: RaceState, side: str) -> Sequence[str]:
        return VERBS  # the base keeps those resolve accepts now (none off turn)

    def chance_outcomes(self, state: RaceState, command: Command) -> Distribution[DieRoll]:
        if command.verb != "roll":
            raise BadInput("command", command.text, "only a roll has odds")
        return Distribution.die()
