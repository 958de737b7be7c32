r"""Judging a line of sight against a ruleset's terrain: blocks, hindrances by range, pair rules.

Most cases use the line from F (0,0,0) to T (4,-2,-2), due east along hexsides::

     __    __    __
    /  \__/  \__/  \
    \__/p \__/a \__/       p, q: the pair at range 1 (the line runs along their hexside)
    /F \__/m \__/T \       m: the single hex at range 2
    \__/q \__/b \__/       a, b: the pair at range 3
    /  \__/  \__/  \
    \__/  \__/  \__/
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.hexgrid import (
    CLEAR,
    Hex,
    Hexside,
    Passage,
    SameRange,
    Sight,
    SightLine,
    SightRule,
    TerrainTable,
    either_blocks_max,
    trace,
)

F, T = Hex(0, 0), Hex(4, -2)
P, Q, M, A, B = Hex(1, -1), Hex(1, 0), Hex(2, -1), Hex(3, -2), Hex(3, -1)
WOODS = Sight(blocks=True, reason="woods")
GRAIN = Sight(1, reason="grain")
SMOKE = Sight(3, reason="smoke")


def test_the_first_block_from_the_firer_decides():
    sighting = trace(F, T, TerrainTable({P: GRAIN, M: WOODS, A: WOODS, B: WOODS}))
    assert not sighting.clear
    assert sighting.blocked is not None
    assert (sighting.blocked.range, sighting.blocked.at, sighting.blocked.reason) == (
        2,
        (M,),
        "woods",
    )
    assert sighting.total == 1  # the grain at range 1, met before the block
    assert str(sighting) == "blocked at range 2 by woods (2,-1,-1); hindrance +1 before it"


def test_a_pair_along_a_hexside_counts_once_by_the_default_rule():
    # One side blocks, the other is open: the line runs between them and is not blocked.
    assert trace(F, T, TerrainTable({A: WOODS})).clear
    # Both block: blocked, at both hexes.
    both = trace(F, T, TerrainTable({A: WOODS, B: WOODS}))
    assert both.blocked is not None and both.blocked.at == (A, B)
    # Two hindrances beside the line count once, the larger one.
    pair = trace(F, T, TerrainTable({P: GRAIN, Q: SMOKE}))
    assert pair.by_range() == ((1, 3),) and pair.total == 3
    assert pair.hindrances[0].at == (P, Q) and pair.hindrances[0].reason == "smoke"


def test_a_stricter_pair_rule_blocks_when_either_side_blocks():
    strict = SightRule(pair=either_blocks_max)
    sighting = trace(F, T, TerrainTable({A: WOODS}), strict)
    assert sighting.blocked is not None and sighting.blocked.range == 3


def test_hexsides_are_asked_how_the_line_passes_them():
    asked: list[tuple[Hexside, Passage]] = []

    @dataclass
    class Recorder:
        def hex_sight(self, hex: Hex, line: SightLine) -> Sight:
            return CLEAR

        def hexside_sight(self, side: Hexside, passage: Passage, line: SightLine) -> Sight:
            asked.append((side, passage))
            return CLEAR

    trace(F, T, Recorder())
    passages = [p for _, p in asked]
    # Into the pair at a vertex (two hexsides), along it, out at a vertex (two), and so on.
    assert (
        passages
        == [Passage.AT_END] * 2
        + [Passage.ALONG]
        + [Passage.AT_END] * 4
        + [Passage.ALONG]
        + [Passage.AT_END] * 2
    )
    assert asked[2][0] == Hexside.between(P, Q)
    asked.clear()
    trace(Hex(0, 0), Hex(0, -3), Recorder())
    assert [p for _, p in asked] == [Passage.ACROSS] * 3


def test_a_wall_blocks_across_but_only_hinders_along():
    wall = Hexside.between(P, Q)

    class Walls:
        """A hedge-like hexside: blocks a line crossing it, hinders a line running along it."""

        def hex_sight(self, hex: Hex, line: SightLine) -> Sight:
            return CLEAR

        def hexside_sight(self, side: Hexside, passage: Passage, line: SightLine) -> Sight:
            if side != wall:
                return CLEAR
            if passage is Passage.ALONG:
                return Sight(1, reason="along the wall")
            return Sight(blocks=True, reason="wall")

    along = trace(F, T, Walls())
    assert along.clear and along.total == 1
    assert along.hindrances[0].at == (wall,) and along.hindrances[0].range == 1
    across = trace(P, Q, Walls())
    assert across.blocked is not None and across.blocked.at == (wall,)


def test_terrain_can_ignore_a_hexside_next_to_the_firer():
    wall = Hexside.between(Hex(0, 0), Hex(0, -1))

    class FirerIgnoresOwnWall:
        def hex_sight(self, hex: Hex, line: SightLine) -> Sight:
            return CLEAR

        def hexside_sight(self, side: Hexside, passage: Passage, line: SightLine) -> Sight:
            if side == wall and line.firer not in side.hexes:
                return Sight(1, reason="wall")
            return CLEAR

    assert trace(Hex(0, 0), Hex(0, -3), FirerIgnoresOwnWall()).total == 0
    assert trace(Hex(0, -3), Hex(0, 0), FirerIgnoresOwnWall()).total == 1


def test_two_hexes_at_one_range_both_count_unless_the_rule_keeps_the_largest():
    r"""F to (4,-3,-1) meets two hexes at range 2 (see test_hex_los); grain in both."""
    terrain = TerrainTable({Hex(2, -1): GRAIN, Hex(2, -2): GRAIN})
    each = trace(Hex(0, 0), Hex(4, -3), terrain)
    assert each.by_range() == ((2, 2),) and each.total == 2
    largest = trace(Hex(0, 0), Hex(4, -3), terrain, SightRule(same_range=SameRange.MAX))
    assert largest.by_range() == ((2, 1),) and largest.total == 1


def test_the_ends_count_only_when_the_rule_says_so():
    terrain = TerrainTable({F: SMOKE, T: GRAIN, M: GRAIN})
    assert trace(F, T, terrain).total == 1
    assert trace(F, T, terrain, SightRule(firer_hex=True)).by_range() == ((0, 3), (2, 1))
    assert trace(F, T, terrain, SightRule(target_hex=True)).total == 2


def test_a_clear_line_lists_its_hindrances_in_order():
    sighting = trace(F, T, TerrainTable({P: GRAIN, M: SMOKE}))
    assert sighting.clear and sighting.total == 4
    assert [h.range for h in sighting.hindrances] == [1, 2]
    assert str(sighting) == (
        "clear; hindrance +4: +1 grain at range 1 (1,-1,0 and 1,0,-1), "
        "+3 smoke at range 2 (2,-1,-1)"
    )
    assert str(trace(F, T, TerrainTable())) == "clear; no hindrance"


sights = st.sampled_from([CLEAR, WOODS, GRAIN, SMOKE, Sight(2, reason="orchard")])
near = st.integers(min_value=-6, max_value=6)
terrains = st.dictionaries(st.builds(Hex, near, near), sights, max_size=60)


@given(terrains, st.builds(Hex, near, near), st.builds(Hex, near, near))
def test_verdicts_are_reciprocal(cells, a, b):
    terrain = TerrainTable(cells)
    there, back = trace(a, b, terrain), trace(b, a, terrain)
    assert there.clear == back.clear
    if there.clear:
        assert there.total == back.total
        assert sorted(there.by_range()) == sorted(
            (there.line.range - k, v) for k, v in back.by_range()
        )
