"""Valor & Victory AP fire as a :class:`~ordnance.core.ruleset.Ruleset` for the game service.

Besides the protocol (state, whose move, legal actions, resolve, apply: OpenSpiel's shape) it
offers an AI its two other needs: :meth:`VvRuleset.chance_outcomes`, the exact distribution of
an attack's CP before it is rolled, and :meth:`VvRuleset.ai_command`, the AI's own next command.

>>> from ordnance.core.dice import DR, ManualDice
>>> rules = VvRuleset()
>>> body = rules.load_scenario({"map": "vv-hedgerows", "sides": {
...     "us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C7"}}},
...     "de": {"ai": True, "units": {"g": {"kind": "squad", "counter": "4-6-5", "hex": "C4"}}}}})
>>> state = rules.initial_state(body)
>>> state = rules.apply(state, rules.resolve(state, rules.parse_command("us", ["phase", "next"]),
...                                          ManualDice([])).events[0])
>>> rules.legal_actions(state, "us")
('phase next', 'fire a --at C4')
>>> rules.chance_outcomes(state, rules.parse_command("us", ["fire", "a", "--at", "C4"]))[5]
Fraction(1, 36)
>>> rules.ai_note(state, "us", "fire a --at C4"), rules.ai_note(state, "us", "phase next")
('expected 0.97 CP', None)
>>> done = rules.resolve(state, rules.parse_command("us", ["fire", "a", "--at", "C4"]),
...                      ManualDice([DR(1, 2)]))
>>> done.ruling["cp"], [e.kind for e in done.events]
(4, ['fired', 'attack'])
>>> state = rules.apply(rules.apply(state, done.events[0]), done.events[1])
>>> rules.to_move(state), rules.ai_command(state, "de")
('de', 'assign-cp g:eliminate')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ordnance.core.adapter import RulesetBase
from ordnance.core.errors import OrdnanceError
from ordnance.core.maps import CounterView, GameMap, TerrainChart
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, JsonObject
from ordnance.vv.game.commands import COMMANDS, parse_command
from ordnance.vv.game.counters import counters
from ordnance.vv.game.event_text import describe
from ordnance.vv.game.outcomes import ATTACKS, attack_odds, command_odds
from ordnance.vv.game.resolve import allows, resolve
from ordnance.vv.game.scenario import Sheet, load_scenario
from ordnance.vv.game.state import Phase, VvState, apply, initial_state
from ordnance.vv.odds import CasualtyPoints
from ordnance.vv.ready import classes
from ordnance.vv.targets import enemy_hexes
from ordnance.vv.terrain import vv_chart
from ordnance.vv.units import Kind


class VvRuleset(RulesetBase[VvState]):
    """Valor & Victory: six phases, AP fire groups, Opportunity Fire, CP, rally, an AI.

    Fire groups are offered whole per grouping class and unit by unit as legal actions; any
    other subset may be sent too.
    """

    name = "vv"
    commands = COMMANDS
    load_scenario = staticmethod(load_scenario)
    parse_command = staticmethod(parse_command)
    resolve = staticmethod(resolve)
    apply_stored = staticmethod(apply)
    describe = staticmethod(describe)

    def initial_state(self, scenario: Mapping[str, Any]) -> VvState:
        return initial_state(Sheet.of(scenario))

    def to_move(self, state: VvState) -> str | None:
        return state.to_move

    def candidates(self, state: VvState, side: str) -> list[str]:
        return _candidates(state, side)

    def allows(self, state: VvState, command: Command) -> bool:
        return allows(state, command)

    def view(self, state: VvState) -> JsonObject:
        return view(state)

    def live_map(self, state: VvState) -> tuple[GameMap, TerrainChart]:
        """The map with the smoke now in play, the scenario's fortifications and its victory
        objectives (drawn as markers that do nothing to a LOS), for ``ordnance game render``."""
        board = state.board
        game_map = board.smoked_map()
        markers = dict(game_map.markers)
        for hex, kind in sorted(board.fortifications.items()):
            markers[hex] = (kind, *markers.get(hex, ()))
        for label in state.sheet.victory.get("objectives", {}):
            hex = board.parse(label)
            markers[hex] = ("objective", *markers.get(hex, ()))
        return replace(game_map, markers=markers), vv_chart()

    def counters(self, state: VvState) -> tuple[CounterView, ...]:
        """Every living unit as a counter on the map picture (:mod:`.counters`)."""
        return counters(state)

    def chance_outcomes(
        self, state: VvState, command: Command
    ) -> Distribution[CasualtyPoints] | Distribution[str]:
        """The exact odds of a command that rolls (refused as it would be): an attack's CP,
        each read as words by ``str`` ("2 CP", "no effect"); a rally's or a CP assignment's
        outcomes in words (:mod:`.outcomes`)."""
        return command_odds(state, command)

    def ai_command(self, state: VvState, side: str) -> str | None:
        """The AI's next command for a side the scenario gives it (None: not its decision)."""
        # The AI's planner is imported when it first plays: a command a person sends never
        # needs it (bench_cli: `game do` and `game status` 30 ms less).
        from ordnance.vv.game.player import ai_command  # noqa: PLC0415

        return ai_command(state, side)

    def ai_note(self, state: VvState, side: str, text: str) -> str | None:
        """The expected CP of an attack the AI chose, from its exact odds (the web table
        shows it beside the AI's move)."""
        command = parse_command(side, text.split())
        if command.verb not in ATTACKS:
            return None
        try:
            odds = attack_odds(state, command)
        except OrdnanceError:
            return None
        return f"expected {float(odds.expectation(lambda cp: cp)):.2f} CP"


def _candidates(state: VvState, side: str) -> list[str]:
    if state.to_move != side:
        return []
    if state.pending is not None:
        return ["assign-cp --auto"]
    board = state.board
    groups = [list(units) for units in classes(board, side).values()]
    groups += [[u] for units in groups for u in units if len(units) > 1]
    if state.window is not None:
        return ["pass"] + [f"opfire {','.join(g)}" for g in groups]
    texts = ["phase next"]
    if state.phase in (Phase.FIRE, Phase.DEFENSIVE_FIRE):
        for hex in enemy_hexes(board, side):
            label = board.label(hex)
            texts += [f"fire {','.join(g)} --at {label}" for g in groups]
    if state.phase is Phase.MOVEMENT:
        texts += _moves(state, side)
    if state.phase is Phase.AFTER_ACTION:
        texts += [f"rally {u}" for u in board.side_units(side) if board.status[u].pinned]
    return texts


def _moves(state: VvState, side: str) -> list[str]:
    board = state.board
    stacks: dict[str, list[str]] = {}
    for unit_id in board.side_units(side):
        status = board.status[unit_id]
        if status.aboard is None and not status.fired and not status.pinned:
            stacks.setdefault(board.label(status.hex) or "", []).append(unit_id)
    texts: list[str] = []
    for units in stacks.values():
        start = board.hex_of(units[0])
        assert start is not None
        for hex in start.neighbours():
            if hex not in board.game_map:
                continue
            label = board.label(hex)
            movers = [units] if len(units) == 1 else [units, *([u] for u in units)]
            texts += [f"move {','.join(m)} --to {label}" for m in movers]
    return texts


def view(state: VvState) -> JsonObject:
    """The game as JSON for ``status``: phase, decisions waiting, pools, smoke, every unit."""
    board = state.board
    units: dict[str, Any] = {}
    for unit_id, unit in board.units.items():
        status = board.status[unit_id]
        counter = unit.printed(status.reduced)
        units[unit_id] = {
            "side": unit.side,
            "name": unit.name,
            "kind": str(unit.plays_as(status.reduced)),
            "counter": None if counter is None else str(counter),
            "leadership": unit.leadership if unit.kind is Kind.LEADER else None,
            "weapons": [
                {"mount": str(w.mount), "apfp": w.apfp, "turret": w.turret} for w in unit.weapons
            ],
            "casualty_rating": board.casualty_rating(unit_id),
            "hex": board.label(board.hex_of(unit_id)),
            "facing": None if status.facing is None else str(status.facing),
            "aboard": status.aboard,
            "pinned": status.pinned,
            "fire_marker": status.fired,
            "move_marker": status.moved,
            "reduced": status.reduced,
            "eliminated": status.eliminated,
            "mp_used": status.mp_used,
        }
    pending = state.pending
    window = state.window
    return {
        "turn": state.turn,
        "turns": state.sheet.turns,
        "player": state.player,
        "phase": str(state.phase),
        "phase_owner": state.phase_owner,
        "to_move": state.to_move,
        "over": state.over,
        "victory": state.sheet.victory,
        "control": {board.label(h): side for h, side in sorted(state.control.items())},
        "result": state.result,
        "winner": None if state.result is None else state.result["winner"],
        "ai_sides": sorted(state.sheet.ai_sides),
        "pending": None
        if pending is None
        else {
            "hex": board.label(pending.hex),
            "cp": pending.cp,
            "attacker": pending.attacker,
            "defender": pending.defender,
            "units": list(pending.units),
            "shield": pending.shield,
        },
        "opportunity": None
        if window is None
        else {"hex": board.label(window.hex), "movers": list(window.movers)},
        "attacked": sorted([key, target] for key, target in state.attacked),
        "pools": {
            side: {"grenades": p.grenades, "satchels": p.satchels, "satchel_apfp": p.satchel_apfp}
            for side, p in state.pools.items()
        },
        "smoke": {board.label(h): level for h, level in sorted(board.smoke.items())},
        "fortifications": {board.label(h): k for h, k in sorted(board.fortifications.items())},
        "fire_groups": {
            side: [{"class": k, "units": list(units)} for k, units in classes(board, side).items()]
            for side in state.sheet.sides
        },
        "settings": board.settings.to_json(),
        "units": units,
    }
