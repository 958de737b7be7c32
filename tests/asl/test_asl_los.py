r"""ASL line of sight on maps: SMOKE as a hindrance (C8.5-effect), B.10, walls, levels, sM.

Most cases use board 4 alone. Its columns alternate: A, C, E... stand half a hex higher than
B, D, F..., so 4G5, 4I5, 4K5 lie on one straight row and a line along it runs between the pairs
4H4|4H5, 4J4|4J5 (along their hexsides) and through the single hexes between::

     __    __    __    __
  __/H4\__/J4\__/L4\__/N4\__
 /G5\__/I5\__/K5\__/M5\__/O5\
 \__/H5\__/J5\__/L5\__/N5\__/
    \__/  \__/  \__/  \__/
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.asl.los import asl_los
from ordnance.asl.smoke_mortar import smoke_mortar_hexes
from ordnance.asl.terrain import asl_chart
from ordnance.core.hexgrid import Corner, GeomorphicLabels, Hex, Hexside
from ordnance.core.maps import GameMap, parse_hexside

BOARD = GeomorphicLabels.of("4")


def board(
    terrain: dict[str, str] | None = None,
    markers: dict[str, tuple[str, ...]] | None = None,
    levels: dict[str, int] | None = None,
    hexsides: dict[str, str] | None = None,
) -> GameMap:
    return GameMap(
        "test",
        "asl",
        BOARD,
        "open",
        {BOARD.parse(k): v for k, v in (terrain or {}).items()},
        {BOARD.parse(k): v for k, v in (levels or {}).items()},
        {parse_hexside(BOARD, k): v for k, v in (hexsides or {}).items()},
        {BOARD.parse(k): v for k, v in (markers or {}).items()},
    )


def los(m: GameMap, a: str, b: str):
    return asl_los(m, BOARD.parse(a), BOARD.parse(b))


def labels(places) -> list[str]:
    return [m_label(p) for p in places]


def m_label(place: Hex | Hexside) -> str:
    return BOARD.label(place) if isinstance(place, Hex) else str(place)


@pytest.mark.clause("C8.5-effect")
def test_smoke_is_a_hindrance_counted_by_range_and_once_per_pair():
    r"""4G5 to 4M5: grain in 4H5, SMOKE in 4J4 and Dispersed SMOKE in 4J5, both beside the line.

    The pair 4J4|4J5 counts once, by the larger (+3); the total is +4 and the line is clear::

            __    __    __
         __/  \__/s \__/  \__      F: 4G5, T: 4M5
        /F \__/  \__/  \__/T \     g: grain in 4H5
        \__/g \__/d \__/  \__/     s: SMOKE in 4J4, d: Dispersed SMOKE in 4J5
           \__/  \__/  \__/
    """
    m = board({"4H5": "grain"}, {"4J4": ("smoke",), "4J5": ("dispersed smoke",)})
    verdict = los(m, "4G5", "4M5")
    assert verdict.clear and verdict.total == 4
    assert [(h.range, h.drm, h.reason) for h in verdict.hindrances] == [
        (1, 1, "grain"),
        (3, 3, "smoke"),
    ]
    assert labels(verdict.hindrances[1].places) == ["4J4", "4J5"]  # the pair, counted once
    assert "C8.5-effect" in verdict.clauses


@pytest.mark.clause("C8.5-effect")
def test_smoke_never_blocks_by_itself_but_six_hindrance_does():
    r"""B.10: SMOKE in 4I5 (+3) and 4K5 (+3) add up to 6 at range 4, which blocks there.

    One SMOKE alone (+3) only hinders; SMOKE and WP (+2) together stay below 6::

            __    __    __
         __/  \__/  \__/  \__      F: 4G5, T: 4M5
        /F \__/s \__/s \__/T \     s: full SMOKE in 4I5 and 4K5
        \__/  \__/  \__/  \__/
           \__/  \__/  \__/
    """
    one = los(board(markers={"4I5": ("smoke",)}), "4G5", "4M5")
    assert one.clear and one.total == 3
    two = los(board(markers={"4I5": ("smoke",), "4K5": ("smoke",)}), "4G5", "4M5")
    assert not two.clear and two.blocked is not None
    assert (two.blocked.range, labels(two.blocked.places)) == (4, ["4K5"])
    assert "B.10" in two.blocked.reason and "B.10" in two.rules
    assert two.total == 6
    under = los(board(markers={"4I5": ("smoke",), "4K5": ("wp",)}), "4G5", "4M5")
    assert under.clear and under.total == 5


@pytest.mark.clause("C8.5-effect")
def test_smoke_in_the_end_hexes_counts_one_more_out_of_the_firers_hex():
    """A24.8: SMOKE hinders a LOS traced into or out of its hex, +1 more out of it."""
    m = board(markers={"4G5": ("smoke",), "4K5": ("dispersed smoke",)})
    out = los(m, "4G5", "4K5")
    assert [(h.range, h.drm) for h in out.hindrances] == [(0, 4), (4, 2)]
    back = los(m, "4K5", "4G5")
    assert [(h.range, h.drm) for h in back.hindrances] == [(0, 3), (4, 3)]
    assert "A24.8" in out.rules


@pytest.mark.clause("C8.5-effect")
def test_smoke_hinders_nothing_traced_above_its_two_levels():
    r"""Units on level-3 hills each side of a ground-level SMOKE see over it; at level 2, not.

        __    __
     __/  \__/  \__       4G5 and 4K5 (3) at level 3, the hexes between at level 0,
    /3 \__/s \__/3 \      SMOKE (s) in 4I5
    \__/  \__/  \__/
       \__/  \__/
    """
    m = board(markers={"4I5": ("smoke",)}, levels={"4G5": 3, "4K5": 3})
    assert los(m, "4G5", "4K5").total == 0
    lower = board(markers={"4I5": ("smoke",)}, levels={"4G5": 2, "4K5": 3})
    assert los(lower, "4G5", "4K5").total == 3


def test_a_pair_blocks_only_when_both_hexes_block():
    one_side = board({"4J4": "woods"})
    assert los(one_side, "4G5", "4M5").clear
    both = los(board({"4J4": "woods", "4J5": "stone building"}), "4G5", "4M5")
    assert both.blocked is not None and labels(both.blocked.places) == ["4J4", "4J5"]
    assert both.blocked.reason == "woods and stone building"


def test_terrain_in_the_end_hexes_is_tem_not_a_hindrance():
    m = board({"4G5": "grain", "4M5": "stone building", "4I5": "orchard"})
    verdict = los(m, "4G5", "4M5")
    assert verdict.clear and verdict.total == 1  # the orchard between, not the grain
    assert verdict.cover is not None and verdict.cover.value == 3


def test_a_woods_hex_on_the_line_blocks_and_nothing_after_it_counts():
    m = board({"4I5": "woods", "4K5": "grain"})
    verdict = los(m, "4G5", "4M5")
    assert verdict.blocked is not None and verdict.blocked.reason == "woods"
    assert verdict.blocked.range == 2 and verdict.total == 0


def test_walls_block_same_level_lines_except_their_own_hexes():
    r"""B9.2, a wall on the hexside 4I5|4I6 and a line from 4I7 north to 4I3.

         __
        /I3\      T
        \__/
        /I4\
        \__/
        /I5\
        \==/      the wall: crossed by the line from 4I7 to 4I3
        /I6\
        \__/
        /I7\      F
        \__/
    """
    wall = {"4I5/S": "wall"}
    crossed = los(board(hexsides=wall), "4I7", "4I3")
    assert crossed.blocked is not None and crossed.blocked.reason == "wall"
    assert [str(p) for p in crossed.blocked.places] == [str(parse_hexside(BOARD, "4I5/S"))]
    assert los(board(hexsides=wall), "4I6", "4I3").clear  # a side of the firer's hex
    assert los(board(hexsides=wall), "4I7", "4I5").clear  # a side of the target's hex
    assert los(board(hexsides=wall, levels={"4I3": 1}), "4I7", "4I3").clear  # not same level
    hedge = los(board(hexsides={"4I5/S": "hedge"}), "4I7", "4I3")
    assert hedge.blocked is not None and hedge.blocked.reason == "hedge"


def test_a_wall_along_the_line_blocks_only_away_from_the_ends():
    """B9.2: a wall lying along the LOS obstructs it unless it touches the firer's or target's hex.

    The wall 4J4|4J5 lies along the line 4G5-4M5 (at range 3) and along 4I5-4K5 (range 1).
    """
    m = board(hexsides={"4J4|4J5": "wall"})
    away = los(m, "4G5", "4M5")
    assert away.blocked is not None and away.blocked.range == 3
    assert los(m, "4I5", "4K5").clear


def test_a_hill_between_blocks_and_a_higher_unit_sees_over_it():
    m = board(levels={"4I5": 1})
    assert los(m, "4G5", "4K5").blocked is not None
    high = board(levels={"4I5": 1, "4G5": 2})
    assert los(high, "4G5", "4K5").clear


@pytest.mark.clause("D13.32-place")
def test_smoke_mortar_hexes_are_range_one_to_three_in_the_tca_and_in_los():
    r"""An AFV in 4E5 with its TCA facing corner E; woods in 4G5 hide what lies behind them.

    In the TCA at range 1-3: 4F4 4F5 | 4G4 4G5 4G6 | 4H3 4H4 4H5 4H6. The lines from 4E5 to
    4H4 and 4H5 pass through 4G5 and are blocked; 4G5 itself is seen (a LOS into woods)::

                  __
               __/H3\
            __/G4\__/
         __/F4\__/H4\        the AFV in E5, woods in G5
        /E5\__/G5\__/        H4 and H5: out of LOS
        \__/F5\__/H5\
           \__/G6\__/
              \__/H6\
                 \__/
    """
    m = board({"4G5": "woods"})
    found = smoke_mortar_hexes(m, BOARD.parse("4E5"), Corner.E)
    assert [BOARD.label(h) for h in found] == ["4F4", "4F5", "4G4", "4G5", "4G6", "4H3", "4H6"]
    assert all(1 <= BOARD.parse("4E5").distance(h) <= 3 for h in found)


# --- property tests over random maps ----------------------------------------------------------

CHART = asl_chart()
near = st.integers(min_value=0, max_value=10)


@st.composite
def random_maps(draw):
    cells = draw(
        st.dictionaries(
            st.builds(lambda c, r: f"4{chr(ord('A') + c)}{r}", near, st.integers(1, 10)),
            st.sampled_from(sorted(CHART.hexes)),
            max_size=40,
        )
    )
    smoke = draw(
        st.dictionaries(
            st.builds(lambda c, r: f"4{chr(ord('A') + c)}{r}", near, st.integers(1, 10)),
            st.sampled_from(sorted(CHART.markers)).map(lambda n: (n,)),
            max_size=8,
        )
    )
    levels = draw(
        st.dictionaries(
            st.builds(lambda c, r: f"4{chr(ord('A') + c)}{r}", near, st.integers(1, 10)),
            st.integers(0, 2),
            max_size=8,
        )
    )
    return board(cells, smoke, levels)


ends = st.builds(lambda c, r: f"4{chr(ord('A') + c)}{r}", near, st.integers(1, 10))


@given(random_maps(), ends, ends)
def test_the_verdict_is_reciprocal_when_no_smoke_is_in_an_end_hex(m, a, b):
    there, back = los(m, a, b), los(m, b, a)
    if m.markers_in(BOARD.parse(a)) or m.markers_in(BOARD.parse(b)):
        return  # A24.8's +1 out of SMOKE is one-way; it may tip the B.10 total
    assert there.clear == back.clear
    if there.clear:
        assert there.total == back.total


@given(random_maps(), ends, ends)
def test_a_verdict_is_consistent_with_its_line(m, a, b):
    verdict = los(m, a, b)
    on_line = set(verdict.line.hexes)
    for hindrance in verdict.hindrances:
        assert hindrance.drm > 0
        assert all(p in on_line for p in hindrance.places if isinstance(p, Hex))
    assert verdict.total == sum(h.drm for h in verdict.hindrances)
    if verdict.clear:
        assert verdict.total < 6
    else:
        assert verdict.blocked is not None
        assert all(h.range <= verdict.blocked.range for h in verdict.hindrances)
    json = verdict.to_json()
    assert json["clear"] == verdict.clear and json["range"] == verdict.range
    assert len(json["hexes"]) == len(verdict.line.steps)
