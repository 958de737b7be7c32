"""A V&V scenario file's content, checked and made self-contained; :class:`Sheet`, its values.

The keys (README, "Valor & Victory"; ``examples/vv-hedgerow-ambush.yaml`` is a complete file,
``ordnance/vv/data/scenario.schema.json`` documents each key)::

    ruleset: vv
    name: ...
    map: vv-hedgerows          # a bundled V&V map, a map file relative to this one, or an upload
    turns: 1                   # Game Turns (none: open-ended)
    first: american            # whose Player Turn comes first
    settings: {low_roll: clamp}            # overrides of ordnance.vv.settings
    victory: {objectives: {G7: 2}, casualties: true, tie: german}   # see .victory
    fortifications: {G7: foxholes}         # foxholes, trenches, sandbags
    sides:
      german:
        ai: true                           # the AI plays this side ('ordnance game ai')
        elite: false                       # default for its infantry (rally on 7)
        pool: {grenades: 2, satchels: 1, satchel_apfp: 6}
        units:
          g1: {kind: squad, counter: 4-6-5, hex: G7, sw: {kind: lmg, apfp: 2, range: 8}}
          lt: {kind: leader, counter: 1-3-1, leadership: -1, hex: G7}
          pak: {kind: gun, apfp: 4, casualty: 3, hex: H6, facing: S, shield: true}
          pz: {kind: afv, gun: 12, turret: true, mg360: 4, ffmg: 3, mp: 6, hex: J4, facing: SW}
          truck: {kind: vehicle, casualty: 3, transport: T2, mp: 8, hex: K4, facing: S}
          rider: {kind: squad, counter: 4-6-5, aboard: truck}

The map's text is copied into the result, so the log alone replays the game. The game service
hands over the parsed YAML once it has passed the V&V scenario schema
(``ordnance/vv/data/scenario.schema.json``: keys, types, ranges, names); this module checks the
rest: the map, hexes on it, a unit id used by both sides, passengers and their carriers.

>>> body = load_scenario({"map": "vv-hedgerows", "sides": {
...     "us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "B8"}}},
...     "de": {"ai": True, "units": {"g": {"kind": "squad", "counter": "4-6-5", "hex": "E5"}}}}})
>>> sheet = Sheet.of(body)
>>> sheet.sides, sheet.ai_sides, sheet.units["a"].counter, sheet.game_map.name
(('us', 'de'), frozenset({'de'}), Counter.parse('4-6-5'), 'Hedgerow country')
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ordnance.core import fields
from ordnance.core.hexgrid import Direction, Hex
from ordnance.core.maps import BUNDLED_ONLY, GameMap, MapFiles, MapUnreadable
from ordnance.core.maps.cache import BoundedCache, cached_map
from ordnance.vv.board import Status
from ordnance.vv.counters import Counter
from ordnance.vv.game.victory import read_victory
from ordnance.vv.groups import Pool
from ordnance.vv.numbers import RULES
from ordnance.vv.settings import VvSettings
from ordnance.vv.terrain import GAME, vv_chart
from ordnance.vv.units import Kind, Mount, SupportWeapon, SwKind, Unit, Weapon

# Transport capacity points a passenger takes (fire_rules.toml [transport]).
LOAD = {Kind.SQUAD: 2, Kind.HALF_SQUAD: 1, Kind.LEADER: 1}


def parse_map(text: str, file: str) -> GameMap:
    """A map from its text, once per text (states of one game share the same map object)."""
    return cached_map(text, file, vv_chart)


def _map(name: str, maps: MapFiles) -> tuple[dict[str, str], GameMap]:
    try:
        text = maps.read("ordnance.vv", name).text
    except MapUnreadable as error:
        raise fields.fault("map", error.reason) from None
    game_map = fields.checked("map", lambda t: parse_map(t, name), text)
    if game_map.game != GAME:
        raise fields.fault("map", f"a {game_map.game} map; a V&V scenario needs a vv map")
    return {"file": name, "text": text}, game_map


def load_scenario(data: Mapping[str, Any], maps: MapFiles = BUNDLED_ONLY) -> dict[str, Any]:
    """Check a V&V scenario (see the module docstring) and return its self-contained JSON;
    ``maps`` says what ``map`` may name besides a bundled map (:class:`MapFiles`)."""
    map_json, game_map = _map(data["map"], maps)
    settings = VvSettings.scenario_values(data.get("settings"))
    fortifications: dict[str, str] = {}
    for label, kind in data.get("fortifications", {}).items():
        hex = fields.checked(f"fortifications.{label}", game_map.parse, label)
        fortifications[game_map.label(hex)] = kind
    sides: dict[str, Any] = {}
    units: dict[str, Any] = {}
    for side, body in data["sides"].items():
        where = f"sides.{side}"
        elite = body.get("elite", False)
        sides[side] = {"ai": body.get("ai", False), "pool": _pool(body.get("pool", {}), where)}
        for unit_id, unit in body.get("units", {}).items():
            unit_where = f"{where}.units.{unit_id}"
            fields.unique(unit_id, unit_where, units)
            units[unit_id] = _unit(unit, unit_where, side, elite, game_map)
    _check_aboard(units)
    if not units:
        raise fields.fault("sides", "no units: give each side its units under 'units'")
    first = data.get("first", next(iter(sides)))
    if first not in sides:
        raise fields.fault("first", f"names no side; sides: {', '.join(sides)}")
    victory = read_victory(data.get("victory", {}), game_map, tuple(sides))
    return {
        "map": map_json,
        "victory": victory,
        "turns": data.get("turns"),
        "first": first,
        "settings": settings,
        "fortifications": fortifications,
        "sides": sides,
        "units": units,
    }


def _pool(body: Mapping[str, int], where: str) -> dict[str, int]:
    pool = {key: body.get(key, 0) for key in ("grenades", "satchel_apfp", "satchels")}
    if pool["satchels"] and not pool["satchel_apfp"]:
        raise fields.fault(f"{where}.pool.satchel_apfp", "satchel charges need their APFP")
    return pool


def _unit(
    body: Mapping[str, Any], where: str, side: str, elite: bool, game_map: GameMap
) -> dict[str, Any]:
    kind = Kind(body["kind"])
    unit: dict[str, Any] = {
        "side": side,
        "kind": str(kind),
        # A name, like a vehicle's id under 'aboard', may be a bare YAML number (12).
        "name": str(body.get("name", where.rsplit(".", 1)[-1])).strip(),
        "elite": body.get("elite", elite),
        "pinned": body.get("pinned", False),
    }
    # Which keys each kind has, and needs, is the schema's (its unit's allOf).
    if kind.infantry:
        unit.update(_infantry(body, where, kind))
    else:
        unit.update(_machine(body, where, kind))
    aboard = body.get("aboard")
    if aboard is not None:
        if "hex" in body or "facing" in body:
            raise fields.fault(where, "a passenger has no hex or facing of its own: it is aboard")
        unit["aboard"] = str(aboard).strip()
        return unit
    if "hex" not in body:
        raise fields.fault(
            f"{where}.hex", "where the unit stands (a label of the map), or 'aboard'"
        )
    hex = fields.checked(f"{where}.hex", game_map.parse, body["hex"])
    if RULES.hex_cost(game_map.terrain(hex), vehicle=False) is None:
        raise fields.fault(f"{where}.hex", f"no unit may stand in {game_map.terrain(hex)}")
    unit["hex"] = game_map.label(hex)
    if kind.has_facing:
        if "facing" not in body:
            raise fields.fault(f"{where}.facing", "the hexside it faces: N, NE, SE, S, SW or NW")
        unit["facing"] = str(Direction.parse(body["facing"]))
    return unit


def _infantry(body: Mapping[str, Any], where: str, kind: Kind) -> dict[str, Any]:
    counter = fields.checked(f"{where}.counter", Counter.parse, body["counter"])
    result: dict[str, Any] = {"counter": str(counter)}
    if kind is Kind.SQUAD:
        reduced = body.get("reduced")
        half = (
            fields.checked(f"{where}.reduced", Counter.parse, reduced)
            if reduced is not None
            else counter.halved()
        )
        result["reduced"] = str(half)
    if kind is Kind.LEADER:
        result["leadership"] = body.get("leadership", 0)
    if "sw" in body:
        result["sw"] = _support_weapon(body["sw"], f"{where}.sw", kind)
    return result


def _support_weapon(body: Mapping[str, Any], where: str, kind: Kind) -> dict[str, Any]:
    name = SwKind(body["kind"])
    if kind is Kind.LEADER and name.sw_class != "L":
        raise fields.fault(f"{where}.kind", "a leader carries a Light (L) weapon only (r. 12.2)")
    return {"kind": str(name), "apfp": body["apfp"], "range": body["range"]}


def _machine(body: Mapping[str, Any], where: str, kind: Kind) -> dict[str, Any]:
    result: dict[str, Any] = {"weapons": []}
    if kind is Kind.GUN:
        result["weapons"].append({"mount": "gun", "apfp": body["apfp"]})
    else:
        if "gun" in body:
            turret = body.get("turret", False)
            result["weapons"].append({"mount": "gun", "apfp": body["gun"], "turret": turret})
        for mount in (Mount.MG360, Mount.FFMG):
            if mount in body:
                result["weapons"].append({"mount": str(mount), "apfp": body[mount]})
        result["mp"] = body.get("mp", 0)
        if body.get("transport") is not None:
            result["transport"] = body["transport"]
    if kind is Kind.GUN and "shield" in body:
        result["shield"] = body["shield"]
    if kind is not Kind.AFV:
        result["casualty"] = body["casualty"]
    return result


def _check_aboard(units: Mapping[str, dict[str, Any]]) -> None:
    """Passengers ride a vehicle of their side that has a transport class, within capacity."""
    loads: dict[str, int] = {}
    for unit_id, unit in units.items():
        carrier_id = unit.get("aboard")
        if carrier_id is None:
            continue
        where = f"sides.{unit['side']}.units.{unit_id}.aboard"
        carrier = units.get(carrier_id)
        if carrier is None or carrier["side"] != unit["side"]:
            raise fields.fault(where, f"{carrier_id!r} is no vehicle of {unit['side']}")
        if carrier.get("transport") is None:
            raise fields.fault(where, f"{carrier_id} has no transport class")
        kind = Kind(unit["kind"])
        loads[carrier_id] = loads.get(carrier_id, 0) + LOAD.get(kind, 0)
        if loads[carrier_id] > RULES.transport[carrier["transport"]]:
            raise fields.fault(where, f"{carrier_id} ({carrier['transport']}) is full (r. 8.1)")


@dataclass(frozen=True, eq=False)
class Sheet:
    """The scenario's fixed facts as values: the map, the counters, where everything starts.

    Two sheets read from the same scenario JSON are equal (their ``digest``, the JSON's
    SHA-256), so the states of one game compare equal however often it was folded.
    """

    game_map: GameMap
    units: Mapping[str, Unit]
    start: Mapping[str, Status]
    fortifications: Mapping[Hex, str]
    settings: VvSettings
    sides: tuple[str, ...]
    ai_sides: frozenset[str]
    pools: Mapping[str, Pool]
    first: str
    turns: int | None
    victory: Mapping[str, Any]
    digest: str = ""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return self is other or (self.digest != "" and self.digest == other.digest)

    def __hash__(self) -> int:
        return hash(self.digest) if self.digest else id(self)

    def other(self, side: str) -> str:
        return next(s for s in self.sides if s != side)

    @classmethod
    def of(cls, body: Mapping[str, Any]) -> Sheet:
        """The sheet of a scenario JSON; the games being played share theirs (every fold of a
        game reads the same one while it stays among the last :data:`SHEETS` read)."""
        text = json.dumps(body)
        digest = hashlib.sha256(text.encode()).hexdigest()
        return _SHEETS.get(digest, lambda: _sheet(json.loads(text), digest))


# Sheets kept at once (a game's sheet holds its map and counters): the games being played.
SHEETS = 64
_SHEETS = BoundedCache[str, Sheet](SHEETS)


def _sheet(body: Mapping[str, Any], digest: str) -> Sheet:
    game_map = parse_map(body["map"]["text"], body["map"]["file"])
    units: dict[str, Unit] = {}
    start: dict[str, Status] = {}
    for unit_id, raw in body["units"].items():
        units[unit_id] = _unit_value(unit_id, raw)
        hex = game_map.parse(raw["hex"]) if "hex" in raw else None
        facing = Direction.parse(raw["facing"]) if "facing" in raw else None
        start[unit_id] = Status(hex, facing, pinned=raw["pinned"], aboard=raw.get("aboard"))
    pools = {side: Pool(**s["pool"]) for side, s in body["sides"].items()}
    return Sheet(
        game_map=game_map,
        units=units,
        start=start,
        fortifications={game_map.parse(k): v for k, v in body["fortifications"].items()},
        settings=VvSettings().override(body["settings"]),
        sides=tuple(body["sides"]),
        ai_sides=frozenset(s for s, v in body["sides"].items() if v["ai"]),
        pools=pools,
        first=body["first"],
        turns=body["turns"],
        victory=body.get("victory") or {},
        digest=digest,
    )


def _unit_value(unit_id: str, raw: Mapping[str, Any]) -> Unit:
    sw = raw.get("sw")
    return Unit(
        id=unit_id,
        side=raw["side"],
        kind=Kind(raw["kind"]),
        name=raw["name"],
        counter=Counter.parse(raw["counter"]) if "counter" in raw else None,
        reduced=Counter.parse(raw["reduced"]) if "reduced" in raw else None,
        leadership=raw.get("leadership", 0),
        elite=raw["elite"],
        sw=SupportWeapon(SwKind(sw["kind"]), sw["apfp"], sw["range"]) if sw else None,
        weapons=tuple(
            Weapon(Mount(w["mount"]), w["apfp"], w.get("turret", False))
            for w in raw.get("weapons", ())
        ),
        casualty=raw.get("casualty", 0),
        transport=raw.get("transport"),
        mp=raw.get("mp", 0),
        shield=raw.get("shield", False),
    )
