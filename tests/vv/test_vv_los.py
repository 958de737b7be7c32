r"""Valor & Victory line of sight on maps, and which hexes AP fire reaches (VV.AP-range, -arc).

Most cases use a plain 12 x 10 grid whose columns B, D, F... stand half a hex lower: A3, C3, E3
lie on one row, and a line along it passes the pairs B2|B3 and D2|D3 along hexsides::

        __    __
     __/B2\__/D2\__
    /A3\__/C3\__/E3\
    \__/B3\__/D3\__/
       \__/  \__/

and the column C1..C5 runs straight north, crossing one hexside between each two hexes.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.hexgrid import Arc, Direction, GridLabels
from ordnance.core.maps import GameMap, parse_hexside
from ordnance.vv.ap_reach import MG_RANGE, ApWeapon, ap_target_hexes, reach
from ordnance.vv.los import vv_los
from ordnance.vv.terrain import vv_chart

GRID = GridLabels(columns=12, rows=10)


def grid_map(
    terrain: dict[str, str] | None = None,
    markers: dict[str, tuple[str, ...]] | None = None,
    hexsides: dict[str, str] | None = None,
    levels: dict[str, int] | None = None,
    grid: GridLabels = GRID,
) -> GameMap:
    return GameMap(
        "test",
        "vv",
        grid,
        "open",
        {grid.parse(k): v for k, v in (terrain or {}).items()},
        {grid.parse(k): v for k, v in (levels or {}).items()},
        {parse_hexside(grid, k): v for k, v in (hexsides or {}).items()},
        {grid.parse(k): v for k, v in (markers or {}).items()},
    )


def los(m: GameMap, a: str, b: str):
    return vv_los(m, m.parse(a), m.parse(b))


@pytest.mark.parametrize(
    ("upper", "lower", "clear", "total"),
    [
        ("woods", "building", False, 0),  # both sides block: blocked
        ("woods", "orchard", True, 1),  # a block and a hindrance: +1
        ("crops", "orchard", True, 1),  # two hindrances: +1
        ("woods", "open", True, 0),  # one side open: no effect
        ("crops", "open", True, 0),
    ],
)
def test_along_a_hexside_the_pair_counts_by_its_lesser_side(upper, lower, clear, total):
    r"""A3 to E3 runs along the hexside between B2 (upper) and B3 (lower): r. 9's three cases.

        __
     __/u \__
    /F \__/  \     u: B2, l: B3
    \__/l \__/
       \__/
    """
    m = grid_map({"B2": upper, "B3": lower})
    verdict = los(m, "A3", "E3")
    assert verdict.clear is clear and verdict.total == total


def test_walls_hinder_except_at_the_firer_and_count_as_the_targets_cover():
    r"""C5 fires north at C1; walls on C4|C3 and on C2|C1 (the target's own hexside).

         __
        /C1\   T     the C1|C2 wall: the target's cover (+1), not a hindrance
        \==/
        /C2\
        \__/
        /C3\
        \==/         the C3|C4 wall: a hindrance (+1)
        /C4\
        \__/
        /C5\   F
        \__/
    """
    walls = {"C3/S": "wall", "C1/S": "hedge"}
    verdict = los(grid_map(hexsides=walls), "C5", "C1")
    assert verdict.clear and [(h.range, h.drm, h.reason) for h in verdict.hindrances] == [
        (2, 1, "wall")
    ]
    assert verdict.cover is not None and verdict.cover.value == 1
    own = los(grid_map(hexsides={"C5/N": "wall"}), "C5", "C1")  # the firer's own hexside
    assert own.total == 0


def test_a_line_along_a_wall_is_hindered():
    """r. 10.10: fire traced along a wall or hedge is always hindered."""
    verdict = los(grid_map(hexsides={"B2|B3": "hedge"}), "A3", "E3")
    assert verdict.clear and verdict.total == 1
    assert verdict.hindrances[0].reason == "hedge"


def test_cover_adds_up_in_the_target_hex():
    m = grid_map({"C1": "orchard"}, hexsides={"C1/S": "wall"})
    cover = los(m, "C5", "C1").cover
    assert cover is not None and cover.value == 2 and "orchard" in cover.reason


def test_smoke_hinders_fire_into_or_through_its_hex_not_out_of_it():
    m = grid_map(markers={"C3": ("smoke 2",), "C1": ("smoke 1",), "C5": ("smoke 2",)})
    verdict = los(m, "C5", "C1")
    assert [(h.range, h.drm) for h in verdict.hindrances] == [(2, 2), (4, 1)]


def test_blocking_terrain_blocks_through_not_into_and_bocage_blocks():
    assert los(grid_map({"C3": "building"}), "C5", "C1").blocked is not None
    assert los(grid_map({"C1": "woods", "C5": "woods"}), "C5", "C1").clear
    bocage = los(grid_map(hexsides={"C3/S": "bocage"}), "C5", "C1")
    assert bocage.blocked is not None and bocage.blocked.reason == "bocage"
    assert los(grid_map(hexsides={"C5/N": "bocage"}), "C5", "C1").clear  # its own hexside


@pytest.mark.clause("VV.AP-range")
def test_mgs_reach_eight_hexes_and_guns_any_range_in_los():
    """Range counts the target's hex, not the firer's; a Gun needs only a LOS not blocked."""
    wide = GridLabels(columns=30, rows=12)
    m = grid_map(grid=wide)
    firer = wide.parse("A6")
    mg = ap_target_hexes(m, firer, Direction.SE, ApWeapon.MG_360)
    assert max(firer.distance(h) for h in mg) == MG_RANGE
    assert wide.parse("I6") in mg and wide.parse("J6") not in mg  # 8 and 9 columns east
    gun = ap_target_hexes(m, firer, Direction.SE, ApWeapon.TURRETED_GUN)
    assert wide.parse("DD6") in gun and len(gun) == len(m) - 1
    blocked = grid_map({"E6": "woods"}, grid=wide)
    shots = ap_target_hexes(blocked, firer, Direction.SE, ApWeapon.TURRETED_GUN)
    assert wide.parse("E6") in shots and wide.parse("I6") not in shots


@pytest.mark.clause("VV.AP-arc")
def test_unturreted_guns_and_ff_mgs_fire_only_into_the_ffa_and_combinations_take_the_narrowest():
    r"""The M4A3E8 cases of reference/vv.md section 5: Gun (turreted), 360-degree MG, FF MG.

    A unit in F facing N: the FFA holds the three front hexes at range 1 (NW, N, NE); the
    rear ones (SW, S, SE) only an any-direction weapon reaches::

         __    __
        /. \__/. \      . : in the FFA
        \__/. \__/
        /  \__/  \
        \__/F \__/
           \__/
    """
    assert reach(ApWeapon.TURRETED_GUN) == (Arc.parse("ANY"), None)
    assert reach(ApWeapon.TURRETED_GUN, ApWeapon.MG_360) == (Arc.parse("ANY"), MG_RANGE)
    assert reach(ApWeapon.TURRETED_GUN, ApWeapon.MG_360, ApWeapon.FF_MG) == (
        Arc.parse("FFA:N"),
        MG_RANGE,
    )
    assert reach(ApWeapon.GUN, facing=Direction.SE)[0] == Arc.parse("FFA:SE")
    m = grid_map()
    firer = GRID.parse("F5")
    ffa = set(ap_target_hexes(m, firer, Direction.N, ApWeapon.FF_MG))
    around = set(ap_target_hexes(m, firer, Direction.N, ApWeapon.MG_360))
    for direction in (Direction.NW, Direction.N, Direction.NE):
        assert firer + direction.vector in ffa
    for direction in (Direction.SW, Direction.S, Direction.SE):
        assert firer + direction.vector not in ffa and firer + direction.vector in around
    with pytest.raises(ValueError, match="at least one weapon"):
        reach()


# --- V&V LOS is reciprocal: whether a line is blocked is the same both ways -------------------

CHART = vv_chart()
labels = st.builds(lambda c, r: f"{chr(ord('A') + c)}{r}", st.integers(0, 11), st.integers(1, 10))
sides = st.builds(lambda label, d: f"{label}/{d.name}", labels, st.sampled_from(list(Direction)))


@st.composite
def random_maps(draw):
    terrain = draw(st.dictionaries(labels, st.sampled_from(sorted(CHART.hexes)), max_size=30))
    markers = draw(
        st.dictionaries(labels, st.sampled_from(sorted(CHART.markers)).map(lambda n: (n,)))
    )
    hexsides: dict[str, str] = {}
    seen = set()
    for side in draw(st.lists(sides, max_size=12)):
        parsed = parse_hexside(GRID, side)
        if parsed not in seen:
            seen.add(parsed)
            hexsides[side] = draw(st.sampled_from(sorted(CHART.hexsides)))
    levels = draw(st.dictionaries(labels, st.integers(0, 2), max_size=6))
    return grid_map(terrain, markers, hexsides, levels)


def smoke_in(m: GameMap, label: str) -> int:
    return sum(CHART.marker(name).hindrance for name in m.markers_in(m.parse(label)))


@given(random_maps(), labels, labels)
def test_the_verdict_is_reciprocal(m, a, b):
    """Blocked or clear is the same both ways; so is the hindrance, but for the smoke in the
    target's hex (counted into it) against the smoke in the firer's (not counted out of it)."""
    there, back = los(m, a, b), los(m, b, a)
    assert there.clear == back.clear
    if there.clear and a != b:
        assert there.total - smoke_in(m, b) == back.total - smoke_in(m, a)
