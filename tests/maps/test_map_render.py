"""Pictures of maps: well-formed SVG with what was asked for, and PNG through a converter."""

from __future__ import annotations

import shutil
import stat
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from ordnance.cli.map_games import judge_for, open_map
from ordnance.core.hexgrid import Arc
from ordnance.core.maps import png, svg
from ordnance.core.maps.svg import LOS_COLOUR, PAIR_COLOUR, ArcView, render_svg

SVG = "{http://www.w3.org/2000/svg}"
CASES = [
    ("asl-village", ("4E5", "4M5"), "3M8", "CA:NNW"),
    ("lnl-farm", ("B5", "J5"), "M8", "ANY"),
    ("vv-hedgerows", ("A5", "N4"), "K2", "FFA:SW"),
]


def draw(name: str, los: tuple[str, str] | None, unit: str | None, arc: str | None) -> ET.Element:
    m = open_map(name)
    judge = judge_for(m)
    verdict = None if los is None else judge.los(m, m.parse(los[0]), m.parse(los[1]))
    view = None if unit is None or arc is None else ArcView(m.parse(unit), Arc.parse(arc), 4)
    return ET.fromstring(render_svg(m, judge.chart(), los=verdict, arc=view))


@pytest.mark.parametrize(("name", "los", "unit", "arc"), CASES)
def test_each_example_draws_terrain_labels_markers_los_and_arc(name, los, unit, arc):
    m = open_map(name)
    root = draw(name, los, unit, arc)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for hex in m:
        assert m.label(hex) in texts
    polygons = list(root.iter(f"{SVG}polygon"))
    colours = {p.get("fill") for p in polygons}
    chart = judge_for(m).chart()
    assert {chart.hex(m.terrain(h)).colour for h in m} <= colours
    marks = {chart.marker(n).mark for names in m.markers.values() for n in names}
    assert marks <= set(texts)
    lines = list(root.iter(f"{SVG}line"))
    assert any(line.get("stroke") == LOS_COLOUR for line in lines)
    verdict = judge_for(m).los(m, m.parse(los[0]), m.parse(los[1]))
    if any(step.is_pair for step in verdict.line.steps):  # the pairs along hexsides
        assert any(p.get("stroke") == PAIR_COLOUR for p in polygons)
    assert any(
        line.get("stroke") == chart.hexside(n).colour for n in m.hexsides.values() for line in lines
    )
    assert {"F", "T", "A"} <= set(texts)
    assert any(t and t.startswith(f"Arc: {arc} from {unit}") for t in texts)


def test_a_bare_map_has_no_los_or_arc():
    root = draw("vv-hedgerows", None, None, None)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "F" not in texts and not any(t and t.startswith("LOS") for t in texts)


def test_a_blocked_line_is_dashed_past_the_block():
    root = draw("lnl-farm", ("B5", "J5"), None, None)
    dashed = [
        line
        for line in root.iter(f"{SVG}line")
        if line.get("stroke") == LOS_COLOUR and line.get("stroke-dasharray")
    ]
    assert len(dashed) == 1


def test_text_is_escaped():
    m = open_map("vv-hedgerows")
    judge = judge_for(m)
    svg = render_svg(m, judge.chart(), title="Fields <& hedges>")
    assert "Fields &lt;&amp; hedges&gt;" in svg
    ET.fromstring(svg)


# --- PNG ---------------------------------------------------------------------------------------


def test_no_converter_is_one_clear_line(monkeypatch, tmp_path):
    monkeypatch.setattr(png, "find_converter", lambda: None)
    with pytest.raises(png.NoConverter) as missing:
        png.svg_to_png(tmp_path / "a.svg", tmp_path / "a.png")
    message = str(missing.value)
    assert "\n" not in message and "pip install 'ordnance[png]'" in message


def _fake(folder: Path, name: str, script: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_only_cairosvg_and_rsvg_convert_are_tried(monkeypatch, tmp_path):
    copy = shutil.which("cp")
    for name in ("magick", "convert", "inkscape"):
        _fake(tmp_path, name, f'echo "Version: ImageMagick 7"\n{copy} "$1" "$2"\n')
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    assert png.find_converter() is None
    _fake(tmp_path, "rsvg-convert", f'{copy} "$3" "$2"\n')
    svg = tmp_path / "in.svg"
    svg.write_text("<svg/>")
    assert png.svg_to_png(svg, tmp_path / "out.png") == "rsvg-convert"
    assert (tmp_path / "out.png").read_text() == "<svg/>"


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_a_kept_layer_draws_the_same_picture_as_a_fresh_one(name, monkeypatch):
    """The hexes and labels kept per map (svg._LAYERS) give the very picture drawn afresh,
    and a map that differs (one hex's terrain) is drawn anew, not from the kept layer."""
    m = open_map(name)
    chart = judge_for(m).chart()
    first = render_svg(m, chart)
    assert render_svg(m, chart) == first  # drawn from the kept layers
    monkeypatch.setattr(svg, "_LAYERS", svg.BoundedCache(64))
    assert render_svg(m, chart) == first  # drawn afresh
    hex = next(iter(m))
    other = next(t for t in chart.hexes if t != m.terrain(hex))
    changed = replace(m, terrains={**m.terrains, hex: other})
    picture = render_svg(changed, chart)
    assert picture != first
    assert f"terrain-{svg.css_name(other)}" in picture.split(f'data-hex="{m.label(hex)}"')[0][-200:]
