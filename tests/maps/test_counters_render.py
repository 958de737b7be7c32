"""Counters on the map picture: each bundled example after a few moves, drawn as SVG and PNG.

The PNGs are kept as test artifacts in pytest's temporary folder (``counters-*`` under
``/tmp/pytest-of-$USER/``) for a person to look at.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest
from tests.maps.played import Played

from ordnance.core.maps import png
from ordnance.core.maps.svg import render_svg
from ordnance.game.picture import game_picture

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = ("asl-d13-demo", "lnl-smoke-wp", "vv-hedgerow-ambush")

# What the moves in played.MOVES leave on each counter (a unit: the state classes it must have,
# or must not have with a leading "!").
STATES = {
    "asl-d13-demo": {
        "m24": {"moved", "ce", "smoke-discharged"},
        "m10": {"ce", "smoke-discharged", "!bu"},  # open-topped: starts CE
        "pz4": {"bu", "smoke-discharged", "!moved"},
        "jgdpz": {"bu", "!smoke-discharged"},
        "baz": {"!fired"},
    },
    "lnl-smoke-wp": {
        "pz4": {"acted", "fired"},
        "stug": {"acquired", "!acted"},
        "sq2": {"acted", "!fired"},
        "sq1": {"!acted"},
    },
    "vv-hedgerow-ambush": {
        "a1": {"fired"},
        "sgt": {"fired"},
        "g1": {"reduced", "!pinned"},
        "lt": {"pinned"},
        "sherman": {"moved", "!fired"},
        "a4": {"aboard"},
        "g2": {"!fired", "!moved"},
    },
}
MARKERS = {
    "asl-d13-demo": {("4I5", "dispersed smoke"), ("4K3", "dispersed smoke")},
    "lnl-smoke-wp": {("H3", "wp"), ("G5", "smoke 1")},
    "vv-hedgerow-ambush": {("E5", "foxholes"), ("G5", "smoke 2")},
}
_TRANSLATE = re.compile(r"translate\(([-\d.]+)[ ,]([-\d.]+)\)")


def _shift(element: ET.Element) -> tuple[float, float]:
    found = _TRANSLATE.search(element.get("transform", ""))
    return (float(found[1]), float(found[2])) if found else (0.0, 0.0)


def boxes(root: ET.Element) -> list[tuple[str, float, float, float, float]]:
    """Every ``rect.box`` in picture coordinates (its groups' translates added)."""
    found = []

    def walk(element: ET.Element, dx: float, dy: float) -> None:
        sx, sy = _shift(element)
        dx, dy = dx + sx, dy + sy
        if element.tag == f"{SVG}rect" and "box" in element.get("class", "").split():
            x, y = float(element.get("x", 0)) + dx, float(element.get("y", 0)) + dy
            w, h = float(element.get("width", 0)), float(element.get("height", 0))
            found.append((element.get("class", ""), x, y, w, h))
        for child in element:
            walk(child, dx, dy)

    walk(root, 0.0, 0.0)
    return found


def overlapping(found: list[tuple[str, float, float, float, float]]) -> list[tuple]:
    """Every pair of boxes that overlap (a sweep along x: boxes apart in x are never compared)."""
    ordered = sorted(found, key=lambda b: b[1])
    pairs = []
    for index, a in enumerate(ordered):
        for b in ordered[index + 1 :]:
            if b[1] >= a[1] + a[3] - 0.01:
                break
            if not (a[2] + a[4] <= b[2] + 0.01 or b[2] + b[4] <= a[2] + 0.01):
                pairs.append((a, b))
    return pairs


def _centroid(polygon: ET.Element) -> tuple[float, float]:
    points = [tuple(map(float, p.split(","))) for p in polygon.get("points", "").split()]
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


@pytest.fixture(scope="module")
def pictures(tmp_path_factory):
    """Each example played, drawn to SVG and PNG in a kept temporary folder."""
    folder = tmp_path_factory.mktemp("counters")
    drawn = {}
    for name in EXAMPLES:
        played = Played(name)
        picture = game_picture(played.rules, played.state)
        assert picture is not None
        title = f"{played.scenario.name}: after {len(played.rulings)} commands"
        text = render_svg(picture.game_map, picture.chart, counters=picture.counters, title=title)
        svg = folder / f"{name}.svg"
        svg.write_text(text, encoding="utf-8")
        png.svg_to_png(svg, folder / f"{name}.png")
        drawn[name] = (played, ET.fromstring(text), folder / f"{name}.png")
    return drawn


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_unit_is_a_counter_at_its_hex_centre(pictures, name):
    played, root, _ = pictures[name]
    view = played.rules.view(played.state)
    hexes = {p.get("data-hex"): p for p in root.iter(f"{SVG}polygon") if p.get("data-hex")}
    groups = {g.get("data-unit"): g for g in root.iter(f"{SVG}g") if g.get("data-unit")}
    on_map = {
        unit: data
        for unit, data in view["units"].items()
        if data.get("hex") and not data.get("eliminated")
    }
    assert set(groups) == set(on_map)
    for unit, data in on_map.items():
        group = groups[unit]
        assert group.get("data-hex") == data["hex"] and group.get("data-side") == data["side"]
        assert group.get("id") == f"unit-{unit}" and "counter" in group.get("class", "")
        x, y = _shift(group)
        cx, cy = _centroid(hexes[data["hex"]])
        assert abs(x - cx) < 0.2 and abs(y - cy) < 0.2
        assert group.find(f"{SVG}title") is not None


@pytest.mark.parametrize("name", EXAMPLES)
def test_counters_carry_their_state_classes(pictures, name):
    _, root, _ = pictures[name]
    classes = {
        g.get("data-unit"): set(g.get("class", "").split())
        for g in root.iter(f"{SVG}g")
        if g.get("data-unit")
    }
    for unit, wanted in STATES[name].items():
        for state in wanted:
            if state.startswith("!"):
                assert f"state-{state[1:]}" not in classes[unit], (unit, state)
            else:
                assert f"state-{state}" in classes[unit], (unit, state)


@pytest.mark.parametrize("name", EXAMPLES)
def test_markers_are_drawn_where_they_lie(pictures, name):
    _, root, _ = pictures[name]
    markers = {
        (g.get("data-hex"), g.get("data-marker"))
        for g in root.iter(f"{SVG}g")
        if g.get("data-marker")
    }
    assert MARKERS[name] <= markers


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_two_marker_or_badge_boxes_overlap(pictures, name):
    _, root, _ = pictures[name]
    found = boxes(root)
    assert any("badge-box" in b[0] for b in found) and any("marker-box" in b[0] for b in found)
    assert overlapping(found) == []
    for a, b in itertools.combinations(found, 2):  # the sweep, checked against every pair
        apart = (
            a[1] + a[3] <= b[1] + 0.01
            or b[1] + b[3] <= a[1] + 0.01
            or a[2] + a[4] <= b[2] + 0.01
            or b[2] + b[4] <= a[2] + 0.01
        )
        assert apart, (a, b)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_title_fits_inside_the_view_box(pictures, name):
    _, root, _ = pictures[name]
    _, _, width, height = map(float, root.get("viewBox", "").split())
    titles = [t for t in root.iter(f"{SVG}text") if "title" in t.get("class", "")]
    assert titles
    for text in titles:
        x, y, size = float(text.get("x")), float(text.get("y")), float(text.get("font-size"))
        half = float(text.get("data-width")) / 2
        assert x - half >= 0 and x + half <= width and y - size >= 0 and y <= height


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_png_artifact_is_written(pictures, name):
    _, _, picture = pictures[name]
    data = picture.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
