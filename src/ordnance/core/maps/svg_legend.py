"""The legend under a map picture: a swatch for each terrain, hexside feature and marker the map
uses, each side's counter colour and each badge shown, the LOS and arc keys, then the verdict in
words. Its own scale (at most 30 pixels a unit) keeps it readable on any hex size, and its
columns are as wide as its longest entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from ordnance.core.maps.counters import BADGE_WORDS
from ordnance.core.maps.model import GameMap
from ordnance.core.maps.svg_counters import text_width
from ordnance.core.maps.terrain import Feature, TerrainChart
from ordnance.core.maps.verdict import LosVerdict

if TYPE_CHECKING:
    from ordnance.core.maps.svg import ArcView, SightView

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
LOS_COLOUR, PAIR_COLOUR, HIND_COLOUR = "#c62828", "#1e88e5", "#d32f2f"
CROSSED_COLOUR, ARC_COLOUR, SEEN_COLOUR = "#f9a825", "#7b1fa2", "#00897b"
KEYS = {
    "crossed": (CROSSED_COLOUR, "hex the LOS crosses"),
    "pair": (PAIR_COLOUR, "pair along a hexside"),
    "hindrance": (HIND_COLOUR, "+N hindrance at that range"),
    "block": (HIND_COLOUR, "what blocks the LOS"),
    "arc": (ARC_COLOUR, "in the arc"),
    "seen": (SEEN_COLOUR, "in the unit's line of sight (+N hindrance)"),
}


@dataclass(frozen=True)
class Legend:
    """What the legend lists: the map and its table, side colours, badges (text -> key)."""

    game_map: GameMap
    chart: TerrainChart
    colours: Mapping[str, str]
    badges: Mapping[str, str]
    los: LosVerdict | None
    arc: ArcView | None
    seen: SightView | None = None


def legend_svg(
    legend: Legend, *, left: float, room: float, top: float, scale: float
) -> tuple[list[str], float]:
    """The legend's SVG elements, and the picture's height below it."""
    m, u = legend.game_map, scale
    entries: list[tuple[str, str]] = []
    entries += [("hex", name) for name in sorted(m.terrain_names)]
    entries += [("hexside", name) for name in sorted(set(m.hexsides.values()))]
    entries += [("marker", n) for n in sorted({n for names in m.markers.values() for n in names})]
    entries += [("side", side) for side in legend.colours]
    entries += [("badge", text) for text in sorted(legend.badges)]
    if legend.los is not None:
        entries += [("key", "crossed"), ("key", "pair"), ("key", "hindrance")]
        if legend.los.blocked is not None:
            entries.append(("key", "block"))
    if legend.arc is not None:
        entries.append(("key", "arc"))
    if legend.seen is not None:
        entries.append(("key", "seen"))
    font = u * 0.36
    labels = [_label(legend, kind, name) for kind, name in entries]
    widest = max((text_width(label, font) for label in labels), default=0.0)
    column_width = u * 1.3 + widest + u * 0.6
    per_row = max(1, int(room // column_width))
    row_height = u * 0.8
    parts: list[str] = []
    for index, ((kind, name), label) in enumerate(zip(entries, labels, strict=True)):
        x = left + (index % per_row) * column_width
        y = top + (index // per_row) * row_height
        parts += _swatch(legend, (kind, name), label, (x, y), u)
    y = top + ((len(entries) + per_row - 1) // per_row) * row_height + u * 0.4
    lines = []
    arc, los = legend.arc, legend.los
    if arc is not None:
        lines.append(f"Arc: {arc.label or arc.arc} from {m.label(arc.origin)}")
    if legend.seen is not None:
        seen = legend.seen
        who = f"{seen.label} in " if seen.label else ""
        lines.append(f"Line of sight: {who}{m.label(seen.origin)} sees {len(seen.seen)} hexes")
    if los is not None:
        lines.append(f"LOS ({los.game}): {los.explanation}")
        if los.cover is not None:
            lines.append(f"Target's cover: {los.cover.reason}")
    for line in lines:
        for chunk in wrap_to(line, room, font * 1.1):
            parts.append(
                f'<text x="{left:.1f}" y="{y + u * 0.3:.1f}" '
                f'font-size="{font * 1.1:.1f}" font-family="{FONT}">{escape(chunk)}</text>'
            )
            y += u * 0.55
    return parts, y + u * 0.5


def _label(legend: Legend, kind: str, name: str) -> str:
    chart = legend.chart
    if kind == "hex":
        return f"{name}{_what(chart.hex(name))}"
    if kind == "hexside":
        return f"{name} (hexside){_what(chart.hexside(name))}"
    if kind == "marker":
        return f"{name} ({chart.marker(name).mark or 'marker'})"
    if kind == "side":
        return f"{name} counters"
    if kind == "badge":
        key = legend.badges[name]
        return f"{name}: {BADGE_WORDS.get(key, key.replace('-', ' '))}"
    return KEYS[name][1]


def _swatch(
    legend: Legend, entry: tuple[str, str], label: str, at: tuple[float, float], u: float
) -> list[str]:
    kind, name = entry
    (x, y), w, h = at, u * 0.9, u * 0.55
    chart = legend.chart
    box = f'x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}"'
    parts: list[str] = []
    if kind == "hex":
        parts.append(f'<rect {box} fill="{chart.hex(name).colour}" stroke="#8d8d8d"/>')
    elif kind == "hexside":
        parts.append(
            f'<line x1="{x:.1f}" y1="{y + h / 2:.1f}" x2="{x + w:.1f}" y2="{y + h / 2:.1f}" '
            f'stroke="{chart.hexside(name).colour}" stroke-width="{u * 0.2:.1f}"/>'
        )
    elif kind == "marker":
        colour = chart.marker(name).colour
        parts.append(f'<rect {box} rx="{h * 0.25:.1f}" fill="{colour}" stroke="#212121"/>')
    elif kind == "side":
        parts.append(f'<rect {box} rx="2" fill="{legend.colours[name]}" stroke="#212121"/>')
    elif kind == "badge":
        parts.append(f'<rect {box} rx="{h * 0.3:.1f}" fill="#fff8e1" stroke="#212121"/>')
        parts.append(
            f'<text x="{x + w / 2:.1f}" y="{y + h * 0.72:.1f}" font-size="{h * 0.55:.1f}" '
            f'font-family="{FONT}" text-anchor="middle" font-weight="bold">{escape(name)}</text>'
        )
    else:
        colour = KEYS[name][0]
        parts.append(
            f'<rect {box} fill="{colour}" fill-opacity="0.3" stroke="{colour}" stroke-width="2"/>'
        )
    parts.append(
        f'<text x="{x + w + u * 0.2:.1f}" y="{y + h * 0.8:.1f}" '
        f'font-size="{u * 0.36:.1f}" font-family="{FONT}">{escape(label)}</text>'
    )
    return parts


def _what(feature: Feature) -> str:
    if feature.blocks:
        return ": blocks"
    if feature.hindrance:
        return f": +{feature.hindrance}"
    return ""


def wrap_to(text: str, room: float, size: float, *, bold: bool = False) -> list[str]:
    """Words in lines no wider than ``room`` pixels at font ``size`` (a long word alone)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and text_width(trial, size, bold=bold) > room:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines or [""]
