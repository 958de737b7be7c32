"""VASL saves found in public repositories (36 files of VASL 6.4.1-6.6.4), read against the facts
an independent decoder found in them (``expected.json`` there), and the Stalingrad saves' hexside
markers placed as VASL places them.

The saves are read from ../shared/data/vasl-saves-wild (README.md there); the tests skip when
that folder or the vasl-templates data is absent.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ordnance.asl.vsav import locate, read_vsav
from ordnance.asl.vsav.boards import column_letters
from ordnance.core.vassal import read_save

WILD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "vasl-saves-wild"
STALINGRAD = sorted(path.name for path in WILD.glob("stalingrad-*.vsav"))
HEX_WIDTH = 1800 / 32


@cache
def expected() -> dict[str, Any]:
    saves: dict[str, Any] = json.loads((WILD / "expected.json").read_text())["saves"]
    return saves


@pytest.fixture
def wild() -> Path:
    if not (WILD / "expected.json").is_file():
        pytest.skip("../shared/data/vasl-saves-wild is not present")
    return WILD


def names() -> list[str]:
    return sorted(expected()) if (WILD / "expected.json").is_file() else ["(absent)"]


@pytest.mark.clause("C8.0", "SYS.record")
@pytest.mark.parametrize("name", names())
def test_each_save_reads_as_the_independent_decoder_found(wild, vasl_templates, name):
    facts = expected()[name]
    ruling = read_vsav(wild / name, vasl_templates)
    assert (ruling.vasl_version, ruling.vassal_version) == (
        facts["vasl_version"],
        facts["vassal_version"],
    )
    boards = [(b.name, b.column, b.row, b.reversed) for b in ruling.boards]
    assert boards == [(b["name"], b["column"], b["row"], b["reversed"]) for b in facts["boards"]]
    place = ("gpid", "x", "y", "map", "piece", "hex", "board")
    got = Counter(tuple(getattr(unit, key) for key in place) for unit in ruling.units)
    assert got == Counter(tuple(unit[key] for key in place) for unit in facts["units"])
    ids = {unit["gpid"]: set(unit["ids"]) for unit in facts["units"]}
    assert all(unit.id in ids[unit.gpid] for unit in ruling.units)
    assert ruling.hidden == facts["hidden"]
    # Every other piece is named: none is dropped without a word.
    assert len(ruling.unmatched) == facts["pieces"] - facts["afv_gun_pieces"]


def second(location: str) -> str:
    """The second hex VASL names for a hexside (``N4`` of ``M4/N4``), empty for one hex."""
    return location.partition("/")[2]


def on_column_line(x: int) -> bool:
    """Whether a board pixel lies on the line between two columns of hexes (to the pixel)."""
    across = x / HEX_WIDTH
    return abs(across - math.floor(across) - 0.5) * HEX_WIDTH < 1


@pytest.mark.clause("C8.0")
@pytest.mark.parametrize("name", STALINGRAD or ["(absent)"])
def test_markers_on_the_line_between_two_columns_are_in_the_left_one(wild, vasl_templates, name):
    # The Stalingrad saves' perimeter markers lie on hexsides; VASL (its grid 56.25 wide since
    # 2015) names the left-hand hex first, the one they are in. Read with a grid of 56.24, 16
    # per save (128 in the eight) landed in the right-hand hex.
    save = read_save(wild / name)
    ruling = read_vsav(wild / name, vasl_templates)
    # Board 01 (one "online" save adds a blank board right of it: then VASL names the board).
    assert ruling.boards[0].name == "01"
    board = "" if len(ruling.boards) == 1 else "01"
    on_line = [
        piece
        for piece in save.pieces
        if piece.basic.map in {"Main Map", "Map0"}
        if 400 <= piece.basic.x < 2200 and 400 <= piece.basic.y <= 1045
        if on_column_line(piece.basic.x - 400)
    ]
    assert len(on_line) == 82
    assert {piece.name for piece in on_line} == {"Black perimeter", "Blue perimeter"}
    places = [(piece, locate(piece.basic.x, piece.basic.y, ruling.boards)) for piece in on_line]
    left = [math.floor((piece.basic.x - 400) / HEX_WIDTH) for piece in on_line]
    wrong = [
        (piece.name, piece.basic.x, piece.basic.y, place)
        for (piece, place), column in zip(places, left, strict=True)
        if place is None or place[1].split("/")[0].rstrip("0123456789") != column_letters(column)
    ]
    assert wrong == []
    shown: Counter[tuple[str, str, str]] = Counter()
    for (piece, place), column in zip(places, left, strict=True):
        assert place is not None and place[0] == "01"
        # VASL names both hexes, the right-hand one second.
        assert second(place[1]).rstrip("0123456789") == column_letters(column + 1)
        first = place[1].split("/")[0]
        shown[piece.name, board + first, board + place[1]] += 1
    # The reader names each of them, in that hex, among the pieces the data does not know.
    listed = Counter((p.name, p.hex, p.location) for p in ruling.unmatched)
    assert all(listed[key] >= count for key, count in shown.items())


@pytest.mark.clause("C8.0")
def test_the_stalingrad_markers_vasl_names_by_hand(wild, vasl_templates):
    # Three markers of stalingrad-c-v664.vsav, named by hand from VASL's ASLHexGrid reading:
    # board 01 at the edge buffer 400,400; (1103,641) is board pixel (703,241).
    ruling = read_vsav(wild / "stalingrad-c-v664.vsav", vasl_templates)
    at = {(p.name, p.location) for p in ruling.unmatched}
    assert ("Black perimeter", "M4/N4") in at
    assert ("Blue perimeter", "M7/N6") in at  # (1103,802): board (703,402)
    assert ("Blue perimeter", "F4/F5") in at  # (681,690): board (281,290), not F5
