"""Hexsides and vertices: one canonical value however they are named, and exact text forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Corner, Direction, Hex, Hexside, Vertex, distance

coordinate = st.integers(min_value=-200, max_value=200)
hexes = st.builds(Hex, coordinate, coordinate)
directions = st.sampled_from(list(Direction))
corners = st.sampled_from(list(Corner))


@given(hexes, directions)
def test_a_hexside_is_the_same_value_from_either_hex(hex, direction):
    side = Hexside.of(hex, direction)
    other = hex + direction.vector
    assert side == Hexside.of(other, direction.opposite) == Hexside.between(hex, other)
    assert hash(side) == hash(Hexside.between(other, hex))
    assert set(side.hexes) == {hex, other}
    assert side.direction in (Direction.N, Direction.NE, Direction.SE)


@given(hexes, directions)
def test_a_hexsides_two_ends_are_vertices_of_both_its_hexes(hex, direction):
    side = Hexside.of(hex, direction)
    first, second = side.vertices
    assert first != second
    for vertex in side.vertices:
        assert set(side.hexes) <= set(vertex.hexes)
        assert side in vertex.hexsides


@given(hexes, corners)
def test_a_vertex_is_the_same_value_from_each_of_its_three_hexes(hex, corner):
    vertex = Vertex.of(hex, corner)
    trio = vertex.hexes
    assert hex in trio and len(set(trio)) == 3
    assert all(distance(a, b) == 1 for a in trio for b in trio if a != b)
    assert Vertex.among(*trio) == vertex
    for member in trio:
        assert vertex in {Vertex.of(member, c) for c in Corner}
    # Thirds: three times the point, i.e. the sum of the three centres.
    assert vertex.thirds == tuple(sum(h.cube[i] for h in trio) for i in range(3))
    assert Vertex.from_thirds(vertex.thirds) == vertex


@given(hexes)
def test_each_hex_has_six_distinct_corners_and_sides(hex):
    assert len({Vertex.of(hex, c) for c in Corner}) == 6
    assert len({Hexside.of(hex, d) for d in Direction}) == 6


@given(hexes, directions, corners)
def test_text_forms_round_trip(hex, direction, corner):
    side, vertex = Hexside.of(hex, direction), Vertex.of(hex, corner)
    assert Hexside.parse(str(side)) == side
    assert Vertex.parse(str(vertex)) == vertex
    assert eval(repr(side)) == side and eval(repr(vertex)) == vertex
    # Any naming parses to the canonical value.
    assert Hexside.parse(f"{hex}/{direction}") == side
    assert Vertex.parse(f"{hex}/{corner}") == vertex


@pytest.mark.parametrize(
    ("parse", "text", "position", "fault"),
    [
        (Hexside.parse, "0,0,0", 5, "expected HEX/NAME"),
        (Hexside.parse, "0,0,0/E", 6, "expected one of N, NE"),
        (Hexside.parse, "0,x,0/N", 2, "not a whole number"),
        (Vertex.parse, "0,0,0/N", 6, "expected one of NNE, E"),
        (Vertex.parse, "1,1,1/E", 0, "sum to 0"),
    ],
)
def test_bad_feature_text_points_at_the_fault(parse, text, position, fault):
    with pytest.raises(BadInput) as err:
        parse(text)
    assert err.value.position == position
    assert fault in str(err.value)


def test_only_canonical_values_can_be_built_directly():
    with pytest.raises(ValueError, match=r"Hexside\.of"):
        Hexside(Hex(0, 0), Direction.S)
    with pytest.raises(ValueError, match=r"Vertex\.of"):
        Vertex(Hex(0, 0), Corner.NNE)
    with pytest.raises(ValueError, match="not three times"):
        Vertex.from_thirds((3, -3, 0))
    with pytest.raises(BadInput, match="not adjacent"):
        Hexside.between(Hex(0, 0), Hex(2, 0))
    with pytest.raises(BadInput, match="each two are adjacent"):
        Vertex.among(Hex(0, 0), Hex(1, 0), Hex(2, 0))
