"""An LnLT scenario file's content, checked and made self-contained, and the same as values.

The game service hands over the parsed YAML once it has passed the LnLT scenario schema
(``ordnance/lnl/data/scenario.schema.json``: keys, types, ranges, names); this module checks
the rest (the map, hexes on it, a unit id used by both sides, the To Hit table's bands). Keys
(``examples/lnl-smoke-wp.yaml`` is a whole example):

- ``map``: a bundled map's name (``lnl-farm``), or an LnLT map file relative to the scenario
  (on the server: a map uploaded with it, see :class:`~ordnance.core.maps.MapFiles`);
  its text is copied into the log, so a replay needs no file;
- ``turns`` (none: open-ended), ``first`` (the side with the first impulse of every turn),
  ``settings`` (the readings of ``ordnance lnl settings``), ``damage_check_table`` (the module's
  DCT for WP checks, by unit class: ``leg``, ``open vehicle``; see :mod:`ordnance.lnl.wp`);
- ``sides``: two sides, each with ``nationality``, its shell pools ``smoke_shells`` and
  ``wp_shells`` (a number, or ``{count, depletion_number}``), a ``depletion_number`` for both
  pools (the optional rule: off without one), and ``units``;
- a unit: ``kind`` (``squad``, ``half-squad``, ``team``, ``leader``, ``hero``: Leg units; or
  ``vehicle``), ``hex``, ``name``; a leader's ``lm``; a vehicle's ``open`` (an Open vehicle),
  ``shells`` (``[smoke, wp]``: which shells it is equipped to fire), ``to_hit`` (its counter's
  To Hit numbers by range: ``{7: 9, 14: 7}`` means 9 up to 7 hexes, 7 up to 14) and
  ``acquired`` (the hex of an Acquired marker it holds).

>>> body = load_scenario({"map": "lnl-farm", "sides": {
...     "german": {"smoke_shells": 2, "depletion_number": 4, "units": {
...         "pz4": {"kind": "vehicle", "hex": "B5", "shells": ["smoke"], "to_hit": {7: 9}}}},
...     "american": {"units": {"sq1": {"kind": "squad", "hex": "E6"}}}}})
>>> body["sides"]["german"]["pools"]["smoke"], body["units"]["pz4"]["to_hit"]
({'count': 2, 'depletion_number': 4}, {'7': 9})
>>> sheet = Sheet.of(body)
>>> sheet.game_map.name, sheet.units["sq1"].leg, sheet.pools["american"]["wp"]
('Farm by the wood', True, Pool(count=0, depletion_number=None))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from ordnance.core import fields, yaml_lines
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Hex
from ordnance.core.maps import BUNDLED_ONLY, GameMap, MapFiles, MapUnreadable
from ordnance.core.maps.cache import cached_map, map_digest
from ordnance.lnl.pool import Pool
from ordnance.lnl.settings import LnlSettings
from ordnance.lnl.shell import ShellKind, ToHitTable
from ordnance.lnl.terrain import GAME, lnl_chart
from ordnance.lnl.wp import LEG_KINDS, VEHICLE, Dct, parse_dct

POOLS = {"smoke_shells": ShellKind.SMOKE, "wp_shells": ShellKind.WP}


def parse_map(text: str, file: str) -> GameMap:
    """An LnLT map from its YAML text (kept: maps are immutable and replays read them often)."""
    return cached_map(text, file, lnl_chart)


def _map(name: str, maps: MapFiles) -> dict[str, str]:
    """The map's text (bundled by name, or what ``maps`` allows), checked as an LnLT map."""
    try:
        source = maps.read("ordnance.lnl", name)
    except MapUnreadable as error:
        raise fields.fault("map", error.reason) from None
    text, file = source.text, f"{name}.yaml" if source.bundled else name
    try:
        parse_map(text, file)  # an lnl map: another game's names are unknown here
    except BadInput as error:
        declared = _declared_game(text)
        if declared not in (None, GAME):
            raise fields.fault("map", f"{name} is a map for {declared}, not for lnl") from None
        raise fields.fault("map", str(error)) from None
    return {"file": file, "sha256": map_digest(text), "text": text}


def _declared_game(text: str) -> str | None:
    """The ``game:`` a map file names, if it can be read at all (for a clearer refusal)."""
    try:
        data = yaml_lines.safe_load(text, "map file", "map")
    except (yaml.YAMLError, RecursionError, ValueError):  # ValueError: a number too long, BadInput
        return None
    game = data.get("game") if isinstance(data, Mapping) else None
    return game if isinstance(game, str) else None


def load_scenario(data: Mapping[str, Any], maps: MapFiles = BUNDLED_ONLY) -> dict[str, Any]:
    """Check an LnLT scenario (see the module docstring) and return its self-contained JSON.

    ``maps`` says what ``map`` may name besides a bundled map (:class:`MapFiles`).

    Every fault is a :class:`BadInput` naming the key (``sides.german.units.pz4.to_hit``).
    """
    game_map = _map(data["map"], maps)
    labels = parse_map(game_map["text"], game_map["file"])
    table = data.get("damage_check_table")
    if table is not None:
        try:
            parse_dct(table)
        except BadInput as error:
            raise fields.fault("damage_check_table", str(error)) from None
    sides: dict[str, Any] = {}
    units: dict[str, Any] = {}
    for side, body in data["sides"].items():
        where = f"sides.{side}"
        sides[side] = _side(body, side)
        for unit_id, unit in body.get("units", {}).items():
            unit_where = f"{where}.units.{unit_id}"
            fields.unique(unit_id, unit_where, units)
            units[unit_id] = {"side": side, **_unit(unit, unit_where, labels)}
    first = data.get("first", next(iter(sides)))
    if first not in sides:
        raise fields.fault("first", f"names no side; sides: {', '.join(sides)}")
    return {
        "map": game_map,
        "turns": data.get("turns"),
        "first": first,
        "settings": LnlSettings.scenario_values(data.get("settings")),
        "damage_check_table": None if table is None else dict(table),
        "sides": sides,
        "units": units,
    }


def _side(body: Mapping[str, Any], side: str) -> dict[str, Any]:
    shared = body.get("depletion_number")
    pools: dict[str, Any] = {}
    for key, kind in POOLS.items():
        raw = body.get(key, 0)
        if isinstance(raw, Mapping):
            count, number = raw["count"], raw.get("depletion_number", shared)
        else:
            count, number = raw, shared
        pools[str(kind)] = {"count": count, "depletion_number": number}
    nationality = str(body.get("nationality", side)).strip().lower()
    return {"nationality": nationality, "pools": pools}


def _unit(body: Mapping[str, Any], where: str, game_map: GameMap) -> dict[str, Any]:
    kind = body["kind"]
    unit: dict[str, Any] = {
        "name": str(body.get("name", where.rsplit(".", 1)[-1])).strip(),
        "kind": kind,
        "hex": _hex(body["hex"], f"{where}.hex", game_map),
        "lm": None,
        "open": False,
        "shells": [],
        "to_hit": None,
        "acquired": None,
    }
    # Which keys each kind has is the schema's (its unit's allOf).
    if "lm" in body:
        unit["lm"] = body["lm"]
    if kind == VEHICLE:
        _vehicle(body, where, game_map, unit)
    return unit


def _vehicle(body: Mapping[str, Any], where: str, game_map: GameMap, unit: dict[str, Any]) -> None:
    unit["open"] = body.get("open", False)
    kinds = [str(ShellKind.parse(shell)) for shell in body.get("shells", [])]
    unit["shells"] = sorted(set(kinds))
    raw_table = body.get("to_hit")
    if raw_table is not None:
        try:
            unit["to_hit"] = ToHitTable.of(raw_table).to_json()
        except BadInput as error:
            raise fields.fault(f"{where}.to_hit", f"{error.text!r}: {error.problem}") from None
    if body.get("acquired") is not None:
        unit["acquired"] = _hex(body["acquired"], f"{where}.acquired", game_map)


def _hex(text: str, where: str, game_map: GameMap) -> str:
    try:
        return game_map.label(game_map.parse(text))
    except BadInput as error:
        raise fields.fault(where, f"{error.text!r}: {error.problem}") from None


@dataclass(frozen=True)
class Unit:
    """One unit's fixed facts."""

    id: str
    side: str
    name: str
    kind: str
    hex: Hex
    lm: int | None
    open: bool
    shells: frozenset[ShellKind]
    to_hit: ToHitTable | None
    acquired: Hex | None

    @property
    def leg(self) -> bool:
        return self.kind in LEG_KINDS


@dataclass(frozen=True)
class Sheet:
    """The scenario as values: the map, turns, sides, pools, units, settings, the DCT."""

    game_map: GameMap = field(compare=False)
    map_sha256: str
    turns: int | None
    first: str
    sides: tuple[str, ...]
    nationality: Mapping[str, str]
    pools: Mapping[str, Mapping[str, Pool]]
    units: Mapping[str, Unit]
    settings: LnlSettings
    dct: Dct | None

    @classmethod
    def of(cls, body: Mapping[str, Any]) -> Sheet:
        """Build from :func:`load_scenario`'s JSON (as stored in the log)."""
        game_map = parse_map(body["map"]["text"], body["map"]["file"])
        units = {
            unit_id: Unit(
                id=unit_id,
                side=u["side"],
                name=u["name"],
                kind=u["kind"],
                hex=game_map.parse(u["hex"]),
                lm=u["lm"],
                open=u["open"],
                shells=frozenset(ShellKind(s) for s in u["shells"]),
                to_hit=None if u["to_hit"] is None else ToHitTable.of(u["to_hit"]),
                acquired=None if u["acquired"] is None else game_map.parse(u["acquired"]),
            )
            for unit_id, u in body["units"].items()
        }
        pools = {
            side: {kind: Pool(p["count"], p["depletion_number"]) for kind, p in s["pools"].items()}
            for side, s in body["sides"].items()
        }
        table = body["damage_check_table"]
        return cls(
            game_map=game_map,
            map_sha256=body["map"]["sha256"],
            turns=body["turns"],
            first=body["first"],
            sides=tuple(body["sides"]),
            nationality={side: s["nationality"] for side, s in body["sides"].items()},
            pools=pools,
            units=units,
            settings=LnlSettings().override(body["settings"]),
            dct=None if table is None else parse_dct(table),
        )

    def other(self, side: str) -> str:
        """The opposing side."""
        return next(s for s in self.sides if s != side)

    def unit(self, unit_id: str) -> Unit:
        if unit_id not in self.units:
            raise BadInput("unit", unit_id, f"no such unit; units: {', '.join(self.units)}")
        return self.units[unit_id]

    def hex(self, text: str) -> Hex:
        """A hex of the scenario's map from its label."""
        return self.game_map.parse(text)

    def label(self, hex: Hex) -> str:
        return self.game_map.label(hex)
