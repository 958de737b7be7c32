"""VASL saves read for ASL: the five real saves' expected counters, hexes, hidden pieces; and
generated saves for the layouts, ties and renumbering the real ones do not show.

The real saves are read from ../shared/data/vasl-saves (README.md there gives each file's
expected result); the tests skip when that folder or the vasl-templates data is absent.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.vsav_writer import PieceSpec, filler_traits, hidden_traits, save_text, save_zip

from ordnance.asl.dates import ScenarioDate
from ordnance.asl.vsav import Board, read_vsav
from ordnance.asl.vsav.boards import DEFAULT_GEOMETRY, column_letters, hex_in_board, locate
from ordnance.asl.vsav.matching import remapped
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
    """A hex centre on a board at map offset (board_x, board_y), VASL's default grid."""
    g = DEFAULT_GEOMETRY
    x = round(g.hex_width * column + g.origin_x)
    y = round(g.hex_height * (row - (1 if column % 2 == 0 else 0.5)) + g.origin_y)
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


@given(st.floats(-20, 20), st.floats(-20, 20), st.integers(1, 31), st.integers(2, 8))
def test_a_point_near_a_centre_names_that_hex(dx, dy, column, row):
    # 20 pixels either way stays inside the hex (its width is 56.24, its height 64.51).
    g = DEFAULT_GEOMETRY
    x = g.hex_width * column + dx
    y = g.hex_height * (row - (1 if column % 2 == 0 else 0.5)) + g.origin_y + dy
    assert hex_in_board(x, y, g) == f"{column_letters(column)}{row}"


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
    assert remapped("12483", None) == "879"


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
