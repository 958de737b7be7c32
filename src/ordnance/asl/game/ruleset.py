"""The ASL C8 side record as a :class:`~ordnance.core.ruleset.Ruleset` for the game service.

>>> from ordnance.core.dice import ManualDice, DR
>>> rules = AslRuleset()
>>> body = rules.load_scenario({"date": "1945-03", "sides": {
...     "russian": {"units": {"t34": {"kind": "vehicle", "notation": "A5(4)/6(5) s8"}}},
...     "german": {"units": {}}}})
>>> state = rules.initial_state(body)
>>> rules.legal_actions(state, "russian")
('phase next',)
>>> begin = rules.resolve(state, rules.parse_command("russian", ["phase", "next"]), ManualDice([]))
>>> state = rules.apply(state, begin.events[0])
>>> "fire t34 --ammo APCR" in rules.legal_actions(state, "russian")
True
>>> done = rules.resolve(state, rules.parse_command("russian", ["fire", "t34", "--ammo", "APCR"]),
...     ManualDice([DR(3, 3)]))
>>> [event.kind for event in done.events], "C8.9-eq" in done.ruling["clauses"]
(['record', 'fired'], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.asl.game import resolve as rules
from ordnance.asl.game import state as asl_state
from ordnance.asl.game.afv import afv_view
from ordnance.asl.game.commands import COMMANDS, parse_command
from ordnance.asl.game.counters import counters
from ordnance.asl.game.event_text import describe
from ordnance.asl.game.markers import SmokeMarker
from ordnance.asl.game.offers import offers
from ordnance.asl.game.outcomes import fire_odds
from ordnance.asl.game.scenario import Sheet, Unit, load_scenario
from ordnance.asl.game.sight import live_map
from ordnance.asl.game.smoke_view import smoke_devices
from ordnance.asl.game.state import AslState, initial_state
from ordnance.asl.notation import Family, format_capabilities
from ordnance.asl.terrain import asl_chart
from ordnance.core.adapter import RulesetBase
from ordnance.core.errors import OrdnanceError
from ordnance.core.maps import CounterView, GameMap, TerrainChart
from ordnance.core.odds import Distribution
from ordnance.core.offers import Offer
from ordnance.core.ruleset import Command, JsonObject

# Ammunition a command can declare, besides what a counter lists (ordinary AP and HE).
_ORDINARY = (Family.AP, Family.HE)


class AslRuleset(RulesetBase[AslState]):
    """ASL special ammunition (C8) in play: side record, Player Turns and phases, fire."""

    name = "asl"
    commands = COMMANDS
    load_scenario = staticmethod(load_scenario)
    # The service calls these for every command: the module functions themselves, with no
    # method of their own around them.
    parse_command = staticmethod(parse_command)
    resolve = staticmethod(rules.resolve)
    apply_stored = staticmethod(asl_state.apply)
    describe = staticmethod(describe)

    def initial_state(self, scenario: Mapping[str, Any]) -> AslState:
        return initial_state(Sheet.of(scenario))

    def to_move(self, state: AslState) -> str | None:
        return None if state.over else state.phase_owner

    def candidates(self, state: AslState, side: str) -> list[str]:
        return _candidates(state, side)

    def offers(self, state: AslState, side: str, unit: str) -> tuple[Offer, ...]:
        """Every action of ``unit`` now, each on the hex it acts on (:mod:`.offers`)."""
        return offers(state, side, unit, self.legal_actions)

    def view(self, state: AslState) -> JsonObject:
        return view(state)

    def chance_outcomes(self, state: AslState, command: Command) -> Distribution[str]:
        """The exact odds of every outcome of ``command``, in words (:mod:`.outcomes`)."""
        return fire_odds(state, command)

    def live_map(self, state: AslState) -> tuple[GameMap, TerrainChart] | None:
        """The scenario's map with the game's SMOKE on it, and the table to draw it with."""
        game_map = live_map(state)
        return None if game_map is None else (game_map, asl_chart())

    def counters(self, state: AslState) -> tuple[CounterView, ...]:
        """Every unit on a hex as a counter on the map picture (:mod:`.counters`)."""
        return counters(state)


def _candidates(state: AslState, side: str) -> list[str]:
    texts = ["phase next"]
    for unit in state.sheet.units.values():
        if unit.side != side:
            continue
        families = [t.family for t in unit.tokens]
        for family in dict.fromkeys([*families, *_ORDINARY]):
            if family is Family.CANISTER:
                if unit.canister_fp is not None:
                    texts.append(f"canister {unit.id}")
                continue
            extra = " --target vehicle" if family is Family.HEAT else ""
            texts.append(f"fire {unit.id} --ammo {family.ammo}{extra}")
        if unit.kind == "scw":
            texts.append(f"fire {unit.id} --ammo HEAT --target vehicle")
        texts += [f"move {unit.id}", f"man {unit.id}"]
        if unit.afv is not None:
            texts += _d13_candidates(unit)
    return list(dict.fromkeys(texts))


def _d13_candidates(unit: Unit) -> list[str]:
    """A vehicle's smoke attempts; an sM needs a target hex, so it is not offered. ``mark``
    records what happened at the table, not a move of the game: it is never offered either."""
    kinds = dict.fromkeys(t.family for t in unit.tokens if t.family.is_dispenser)
    texts = [f"dispense {unit.id} --type {k.value}" for k in kinds if k is not Family.SMOKE_MORTAR]
    return [*texts, f"grenades {unit.id}"]


def view(state: AslState) -> JsonObject:
    """The shared side record and where the game stands, as JSON."""
    sheet = state.sheet
    units: dict[str, Any] = {}
    for unit in sheet.units.values():
        status = state.status[unit.id]
        entry: dict[str, Any] = {
            "side": unit.side,
            "name": unit.name,
            "kind": unit.kind,
            "notation": format_capabilities(unit.tokens),
            "moved": status.moved,
            "manned": status.manned,
            "malfunctioned": status.malfunctioned,
            "hex": None if status.hex is None else sheet.label(status.hex),
            "ca": None if status.ca is None else str(status.ca),
            "ammunition": _ammunition(state, unit.id) if unit.keeps_record else [],
            "afv": None
            if unit.afv is None or status.afv is None
            else afv_view(unit.afv, status.afv, status.ca),
            "smoke_devices": smoke_devices(state, unit),
        }
        units[unit.id] = entry
    return {
        "date": str(sheet.date),
        "turn": state.turn,
        "turns": sheet.turns,
        "player": state.player,
        "phase": str(state.phase),
        "phase_owner": state.phase_owner,
        "over": state.over,
        "fired_this_phase": [
            {"unit": s.unit, "ammo": s.ammo.ammo, "smoke": s.smoke} for s in state.shots
        ],
        "non_smoke_fired_by": sorted(state.non_smoke),
        "map": _map_view(state),
        "smoke": [_smoke_view(state, m) for m in state.smoke],
        "expenditure": _expenditure_view(state),
        "units": units,
        "records": {side: record.to_json() for side, record in state.records.items()},
    }


def _map_view(state: AslState) -> dict[str, Any] | None:
    game_map = state.sheet.game_map
    if game_map is None:
        return None
    return {"name": game_map.name, "file": game_map.source, "sha256": state.sheet.map_sha256}


def _smoke_view(state: AslState, marker: SmokeMarker) -> dict[str, Any]:
    return {
        "hex": None if marker.hex is None else state.sheet.label(marker.hex),
        "marker": marker.marker,
        "unit": marker.unit,
        "side": marker.side,
        "removal": marker.removal,
    }


def _expenditure_view(state: AslState) -> dict[str, Any] | None:
    spent = state.expenditure
    if spent is None:
        return None
    return {
        "unit": spent.unit,
        "side": spent.side,
        "hex": None if spent.hex is None else state.sheet.label(spent.hex),
        "seen_by": sorted(spent.seen_by),
    }


def _ammunition(state: AslState, unit_id: str) -> list[dict[str, Any]]:
    """Per special ammunition: the Depletion Number today and whether it may still be used."""
    unit = state.sheet.units[unit_id]
    record = state.record(unit_id)
    rows: list[dict[str, Any]] = []
    for family in dict.fromkeys(t.family for t in unit.tokens):
        if family.is_dispenser or family is Family.IR:
            rows.append(
                {
                    "ammo": family.ammo,
                    "usable": False,
                    "depletion_number": None,
                    "exhausted": False,
                    "why": f"{family.ammo}: not fired as ammunition; see 'dispense' ({family.rule})"
                    if family.is_dispenser
                    else f"{family.ammo}: recorded only ({family.rule})",
                }
            )
            continue
        try:
            number, why, _ = rules.depletion_number(state, unit, family)
            usable = True
        except OrdnanceError as error:
            number, why, usable = None, str(error), False
        rows.append(
            {
                "ammo": family.ammo,
                "usable": usable,
                "depletion_number": number,
                "exhausted": family in record.exhausted,
                "why": why,
            }
        )
    return rows
