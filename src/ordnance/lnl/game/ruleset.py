"""LnLT Smoke and WP shells as a :class:`~ordnance.core.ruleset.Ruleset` for the game service.

>>> from ordnance.core.dice import DR, DieRoll, ManualDice
>>> rules = LnlRuleset()
>>> state = rules.initial_state(rules.load_scenario({"map": "lnl-farm", "sides": {
...     "german": {"wp_shells": 1, "depletion_number": 3, "units": {
...         "pz4": {"kind": "vehicle", "hex": "B5", "shells": ["wp"], "to_hit": {7: 9}}}},
...     "american": {"units": {"sq1": {"kind": "squad", "hex": "E5"}}}}}))
>>> def do(side, text, *dice):
...     global state
...     done = rules.resolve(state, rules.parse_command(side, text.split()), ManualDice(dice))
...     for event in done.events:
...         state = rules.apply(state, event)
...     return done
>>> _ = do("german", "phase next")
>>> rules.legal_actions(state, "german")[:2]
('pass', 'wp-shell pz4 --at E5')
>>> done = do("german", "wp-shell pz4 --at E5", DR(2, 3), DieRoll(4), DieRoll(5))
>>> done.ruling["result"], done.ruling["hex"], done.ruling["checks"][0]["total"]
('hit', 'E5', 5)
>>> done.ruling["pool"]["left"], [e.kind for e in done.events]
(1, ['fired', 'marker-placed', 'wp-check', 'pool'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ordnance.core.command_words import CommandTable
from ordnance.core.dice import DiceSource
from ordnance.core.maps import BUNDLED_ONLY, CounterView, GameMap, MapFiles, TerrainChart
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, Event, JsonObject, Resolution, passes_checks
from ordnance.lnl.game.chances import shell_odds
from ordnance.lnl.game.commands import COMMANDS, parse_command
from ordnance.lnl.game.counters import counters
from ordnance.lnl.game.event_text import describe
from ordnance.lnl.game.resolve import resolve, to_move
from ordnance.lnl.game.scenario import Sheet, load_scenario
from ordnance.lnl.game.state import LnlState, apply, initial_state
from ordnance.lnl.shell import ShellKind
from ordnance.lnl.terrain import lnl_chart


class LnlRuleset:
    """LnLT optional Smoke and WP shells (14.2.2, 14.2.3) in play."""

    @property
    def commands(self) -> CommandTable:
        return COMMANDS

    @property
    def name(self) -> str:
        return "lnl"

    def load_scenario(self, data: Mapping[str, Any], maps: MapFiles = BUNDLED_ONLY) -> JsonObject:
        return load_scenario(data, maps)

    def sides(self, scenario: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(scenario["sides"])

    def initial_state(self, scenario: Mapping[str, Any]) -> LnlState:
        return initial_state(Sheet.of(scenario))

    def parse_command(self, side: str, words: Sequence[str]) -> Command:
        return parse_command(side, words)

    def to_move(self, state: LnlState) -> str | None:
        return to_move(state)

    def legal_actions(self, state: LnlState, side: str) -> tuple[str, ...]:
        """Every candidate command that passes the checks (probed up to its first roll).

        Shells and MGs are offered at the hexes holding enemy units, moves into each
        neighbouring hex; other targets are legal too when a setting allows them.
        """
        legal: list[str] = []
        for text in _candidates(state, side):
            command = parse_command(side, text.split())
            if passes_checks(resolve, state, command):
                legal.append(command.text)
        return tuple(legal)

    def resolve(self, state: LnlState, command: Command, dice: DiceSource) -> Resolution:
        return resolve(state, command, dice)

    def chance_outcomes(self, state: LnlState, command: Command) -> Distribution[str]:
        """The exact odds of every outcome of ``command``, in words (:mod:`.chances`)."""
        return shell_odds(state, command)

    def apply(self, state: LnlState, event: Event) -> LnlState:
        return apply(state, event.kind, event.data)

    def is_over(self, state: LnlState) -> bool:
        return state.over

    def view(self, state: LnlState) -> JsonObject:
        return view(state)

    def describe_event(self, event: Event) -> str:
        """The event as a sentence (:mod:`.event_text`)."""
        return describe(event.kind, event.data)

    def live_map(self, state: LnlState) -> tuple[GameMap, TerrainChart]:
        """The map with the game's Smoke and WP markers on it (``ordnance game render``)."""
        return state.game_map, lnl_chart()

    def counters(self, state: LnlState) -> tuple[CounterView, ...]:
        """Every unit as a counter on the map picture (:mod:`.counters`)."""
        return counters(state)


def _candidates(state: LnlState, side: str) -> list[str]:
    sheet = state.sheet
    if state.pending is not None:
        return [f"choose {sheet.label(h)}" for h in state.pending.candidates]
    texts = ["phase next", "pass", "end"]
    enemy_hexes = sorted({s.hex for u, s in state.units.items() if sheet.units[u].side != side})
    for unit in sheet.units.values():
        if unit.side != side:
            continue
        here = state.units[unit.id].hex
        for hex in enemy_hexes:
            for kind in sorted(unit.shells):
                texts.append(f"{kind}-shell {unit.id} --at {sheet.label(hex)}")
        if unit.kind == "vehicle":
            texts += [f"mg {unit.id} --at {sheet.label(hex)}" for hex in enemy_hexes]
        texts += [
            f"move {unit.id} --to {sheet.label(h)}"
            for h in here.neighbours()
            if h in sheet.game_map
        ]
    return texts


def view(state: LnlState) -> JsonObject:
    """Where the game stands, as JSON for ``game status``."""
    sheet = state.sheet
    label = sheet.label
    units: dict[str, Any] = {}
    for unit in sheet.units.values():
        status = state.units[unit.id]
        units[unit.id] = {
            "side": unit.side,
            "name": unit.name,
            "kind": unit.kind,
            "hex": label(status.hex),
            "open": unit.open,
            "lm": unit.lm,
            "shells": sorted(str(k) for k in unit.shells),
            "to_hit": None if unit.to_hit is None else unit.to_hit.to_json(),
            "acquired": None if status.acquired is None else label(status.acquired),
            "acted": status.acted,
            "fired": list(status.fired),
        }
    pending = state.pending
    return {
        "map": {"name": sheet.game_map.name, "sha256": sheet.map_sha256},
        "turn": state.turn,
        "turns": sheet.turns,
        "phase": str(state.phase),
        "impulse": state.impulse,
        "passes": state.passes,
        "over": state.over,
        "pools": {
            side: {
                str(kind): {
                    "left": state.pool(side, str(kind)).count,
                    "depletion_number": state.pool(side, str(kind)).depletion_number,
                }
                for kind in ShellKind
            }
            for side in sheet.sides
        },
        "markers": {label(h): list(names) for h, names in sorted(state.markers.items())},
        "units": units,
        "action": None
        if state.action is None
        else {"unit": state.action.unit, "shell": state.action.shell},
        "pending": None
        if pending is None
        else {
            "unit": pending.unit,
            "side": pending.side,
            "chooser": pending.chooser,
            "kind": pending.kind,
            "result": pending.result,
            "candidates": [label(h) for h in pending.candidates],
        },
    }
