r"""Valor & Victory line of sight on a map: blocking terrain, cumulative hindrances, smoke.

Built on :func:`ordnance.core.hexgrid.trace` with the V&V terrain table and these readings
(reference/vv.md sections 9 and 10; README, Maps):

- Hexes between firer and target block or hinder by their terrain (r. 9); the target's own
  terrain is its cover, never a block (fire goes into a blocking hex, not through it).
- Smoke hinders fire traced into or through its hex (r. 11): Smoke 1 +1, Smoke 2 +2, in the
  target's hex too, not in the firer's.
- Walls and hedges hinder +1 where the line crosses them, except a hexside of the firer's hex
  (r. 10.10) or of the target's hex (that one is the target's cover); a line running along one
  is always hindered. Bocage blocks, except a hexside of either end hex.
- Along a hexside the pair blocks only if both sides block, and hinders by the lesser side: not
  at all if one side is open [inferred from r. 9's three cases]; a pair that blocks hinders by
  the lesser of its sides' own hindrances (smoke on them), as a pair that does not block would.
- Hindrances add up; nothing blocks by accumulation. Levels: :mod:`ordnance.core.maps.levels`;
  a hill blocks and its orchard, crops or smoke still hinders.
- Hills block, except across one slope hex (r. 9, the rules' own hill example): a hex whose
  ground lies strictly between the two ends' levels (level 1 between a level-2 firer and a
  target on the ground) is a slope the line may cross once; a second such hex, at another
  range, blocks.

Blocking is symmetric in the two ends, so whether a line is clear is reciprocal, as V&V's LOS
is; the hindrance can differ both ways (smoke in the target's hex counts, in the firer's not).

F (A2) fires at T (E4), straight down a row of south-east neighbours: crops c in B2 (+1),
a wall between C3 and D3 (+1), Smoke 1 in E4 (+1: fire traced into it) and a hedge between D3
and E4, a hexside of the target's hex, which is its cover (+1) rather than a hindrance::

     __
    /A2\__             F: firer in A2, T: target in E4 (Smoke 1 there)
    \_F/B2\__          c: crops in B2
       \_c/C3\__       the C3|D3 hexside: a wall
          \__/D3\__    the D3|E4 hexside: a hedge
             \__/E4\
                \_T/

>>> from ordnance.core.hexgrid import GridLabels, Hexside
>>> from ordnance.core.maps import GameMap
>>> grid = GridLabels(columns=8, rows=6)
>>> c3, d3, e4 = grid.parse("C3"), grid.parse("D3"), grid.parse("E4")
>>> m = GameMap("demo", "vv", grid, "open", {grid.parse("B2"): "crops"},
...     hexsides={Hexside.between(c3, d3): "wall", Hexside.between(d3, e4): "hedge"},
...     markers={e4: ("smoke 1",)})
>>> verdict = vv_los(m, grid.parse("A2"), e4)
>>> verdict.clear, [(h.range, h.drm, h.reason) for h in verdict.hindrances]
(True, [(1, 1, 'crops'), (3, 1, 'wall'), (4, 1, 'smoke 1')])
>>> verdict.cover
Cover(value=1, reason='hedge D3/SE +1')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ordnance.core.hexgrid import (
    CLEAR,
    Hex,
    Hexside,
    Passage,
    SameRange,
    Sight,
    SightLine,
    SightRule,
    trace,
)
from ordnance.core.maps import Ends, GameMap, LosJudge, LosVerdict, TerrainChart, build_verdict
from ordnance.core.maps.sights import MetLog, combine, target_cover
from ordnance.core.maps.sweep_rule import SweepRule
from ordnance.vv.terrain import GAME, vv_chart

LOS_RULE = "V&V r. 9"
WALL_RULE = "V&V r. 10.10"
SMOKE_RULE = "V&V r. 11"


def lesser_side(a: Sight, b: Sight) -> Sight:
    """V&V's pair along a hexside: blocks if both block, else hinders by the lesser side.

    A blocking side counts as much as the other side's hindrance; an open side clears it.
    A pair that blocks hinders by the lesser of its two sides' own hindrances, as it would if
    neither side blocked (README, Maps).

    >>> woods, crops = Sight(blocks=True, reason="woods"), Sight(1, reason="crops")
    >>> lesser_side(woods, woods).blocks, lesser_side(woods, crops)
    (True, Sight(hindrance=1, blocks=False, reason='woods and crops'))
    >>> lesser_side(crops, CLEAR)
    Sight(hindrance=0, blocks=False, reason='')
    >>> lesser_side(Sight(2, True, "woods + smoke 2"), Sight(1, True, "woods + smoke 1"))
    Sight(hindrance=1, blocks=True, reason='woods + smoke 2 and woods + smoke 1')
    """
    if a.blocks and b.blocks:
        return Sight(min(a.hindrance, b.hindrance), True, _both(a, b))
    if a.blocks or b.blocks:
        other = b if a.blocks else a
        return Sight(other.hindrance, False, _both(a, b) if other.hindrance else "")
    value = min(a.hindrance, b.hindrance)
    return Sight(value, False, _both(a, b) if value else "")


def _both(a: Sight, b: Sight) -> str:
    return a.reason if a.reason == b.reason else f"{a.reason} and {b.reason}"


# Only smoke is asked about in the target's hex (fire traced into it); each hindrance counts.
VV_RULE = SightRule(pair=lesser_side, same_range=SameRange.EACH, target_hex=True)


@dataclass
class VvTerrain:
    """The V&V answer for each hex and hexside a line meets (the core's ``Terrain``)."""

    game_map: GameMap
    chart: TerrainChart
    ends: Ends
    log: MetLog
    slopes: set[int] = field(default_factory=set)  # ranges where the line crossed a slope hex

    def hex_sight(self, hex: Hex, line: SightLine) -> Sight:
        m, ground = self.game_map, self.game_map.elevation(hex)
        parts: list[Sight] = []
        if hex != line.target:
            terrain = self.chart.hex(m.terrain(hex))
            # A hill (or a second slope hex) blocks; its orchard, crops and smoke still hinder,
            # as beside a clear hex (docs/maps.md).
            hill = None
            if self.ends.ground_blocks(ground):
                hill = f"hill (level {ground})"
            elif self.ends.lower < ground < self.ends.higher:
                # The slope exception covers one slope hex; both hexes of a pair along a
                # hexside share one range, so they count as one crossing.
                self.slopes.add(line.firer.distance(hex))
                if len(self.slopes) > 1:
                    hill = f"second slope hex (level {ground})"
            if hill is not None:
                parts.append(Sight(blocks=True, reason=hill))
            counts = terrain.hindrance if hill else terrain.blocks or terrain.hindrance
            if counts and not self.ends.passes_over(ground, terrain.height):
                parts.append(Sight(terrain.hindrance, terrain.blocks and not hill, terrain.name))
        for name in m.markers_in(hex):
            marker = self.chart.marker(name)
            if not marker.blocks and not marker.hindrance:
                continue  # drawn for the players (a foxhole), nothing to a line of sight
            if not self.ends.passes_over(ground, marker.height):
                self.log.rule(SMOKE_RULE)
                parts.append(Sight(marker.hindrance, marker.blocks, name))
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
        own = any(end in side.hexes for end in (line.firer, line.target))
        if passage is not Passage.ALONG and own:
            return CLEAR  # the firer ignores its own; the target's own is its cover
        ground = max(self.game_map.elevation(h) for h in side.hexes)
        if self.ends.passes_over(ground, feature.height):
            return CLEAR
        self.log.rule(WALL_RULE)
        return Sight(feature.hindrance, feature.blocks, name)


def vv_los(game_map: GameMap, firer: Hex, target: Hex) -> LosVerdict:
    """The V&V verdict on the line from ``firer`` to ``target`` (see the module docstring)."""
    chart = vv_chart()
    log = MetLog()
    ends = Ends(game_map.elevation(firer), game_map.elevation(target))
    sighting = trace(firer, target, VvTerrain(game_map, chart, ends, log), VV_RULE)
    return build_verdict(
        game_map,
        sighting,
        game=GAME,
        clauses=log.clauses,
        rules=[LOS_RULE, *log.rules],
        cover=target_cover(game_map, chart, sighting.line, chart.setting("cover_adds", bool)),
    )


# VV's map rules for the CLI and renderer: its terrain table and its LOS verdict.
JUDGE = LosJudge(
    GAME,
    vv_chart,
    vv_los,
    sweep=SweepRule(
        lambda game_map, ends: VvTerrain(game_map, vv_chart(), ends, MetLog()), VV_RULE
    ),
)
