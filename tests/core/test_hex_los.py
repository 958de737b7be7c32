r"""Line of sight geometry: the exact hexes a centre-to-centre line meets, pairs along hexsides.

The reference for the property tests is an independent, deliberately plain method: for every
hex near the line, the interval of ``t`` over which the point ``t * D`` lies in the hex's closed
cell, in exact fractions; hexes met over a positive length are the line's, ordered by where they
start, and two hexes met over the same interval are a pair (the line runs along their hexside).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.hexgrid import (
    Corner,
    Direction,
    Hex,
    Passage,
    SightLine,
    distance,
    sight_line,
)
from ordnance.core.hexgrid.los import iter_steps, step_offsets

near = st.integers(min_value=-30, max_value=30)
far = st.integers(min_value=-300, max_value=300)
displacements = st.builds(Hex, near, near)
places = st.builds(Hex, far, far)


def oracle_steps(d: Hex) -> list[tuple[Hex, ...]]:
    """The steps by exact intervals on closed hex cells (see the module docstring)."""
    if d == Hex(0, 0):
        return [(Hex(0, 0),)]
    deltas = (d.q - d.r, d.r - d.s, d.s - d.q)
    met: dict[tuple[Fraction, Fraction], list[Hex]] = {}
    for q in range(min(0, d.q) - 2, max(0, d.q) + 3):
        for r in range(min(0, d.r) - 2, max(0, d.r) + 3):
            hex = Hex(q, r)
            low, high = Fraction(0), Fraction(1)
            for delta, centre in zip(deltas, (q - r, r - hex.s, hex.s - q), strict=True):
                if delta == 0:
                    if abs(centre) > 1:
                        low, high = Fraction(1), Fraction(0)
                    continue
                a, b = sorted((Fraction(centre - 1, delta), Fraction(centre + 1, delta)))
                low, high = max(low, a), min(high, b)
            if low < high:
                met.setdefault((low, high), []).append(hex)
    return [tuple(sorted(met[key])) for key in sorted(met)]


# --- golden lines, worked by hand ------------------------------------------------------------


def test_a_line_along_hexsides_meets_pairs():
    r"""F to T four hexes due east: the line runs through corners and along hexsides.

    Between the centres it passes, it runs along the hexside between the two hexes marked 1
    (and 3), so each such step is a pair, both at the same range::

            __    __
         __/  \__/  \__
        /  \__/  \__/  \
        \__/1 \__/3 \__/
        /F \__/2 \__/T \
        \__/1 \__/3 \__/
        /  \__/  \__/  \
        \__/  \__/  \__/
    """
    line = SightLine.between(Hex(0, 0), Hex(4, -2))
    assert str(line) == "0,0,0 > 1,-1,0|1,0,-1 > 2,-1,-1 > 3,-2,-1|3,-1,-2 > 4,-2,-2"
    assert [step.range for step in line.steps] == [0, 1, 2, 3, 4]
    assert [step.is_pair for step in line.steps] == [False, True, False, True, False]
    pair = line.steps[1]
    assert pair.along is not None and set(pair.along.hexes) == set(pair.hexes)
    # Into and out of a pair the line passes exactly through a vertex, past two hexsides.
    first, second = line.crossings[:2]
    assert first.vertex is not None and first.passage is Passage.AT_END
    assert first.vertex.hexes == (Hex(0, 0), Hex(1, -1), Hex(1, 0))
    assert len(first.sides) == len(second.sides) == 2


def test_a_line_can_meet_two_hexes_at_the_same_range():
    r"""F to T (4,-3,-1): after range 1 the line clips one range-2 hex and enters another.

    Both hexes marked 2 are met over a length, so both are listed, one after the other::

               __    __
            __/  \__/  \
         __/  \__/  \__/
        /  \__/2 \__/T \
        \__/1 \__/3 \__/
        /F \__/2 \__/  \
        \__/  \__/  \__/
    """
    line = SightLine.between(Hex(0, 0), Hex(4, -3))
    assert [str(h) for h in line.hexes] == [
        "0,0,0",
        "1,-1,0",
        "2,-1,-1",
        "2,-2,0",
        "3,-2,-1",
        "4,-3,-1",
    ]
    assert [step.range for step in line.steps] == [0, 1, 2, 2, 3, 4]
    assert len(line.at_range(2)) == 2
    assert all(c.vertex is None and c.passage is Passage.ACROSS for c in line.crossings)


def test_a_line_through_a_vertex_does_not_meet_the_hex_it_only_touches():
    r"""F to T (5,-4,-1) passes exactly through the vertex where 1, 2 and x meet.

    It goes straight from 1 into 2; x is touched at that one point only and is not met (nor is
    y, at the vertex where 3, 4 and y meet). The crossing records the vertex::

                  __    __
               __/  \__/  \
            __/  \__/  \__/
         __/  \__/y \__/T \
        /  \__/2 \__/4 \__/
        \__/1 \__/3 \__/  \
        /F \__/x \__/  \__/
        \__/  \__/  \__/
    """
    line = SightLine.between(Hex(0, 0), Hex(5, -4))
    assert [step.range for step in line.steps] == [0, 1, 2, 3, 4, 5]
    assert Hex(2, -1) not in line.hexes and Hex(3, -3) not in line.hexes
    vertices = [str(c.vertex) if c.vertex else None for c in line.crossings]
    assert vertices == [None, "1,-1,0/E", None, "4,-3,-1/W", None]
    touched = line.crossings[1]
    assert touched.passage is Passage.AT_END
    assert touched.sides == (line.crossings[1].sides[0],)
    assert set(touched.sides[0].hexes) == {Hex(1, -1), Hex(2, -2)}


def test_a_line_straight_through_hexsides_meets_one_hex_per_range():
    line = SightLine.between(Hex(2, 2), Hex(2, -1))
    assert [str(h) for h in line.hexes] == ["2,2,-4", "2,1,-3", "2,0,-2", "2,-1,-1"]
    assert [str(c.sides[0]) for c in line.crossings] == ["2,2,-4/N", "2,1,-3/N", "2,0,-2/N"]
    assert sight_line(Hex(2, 2), Hex(2, -1)) == line


def test_a_line_to_its_own_hex_is_one_step():
    line = SightLine.between(Hex(3, 3), Hex(3, 3))
    assert line.hexes == (Hex(3, 3),) and line.crossings == () and line.range == 0


# --- properties over random lines -------------------------------------------------------------


@given(displacements)
def test_the_walk_matches_the_exact_interval_oracle(d):
    assert [step.hexes for step in SightLine.between(Hex(0, 0), d).steps] == oracle_steps(d)


@given(places, places)
def test_los_is_reciprocal(a, b):
    forward, backward = SightLine.between(a, b), SightLine.between(b, a)
    assert [s.hexes for s in backward.steps] == [s.hexes for s in reversed(forward.steps)]
    assert backward.crossings == tuple(reversed(forward.crossings))
    assert forward.reversed() == backward


@given(places, displacements)
def test_every_step_is_adjacent_to_the_next(a, d):
    line = SightLine.between(a, a + d)
    for before, after, crossing in zip(
        line.steps[:-1], line.steps[1:], line.crossings, strict=True
    ):
        assert all(distance(x, y) == 1 for x in before.hexes for y in after.hexes)
        # The crossing's hexsides separate the step before from the step after.
        for side in crossing.sides:
            assert len(set(side.hexes) & set(before.hexes)) == 1
            assert len(set(side.hexes) & set(after.hexes)) == 1
        assert len(crossing.sides) == (1 if len(before.hexes) == len(after.hexes) == 1 else 2)
        if crossing.vertex is not None:
            assert set(crossing.vertex.hexes) >= {h for s in crossing.sides for h in s.hexes}


@given(places, displacements)
def test_ranges_climb_from_firer_to_target_through_hexes_between_them(a, d):
    b = a + d
    line = SightLine.between(a, b)
    ranges = [step.range for step in line.steps]
    assert ranges[0] == 0 and ranges[-1] == distance(a, b)
    assert set(ranges) == set(range(distance(a, b) + 1))
    assert ranges == sorted(ranges)
    assert all(ranges.count(k) <= 2 for k in set(ranges))
    for step in line.steps:
        for hex in step.hexes:
            assert distance(a, hex) == step.range
            assert distance(a, hex) + distance(hex, b) == distance(a, b)


@given(places, st.sampled_from(list(Corner)), st.integers(min_value=1, max_value=20))
def test_along_a_corner_direction_every_other_step_is_a_pair(a, corner, count):
    line = SightLine.between(a, a + corner.vector * count)
    assert [step.is_pair for step in line.steps] == [k % 2 == 1 for k in range(2 * count + 1)]
    for step in line.steps:
        if step.is_pair:
            assert step.along is not None and set(step.along.hexes) == set(step.hexes)
            assert step.range % 2 == 1


@given(places, displacements)
def test_pairs_appear_exactly_on_corner_directions(a, d):
    # D lies along a corner direction exactly when two of its cube coordinates are equal.
    along_corner = d != Hex(0, 0) and len(set(d.cube)) < 3
    line = SightLine.between(a, a + d)
    assert any(step.is_pair for step in line.steps) == along_corner


@given(places, places, displacements, st.integers(min_value=-6, max_value=6))
def test_lines_move_and_turn_with_the_map(a, shift, d, turns):
    line = SightLine.between(a, a + d)
    moved = SightLine.between(a + shift, a + d + shift)
    assert moved.hexes == tuple(h + shift for h in line.hexes)
    turned = SightLine.between(a.rotated(turns), (a + d).rotated(turns))
    assert [set(s.hexes) for s in turned.steps] == [
        {h.rotated(turns) for h in s.hexes} for s in line.steps
    ]


@given(displacements)
def test_bulk_offsets_agree_with_the_line(d):
    offsets = step_offsets(d.q, d.r)
    assert list(iter_steps(d.q, d.r)) == list(offsets)
    line = SightLine.between(Hex(0, 0), d)
    assert [tuple(Hex(q, r) for q, r in step) for step in offsets] == [s.hexes for s in line.steps]


@pytest.mark.parametrize("direction", list(Direction))
def test_along_a_hexside_direction_each_range_has_one_hex(direction):
    line = SightLine.between(Hex(0, 0), direction.vector * 5)
    assert line.hexes == tuple(direction.vector * k for k in range(6))
    assert all(c.vertex is None for c in line.crossings)
