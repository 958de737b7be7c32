"""VASL saves read for ASL: the five real saves' expected counters, hexes, hidden pieces;
generated saves for the layouts, ties, renumbered gpids and unmatched pieces the real ones do
not show; and properties of VASL's hex grid (pixel -> hex, hexsides).

The real saves are read from ../shared/data/vasl-saves (README.md there gives each file's
expected result); the tests skip when that folder or the vasl-templates data is absent.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.vsav_writer import PieceSpec, filler_traits, hidden_traits, save_text, save_zip

from ordnance.asl.dates import ScenarioDate
from ordnance.asl.vsav import Board, read_vsav
from ordnance.asl.vsav.boards import DEFAULT_GEOMETRY, board_location, column_letters, locate
from ordnance.asl.vsav.matching import data_gpids
from ordnance.core.errors import BadInput

SAVES = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "vasl-saves"


@pytest.fixture
def saves() -> Path:
    if not SAVES.is_dir():
        pytest.skip("../shared/data/vasl-saves is not present")
    return SAVES


def ids(ruling):
    return {unit.id for unit in ruling.units}


# --- the five real saves, as their README expects ----------------------------------------


def test_basic_holds_the_six_counters_vasl_templates_expects(saves, vasl_templates):
    ruling = read_vsav(saves / "basic.vsav", vasl_templates)
    assert ids(ruling) == {"ge/v:033", "ge/v:066", "ge/o:029", "ru/v:064", "ru/o:002", "ru/o:006"}
    assert Counter(unit.gpid for unit in ruling.units) == Counter(
        {"687": 2, "514": 1, "508": 1, "2598": 1, "2676": 1, "2521": 2}
    )
    assert (ruling.vasl_version, ruling.vassal_version, ruling.boards) == ("6.4.4", "3.2.17", ())
    assert ruling.hidden == 0
    assert {unit.map for unit in ruling.units} == {"Map0"}
    assert all(unit.hex is None for unit in ruling.units)  # no boards: no hexes
    kinds = {unit.id: unit.kind for unit in ruling.units}
    assert kinds["ru/v:064"] == "vehicle" and kinds["ge/o:029"] == "ordnance"
    nations = {unit.id: unit.nationality for unit in ruling.units}
    assert nations["ru/o:002"] == "russian" and nations["ge/v:033"] == "german"


def test_hip_and_concealed_pieces_are_left_out_and_counted(saves, vasl_templates):
    ruling = read_vsav(saves / "hip-concealed.vsav", vasl_templates)
    assert ruling.units == ()
    assert ruling.hidden == 2
    assert ruling.vasl_version == "6.4.3"


def test_gpids_renumbered_by_vasl_650_are_mapped_back(saves, vasl_templates):
    ruling = read_vsav(saves / "reverse-remapped-gpids-650.vsav", vasl_templates)
    assert ids(ruling) == {"am/v:044", "am/o:002", "am/o:021", "cr/v:002", "cr/v:003", "cr/o:000"}
    assert {unit.gpid for unit in ruling.units} == {
        "12483",
        "11506",
        "11504",
        "3b5:3741",
        "11340",
        "11503",
    }


def test_extension_gpids_find_the_extension_counters(saves, vasl_templates):
    ruling = read_vsav(saves / "ffs.vsav", vasl_templates)
    assert ids(ruling) == {"ffs/o:000", "ffs/v:000"}
    assert {unit.gpid for unit in ruling.units} == {"08d:75", "08d:15"}
    assert (ruling.vasl_version, ruling.vassal_version) == ("6.6.1", "3.4.7")


def test_full_places_the_crocodile_at_f2_and_the_mortar_at_e2(saves, vasl_templates):
    ruling = read_vsav(saves / "full.vsav", vasl_templates)
    assert ruling.boards == (Board("00", 0, 0),)
    where = {unit.id: (unit.hex, unit.x, unit.y) for unit in ruling.units}
    assert where == {"br/v:054": ("F2", 681, 528), "kfw-bcfk/o:002": ("E2", 625, 496)}


@pytest.mark.clause("C8.0")
def test_capabilities_are_read_on_the_date(saves, vasl_templates):
    ruling = read_vsav(saves / "full.vsav", vasl_templates, ScenarioDate(1944, 6))
    crocodile = next(unit for unit in ruling.units if unit.id == "br/v:054")
    assert crocodile.tokens == ("s8", "WP6", "sD7", "sM8!1")
    ready = {c.token: c.number for c in crocodile.capabilities if c.available}
    assert ready == {"s8": 8, "WP6": 6, "sD7": 7, "sM8!1": 8}
    undated = read_vsav(saves / "full.vsav", vasl_templates)
    assert all(unit.capabilities == () for unit in undated.units)
    assert "C8.0" in ruling.clauses


# --- generated saves -----------------------------------------------------------------------


def generated(pieces, boards=(), **kwargs) -> bytes:
    return save_zip(save_text(pieces, boards), **kwargs)


def centre(board_x: int, board_y: int, column: int, row: int) -> tuple[int, int]:
    """A hex centre on a board at map offset (board_x, board_y), VASL's default grid, rounded
    as VASL's grid gives a hex's point (half a pixel up, then whole pixels)."""
    g = DEFAULT_GEOMETRY
    x = int(g.hex_width * column + 0.5) + g.origin_x
    y = int(g.hex_height * (row - (1 if column % 2 == 0 else 0.5)) + 0.5) + g.origin_y
    return board_x + g.edge_x + x, board_y + g.edge_y + y


def tiger(x: int, y: int, **kwargs) -> PieceSpec:
    return PieceSpec("PzKw VIE", "2598", x, y, traits=filler_traits(2) + hidden_traits(**kwargs))


def test_two_boards_side_by_side_name_hexes_with_their_board(vasl_templates):
    x, y = centre(1800, 0, 3, 4)  # board 3, right of board 4
    ruling = read_vsav(generated([tiger(x, y)], [(0, 0, "4"), (1, 0, "3")]), vasl_templates)
    assert [(unit.hex, unit.board) for unit in ruling.units] == [("3D4", "3")]


def test_a_turned_board_counts_from_its_other_corner():
    boards = (Board("4", 0, 0, reversed=True),)
    g = DEFAULT_GEOMETRY
    x, y = centre(0, 0, 5, 2)
    turned = (2 * g.edge_x + g.board_width - x, 2 * g.edge_y + g.board_height - y)
    assert locate(*turned, boards) == ("4", "F2")


def test_a_cropped_board_keeps_its_own_hex_names():
    g = DEFAULT_GEOMETRY
    crop = (round(10 * g.hex_width), 0, 600, 645)
    x, y = centre(-crop[0], 0, 12, 3)
    assert locate(x, y, (Board("4", 0, 0, crop=crop),)) == ("4", "M3")


def test_pieces_off_the_boards_or_on_another_map_have_no_hex(vasl_templates):
    pieces = [tiger(10, 10), PieceSpec("PzKw VIE", "2598", 681, 528, map="Casualties")]
    ruling = read_vsav(generated(pieces, [(0, 0, "4")]), vasl_templates)
    assert [unit.hex for unit in ruling.units] == [None, None]


@given(st.integers(0, 32), st.integers(1, 10))
def test_every_hex_centre_of_a_board_is_named_by_its_own_hex(column, row):
    # The GG column and the odd columns' bottom half hexes have their centres on the edges.
    x, y = centre(0, 0, column, row)
    assert locate(x, y, (Board("4", 0, 0),)) == ("4", f"{column_letters(column)}{row}")


@given(st.integers(0, 31), st.integers(1, 9), st.integers(0, 2), st.integers(0, 1))
def test_every_hex_centre_of_a_layout_is_named_by_its_own_hex(column, row, board_column, board_row):
    boards = tuple(Board(str(1 + c + 3 * r), c, r) for c in range(3) for r in range(2))
    g = DEFAULT_GEOMETRY
    x, y = centre(board_column * g.board_width, board_row * g.board_height, column, row)
    name = str(1 + board_column + 3 * board_row)
    assert locate(x, y, boards) == (name, f"{column_letters(column)}{row}")


@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(1, 31), st.integers(2, 8))
def test_a_point_near_a_centre_names_that_hex(dx, dy, column, row):
    # 20 pixels either way stays inside the hex (its width is 56.25, its height 64.5).
    x, y = centre(-DEFAULT_GEOMETRY.edge_x, -DEFAULT_GEOMETRY.edge_y, column, row)
    assert board_location(x + dx, y + dy) == f"{column_letters(column)}{row}"


def test_hidden_pieces_are_counted_only(vasl_templates):
    pieces = [tiger(681, 528, hip=True), tiger(681, 528, concealed=True), tiger(681, 528)]
    ruling = read_vsav(generated(pieces, [(0, 0, "4")]), vasl_templates)
    assert (len(ruling.units), ruling.hidden) == (1, 2)


def test_unknown_traits_are_skipped(vasl_templates):
    odd = [("weird;1;2;3", "x\\y"), ("", ""), ("mark", "'quoted'")]
    piece = PieceSpec("PzKw VIE", "2598", 681, 528, traits=odd + hidden_traits())
    assert ids(read_vsav(generated([piece]), vasl_templates)) == {"ge/v:033"}


def test_renumbering_applies_from_vasl_650_only(vasl_templates):
    mortar = PieceSpec("81* MTR M1", "12483", 0, 0)
    assert ids(read_vsav(generated([mortar], version="6.5.1"), vasl_templates)) == {"am/o:002"}
    assert ids(read_vsav(generated([mortar], version="6.4.4"), vasl_templates)) == set()
    assert "879" in data_gpids("12483", None)


def test_a_gpid_of_two_entries_goes_to_the_side_the_piece_names(vasl_templates):
    # 1002 is the M8 armoured car in the American and in the Korean War UN files.
    m8 = PieceSpec("M8", "1002", 0, 0, traits=hidden_traits(nation="am"))
    plain = PieceSpec("M8", "1002", 0, 0)
    assert ids(read_vsav(generated([m8]), vasl_templates)) == {"am/v:044"}
    assert ids(read_vsav(generated([plain]), vasl_templates, ScenarioDate(1944, 1))) == {"am/v:044"}
    korea = read_vsav(generated([plain]), vasl_templates, ScenarioDate(1951, 1))
    assert [unit.nationality for unit in korea.units] == ["un-common"]


def test_a_save_of_another_module_is_refused(vasl_templates):
    data = generated([tiger(0, 0)], module="Paths of Glory")
    with pytest.raises(BadInput, match="a save of the module 'Paths of Glory', not VASL"):
        read_vsav(data, vasl_templates)


def test_a_bad_board_command_is_one_fault():
    from ordnance.asl.vsav import read_boards  # noqa: PLC0415

    with pytest.raises(BadInput, match="whole numbers"):
        read_boards("bd\tx\t0\t4\tVER\t6.0\t")
    with pytest.raises(BadInput, match="ZOOM"):
        read_boards("bd\t0\t0\t4\tVER\t6.0\tZOOM\tbig")
    assert read_boards("bd\t0\t0\tr4\t1\t2\t600\t645\tVER\t6.0\tZOOM\t1.5") == (
        Board("4", 0, 0, True, (1, 2, 600, 645), 1.5),
    )


# --- the grid as VASL names it (property tests) -------------------------------------------


def hexes(location: str) -> list[tuple[int, int]]:
    """``M4/N4`` -> [(12, 4), (13, 4)]: columns counted from A = 0, as VASL letters them."""
    found = []
    for label in location.split("/"):
        letters = label.rstrip("0123456789")
        found.append(
            (ord(letters[0]) - ord("A") + 26 * (len(letters) - 1), int(label[len(letters) :]))
        )
    return found


def true_centre(column: int, row: int) -> tuple[float, float]:
    """Where a hex's centre lies on the board, unrounded."""
    g = DEFAULT_GEOMETRY
    return g.hex_width * column, g.hex_height * (row - (1 if column % 2 == 0 else 0.5)) + 32


def neighbours(column: int, row: int) -> list[tuple[int, int]]:
    """The six hexes around one; odd columns sit half a hex lower than even ones."""
    beside = (row - 1, row) if column % 2 == 0 else (row, row + 1)
    return [(column, row - 1), (column, row + 1)] + [
        (column + side, other) for side in (-1, 1) for other in beside
    ]


@pytest.mark.clause("C8.0")
@given(st.integers(0, 1575), st.integers(1, 516))
def test_the_grid_repeats_every_four_columns_and_two_rows(x, y):
    # 4 x 56.25 = 225 and 2 x 64.5 = 129 whole pixels: VASL's geomorphic grid, and not one of
    # 56.24 x 64.51, repeats exactly on whole pixels, hexside names included. (Not from the
    # top row of pixels: there VASSAL's whole-pixel cast rounds a hexside at -0.25 up to 0.)
    here = hexes(board_location(x, y))
    assert hexes(board_location(x + 225, y)) == [(c + 4, r) for c, r in here]
    assert hexes(board_location(x, y + 129)) == [(c, r + 2) for c, r in here]


@pytest.mark.clause("C8.0")
@given(st.integers(0, 1800), st.integers(0, 645))
def test_a_pixel_is_named_by_a_hex_it_lies_near(x, y):
    # Columns are read as strips of one hex width and rows within them: never farther from the
    # named hex's centre than a strip's corner (half the width and half the height), plus the
    # whole-pixel rounding.
    g = DEFAULT_GEOMETRY
    reach = math.hypot(g.hex_width / 2 + 1, g.hex_height / 2 + 1)
    for column, row in hexes(board_location(x, y)):
        cx, cy = true_centre(column, row)
        assert math.hypot(x - cx, y - cy) <= reach


@pytest.mark.clause("C8.0")
@given(st.integers(1, 31), st.integers(2, 9), st.integers(0, 5))
def test_a_piece_on_a_hexside_is_named_by_its_two_hexes_and_is_in_the_first(column, row, side):
    # VASSAL snaps a piece in bypass (or a hexside marker) to the hexside's midpoint, in whole
    # pixels; VASL names both hexes, the left one first across columns, the upper one within a
    # column, and the first is the hex the piece is in.
    other = neighbours(column, row)[side]
    (ax, ay), (bx, by) = true_centre(column, row), true_centre(*other)
    x, y = int((ax + bx) / 2), int((ay + by) / 2)
    named = hexes(board_location(x, y))
    assert sorted(named) == sorted([(column, row), other])
    assert named[0] == min(named)
    location = board_location(x, y)
    assert locate(x + 400, y + 400, (Board("4", 0, 0),)) == ("4", location)


def test_vasl_names_a_hexside_as_its_own_code_does():
    # Worked by hand from VASL's ASLHexGrid.locationName with dx 56.25, dy 64.5, origin 0,32:
    # x 703 is 12.498 hexes across (the line between M and N); y 241 is row 4 of M (even) and
    # of N (odd, 241 is not below 4 x 64.5). At x 281 (column F), y 290 is 4.496 hexes down:
    # row 4 of F, with F5 below; a quarter pixel more would make it 4.5, row 5.
    assert board_location(703, 241) == "M4/N4"
    assert board_location(281, 290) == "F4/F5"
    assert board_location(281, 291) == "F5"
    # An odd column's half hex on the top edge, and left of column A.
    assert board_location(56, 0) == "B0"
    assert board_location(-29, 100) is None


# --- the renumbered gpids vasl-templates publishes -------------------------------------------


@pytest.mark.clause("C8.0", "SYS.record")
@pytest.mark.parametrize(
    ("gpid", "since", "name"),
    [
        ("7461", "6.5.0", "T-26C(r)"),
        ("11500", "6.5.0", "45mm PTP obr. 32"),
        ("11501", "6.5.0", "Skoda M28 NOa"),
        ("11502", "6.5.0", "Skoda 47L40(t)"),
        ("11524", "6.5.0", "40M Nimrod"),
        ("11532", "6.5.0", "39M Csaba"),
        ("11479", "6.5.0", "FT-17 730m(f)"),
        ("3b5:7681", "6.5.0", "Churchill Bridgelayer"),
        ("12730", "6.5.1", "IP Carrier AOV"),
    ],
)
def test_each_renumbered_gpid_finds_its_counter_from_its_vasl_version(
    vasl_templates, gpid, since, name
):
    piece = PieceSpec("renumbered", gpid, 0, 0)
    found = read_vsav(generated([piece], version=since), vasl_templates)
    assert [(unit.name, unit.gpid) for unit in found.units] == [(name, gpid)]
    assert found.unmatched == ()
    assert found.units[0].nationality not in ("bcfk", "un-common")  # WWII, not K:FW
    # A save from before the renumbering did not have the id: it is not read as that counter
    # (the K:FW data lists the Bridgelayer's 3b5:7681 for its own counter).
    older = read_vsav(generated([piece], version="6.4.4"), vasl_templates)
    assert [unit.nationality for unit in older.units] in ([], ["bcfk"])
    assert len(older.units) + len(older.unmatched) == 1


def test_a_slot_vasl_643_dropped_still_finds_its_counter(vasl_templates):
    # 6.4.3 kept 2775 for the SdKfz 10/5 and dropped its duplicate 7140; the data lists 2775.
    for gpid, version in (("7140", "6.4.1"), ("2775", "6.6.4"), ("2775", "6.4.1")):
        halftrack = PieceSpec("SdKfz 10/5", gpid, 0, 0)
        found = read_vsav(generated([halftrack], version=version), vasl_templates)
        assert [unit.name for unit in found.units] == ["SdKfz 10/5"], (gpid, version)


def test_the_table_holds_every_pair_vasl_templates_publishes():
    from ordnance.asl.vsav.matching import gpid_table  # noqa: PLC0415

    pairs = {
        (".".join(map(str, v)), old, new)
        for v, m in gpid_table().renumbered
        for old, new in m.items()
    }
    assert len(pairs) == 17
    assert ("6.5.1", "1527", "12730") in pairs and ("6.4.3", "7146", "2772") in pairs
    for since, old, new in pairs:
        assert old in data_gpids(new, since)
        assert old not in data_gpids(new, "6.4.2")


# --- pieces that match no counter data --------------------------------------------------------


@pytest.mark.clause("SYS.record")
def test_every_visible_piece_the_data_does_not_know_is_named(vasl_templates):
    x, y = centre(0, 0, 5, 2)
    pieces = [
        tiger(x, y),
        PieceSpec("4-6-7", "1074", x, y),
        PieceSpec("Wind", "", 10, 10),
        PieceSpec("4-6-7", "1074", 0, 0, map="Casualties"),
        PieceSpec("8-3-8", "1144", x, y, traits=hidden_traits(hip=True)),
        PieceSpec("?", "9999", x, y, traits=hidden_traits(concealed=True)),
    ]
    ruling = read_vsav(generated(pieces, [(0, 0, "4")]), vasl_templates)
    assert [unit.hex for unit in ruling.units] == ["F2"]
    assert [(p.gpid, p.name, p.hex) for p in ruling.unmatched] == [
        ("1074", "4-6-7", "F2"),
        ("", "Wind", None),
        ("1074", "4-6-7", None),
    ]
    # Hidden pieces stay unnamed, matched or not: nobody reading the save could see them.
    assert ruling.hidden == 0
    assert "3 other pieces matched no vehicle or Gun" in ruling.explanation
    assert ruling.to_json()["unmatched"][0] == {
        "gpid": "1074",
        "name": "4-6-7",
        "hex": "F2",
        "location": "F2",
    }
