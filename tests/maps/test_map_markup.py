"""The map's SVG says once what its hexes and labels share (a smaller page, a faster parse),
and a script can take each hex's centre from its ``points``."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from ordnance.cli.map_games import judge_for, open_map
from ordnance.core.maps import CounterView
from ordnance.core.maps.svg import render_svg
from ordnance.core.maps.svg_labels import LabelSheet

SVG = "{http://www.w3.org/2000/svg}"
pytestmark = pytest.mark.clause("SYS.record")


def drawn(name: str) -> tuple[str, ET.Element]:
    m = open_map(name)
    text = render_svg(m, judge_for(m).chart())
    return text, ET.fromstring(text)


@pytest.mark.parametrize("name", ["asl-village", "lnl-farm", "vv-hedgerows"])
def test_labels_and_hexes_inherit_what_they_share_from_their_groups(name: str) -> None:
    m = open_map(name)
    text, root = drawn(name)
    groups = {g.get("class"): g for g in root.iter(f"{SVG}g") if g.get("class")}
    labels = groups["hex-labels"]
    for key in ("font-size", "font-family", "text-anchor", "fill", "pointer-events"):
        assert labels.get(key), key
    words = [t.text for t in labels.iter(f"{SVG}text")]
    assert sorted(words) == sorted(m.label(h) for h in m)
    for label in labels.iter(f"{SVG}text"):
        assert set(label.attrib) <= {"x", "y", "fill"}  # the rest inherited
    hexes = groups["hexes"]
    assert hexes.get("stroke") and hexes.get("stroke-width")
    polygons = list(hexes.iter(f"{SVG}polygon"))
    assert len(polygons) == len(list(m))
    for polygon in polygons:
        assert "stroke" not in polygon.attrib and polygon.get("class", "").startswith("hex ")
    # Nothing else draws a hex: its id is on the polygon in the group, once.
    assert text.count('id="hex-') == len(polygons)


def test_a_hex_s_centre_is_the_middle_of_its_points() -> None:
    m = open_map("asl-village")
    _, root = drawn("asl-village")
    hexes = {p.get("data-hex"): p for p in root.iter(f"{SVG}polygon") if p.get("data-hex")}
    first, second = m.parse("4E5"), m.parse("4E6")  # one hex below the other

    def centre(label: str) -> tuple[float, float]:
        numbers = [float(n) for n in hexes[label].get("points", "").replace(",", " ").split()]
        xs, ys = numbers[0::2], numbers[1::2]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    a, b = centre(m.label(first)), centre(m.label(second))
    assert a[0] == pytest.approx(b[0], abs=0.1)  # the same column
    ys = [float(n) for n in hexes["4E5"].get("points", "").replace(",", " ").split()][1::2]
    assert b[1] - a[1] == pytest.approx(max(ys) - min(ys), abs=0.2)  # a hex's height apart


def test_the_village_map_is_smaller_than_when_each_label_carried_its_font() -> None:
    text, _ = drawn("asl-village")
    hexes = len(list(open_map("asl-village")))
    # A label was ~190 bytes with its five presentation attributes, now ~40 with x and y; a
    # hex's outline ~36 more: ~430 bytes of SVG a hex before, ~250 now.
    assert len(text.encode()) / hexes < 320, len(text.encode())


@pytest.mark.parametrize("name", ["asl-village", "lnl-farm", "vv-hedgerows"])
@pytest.mark.parametrize("compact", [False, True])
def test_labels_drawn_apart_fall_where_the_inline_labels_are(name: str, compact: bool) -> None:
    """The web draws the labels as one image of their own document: each text of that
    document, moved by the image's place, is the inline picture's text (to the 0.1 drawn)."""
    m = open_map(name)
    chart = judge_for(m).chart()
    size = 48.0 if compact else 26.0
    sheets: list[LabelSheet] = []

    def href(sheet: LabelSheet) -> str:
        sheets.append(sheet)
        return f"labels.svg?h={sheet.digest}&amp=&"

    counters = [CounterView("u", next(iter(m)), "a", "u", "", "squad")] if compact else []
    inline = ET.fromstring(render_svg(m, chart, size=size, counters=counters))
    apart = ET.fromstring(render_svg(m, chart, size=size, counters=counters, labels_href=href))
    assert len(sheets) == 1 and sheets[0].compact is compact
    assert not [g for g in apart.iter(f"{SVG}g") if g.get("class") in ("hex-labels", "levels")]
    (image,) = apart.iter(f"{SVG}image")
    assert image.get("href") == f"labels.svg?h={sheets[0].digest}&amp=&"  # escaped, read back
    dx, dy = float(image.get("x", "")), float(image.get("y", ""))
    assert (float(image.get("width", "")), float(image.get("height", ""))) == (
        round(sheets[0].width, 1),
        round(sheets[0].height, 1),
    )

    def texts(root: ET.Element, x0: float, y0: float) -> list[tuple[str, float, float]]:
        return sorted(
            (t.text or "", float(t.get("x", "")) + x0, float(t.get("y", "")) + y0)
            for g in root.iter(f"{SVG}g")
            if g.get("class") in ("hex-labels", "levels")
            for t in g.iter(f"{SVG}text")
        )

    document = ET.fromstring(sheets[0].document())
    mine, theirs = texts(inline, 0, 0), texts(document, dx, dy)
    assert [t[0] for t in mine] == [t[0] for t in theirs] and len(mine) >= len(list(m))
    for (_, x1, y1), (_, x2, y2) in zip(mine, theirs, strict=True):
        assert abs(x1 - x2) <= 0.21 and abs(y1 - y2) <= 0.21
