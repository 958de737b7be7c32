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

from collections.abc import Mapping
from typing import Any

from ordnance.core.adapter import RulesetBase
from ordnance.core.maps import CounterView, GameMap, TerrainChart
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, JsonObject
from ordnance.lnl.game.chances import shell_odds
from ordnance.lnl.game.commands import COMMANDS, parse_command
from ordnance.lnl.game.counters import counters
from ordnance.lnl.game.event_text import describe
from ordnance.lnl.game.resolve import resolve, to_move
from ordnance.lnl.game.scenario import Sheet, load_scenario
from ordnance.lnl.game.state import LnlState, apply, initial_state
from ordnance.lnl.shell import ShellKind
from ordnance.lnl.terrain import lnl_chart


class LnlRuleset(RulesetBase[LnlState]):
    """LnLT optional Smoke and WP shells (14.2.2, 14.2.3) in play.

    Shells and MGs are offered at the hexes holding enemy units, moves into each neighbouring
    hex; other targets are legal too when a setting allows them.
    """

    name = "lnl"
    commands = COMMANDS
    load_scenario = staticmethod(load_scenario)
    parse_command = staticmethod(parse_command)
    to_move = staticmethod(to_move)
    resolve = staticmethod(resolve)
    apply_stored = staticmethod(apply)
    describe = staticmethod(describe)

    def initial_state(self, scenario: Mapping[str, Any]) -> LnlState:
        return initial_state(Sheet.of(scenario))

    def candidates(self, state: LnlState, side: str) -> list[str]:
        return _candidates(state, side)

    def chance_outcomes(self, state: LnlState, command: Command) -> Distribution[str]:
        """The exact odds of every outcome of ``command``, in words (:mod:`.chances`)."""
        return shell_odds(state, command)

    def view(self, state: LnlState) -> JsonObject:
        return view(state)

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
