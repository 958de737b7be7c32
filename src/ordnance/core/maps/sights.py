"""Small pieces every ruleset's LOS procedure uses: adding sights, logging what was met, cover.

>>> combine([Sight(1, reason="grain"), Sight(3, reason="smoke")])
Sight(hindrance=4, blocks=False, reason='grain + smoke')
>>> from ordnance.core.hexgrid import Direction
>>> north = Hexside.of(Hex(0, 0), Direction.N)
>>> touches(north, Hex(1, -1)), touches(north, Hex(2, -2))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ordnance.core.hexgrid import CLEAR, Corner, Hex, Hexside, Sight, SightLine, Vertex
from ordnance.core.maps.model import GameMap
from ordnance.core.maps.terrain import Feature, TerrainChart
from ordnance.core.maps.verdict import Cover


def combine(parts: Sequence[Sight]) -> Sight:
    """Everything in one hex (or at one hexside) together: hindrances add, any block blocks."""
    if not parts:
        return CLEAR
    if len(parts) == 1:
        return parts[0]
    reason = " + ".join(dict.fromkeys(p.reason for p in parts if p.reason))
    return Sight(sum(p.hindrance for p in parts), any(p.blocks for p in parts), reason)


def touches(side: Hexside, hex: Hex) -> bool:
    """Whether a hexside reaches a corner of ``hex`` (is one of its sides, or ends at it)."""
    corners = {Vertex.of(hex, corner) for corner in Corner}
    return any(vertex in corners for vertex in side.vertices)


def sides_into(line: SightLine, hex: Hex) -> tuple[Hexside, ...]:
    """The hexsides of ``hex`` the line crosses on its last step into it (target's cover)."""
    if not line.crossings:
        return ()
    return tuple(side for side in line.crossings[-1].sides if hex in side.hexes)


@dataclass
class MetLog:
    """What a line met, for the rule references and clause IDs a verdict cites."""

    rules: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)

    def note(self, feature: Feature, *clauses: str) -> None:
        rule = feature.extra.get("rule")
        if isinstance(rule, str) and rule:
            self.rules.append(rule)
        self.clauses.extend(clauses)

    def rule(self, *rules: str) -> None:
        self.rules.extend(rules)


def target_cover(
    game_map: GameMap, chart: TerrainChart, line: SightLine, adds: bool, label: str = "cover"
) -> Cover:
    """The target's cover from its hex's terrain and the hexside(s) the line enters it by.

    ``adds``: the hexside's cover adds to the hex's (V&V) or the better one counts (ASL, LnLT).
    """
    target = line.target
    terrain = chart.hex(game_map.terrain(target))
    parts = [(terrain.cover, terrain.name)]
    for side in sides_into(line, target):
        name = game_map.hexside(side)
        if name is not None:
            feature = chart.hexside(name)
            parts.append((feature.cover, f"{feature.name} {game_map.place_label(side)}"))
    if adds:
        counted = [(value, why) for value, why in parts if value]
        value = sum(v for v, _ in counted)
        reason = " + ".join(f"{why} {v:+d}" for v, why in counted) or f"{terrain.name}: no {label}"
        return Cover(value, reason)
    best = max(parts, key=lambda part: part[0])
    return Cover(best[0], f"{best[1]} {best[0]:+d}" if best[0] else f"{best[1]}: no {label}")
