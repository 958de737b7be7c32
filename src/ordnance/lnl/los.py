r"""Lock 'n Load Tactical line of sight on a map: blocking terrain, degrading hexes, smoke.

Built on :func:`ordnance.core.hexgrid.trace` with the LnLT terrain table and these readings
(reference/lnl.md sections 5 and 6; README, Maps):

- Only the hexes between firer and target count: each degrading hex is +1 (a hex with several
  degrading things is still one degrading hex, and a blocking one, woods or a hill, still
  degrades by its smoke or brush), the third blocks where it is met (more than two block), and
  blocking terrain blocks. Smoke 1, Smoke 2 and WP (as Smoke 2, LNL.W-smoke) make a hex degrading.
- Along a hexside the pair blocks only if both hexes block and degrades once [default].
- Walls and hedges give TM only; levels follow :mod:`ordnance.core.maps.levels`.

Everything is symmetric in the two ends, so the verdict is reciprocal, as LnLT's LOS is.

F (A3) fires at T (E3) on a plain grid, due east: C3 lies on the line, B2|B3 and D2|D3 are
pairs along hexsides. Brush in B3, WP in C3 and Smoke 1 in D2: three degrading hexes, so the
line is blocked at D2|D3 (range 3)::

     __    __
  __/B2\__/D2\__          F: firer in A3       T: target in E3
 /A3\__/C3\__/E3\         b: brush in B3 (+1)  w: WP in C3 (+1)
 \_F/B3\_w/D3\_T/         s: Smoke 1 in D2 (+1): the third degrading hex
    \_b/  \__/
  (s in D2)

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> grid = GridLabels(columns=8, rows=6)
>>> m = GameMap("demo", "lnl", grid, "open", {grid.parse("B3"): "brush"},
...             markers={grid.parse("C3"): ("wp",), grid.parse("D2"): ("smoke 1",)})
>>> verdict = lnl_los(m, grid.parse("A3"), grid.parse("E3"))
>>> verdict.clear, verdict.blocked.range, verdict.total
(False, 3, 3)
>>> verdict.blocked.reason
'a third degrading hex (more than two block LOS) (+3)'
"""

from __future__ import annotations

from dataclasses import dataclass

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
from ordnance.core.maps.sights import MetLog, target_cover
from ordnance.core.maps.sweep_rule import SweepRule
from ordnance.lnl.terrain import GAME, degrading_limit, lnl_chart, marker_entry

# Only hexes between the two ends count; a pair counts once; every degrading hex counts.
LNL_RULE = SightRule(pair=both_block_max, same_range=SameRange.EACH)
LOS_RULE = "LnLT 10.3 (Core Rules v5.1 p. 62)"
WP_CLAUSE = "LNL.W-smoke"


@dataclass
class LnlTerrain:
    """The LnLT answer for each hex a line meets (hexsides give TM only)."""

    game_map: GameMap
    chart: TerrainChart
    ends: Ends
    log: MetLog

    def hex_sight(self, hex: Hex, line: SightLine) -> Sight:
        m, ground = self.game_map, self.game_map.elevation(hex)
        terrain = self.chart.hex(m.terrain(hex))
        blocking: list[str] = []
        degrading: list[str] = []
        hill = self.ends.ground_blocks(ground)
        if hill:
            blocking.append(f"hill (level {ground})")
        # Brush or wheat on a hill still degrades the hill hex, as its smoke does (docs/maps.md).
        if not self.ends.passes_over(ground, terrain.height):
            if terrain.blocks and not hill:
                blocking.append(terrain.name)
            elif terrain.hindrance:
                degrading.append(terrain.name)
        for name in m.markers_in(hex):
            marker = marker_entry(name)
            if name != marker.name:
                self.log.clauses.append(WP_CLAUSE)
            if self.ends.passes_over(ground, marker.height):
                continue
            if marker.blocks:
                blocking.append(name)
            elif marker.hindrance:
                degrading.append(name if name == marker.name else f"{name} (as {marker.name})")
        # A hex degrades once, however many degrading things it holds; a blocking hex keeps
        # its degrading marker, so a pair along it degrades as it would beside a clear hex.
        degrades = 1 if degrading else 0
        if blocking:
            return Sight(degrades, blocks=True, reason=" + ".join(blocking + degrading))
        return Sight(1, reason=" + ".join(degrading)) if degrading else CLEAR

    @property
    def has_hexsides(self) -> bool:
        """No hexside feature on the map: ``trace`` asks about hexes only."""
        return bool(self.game_map.hexsides)

    def hexside_sight(self, side: Hexside, passage: Passage, line: SightLine) -> Sight:
        name = self.game_map.hexside(side)
        if name is None:
            return CLEAR
        feature = self.chart.hexside(name)
        ground = max(self.game_map.elevation(h) for h in side.hexes)
        # A hexside of the firer's or target's own hex is TM for the unit there, not LOS.
        if self.ends.passes_over(ground, feature.height) or any(
            end in side.hexes for end in (line.firer, line.target)
        ):
            return CLEAR
        return Sight(min(feature.hindrance, 1), feature.blocks, name)


def lnl_los(game_map: GameMap, firer: Hex, target: Hex) -> LosVerdict:
    """The LnLT verdict on the line from ``firer`` to ``target`` (see the module docstring)."""
    chart = lnl_chart()
    log = MetLog()
    ends = Ends(game_map.elevation(firer), game_map.elevation(target))
    sighting = trace(firer, target, LnlTerrain(game_map, chart, ends, log), LNL_RULE)
    return build_verdict(
        game_map,
        sighting,
        game=GAME,
        block_at=degrading_limit(),
        block_reason="a third degrading hex (more than two block LOS)",
        clauses=log.clauses,
        rules=[LOS_RULE],
        cover=target_cover(
            game_map, chart, sighting.line, chart.setting("cover_adds", bool), label="TM"
        ),
    )


# LnLT's map rules for the CLI and renderer: its terrain table and its LOS verdict.
JUDGE = LosJudge(
    GAME,
    lnl_chart,
    lnl_los,
    sweep=SweepRule(
        lambda game_map, ends: LnlTerrain(game_map, lnl_chart(), ends, MetLog()),
        LNL_RULE,
        limit=degrading_limit,
    ),
)
