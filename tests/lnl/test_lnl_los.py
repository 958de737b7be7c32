r"""Lock 'n Load Tactical line of sight on maps: degrading hexes, smoke, WP, where shells land.

Most cases use a plain 10 x 8 grid whose columns B, D, F... stand half a hex lower, so A3, C3
and E3 lie on one row and a line along it passes the pairs B2|B3 and D2|D3 along hexsides::

        __    __
     __/B2\__/D2\__
    /A3\__/C3\__/E3\
    \__/B3\__/D3\__/
       \__/  \__/
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.hexgrid import GridLabels, Hex
from ordnance.core.maps import GameMap
from ordnance.lnl.landing import Result, landing_hexes
from ordnance.lnl.los import lnl_los
from ordnance.lnl.terrain import lnl_chart

GRID = GridLabels(columns=10, rows=8)


def grid_map(
    terrain: dict[str, str] | None = None,
    markers: dict[str, tuple[str, ...]] | None = None,
    levels: dict[str, int] | None = None,
) -> GameMap:
    return GameMap(
        "test",
        "lnl",
        GRID,
        "open",
        {GRID.parse(k): v for k, v in (terrain or {}).items()},
        {GRID.parse(k): v for k, v in (levels or {}).items()},
        {},
        {GRID.parse(k): v for k, v in (markers or {}).items()},
    )


def los(m: GameMap, a: str, b: str):
    return lnl_los(m, GRID.parse(a), GRID.parse(b))


def names(hexes: tuple[Hex, ...]) -> list[str]:
    return [GRID.label(h) for h in hexes]


@pytest.mark.clause("LNL.W-smoke")
def test_the_third_degrading_hex_blocks_and_wp_counts_as_smoke_2():
    r"""A3 to E3: brush b in B3 (the pair B2|B3 counts once), WP w in C3, Smoke 1 s in D2.

    Each is one degrading hex (+1); the third, at D2|D3 (range 3), blocks::

            __    __
         __/  \__/s \__
        /F \__/w \__/T \
        \__/b \__/  \__/
           \__/  \__/
    """
    m = grid_map({"B3": "brush"}, {"C3": ("wp",), "D2": ("smoke 1",)})
    verdict = los(m, "A3", "E3")
    assert not verdict.clear and verdict.blocked is not None
    assert (verdict.blocked.range, names(verdict.blocked.places)) == (3, ["D2", "D3"])
    assert [(h.range, h.drm) for h in verdict.hindrances] == [(1, 1), (2, 1), (3, 1)]
    assert verdict.hindrances[1].reason == "wp (as smoke 2)"
    assert "LNL.W-smoke" in verdict.clauses
    two = los(grid_map({"B3": "brush"}, {"C3": ("wp",)}), "A3", "E3")
    assert two.clear and two.total == 2  # two degrading hexes: degraded, not blocked


def test_a_hex_degrades_once_whatever_it_holds():
    m = grid_map({"C3": "wheat field"}, {"C3": ("smoke 1", "smoke 2")})
    verdict = los(m, "A3", "E3")
    assert verdict.total == 1 and verdict.hindrances[0].reason == "wheat field + smoke 1 + smoke 2"


def test_blocking_terrain_blocks_but_not_in_the_end_hexes():
    assert los(grid_map({"C3": "woods"}), "A3", "E3").blocked is not None
    ends = grid_map({"A3": "woods", "E3": "stone building", "B3": "brush"})
    verdict = los(ends, "A3", "E3")
    assert verdict.clear and verdict.total == 1
    assert verdict.cover is not None and verdict.cover.value == 3  # the target's TM


def test_smoke_affects_every_level_and_hills_block():
    high = grid_map(markers={"C3": ("smoke 2",)}, levels={"A3": 2, "E3": 2})
    assert los(high, "A3", "E3").total == 1
    hill = grid_map(levels={"C3": 1})
    assert los(hill, "A3", "E3").blocked is not None


@pytest.mark.clause("LNL.S-miss", "LNL.S-los")
def test_a_missed_shell_lands_short_or_beyond_only_where_the_firer_sees():
    r"""F in A3 fires at T in E3: one short is the pair D2|D3, one beyond the pair F2|F3.

    Woods w in B2 stand on the lines to D2 and F2 (x), so D3 is the one short hex and F3 the
    one beyond (.); Smoke 1 (s) in C3 only degrades the lines, which stay clear::

            __    __    __
         __/w \__/x \__/x \
        /F \__/s \__/T \__/
        \__/  \__/. \__/. \
           \__/  \__/  \__/
    """
    firer, target = GRID.parse("A3"), GRID.parse("E3")
    m = grid_map({"B2": "woods"}, {"C3": ("smoke 1",)})
    assert names(landing_hexes(m, firer, target, Result.SHORT)) == ["D3"]
    assert names(landing_hexes(m, firer, target, Result.BEYOND)) == ["F3"]
    open_ground = grid_map(markers={"C3": ("smoke 1",)})
    both = landing_hexes(open_ground, firer, target, Result.BEYOND)
    assert names(both) == ["F2", "F3"]  # the LOS runs between them: the enemy player picks


@pytest.mark.clause("LNL.S-miss", "LNL.S-los")
def test_nothing_lands_off_the_map_or_out_of_sight():
    edge = grid_map()
    firer, target = GRID.parse("A3"), GRID.parse("J3")  # J is the last column
    assert landing_hexes(edge, firer, target, Result.BEYOND) == ()
    hidden = grid_map({"E3": "woods"})  # seen into, but not through to F2 or F3
    assert los(hidden, "A3", "E3").clear
    assert landing_hexes(hidden, GRID.parse("A3"), GRID.parse("E3"), Result.BEYOND) == ()
    adjacent = landing_hexes(edge, GRID.parse("C3"), GRID.parse("D3"), Result.SHORT)
    assert names(adjacent) == ["C3"]  # one short of an adjacent target: the firer's hex


# --- LOS is reciprocal in LnLT: the verdict and the degrading count, both ways -----------------

CHART = lnl_chart()
labels = st.builds(lambda c, r: f"{chr(ord('A') + c)}{r}", st.integers(0, 9), st.integers(1, 8))


@st.composite
def random_maps(draw):
    terrain = draw(st.dictionaries(labels, st.sampled_from(sorted(CHART.hexes)), max_size=30))
    markers = draw(
        st.dictionaries(labels, st.sampled_from(sorted(CHART.markers)).map(lambda n: (n,)))
    )
    levels = draw(st.dictionaries(labels, st.integers(0, 2), max_size=6))
    return grid_map(terrain, markers, levels)


@given(random_maps(), labels, labels)
def test_the_verdict_is_reciprocal(m, a, b):
    there, back = los(m, a, b), los(m, b, a)
    assert there.clear == back.clear
    assert there.total == back.total or not there.clear
    if there.clear:
        assert there.total <= 2
