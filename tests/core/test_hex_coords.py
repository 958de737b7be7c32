"""Cube coordinates: distance, neighbours, directions, corners, rotations, rings, text form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import ORIGIN, Corner, Direction, Hex, cross, distance

coordinate = st.integers(min_value=-200, max_value=200)
hexes = st.builds(Hex, coordinate, coordinate)
turns = st.integers(min_value=-12, max_value=12)


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes, hexes, turns)
def test_rotations_preserve_distance(a, b, centre, steps):
    assert distance(a.rotated(steps, centre), b.rotated(steps, centre)) == distance(a, b)
    assert a.rotated(steps, centre).distance(centre) == a.distance(centre)


@given(hexes, hexes)
def test_six_turns_are_a_full_circle(a, centre):
    assert a.rotated(6, centre) == a
    assert a.rotated(1, centre).rotated(-1, centre) == a
    assert a.rotated(3, centre) == centre - (a - centre)


def test_a_turn_moves_each_direction_to_the_next_clockwise():
    for direction in Direction:
        assert direction.vector.rotated(1) == direction.turned(1).vector
    for corner in Corner:
        assert corner.vector.rotated(1) == corner.turned(1).vector


@given(hexes)
def test_neighbours_are_the_hexes_at_distance_one(hex):
    around = hex.neighbours()
    assert len(set(around)) == 6
    assert all(distance(hex, n) == 1 for n in around)
    for direction, neighbour in zip(Direction, around, strict=True):
        assert hex.neighbour(direction) == neighbour
        assert hex.direction_to(neighbour) is direction
        assert neighbour.direction_to(hex) is direction.opposite
    assert hex.direction_to(hex) is None


@given(hexes, st.integers(min_value=0, max_value=12))
def test_a_ring_holds_every_hex_at_its_radius_once(centre, radius):
    ring = centre.ring(radius)
    assert len(ring) == len(set(ring)) == max(1, 6 * radius)
    assert all(distance(centre, h) == radius for h in ring)
    # Clockwise from the north: each hex of the ring is next to the one before it.
    if radius:
        assert ring[0] == centre + Direction.N.vector * radius
        assert all(distance(x, y) == 1 for x, y in zip(ring, ring[1:] + ring[:1], strict=True))
    assert len(set(centre.within(radius))) == 3 * radius * (radius + 1) + 1


def test_corners_lie_between_two_sides_and_point_two_hexes_out():
    for corner in Corner:
        first, second = corner.sides
        assert second == first.turned(1)
        assert corner.vector == first.vector + second.vector
        assert corner.vector.length == 2
        assert corner.opposite.vector == -corner.vector


def test_cross_gives_the_side_exactly():
    north, north_east = Direction.N.vector, Direction.NE.vector
    assert cross(north, north_east) > 0 > cross(north_east, north)
    assert cross(north, north * 5) == 0


@given(hexes)
def test_text_form_round_trips(hex):
    assert Hex.parse(str(hex)) == hex
    assert eval(repr(hex)) == hex


@pytest.mark.parametrize(
    ("text", "position", "fault"),
    [
        ("1,2", 0, "three cube coordinates"),
        ("1,x,-1", 2, "not a whole number"),
        ("1,-1,x", 5, "not a whole number"),
        ("1,2,3", 0, "sum to 0"),
    ],
)
def test_bad_hex_text_points_at_the_fault(text, position, fault):
    with pytest.raises(BadInput) as err:
        Hex.parse(text)
    assert err.value.position == position
    assert fault in str(err.value)


def test_directions_and_corners_parse_by_name():
    assert Direction.parse(" sw ") is Direction.SW
    assert Corner.parse("e") is Corner.E
    with pytest.raises(BadInput, match="expected one of N, NE"):
        Direction.parse("E")
    with pytest.raises(BadInput, match="expected one of NNE, E"):
        Corner.parse("N")
    assert str(Direction.NE) == "NE" and str(Corner.SSW) == "SSW"
    assert Hex(0, 0) == ORIGIN
