"""Names of places on a map: hex labels, hexsides and vertices, round-tripping on every hex."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.cli.map_games import open_map
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Corner, Direction, GeomorphicLabels, GridLabels, Hexside, Vertex
from ordnance.core.maps import GameMap, label_or_none, parse_hexside, place_label, vertex_label

EXAMPLES = ["asl-village", "lnl-farm", "vv-hedgerows"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_hex_label_of_every_example_round_trips(name):
    m = open_map(name)
    seen = set()
    for hex in m:
        label = m.label(hex)
        assert m.parse(label) == hex
        seen.add(label)
    assert len(seen) == len(m)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_hexside_and_vertex_name_round_trips(name):
    m = open_map(name)
    for hex in m:
        for direction in Direction:
            side = Hexside.of(hex, direction)
            assert parse_hexside(m.labels, place_label(m.labels, side)) == side
        for corner in Corner:
            vertex = Vertex.of(hex, corner)
            label, _, corner_name = vertex_label(m.labels, vertex).rpartition("/")
            assert Vertex.of(m.parse(label), Corner.parse(corner_name)) == vertex


layouts = st.sampled_from(["1", "4/3", "1,2", "1,2/3,4", "2,4,6"])


@given(layouts, st.data())
def test_geomorphic_hexsides_name_the_same_side_from_either_hex(layout, data):
    labels = GeomorphicLabels.of(layout)
    hexes = list(labels.hexes())
    hex = data.draw(st.sampled_from(hexes))
    direction = data.draw(st.sampled_from(list(Direction)))
    side = Hexside.of(hex, direction)
    other = hex + direction.vector
    via_other = f"{labels.label(other)}/{direction.opposite}" if other in labels else None
    assert parse_hexside(labels, f"{labels.label(hex)}/{direction}") == side
    if via_other is not None:
        assert parse_hexside(labels, via_other) == side
        assert parse_hexside(labels, f"{labels.label(hex)}|{labels.label(other)}") == side


def test_places_off_the_map_fall_back_to_coordinates():
    grid = GridLabels(columns=3, rows=3)
    off = grid.parse("A1") + Direction.N.vector
    assert label_or_none(grid, off) is None
    assert place_label(grid, off) == str(off)
    edge = Hexside.of(grid.parse("A1"), Direction.N)
    assert place_label(grid, edge) == "A1/N"
    far = Hexside.of(off + Direction.N.vector, Direction.N)
    assert place_label(grid, far) == str(far)


def test_bad_hexside_names_say_why():
    grid = GridLabels(columns=4, rows=4)
    with pytest.raises(BadInput, match="not adjacent"):
        parse_hexside(grid, "A1|C3")
    with pytest.raises(BadInput, match="expected LABEL/DIRECTION"):
        parse_hexside(grid, "A1")
    with pytest.raises(BadInput, match="expected one of N, NE"):
        parse_hexside(grid, "A1/X")


def test_a_map_answers_defaults_for_unlisted_hexes():
    grid = GridLabels(columns=4, rows=4)
    m = GameMap("m", "vv", grid, "open")
    hex = grid.parse("B2")
    assert (m.terrain(hex), m.elevation(hex), m.markers_in(hex)) == ("open", 0, ())
    assert m.hexside(Hexside.of(hex, Direction.N)) is None
    assert hex in m and grid.parse("D4") in m and len(m) == 16
