"""``ordnance asl vsav`` and ``game new --from-vsav``: the JSON contract, the table, one-line
errors for bad files, and a game whose side record holds the save's units at their hexes."""

from __future__ import annotations

import io
import random
import re
import zipfile
from pathlib import Path

import pytest
from tests.vsav_writer import PieceSpec, hidden_traits, save_text, save_zip

SAVES = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "vasl-saves"
CONTRACT = {"units", "hidden", "unmatched", "vasl_version", "vassal_version", "boards"}
UNIT_CONTRACT = {"id", "name", "kind", "nationality", "hex", "location", "capabilities"}
UNMATCHED_CONTRACT = {"gpid", "name", "hex"}


@pytest.fixture
def full_vsav() -> Path:
    path = SAVES / "full.vsav"
    if not path.is_file():
        pytest.skip("../shared/data/vasl-saves is not present")
    return path


def one_line(result, code=2):
    assert result.code == code and result.out == ""
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert "Traceback" not in result.err
    return result.err


def test_json_contract_on_the_real_save(cli, full_vsav, vasl_templates):
    result = cli(
        "asl", "vsav", str(full_vsav), "--vasl-templates", str(vasl_templates),
        "--date", "1944-06", "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    data = result.json
    assert set(data) >= CONTRACT
    assert (data["vasl_version"], data["vassal_version"], data["hidden"]) == ("6.5.0", "3.2.17", 0)
    assert [board["name"] for board in data["boards"]] == ["00"]
    units = {unit["id"]: unit for unit in data["units"]}
    assert all(set(unit) >= UNIT_CONTRACT for unit in units.values())
    crocodile = units["br/v:054"]
    assert (crocodile["hex"], crocodile["kind"], crocodile["nationality"]) == (
        "F2",
        "vehicle",
        "british",
    )
    assert crocodile["name"] == "Churchill Crocodile"
    assert units["kfw-bcfk/o:002"]["hex"] == "E2"
    assert units["kfw-bcfk/o:002"]["kind"] == "ordnance"
    # The capabilities are the objects 'asl ammo' prints.
    tokens = ("s8", "WP6", "sD7", "sM8!1")
    ammo = cli("asl", "ammo", *tokens, "--date", "1944-06", "--nationality", "british", "--json")
    assert ammo.code == 0
    ammo = ammo.json
    assert crocodile["capabilities"] == ammo["capabilities"]
    # The save's other pieces (a squad, an LMG, CVP counters, labels) are named, not dropped.
    unmatched = data["unmatched"]
    assert all(set(piece) >= UNMATCHED_CONTRACT for piece in unmatched)
    assert {"6-4-8 Esq", "LMG", "User-Labeled"} <= {piece["name"] for piece in unmatched}


def test_table_at_80_columns(cli, full_vsav, vasl_templates, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    result = cli("asl", "vsav", str(full_vsav), "--vasl-templates", str(vasl_templates))
    assert result.code == 0
    assert "boards: 00" in result.out and "Churchill Crocodile" in result.out
    assert "british (1)" in result.out and "bcfk (1)" in result.out
    assert "F2" in result.out and "sD7" in result.out


@pytest.mark.clause("SYS.record")
def test_unmatched_pieces_are_a_short_section_at_80_columns(
    cli, tmp_path, vasl_templates, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "80")
    squads = [PieceSpec(f"{n}-4-7 Squad with a long name", "1074", 681, 528) for n in range(30)]
    # Two hexside markers; the first on the line between columns M and N (board pixel 703,241).
    markers = [PieceSpec("Blue perimeter", "", 400 + x, 400 + 241) for x in (703, 1153)]
    save = write(
        tmp_path / "many.vsav", generated([*squads, *markers, tiger(681, 528)], [(0, 0, "4")])
    )
    result = cli("asl", "vsav", str(save), "--vasl-templates", str(vasl_templates))
    assert result.code == 0, result.err
    section = result.out.split("Not matched to counter data (32 pieces;", 1)[1].split("Rules:")[0]
    lines = ("Not matched to counter data (32 pieces;" + section).strip().splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    # A heading and six lines of names, the most numerous first: the marker, then the rest.
    assert len(lines) == 7
    assert "Blue perimeter (2), 0-4-7 Squad" in section
    more = re.search(r"and ([0-9]+) more names$", lines[-1])
    assert more is not None and section.count("(1)") + int(more.group(1)) == 30
    listed = cli("asl", "vsav", str(save), "--vasl-templates", str(vasl_templates), "--json").json
    marked = [piece for piece in listed["unmatched"] if piece["name"] == "Blue perimeter"]
    assert marked[0] == {"gpid": "", "name": "Blue perimeter", "hex": "M4", "location": "M4/N4"}
    assert marked[1]["hex"] == "U4"  # 1153 is 20.498 hexes across: U (20), not V
    assert len(listed["unmatched"]) == 32


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def generated(pieces, boards=()) -> bytes:
    return save_zip(save_text(pieces, boards))


@pytest.mark.parametrize(
    "case",
    [
        ("truncated", generated([PieceSpec("x", "1", 0, 0)])[:-30], "not a zip archive"),
        ("junk", random.Random(1).randbytes(1 << 20), "not a zip archive"),
        ("empty", b"", "not a zip archive"),
        ("module", save_zip(save_text([]), module="Combat Commander"), "not VASL"),
    ],
)
def test_bad_files_are_one_line_and_exit_2(cli, tmp_path, vasl_templates, case):
    name, data, problem = case
    path = write(tmp_path / f"{name}.vsav", data)
    err = one_line(cli("asl", "vsav", str(path), "--vasl-templates", str(vasl_templates)))
    assert problem in err


def spoiled(change) -> bytes:
    """A real-looking save whose savedGame entry ``change`` spoils."""
    good = zipfile.ZipFile(io.BytesIO(generated([PieceSpec("x", "1", 0, 0)]))).read("savedGame")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(change[0], change[1](good))
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("game", lambda g: g), "no 'savedGame' entry"),
        (("savedGame", lambda g: g[:5] + b"00" + g[7:]), "wrong key"),
        (("savedGame", lambda g: g + b"a"), "odd number of hex digits"),
    ],
)
def test_spoiled_saves_are_one_line_and_exit_2(cli, tmp_path, vasl_templates, change, problem):
    path = write(tmp_path / "spoiled.vsav", spoiled(change))
    err = one_line(cli("asl", "vsav", str(path), "--vasl-templates", str(vasl_templates)))
    assert problem in err


def test_bad_options_are_one_line(cli, tmp_path, vasl_templates):
    path = write(tmp_path / "ok.vsav", generated([]))
    base = ["asl", "vsav", str(path), "--vasl-templates", str(vasl_templates)]
    assert "edge buffer" in one_line(cli(*base, "--edge-buffer", "x"))
    assert "date" in one_line(cli(*base, "--date", "1944-13"))


def tiger(x: int, y: int) -> PieceSpec:
    return PieceSpec("PzKw VIE", "2598", x, y, traits=hidden_traits(nation="ge"))


def t34(x: int, y: int) -> PieceSpec:
    return PieceSpec("T-34/85", "601", x, y, traits=hidden_traits(nation="ru"))


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def test_game_new_from_vsav_places_the_units_on_their_hexes(cli, tmp_path, vasl_templates, db):
    # Board 4 on the left, board 3 on the right; F2 of board 4, D4 of board 3.
    save = write(
        tmp_path / "meeting.vsav",
        generated([tiger(400 + 281, 400 + 128), t34(400 + 1800 + 169, 400 + 258)],
                  [(0, 0, "4"), (1, 0, "3")]),
    )  # fmt: skip
    listed = cli("asl", "vsav", str(save), "--vasl-templates", str(vasl_templates), "--json")
    assert [u["hex"] for u in listed.json["units"]] == ["4F2", "3D4"]
    result = cli(
        "game", "new", "--from-vsav", str(save), "--vasl-templates", str(vasl_templates),
        "--date", "1944-06", "--db", db, "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    made = result.json
    assert made["scenario_file"] == str(tmp_path / "meeting.scenario.yaml")
    assert set(made["tokens"]) == {"german", "russian"}
    text = Path(made["scenario_file"]).read_text()
    assert "boards: 4,3" in text and "hex: 4F2" in text
    status = cli("game", "status", made["game"], "--db", db, "--json").json
    units = status["state"]["units"]
    assert {key: (unit["side"], unit["hex"]) for key, unit in units.items()} == {
        "ge-v-033": ("german", "4F2"),
        "ru-v-027": ("russian", "3D4"),
    }
    assert set(status["state"]["records"]["german"]) == {"ge-v-033"}
    assert status["state"]["records"]["russian"]["ru-v-027"]["capabilities"] == "A5(4)/6(5) sD6!"
    # A second start from the same save would overwrite the user's edits: refused.
    again = cli(
        "game", "new", "--from-vsav", str(save), "--vasl-templates", str(vasl_templates),
        "--date", "1944-06", "--db", db,
    )  # fmt: skip
    assert "already exists" in one_line(again)


def test_game_new_from_vsav_with_one_side_writes_the_file_and_says_what_to_edit(
    cli, tmp_path, vasl_templates, db
):
    save = write(tmp_path / "lonely.vsav", generated([tiger(10, 10)]))
    result = cli(
        "game", "new", "--from-vsav", str(save), "--vasl-templates", str(vasl_templates),
        "--date", "1944-06", "--db", db,
    )  # fmt: skip
    err = one_line(result)
    assert "written with 1 sides (german)" in err and "needs two" in err
    assert "TO CHECK" in (tmp_path / "lonely.scenario.yaml").read_text()


def test_game_new_needs_a_scenario_or_a_save(cli, db, tmp_path):
    assert "give a SCENARIO file" in one_line(cli("game", "new", "--db", db))
    save = write(tmp_path / "x.vsav", generated([]))
    assert "--vasl-templates and --date" in one_line(
        cli("game", "new", "--from-vsav", str(save), "--db", db)
    )


def test_game_new_from_vsav_on_a_map_names_hexes_by_the_map(cli, tmp_path, vasl_templates, db):
    # asl-village (bundled) lays board 4 above board 3; the save does the same.
    save = write(
        tmp_path / "village.vsav",
        generated([tiger(400 + 112, 400 + 96), t34(400 + 169, 400 + 645 + 258)],
                  [(0, 0, "4"), (0, 1, "3")]),
    )  # fmt: skip
    result = cli(
        "game", "new", "--from-vsav", str(save), "--vasl-templates", str(vasl_templates),
        "--date", "1944-06", "--map", "asl-village", "--db", db, "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    units = cli("game", "status", result.json["game"], "--db", db, "--json").json["state"]["units"]
    assert {key: unit["hex"] for key, unit in units.items()} == {
        "ge-v-033": "4C2",
        "ru-v-027": "3D4",
    }
    assert "map: asl-village" in Path(result.json["scenario_file"]).read_text()


def test_a_vehicle_in_bypass_starts_in_the_hex_vasl_names_first(cli, tmp_path, vasl_templates, db):
    # Board pixel 703,241 is on the hexside of M4 and N4: VASL says 4M4/N4, the tank is in 4M4.
    save = write(
        tmp_path / "bypass.vsav",
        generated([tiger(400 + 703, 400 + 241), t34(400 + 1800 + 169, 400 + 258)],
                  [(0, 0, "4"), (1, 0, "3")]),
    )  # fmt: skip
    result = cli(
        "game", "new", "--from-vsav", str(save), "--vasl-templates", str(vasl_templates),
        "--date", "1944-06", "--db", db, "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    text = Path(result.json["scenario_file"]).read_text()
    assert "hex: 4M4" in text
    assert "# TO CHECK: ge-v-033 (ge/v:033) stands on the hexside 4M4/N4: in 4M4" in text
