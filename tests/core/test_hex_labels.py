r"""Board labels: geomorphic boards (``4G5``) and plain grids (``C7``), both ways, with faults.

One geomorphic board, top-left corner (columns B, D... sit half a hex lower than A, C...)::

     __    __
    /A1\__/C1\__
    \__/B1\__/D1\
    /A2\__/C2\__/
    \__/B2\__/D2\
       \__/  \__/
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import (
    Direction,
    GeomorphicLabels,
    GridLabels,
    Hex,
    Shift,
    column_letters,
    hex_to_offset,
    offset_to_hex,
)

STACKED = GeomorphicLabels.of("1/2/3/4/5/6/7/8")
SQUARE = GeomorphicLabels.of("1,2/3,4/5,6/7,8")


@pytest.mark.parametrize(("labels", "count"), [(STACKED, 2640), (SQUARE, 2600)])
def test_every_hex_of_an_eight_board_map_round_trips(labels, count):
    hexes = list(labels.hexes())
    assert len(hexes) == len(set(hexes)) == len(labels) == count
    names = [labels.label(h) for h in hexes]
    assert len(set(names)) == count
    assert all(labels.parse(name) == h for name, h in zip(names, hexes, strict=True))
    assert all(h in labels for h in hexes)


@pytest.mark.parametrize("labels", [STACKED, SQUARE])
def test_every_board_label_names_a_hex_of_the_map(labels):
    for row in labels.layout:
        for board in row:
            for column in range(33):
                for number in range(1, 11):
                    text = f"{board}{column_letters(column)}{number}"
                    hex = labels.parse(text)
                    assert hex in labels
                    again = labels.label(hex)
                    # Only the shared edge column has two names; the left board's GG wins.
                    assert again == text or (column == 0 and again.endswith(f"GG{number}"))


def test_boards_side_by_side_share_their_edge_column():
    labels = GeomorphicLabels.of("1,2")
    assert labels.parse("2A5") == labels.parse("1GG5")
    assert labels.label(labels.parse("2A5")) == "1GG5"
    assert len(labels) == 65 * 10
    # The shared column keeps the board's own shape: 2B1 sits south-east of 2A1 as on board 1.
    assert labels.parse("2B1") == labels.parse("2A1").neighbour(Direction.SE)
    assert labels.parse("1B1") == labels.parse("1A1").neighbour(Direction.SE)


def test_stacked_boards_meet_in_the_half_hexes_of_the_lower_columns():
    labels = GeomorphicLabels.of("1/2")
    assert labels.parse("2B0") == labels.parse("1B10")
    assert labels.label(labels.parse("2B0")) == "1B10"
    # Full columns simply continue: 1A10 is straight north of 2A1.
    assert labels.parse("1A10").neighbour(Direction.S) == labels.parse("2A1")
    with pytest.raises(BadInput, match="no board above") as err:
        labels.parse("1B0")
    assert err.value.position == 2


def test_labels_follow_the_board_drawing():
    labels = GeomorphicLabels.of("1")
    a1, b1, c1, a2 = (labels.parse(t) for t in ("1A1", "1B1", "1C1", "1A2"))
    assert b1 == a1.neighbour(Direction.SE)
    assert c1 == b1.neighbour(Direction.NE)
    assert a2 == a1.neighbour(Direction.S)
    assert labels.parse("1b2") == labels.parse("1B2")  # letters in either case


@pytest.mark.parametrize(
    ("text", "position", "fault"),
    [
        ("G5", 0, "expected the board number"),
        ("9G5", 0, "board 9 is not on this map"),
        ("1HH5", 1, "beyond the last column GG"),
        ("1GH5", 2, "repeats one letter"),
        ("1-5", 1, "expected the column letters"),
        ("1G", 2, "expected the row number"),
        ("1G11", 2, "row 11 is outside 1..10"),
        ("1A0", 2, "row 0 is outside 1..10"),
        ("1G5x", 3, "unexpected text"),
        ("1Ä5", 1, "not a column letter"),
    ],
)
def test_bad_labels_point_at_the_fault(text, position, fault):
    with pytest.raises(BadInput) as err:
        GeomorphicLabels.of("1,2").parse(text)
    assert err.value.position == position
    assert fault in str(err.value)
    assert err.value.what == "hex label"


@pytest.mark.parametrize(
    ("layout", "fault"),
    [("1,2/3", "same number of boards"), ("1,1", "each once"), ("1,x", "not a board number")],
)
def test_bad_layouts_are_refused(layout, fault):
    with pytest.raises(BadInput, match=fault):
        GeomorphicLabels.of(layout)


def test_a_hex_off_the_map_has_no_label():
    with pytest.raises(BadInput, match="not on this map"):
        GeomorphicLabels.of("1").label(Hex(-1, 0))
    assert "1G5" not in GeomorphicLabels.of("1")


def test_layout_text_round_trips():
    labels = GeomorphicLabels.of("4,3/2,1")
    assert str(labels) == "4,3/2,1"
    assert eval(repr(labels)) == labels
    assert labels.parse("4A1") == Hex(0, 1)


@given(st.integers(1, 40), st.integers(1, 30), st.sampled_from(list(Shift)), st.integers(0, 1))
def test_a_plain_grid_round_trips_every_hex(columns, rows, shift, first_row):
    grid = GridLabels(columns, rows, first_row, shift)
    hexes = list(grid.hexes())
    assert len(set(hexes)) == len(grid) == columns * rows
    assert all(grid.parse(grid.label(h)) == h for h in hexes)


def test_plain_grid_shift_decides_which_columns_sit_lower():
    odd, even = GridLabels(4, 4), GridLabels(4, 4, shift=Shift.EVEN)
    assert odd.parse("B1") == odd.parse("A1").neighbour(Direction.SE)
    assert even.parse("B1") == even.parse("A1").neighbour(Direction.NE)
    assert GridLabels(4, 4, first_row=0).parse("A0") == odd.parse("A1")
    with pytest.raises(BadInput, match=r"row 5 is outside 1\.\.4"):
        odd.parse("A5")


@given(st.integers(-100, 100), st.integers(-100, 100), st.sampled_from(list(Shift)))
def test_offset_conversion_round_trips(column, row, shift):
    assert hex_to_offset(offset_to_hex(column, row, shift), shift) == (column, row)


def test_column_letters_double_after_z():
    assert [column_letters(i) for i in (0, 25, 26, 27, 32, 52)] == [
        "A",
        "Z",
        "AA",
        "BB",
        "GG",
        "AAA",
    ]
