"""The V&V numbers around AP fire (``data/fire_rules.toml``), loaded once and checked.

>>> RULES.fortifications["foxholes"], RULES.opfire_adjacent, RULES.rally["regular"]
(1, -2, 6)
>>> RULES.hex_cost("stream", vehicle=True), RULES.hex_cost("building", vehicle=True)
(3, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ordnance.core.data import load_toml


@dataclass(frozen=True)
class FireRules:
    """Fortification cover, Opportunity Fire, grenade, rally, movement and transport numbers."""

    fortifications: Mapping[str, int]
    opfire_no_cover: int
    opfire_adjacent: int
    grenade_drm: int
    overrun_factor: int
    assault_cover: int
    rally: Mapping[str, int]
    infantry_mp: int
    leader_mp: int
    uphill_mp: int
    hex_costs: Mapping[str, tuple[int, ...]]
    hexside_costs: Mapping[str, int]
    transport: Mapping[str, int]

    def hex_cost(self, terrain: str, *, vehicle: bool) -> int | None:
        """MP to enter a hex of this terrain; None where the unit may not go."""
        costs = self.hex_costs.get(terrain, ())
        column = 1 if vehicle else 0
        return costs[column] if column < len(costs) else None


def _ints(table: Mapping[str, Any], where: str) -> dict[str, int]:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in table.values()):
        raise ValueError(f"fire_rules.toml: [{where}] holds whole numbers only")
    return dict(table)


def load_rules(data: Mapping[str, Any]) -> FireRules:
    movement = data["movement"]
    return FireRules(
        fortifications=_ints(data["fortifications"], "fortifications"),
        opfire_no_cover=int(data["opportunity_fire"]["no_positive_cover"]),
        opfire_adjacent=int(data["opportunity_fire"]["adjacent"]),
        grenade_drm=int(data["grenades"]["drm"]),
        overrun_factor=int(data["overrun"]["factor"]),
        assault_cover=int(data["assault"]["cover"]),
        rally=_ints(data["rally"], "rally"),
        infantry_mp=int(movement["infantry"]),
        leader_mp=int(movement["leader"]),
        uphill_mp=int(movement["uphill"]),
        hex_costs={k: tuple(int(c) for c in v) for k, v in movement["hex"].items()},
        hexside_costs=_ints(movement["hexside"], "movement.hexside"),
        transport=_ints(data["transport"], "transport"),
    )


RULES = load_rules(load_toml("ordnance.vv", "fire_rules.toml"))
