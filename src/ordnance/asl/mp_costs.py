"""What a vehicle pays in MP to enter a hex (``data/movement.toml``, with its source and reading).

Loaded once and checked against the terrain table: every hex terrain and hexside feature a map
may name has a cost, so a move never meets a terrain the engine cannot price.

>>> table = mp_table()
>>> table.hex("grain").mp, table.hex("woods").all, table.hex("building").allowed
(1, True, False)
>>> table.hexside("wall").mp, table.per_level_up, table.smoke
(1, 4, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ordnance.asl.terrain import asl_chart
from ordnance.core.data import load_toml


@dataclass(frozen=True)
class Cost:
    """One entry: whole MP, ALL (every MP of the allowance) or not allowed, and its rule."""

    name: str
    mp: int
    all: bool
    allowed: bool
    rule: str


@dataclass(frozen=True)
class MpTable:
    """The vehicle MP costs of hex terrain and hexside features, and the extras."""

    hexes: Mapping[str, Cost]
    hexsides: Mapping[str, Cost]
    per_level_up: int
    smoke: int
    source: str
    reading: str

    def hex(self, terrain: str) -> Cost:
        return self.hexes[terrain]

    def hexside(self, feature: str) -> Cost:
        return self.hexsides[feature]


def _cost(name: str, body: Mapping[str, Any]) -> Cost:
    value, rule = body.get("mp"), body.get("rule")
    if not isinstance(rule, str) or not rule:
        raise ValueError(f"movement.toml: {name} needs a rule")
    if value == "all":
        return Cost(name, 0, True, True, rule)
    if value == "na":
        return Cost(name, 0, False, False, rule)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"movement.toml: {name}.mp must be a whole number, 'all' or 'na'")
    return Cost(name, value, False, True, rule)


@cache
def mp_table() -> MpTable:
    """The table, read once and checked against the ASL terrain table."""
    data = load_toml("ordnance.asl", "movement.toml")
    hexes = {name: _cost(name, body) for name, body in data["hex"].items()}
    sides = {name: _cost(name, body) for name, body in data["hexside"].items()}
    chart = asl_chart()
    missing = (set(chart.hexes) - set(hexes)) | (set(chart.hexsides) - set(sides))
    if missing:
        raise ValueError(f"movement.toml: no MP cost for {', '.join(sorted(missing))}")
    extra = data["extra"]
    return MpTable(
        hexes=hexes,
        hexsides=sides,
        per_level_up=int(extra["per_level_up"]),
        smoke=int(extra["smoke"]),
        source=str(data["source"]),
        reading=str(data["reading"]),
    )
