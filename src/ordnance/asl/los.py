r"""ASL line of sight on a map: blocked or clear, hindrances by range, SMOKE, B.10.

Built on :func:`ordnance.core.hexgrid.trace` with the ASL terrain table (``data/terrain.toml``)
and these readings (README, Maps):

- A hex counts as its terrain (woods and buildings block, grain, brush and orchard hinder +1);
  along a hexside the pair blocks only if both hexes block (the thread must cross obstacle art
  on both sides, A6.1) and hinders once, by the larger hindrance. A hill blocks, and the grain,
  brush, orchard or SMOKE on it still hinders (docs/maps.md), so a pair beside it counts them.
- Terrain in the firer's and target's own hexes is TEM, not a hindrance; SMOKE there counts,
  +1 more in the firer's hex (A24.8: traced out of its Location).
- Walls and hedges obstruct only a same-level LOS, and never the firer's or target's own
  hexside; lengthwise along a LOS only where they do not touch either end hex (B9.2).
- Hindrances count per range, the largest at each range, and a total of 6 or more blocks
  (B.10; reference/asl.md section 10). SMOKE never blocks by itself (C8.5-effect).
- Levels: the simple, symmetric rule of :mod:`ordnance.core.maps.levels`; SMOKE is two levels
  high and hinders nothing traced above it (C8.5-effect).

The verdict is reciprocal except through A24.8's +1 out of SMOKE, which can tip the B.10 total.

F (4G5) fires at T (4K5), due east: 4G5, 4I5 and 4K5 lie on one row, so the line runs along
the hexsides between 4H4|4H5 and 4J4|4J5 (each pair at one range, counted once). Grain g in
4H5 (+1) and full SMOKE s in 4J5 (+3)::

     __    __
  __/H4\__/J4\__          F: the firer in 4G5     T: the target in 4K5
 /G5\__/I5\__/K5\         g: grain in 4H5 (+1)    s: full SMOKE in 4J5 (+3)
 \_F/H5\__/J5\_T/
    \_g/  \_s/

>>> from ordnance.core.maps import GameMap
>>> from ordnance.core.hexgrid import GeomorphicLabels
>>> labels = GeomorphicLabels.of("4")
>>> m = GameMap("demo", "asl", labels, "open", {labels.parse("4H5"): "grain"},
...             markers={labels.parse("4J5"): ("smoke",)})
>>> verdict = asl_los(m, labels.parse("4G5"), labels.parse("4K5"))
>>> verdict.clear, verdict.total, [h.range for h in verdict.hindrances]
(True, 4, [1, 3])
>>> [(h.range, h.drm, h.reason, [labels.label(p) for p in h.places]) for h in verdict.hindrances]
[(1, 1, 'grain', ['4H4', '4H5']), (3, 3, 'smoke', ['4J4', '4J5'])]
"""

from __future__ import annotations

from dataclasses import dataclass

from ordnance.asl.terrain import GAME, asl_chart, hindrance_limit
from ordnance.core.hexgrid import (
    CLEAR,
    Hex,
    Hexside,
    Passage,
    SameRange,
    Sight,
    SightLine,
    SightRule,
    both_block_max,
    trace,
)
from ordnance.core.maps import Ends, GameMap, LosJudge, LosVerdict, TerrainChart, build_verdict
from ordnance.core.maps.sights import MetLog, combine, target_cover, touches
from ordnance.core.maps.sweep_rule import SweepRule

# A pair along a hexside counts once (both must block; the larger hindrance), the largest
# hindrance per range counts, and SMOKE in the end hexes is asked about (A24.8).
ASL_RULE = SightRule(pair=both_block_max, same_range=SameRange.MAX, firer_hex=True, target_hex=True)
SMOKE_CLAUSE = "C8.5-effect"


@dataclass
class AslTerrain:
    """The ASL answer for each hex and hexside a line meets (the core's ``Terrain``)."""

    game_map: GameMap
    chart: TerrainChart
    ends: Ends
    log: MetLog

    def hex_sight(self, hex: Hex, line: SightLine) -> Sight:
        m, ground = self.game_map, self.game_map.elevation(hex)
        parts: list[Sight] = []
        if hex not in (line.firer, line.target):
            terrain = self.chart.hex(m.terrain(hex))
            hill = self.ends.ground_blocks(ground)
            if hill:
                self.log.rule("A6 (hills)")
                parts.append(Sight(blocks=True, reason=f"hill (level {ground})"))
            # A hill blocks, but what stands on it (grain, brush, and the SMOKE below) still
            # hinders as it would on level ground: a pair counts its larger hindrance whether
            # or not it blocks (docs/maps.md). Woods on a hill add no second block.
            counts = terrain.hindrance if hill else terrain.blocks or terrain.hindrance
            if counts and not self.ends.passes_over(ground, terrain.height):
                self.log.note(terrain)
                parts.append(Sight(terrain.hindrance, terrain.blocks and not hill, terrain.name))
        for name in m.markers_in(hex):
            marker = self.chart.marker(name)
            self.log.note(marker, SMOKE_CLAUSE)
            if self.ends.passes_over(ground, marker.height):
                continue  # traced above the SMOKE's two levels: not hindered (C8.5-effect)
            value = marker.hindrance
            if hex == line.firer:
                out_of = marker.extra.get("out_of", 0)
                value += out_of if isinstance(out_of, int) else 0
                self.log.rule("A24.8")
            parts.append(Sight(value, marker.blocks, name))
        return combine(parts)

    @property
    def has_hexsides(self) -> bool:
        """No hexside feature on the map: ``trace`` asks about hexes only."""
        return bool(self.game_map.hexsides)

    def hexside_sight(self, side: Hexside, passage: Passage, line: SightLine) -> Sight:
        name = self.game_map.hexside(side)
        if name is None:
            return CLEAR
        feature = self.chart.hexside(name)
        ends = (line.firer, line.target)
        # B9.2: a wall/hedge of the firer's or target's own hex never blocks; one lying along
        # the LOS obstructs only where it touches neither end hex.
        if passage is Passage.ALONG:
            if any(touches(side, end) for end in ends):
                return CLEAR
        elif any(end in side.hexes for end in ends):
            return CLEAR
        ground = max(self.game_map.elevation(h) for h in side.hexes)
        if feature.extra.get("same_level_only"):
            if not (self.ends.same_level and self.ends.firer <= ground):
                return CLEAR
        elif self.ends.passes_over(ground, feature.height):
            return CLEAR
        self.log.note(feature)
        return Sight(feature.hindrance, feature.blocks, name)


def asl_los(game_map: GameMap, firer: Hex, target: Hex) -> LosVerdict:
    """The ASL verdict on the line from ``firer`` to ``target`` (see the module docstring)."""
    chart = asl_chart()
    log = MetLog()
    ends = Ends(game_map.elevation(firer), game_map.elevation(target))
    sighting = trace(firer, target, AslTerrain(game_map, chart, ends, log), ASL_RULE)
    limit = hindrance_limit(chart)
    return build_verdict(
        game_map,
        sighting,
        game=GAME,
        block_at=limit,
        block_reason=f"hindrances adding up to {limit} or more (B.10)",
        block_rules=["B.10"],
        clauses=log.clauses,
        rules=["A6", *log.rules],
        cover=target_cover(game_map, chart, sighting.line, chart.setting("cover_adds", bool)),
    )


# ASL's map rules for the CLI and renderer: its terrain table and its LOS verdict.
JUDGE = LosJudge(
    GAME,
    asl_chart,
    asl_los,
    sweep=SweepRule(
        lambda game_map, ends: AslTerrain(game_map, asl_chart(), ends, MetLog()),
        ASL_RULE,
        limit=lambda: hindrance_limit(asl_chart()),
    ),
)
