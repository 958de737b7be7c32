r"""Verdicts: hindrances grouped by range, a game's limit on their sum, and the JSON shape.

The line A3 to E3 on a plain grid runs along hexsides (pairs B2|B3 and D2|D3)::

        __    __
     __/B2\__/D2\__
    /A3\__/C3\__/E3\
    \__/B3\__/D3\__/
       \__/  \__/
"""

from __future__ import annotations

from ordnance.core.hexgrid import (
    GridLabels,
    Hexside,
    SameRange,
    Sight,
    SightRule,
    TerrainTable,
    trace,
)
from ordnance.core.maps import GameMap, build_verdict

GRID = GridLabels(columns=8, rows=6)
MAP = GameMap("v", "test", GRID, "open")
A3, B2, B3, C3, D2, D3, E3 = (GRID.parse(x) for x in ("A3", "B2", "B3", "C3", "D2", "D3", "E3"))


def test_hindrances_group_by_range_each_or_largest():
    # The hexside along which the line runs between B2 and B3 counts at the pair's range, 1.
    side = Hexside.between(B3, B2)
    terrain = TerrainTable({B2: Sight(1, reason="brush"), C3: Sight(2, reason="orchard")},
                           {side: Sight(1, reason="hedge")})  # fmt: skip
    each = build_verdict(MAP, trace(A3, E3, terrain), game="t")
    assert [(h.range, h.drm, h.reason) for h in each.hindrances] == [
        (1, 2, "hedge + brush"),
        (2, 2, "orchard"),
    ]
    largest = build_verdict(
        MAP, trace(A3, E3, terrain, SightRule(same_range=SameRange.MAX)), game="t"
    )
    assert [(h.range, h.drm) for h in largest.hindrances] == [(1, 1), (2, 2)]


def test_a_limit_on_the_sum_blocks_where_it_is_reached_unless_terrain_blocks_first():
    terrain = TerrainTable({C3: Sight(2, reason="a"), D2: Sight(3, reason="b")})
    limited = build_verdict(MAP, trace(A3, E3, terrain), game="t", block_at=5, block_reason="sum")
    assert limited.blocked is not None and limited.blocked.range == 3
    assert limited.blocked.reason == "sum (+5)" and limited.total == 5
    # The line enters C3 through the vertex of B2, B3 and C3: walls on both hexsides there.
    walls = {Hexside.between(x, C3): Sight(blocks=True, reason="wall") for x in (B2, B3)}
    wall = TerrainTable({C3: Sight(2, reason="a"), D2: Sight(3, reason="b")}, walls)
    first = build_verdict(MAP, trace(A3, E3, wall), game="t", block_at=5)
    assert first.blocked is not None and first.blocked.reason == "wall"
    assert first.blocked.range == 2 and first.total == 0
    under = build_verdict(MAP, trace(A3, E3, terrain), game="t", block_at=6)
    assert under.clear and under.total == 5


def test_the_json_names_places_by_label():
    walls = {Hexside.between(C3, x): Sight(blocks=True, reason="wall") for x in (D2, D3)}
    terrain = TerrainTable({B3: Sight(1, reason="brush")}, walls)
    data = build_verdict(
        MAP, trace(A3, E3, terrain), game="t", clauses=["X"], rules=["r"]
    ).to_json()
    assert data["hexes"] == ["A3", ["B2", "B3"], "C3", ["D2", "D3"], "E3"]
    assert data["hindrances"] == [
        {"range": 1, "hexes": ["B2", "B3"], "hexsides": [], "drm": 1, "reason": "brush"}
    ]
    assert data["blocked_by"] == {
        "range": 3,
        "hex": None,
        "hexside": ["C3/NE", "C3/SE"],
        "reason": "wall",
    }
    assert data["clauses"] == ["X"] and data["rules"] == ["r"] and data["target_cover"] is None
