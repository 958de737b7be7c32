"""``ordnance map ...``: JSON fields, tables, pictures, and one-line errors with exit 2."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ordnance.core.maps import png

SVG = "{http://www.w3.org/2000/svg}"

# --- los ---------------------------------------------------------------------------------------


@pytest.mark.clause("C8.5-effect")
def test_los_json_on_the_asl_example(cli):
    result = cli("map", "los", "asl-village", "4E5", "4M5", "--json")
    assert result.code == 0, result.err
    data = result.json
    assert data["clear"] is True and data["blocked_by"] is None
    assert (data["from"], data["to"], data["range"], data["game"]) == ("4E5", "4M5", 8, "asl")
    assert data["hexes"][:3] == ["4E5", ["4F4", "4F5"], "4G5"]  # a pair along a hexside
    assert data["hexes"][-1] == "4M5" and len(data["hexes"]) == 9
    assert data["hindrances"] == [
        {"range": 3, "hexes": ["4H4", "4H5"], "hexsides": [], "drm": 1, "reason": "grain"},
        {"range": 5, "hexes": ["4J4", "4J5"], "hexsides": [], "drm": 1, "reason": "dispersed wp"},
        {"range": 6, "hexes": ["4K5"], "hexsides": [], "drm": 2, "reason": "dispersed smoke"},
    ]
    assert data["total_hindrance"] == 4
    assert data["clauses"] == ["C8.5-effect"]
    assert "clear; hindrance +4" in data["explanation"]
    assert data["target_cover"] == {"value": 0, "reason": "road: no cover"}


def test_los_json_blocked_by_a_hexside_and_by_b10(cli):
    wall = cli("map", "los", "asl-village", "4E5", "4Q5", "--json").json
    assert wall["clear"] is False
    assert wall["blocked_by"] == {"range": 7, "hex": None, "hexside": "4L5/N", "reason": "wall"}
    b10 = cli("map", "los", "asl-village", "4G5", "4R5", "--json").json
    assert b10["blocked_by"]["hex"] == "4N5" and "B.10" in b10["blocked_by"]["reason"]
    assert b10["total_hindrance"] == 6 and "B.10" in b10["rules"]


@pytest.mark.clause("LNL.W-smoke")
def test_los_on_the_lnl_and_vv_examples(cli):
    lnl = cli("map", "los", "lnl-farm", "B5", "J5", "--json").json
    assert lnl["game"] == "lnl" and lnl["clear"] is False
    assert lnl["blocked_by"]["hex"] == "H5" and "third degrading hex" in lnl["blocked_by"]["reason"]
    vv = cli("map", "los", "vv-hedgerows", "A5", "N4", "--json").json
    assert vv["game"] == "vv" and vv["clear"] is True and vv["total_hindrance"] == 6
    assert {"range": 5, "hexes": [], "hexsides": ["E5/NE"], "drm": 1, "reason": "hedge"} in vv[
        "hindrances"
    ]
    wp = cli("map", "los", "lnl-farm", "H4", "J6", "--json").json
    assert "LNL.W-smoke" in wp["clauses"]


def test_los_table(cli):
    result = cli("map", "los", "asl-village", "4E5", "4M5")
    assert result.code == 0
    assert "4E5 > 4F4|4F5 > 4G5" in result.out
    assert "range 6: +2 dispersed smoke" in result.out
    assert "Rules: C8.5 (C8.5-effect)" in result.out


# --- range -------------------------------------------------------------------------------------


def test_range_with_and_without_a_map(cli):
    assert cli("map", "range", "4G5", "4K3", "--json").json["range"] == 4
    assert cli("map", "range", "C7", "C2", "--json").json["range"] == 5
    assert cli("map", "range", "0,0,0", "3,-1,-2", "--json").json["range"] == 3
    across = cli("map", "range", "4G5", "3G5", "--map", "asl-village", "--json")
    assert across.json["range"] == 10
    assert "range 4" in cli("map", "range", "4G5", "4K3").out


def test_range_across_boards_needs_a_map(cli):
    result = cli("map", "range", "4G5", "3G5")
    assert result.code == 2 and "--map places the boards" in result.err


# --- arc ---------------------------------------------------------------------------------------


@pytest.mark.clause("VV.AP-arc")
def test_arc_json(cli):
    ffa = cli(
        "map", "arc", "vv-hedgerows", "B8", "--kind", "FFA", "--facing", "NE", "--range", "2",
        "--json",
    ).json  # fmt: skip
    assert ffa["hexes"] == ["B7", "C8", "C9", "B6", "C7", "D7", "D8", "D9"]
    assert ffa["clauses"] == ["VV.AP-arc"] and ffa["arc"] == "FFA:NE" and ffa["range"] == 2
    ca = cli("map", "arc", "asl-village", "4E5", "--facing", "E", "--range", "2", "--json").json
    assert ca["hexes"] == ["4F4", "4F5", "4G4", "4G5", "4G6"] and ca["kind"] == "CA"
    opened = cli(
        "map", "arc", "asl-village", "4E5", "--facing", "E", "--range", "2", "--open", "--json"
    ).json
    assert opened["hexes"] == ["4G5"]
    anywhere = cli("map", "arc", "lnl-farm", "H5", "--kind", "ANY", "--range", "1", "--json")
    assert len(anywhere.json["hexes"]) == 6


def test_arc_table_and_default_range(cli):
    result = cli("map", "arc", "lnl-farm", "A1", "--kind", "TCA", "--facing", "SSE")
    assert result.code == 0 and "out to range" in result.out


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (("--kind", "FFA", "--facing", "E"), "an FFA faces a hexside"),
        (
            (
                "--kind",
                "CA",
            ),
            "needs --facing",
        ),
        (("--kind", "ANY", "--facing", "N"), "has no facing"),
        (("--kind", "XYZ", "--facing", "N"), "expected one of CA, TCA, FFA, ANY"),
        (("--facing", "up"), "facing 'up' is not one of"),
    ],
)
def test_arc_bad_options(cli, args, fault):
    result = cli("map", "arc", "asl-village", "4E5", *args)
    assert result.code == 2 and fault in result.err and result.err.count("\n") == 1


# --- canister ----------------------------------------------------------------------------------


@pytest.mark.clause("C8.4-target", "C8.41")
def test_canister_json(cli):
    data = cli("map", "canister", "asl-village", "4E5", "--facing", "E", "--json").json
    assert data["clauses"] == ["C8.4-target", "C8.41"]
    aims = data["aims"]
    assert len(aims) == 5
    assert aims[2] == {
        "vertex": "4G5/E",
        "cluster": ["4G5", "4H4", "4H5"],
        "adjacent": ["4F4", "4F5"],
    }
    assert [len(a["adjacent"]) for a in aims] == [1, 1, 2, 1, 1]


@pytest.mark.clause("C8.4-target")
def test_canister_at_the_map_edge_names_off_map_hexes_null(cli):
    data = cli("map", "canister", "asl-village", "4A1", "--facing", "NNW", "--json").json
    assert any(None in aim["cluster"] for aim in data["aims"])
    table = cli("map", "canister", "asl-village", "4A1", "--facing", "NNW")
    assert "off map" in table.out


def test_canister_refusals(cli):
    assert "ASL rule" in cli("map", "canister", "vv-hedgerows", "B8", "--facing", "E").err
    bad = cli("map", "canister", "asl-village", "4E5", "--facing", "N")
    assert bad.code == 2 and "expected one of NNE, E" in bad.err


# --- render ------------------------------------------------------------------------------------


def test_render_writes_an_svg_with_the_los_and_the_arc(cli, tmp_path):
    out = tmp_path / "village.svg"
    result = cli(
        "map", "render", "asl-village", "--out", str(out), "--los", "4E5", "4M5",
        "--arc", "3M8:CA:NNW", "--arc-range", "6", "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert result.json["svg"] == str(out) and result.json["png"] is None
    root = ET.fromstring(out.read_text())
    assert root.tag.endswith("svg")
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "4G5" in texts and "+2" in texts and "F" in texts and "T" in texts and "A" in texts
    assert any(t and t.startswith("LOS (asl): 4E5 to 4M5") for t in texts)


def test_render_png_when_a_converter_exists(cli, tmp_path):
    if png.find_converter() is None:
        pytest.skip("no SVG-to-PNG converter installed")
    out = tmp_path / "farm.png"
    result = cli("map", "render", "lnl-farm", "--out", str(out), "--los", "B5", "J5", "--json")
    assert result.code == 0, result.err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "farm.svg").is_file()


def test_render_png_without_a_converter_says_so_in_one_line(cli, tmp_path, monkeypatch):
    monkeypatch.setattr("ordnance.core.maps.png.find_converter", lambda: None)
    out = tmp_path / "v.svg"
    result = cli("map", "render", "vv-hedgerows", "--out", str(out), "--png")
    assert result.code == 2
    assert result.err.count("\n") == 1 and "pip install 'ordnance[png]'" in result.err
    assert f"wrote {out} only" in result.err and out.is_file()


def test_render_bad_arc(cli, tmp_path):
    result = cli("map", "render", "asl-village", "--out", str(tmp_path / "x.svg"), "--arc", "4E5")
    assert result.code == 2 and "expected HEX:KIND:FACING" in result.err


# --- maps by name or path; bad files -----------------------------------------------------------


def test_examples_and_schema(cli):
    names = [m["name"] for m in cli("map", "examples", "--json").json["maps"]]
    assert names == ["asl-village", "lnl-farm", "vv-hedgerows"]
    assert "asl-village" in cli("map", "examples").out
    assert cli("map", "schema").json["title"].startswith("ordnance map file")


def test_a_map_given_by_path(cli, tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\ngame: vv\ngrid: {columns: 5, rows: 5}\nhexes:\n  C3: woods\n")
    result = cli("map", "los", str(path), "C5", "C1", "--json")
    assert result.code == 0 and result.json["blocked_by"]["hex"] == "C3"


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("name: m\ngame: vv\ngrid: {columns: 5, rows: 5}\nhexes:\n  C3: jungle\n", "hexes.C3"),
        ("name: m\ngame: vv\ngrid: {columns: 5, rows: 5}\nhexes:\n  F3: woods\n", "column F"),
        ("name: m\ngame: vv\ngrid: {columns: 5, rows: 5}\nhexes: [\n", "malformed YAML"),
        ("name: m\ngame: vv\ngrid: {columns: 5, rows: 5}\nhexes:\n  C3: woods\n  C3: crops\n",
         "hexes.C3: duplicate key"),
    ],
)  # fmt: skip
def test_bad_map_files_exit_2_with_one_line(cli, tmp_path, text, fault):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    result = cli("map", "los", str(path), "A1", "B1")
    assert result.code == 2
    assert result.err.startswith(f"ordnance: bad map file '{path}'")
    assert fault in result.err and result.err.count("\n") == 1


def test_unknown_map_names_and_labels(cli):
    unknown = cli("map", "los", "nowhere", "A1", "B1")
    assert unknown.code == 2 and "not a bundled map (asl-village, lnl-farm" in unknown.err
    label = cli("map", "los", "asl-village", "4G5", "9G5")
    assert label.code == 2 and "board 9 is not on this map" in label.err


def test_render_a_scenario_draws_its_units_at_set_up(cli, tmp_path):
    scenario = Path(__file__).resolve().parents[2] / "examples" / "vv-hedgerow-ambush.yaml"
    out = tmp_path / "setup.svg"
    result = cli("map", "render", str(scenario), "--out", str(out), "--json")
    assert result.code == 0, result.err
    assert result.json["units"] == 11 and "with 11 units" in result.json["explanation"]
    root = ET.fromstring(out.read_text())
    units = {g.get("data-unit"): g for g in root.iter(f"{SVG}g") if g.get("data-unit")}
    assert units["sherman"].get("data-hex") == "H8" and units["a4"].get("data-hex") == "A8"
    assert "state-aboard" in units["a4"].get("class")
    markers = {(g.get("data-hex"), g.get("data-marker")) for g in root.iter(f"{SVG}g")}
    assert ("E5", "foxholes") in markers  # the scenario's fortification is drawn
    titles = [t.text for t in root.iter(f"{SVG}text") if "title" in (t.get("class") or "")]
    assert titles == ["Hedgerow ambush (V&V AP fire demo): set-up"]


def test_render_a_map_file_has_no_units(cli, tmp_path):
    result = cli("map", "render", "vv-hedgerows", "--out", str(tmp_path / "m.svg"), "--json")
    assert result.code == 0 and result.json["units"] == 0
    assert "data-unit" not in (tmp_path / "m.svg").read_text()
