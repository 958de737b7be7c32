"""Dice race: the sides take turns; each rolls a die and moves that far, or rests. The first
to reach the goal wins. A game small enough to read in one sitting, with every part a game
needs: a scenario, sides, legal actions, a roll, events, a view, an end, and exact odds.

>>> rules = RaceRules()
>>> state = rules.initial_state({"sides": ["red", "blue"], "goal": 5})
>>> rules.to_move(state), rules.legal_actions(state, "red"), rules.legal_actions(state, "blue")
('red', ('roll', 'rest'), ())
>>> state = rules.apply(state, Event("moved", {"side": "red", "by": 6}))
>>> rules.is_over(state), rules.view(state)["result"]["winner"]
(True, 'red')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ordnance.core.dice import DiceSource, DieRoll
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.maps import MapFiles
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, Event, JsonObject, Resolution

VERBS = ("roll", "rest")


@dataclass(frozen=True)
class RaceState:
    sides: tuple[str, ...]
    goal: int
    positions: tuple[int, ...]
    turn: int = 1  # counts every command
    winner: str | None = None

    @property
    def acting(self) -> str:
        return self.sides[(self.turn - 1) % len(self.sides)]


class RaceRules:
    """The ruleset (:class:`~ordnance.core.ruleset.Ruleset`), with exact odds
    (:class:`~ordnance.core.ruleset.ChanceOutcomes`)."""

    @property
    def name(self) -> str:
        return "race"

    def load_scenario(self, data: Mapping[str, Any], maps: MapFiles) -> JsonObject:
        # The schema (data/scenario.schema.json) checked the shape; the rest is checked here.
        return {"sides": list(data["sides"]), "goal": int(data["goal"])}

    def sides(self, scenario: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(scenario["sides"])

    def initial_state(self, scenario: Mapping[str, Any]) -> RaceState:
        sides = tuple(scenario["sides"])
        return RaceState(sides, int(scenario["goal"]), (0,) * len(sides))

    def parse_command(self, side: str, words: Sequence[str]) -> Command:
        if len(words) != 1 or words[0].lower() not in VERBS:
            raise BadInput("command", " ".join(words), f"expected one of: {', '.join(VERBS)}")
        return Command(side, words[0].lower(), {}, words[0].lower())

    def to_move(self, state: RaceState) -> str | None:
        return None if state.winner else state.acting

    def legal_actions(self, state: RaceState, side: str) -> tuple[str, ...]:
        return VERBS if side == self.to_move(state) else ()

    def resolve(self, state: RaceState, command: Command, dice: DiceSource) -> Resolution:
        if command.side != self.to_move(state):
            raise IllegalAction("RACE.turn", f"it is not {command.side}'s turn")
        if command.verb == "rest":
            return Resolution((Event("rested", {"side": command.side}),), {"rested": True})
        rolled = dice.roll_die("Race dr").value
        event = Event("moved", {"side": command.side, "by": rolled})
        return Resolution((event,), {"dr": rolled, "clauses": ["RACE.move"]})

    def apply(self, state: RaceState, event: Event) -> RaceState:
        at = state.sides.index(event.data["side"])
        if event.kind == "rested":
            return replace(state, turn=state.turn + 1)
        moved = state.positions[at] + int(event.data["by"])
        positions = (*state.positions[:at], moved, *state.positions[at + 1 :])
        winner = state.sides[at] if moved >= state.goal else None
        return replace(state, positions=positions, turn=state.turn + 1, winner=winner)

    def is_over(self, state: RaceState) -> bool:
        return state.winner is not None

    def view(self, state: RaceState) -> JsonObject:
        points = dict(zip(state.sides, state.positions, strict=True))
        return {
            "turn": state.turn,
            "phase": "race",
            "goal": state.goal,
            "positions": points,
            "over": self.is_over(state),
            "result": {"points": points, "winner": state.winner, "clause": "RACE.win"},
        }

    def chance_outcomes(self, state: RaceState, command: Command) -> Distribution[DieRoll]:
        if command.verb != "roll":
            raise BadInput("command", command.text, "only a roll has odds")
        return Distribution.die()
