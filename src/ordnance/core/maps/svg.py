"""Drawing a map as SVG, with the standard library only: terrain, markers, an arc, a LOS.

What is drawn, bottom to top: hexes in their terrain's colour (from the ruleset's table), a
brown wash and ``L1`` for ground above level 0, the arc's hexes shaded orange with its two
boundary rays dashed, the hexes a LOS crosses outlined in gold (the two hexes of a pair along a
hexside in blue, with that hexside drawn blue), hexside features as thick coloured edges,
markers as labelled discs, hex labels, the LOS line itself (dashed past a block, a red cross on
what blocks it), each range's hindrance as a red ``+N`` tag, the units (``F``, ``T``, ``A``),
and under the map a legend and the verdict in words.

Drawing uses floats: this is a picture, not geometry; every decision was made exactly before.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps.model import GameMap
>>> from ordnance.core.maps.terrain import TerrainChart
>>> chart = TerrainChart.from_toml_text('source = "t"\\n[hex.open]\\n', "t")
>>> svg = render_svg(GameMap("tiny", "t", GridLabels(3, 2), "open"), chart)
>>> svg.startswith("<svg") and svg.count("<polygon") == 6 and ">B2<" in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from ordnance.core.hexgrid import Arc, Hex, Hexside, Vertex
from ordnance.core.maps.model import GameMap
from ordnance.core.maps.terrain import Feature, TerrainChart
from ordnance.core.maps.verdict import LosVerdict

SQRT3 = math.sqrt(3)
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
LOS_COLOUR, PAIR_COLOUR, HIND_COLOUR = "#c62828", "#1e88e5", "#d32f2f"
CROSSED_COLOUR, ARC_COLOUR = "#f9a825", "#7b1fa2"


@dataclass(frozen=True)
class ArcView:
    """A unit's arc to draw: where the unit is, its arc, how far (None: to the map's edge)."""

    origin: Hex
    arc: Arc
    max_range: int | None = None
    label: str = ""


def render_svg(
    game_map: GameMap,
    chart: TerrainChart,
    *,
    los: LosVerdict | None = None,
    arc: ArcView | None = None,
    size: float = 26.0,
    title: str | None = None,
) -> str:
    """The whole picture as SVG text (``size``: pixels from a hex's centre to a corner)."""
    return _Drawing(game_map, chart, size).draw(los, arc, title)


class _Drawing:
    def __init__(self, game_map: GameMap, chart: TerrainChart, size: float) -> None:
        self.m, self.chart, self.s = game_map, chart, size
        hexes = list(game_map)
        xs = [self._raw(h)[0] for h in hexes]
        ys = [self._raw(h)[1] for h in hexes]
        self.margin = size * 1.2
        self.top = size * 2.2  # room for the title
        self.dx = self.margin - min(xs) + size
        self.dy = self.top - min(ys) + size * SQRT3 / 2
        self.width = max(xs) - min(xs) + 2 * size + 2 * self.margin
        self.map_bottom = self.dy + max(ys) + size * SQRT3 / 2
        self.parts: list[str] = []

    # --- coordinates ------------------------------------------------------------------------
    def _raw(self, hex: Hex) -> tuple[float, float]:
        return self.s * 1.5 * hex.q, self.s * SQRT3 * (hex.r + hex.q / 2)

    def centre(self, hex: Hex) -> tuple[float, float]:
        x, y = self._raw(hex)
        return x + self.dx, y + self.dy

    def corners(self, hex: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
        x, y = self.centre(hex)
        r = self.s * scale
        return [
            (x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]

    def vertex_point(self, vertex: Vertex) -> tuple[float, float]:
        a, b, c = vertex.hexes
        points = [self.centre(h) for h in (a, b, c)]
        return sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3

    def side_points(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        first, second = side.vertices
        return self.vertex_point(first), self.vertex_point(second)

    # --- output -----------------------------------------------------------------------------
    def add(self, text: str) -> None:
        self.parts.append(text)

    def polygon(self, points: Sequence[tuple[float, float]], style: str) -> None:
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.add(f'<polygon points="{coords}" {style}/>')

    def line(self, a: tuple[float, float], b: tuple[float, float], style: str) -> None:
        self.add(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" {style}/>')

    def text(self, x: float, y: float, words: str, size: float, extra: str = "") -> None:
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" font-family="{FONT}" '
            f'text-anchor="middle" {extra}>{escape(words)}</text>'
        )

    # --- the picture ------------------------------------------------------------------------
    def draw(self, los: LosVerdict | None, arc: ArcView | None, title: str | None) -> str:
        self.terrain()
        if arc is not None:
            self.arc(arc)
        if los is not None:
            self.crossed(los)
        self.hexsides()
        self.markers()
        self.labels()
        if los is not None:
            self.sight(los)
        if arc is not None:
            self.unit(arc.origin, "A", ARC_COLOUR)
        legend_top = self.map_bottom + self.s * 0.8
        height = self.legend(legend_top, los, arc)
        heading = title or f"{self.m.name} ({self.m.game})"
        self.text(self.width / 2, self.s * 1.2, heading, self.s * 0.62, 'font-weight="bold"')
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {self.width:.1f} {height:.1f}">'
            f"<title>{escape(heading)}</title>"
            f'<rect width="100%" height="100%" fill="#ffffff"/>'
            f'<clipPath id="map"><rect x="{self.margin:.1f}" y="{self.top:.1f}" '
            f'width="{self.width - 2 * self.margin:.1f}" '
            f'height="{self.map_bottom - self.top:.1f}"/></clipPath>'
        )
        return head + "\n".join(self.parts) + "</svg>\n"

    def terrain(self) -> None:
        for hex in self.m:
            fill = self.chart.hex(self.m.terrain(hex)).colour
            self.polygon(self.corners(hex), f'fill="{fill}" stroke="#8d8d8d" stroke-width="0.7"')
            level = self.m.elevation(hex)
            if level > 0:
                opacity = min(0.15 + 0.12 * level, 0.6)
                self.polygon(
                    self.corners(hex, 0.86),
                    f'fill="#8d6e63" fill-opacity="{opacity:.2f}" stroke="#5d4037" '
                    'stroke-width="1.2"',
                )

    def arc(self, view: ArcView) -> None:
        reach = view.max_range if view.max_range is not None else self._span()
        inside = [h for h in view.arc.hexes(view.origin, reach) if h in self.m]
        for hex in inside:
            self.polygon(
                self.corners(hex),
                f'fill="{ARC_COLOUR}" fill-opacity="0.2" stroke="{ARC_COLOUR}" '
                'stroke-opacity="0.5" stroke-width="0.8"',
            )
        bounds = view.arc.bounds
        if bounds is None:
            return
        ox, oy = self.centre(view.origin)
        for vector in bounds:
            tx, ty = self.centre(view.origin + vector)
            length = math.hypot(tx - ox, ty - oy)
            far = (self.width + self.map_bottom) / length
            end = (ox + (tx - ox) * far, oy + (ty - oy) * far)
            self.line(
                (ox, oy),
                end,
                f'stroke="{ARC_COLOUR}" stroke-width="2" stroke-dasharray="7,4" '
                'clip-path="url(#map)"',
            )

    def _span(self) -> int:
        hexes = list(self.m)
        return max(hexes[0].distance(h) for h in hexes) + max(hexes[-1].distance(h) for h in hexes)

    def crossed(self, los: LosVerdict) -> None:
        stop = los.blocked.range if los.blocked is not None else los.range
        for step in los.line.steps:
            colour = PAIR_COLOUR if step.is_pair else CROSSED_COLOUR
            # Past the block the line is only geometry: drawn faint and dashed.
            if step.range > stop:
                look = 'fill-opacity="0.07" stroke-dasharray="4,3" stroke-width="1.5"'
            else:
                look = 'fill-opacity="0.22" stroke-width="2.2"'
            for hex in step.hexes:
                if hex in self.m:
                    self.polygon(
                        self.corners(hex, 0.93), f'fill="{colour}" stroke="{colour}" {look}'
                    )
            if step.along is not None:
                a, b = self.side_points(step.along)
                self.line(a, b, f'stroke="{PAIR_COLOUR}" stroke-width="3" stroke-dasharray="3,2"')

    def hexsides(self) -> None:
        for side, name in sorted(self.m.hexsides.items()):
            feature = self.chart.hexside(name)
            a, b = self.side_points(side)
            width = self.s * (0.28 if feature.blocks and feature.height else 0.2)
            self.line(
                a, b, f'stroke="{feature.colour}" stroke-width="{width:.1f}" stroke-linecap="round"'
            )

    def markers(self) -> None:
        for hex, names in sorted(self.m.markers.items()):
            x, y = self.centre(hex)
            for index, name in enumerate(names):
                marker = self.chart.marker(name)
                cx = x + (index - (len(names) - 1) / 2) * self.s * 0.7
                r = self.s * 0.36
                self.add(
                    f'<circle cx="{cx:.1f}" cy="{y - self.s * 0.05:.1f}" r="{r:.1f}" '
                    f'fill="{marker.colour}" stroke="#212121" stroke-width="1"/>'
                )
                self.text(
                    cx,
                    y + self.s * 0.07,
                    marker.mark or name[:3].upper(),
                    self.s * 0.3,
                    f'fill="{_ink(marker.colour)}" font-weight="bold"',
                )

    def labels(self) -> None:
        for hex in self.m:
            x, y = self.centre(hex)
            fill = _ink(self.chart.hex(self.m.terrain(hex)).colour, light="#f5f5f5")
            self.text(x, y - self.s * 0.5, self.m.label(hex), self.s * 0.29, f'fill="{fill}"')
            level = self.m.elevation(hex)
            if level:
                self.text(
                    x - self.s * 0.52,
                    y + self.s * 0.1,
                    f"L{level}",
                    self.s * 0.26,
                    'fill="#3e2723" font-weight="bold"',
                )

    def sight(self, los: LosVerdict) -> None:
        start, end = self.centre(los.line.firer), self.centre(los.line.target)
        solid = 'stroke-width="2.6" stroke-linecap="round"'
        if los.blocked is None:
            self.line(start, end, f'stroke="{LOS_COLOUR}" {solid}')
        else:
            stop = self._place_point(los.blocked.places)
            self.line(start, stop, f'stroke="{LOS_COLOUR}" {solid}')
            self.line(stop, end, f'stroke="{LOS_COLOUR}" stroke-width="2" stroke-dasharray="6,5"')
            for place in los.blocked.places:
                if isinstance(place, Hex):
                    self.polygon(
                        self.corners(place, 0.9),
                        f'fill="none" stroke="{HIND_COLOUR}" stroke-width="3.5"',
                    )
                else:
                    a, b = self.side_points(place)
                    self.line(a, b, f'stroke="{HIND_COLOUR}" stroke-width="5"')
            if any(isinstance(p, Hex) for p in los.blocked.places):
                # Mark where the line enters the blocking hex, leaving its markers visible.
                length = math.hypot(stop[0] - start[0], stop[1] - start[1]) or 1.0
                back = self.s * 0.55 / length
                stop = (
                    stop[0] - (stop[0] - start[0]) * back,
                    stop[1] - (stop[1] - start[1]) * back,
                )
            self.cross(stop)
        for hindrance in los.hindrances:
            x, y = self._place_point(hindrance.places)
            if len(hindrance.places) == 1 and isinstance(hindrance.places[0], Hex):
                y += self.s * 0.6  # under the line, clear of the marker and the label
            self._tag(x, y, f"+{hindrance.drm}")
            for place in hindrance.places:
                if isinstance(place, Hexside):
                    a, b = self.side_points(place)
                    self.line(a, b, f'stroke="{HIND_COLOUR}" stroke-width="3"')
        self.unit(los.line.firer, "F", LOS_COLOUR)
        self.unit(los.line.target, "T", LOS_COLOUR)

    def _place_point(self, places: Iterable[Hex | Hexside]) -> tuple[float, float]:
        points = []
        for place in places:
            if isinstance(place, Hex):
                points.append(self.centre(place))
            else:
                a, b = self.side_points(place)
                points.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)

    def cross(self, at: tuple[float, float]) -> None:
        x, y, r = at[0], at[1], self.s * 0.24
        style = f'stroke="{HIND_COLOUR}" stroke-width="3.5" stroke-linecap="round"'
        self.line((x - r, y - r), (x + r, y + r), style)
        self.line((x - r, y + r), (x + r, y - r), style)

    def _tag(self, x: float, y: float, words: str) -> None:
        w, h = self.s * 0.62, self.s * 0.46
        self.add(
            f'<rect x="{x - w / 2:.1f}" y="{y - h * 0.75:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'rx="3" fill="#ffffff" stroke="{HIND_COLOUR}" stroke-width="1.2"/>'
        )
        self.text(x, y, words, self.s * 0.34, f'fill="{HIND_COLOUR}" font-weight="bold"')

    def unit(self, hex: Hex, letter: str, colour: str) -> None:
        x, y = self.centre(hex)
        half = self.s * 0.3
        self.add(
            f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" '
            f'height="{2 * half:.1f}" rx="2" fill="{colour}" stroke="#212121" stroke-width="1"/>'
        )
        self.text(x, y + half * 0.45, letter, self.s * 0.38, 'fill="#ffffff" font-weight="bold"')

    # --- legend -----------------------------------------------------------------------------
    def legend(self, top: float, los: LosVerdict | None, arc: ArcView | None) -> float:
        """Swatches for what the map uses, then the verdict; returns the picture's height."""
        used_terrain = sorted({self.m.terrain(h) for h in self.m})
        used_sides = sorted(set(self.m.hexsides.values()))
        used_markers = sorted({n for names in self.m.markers.values() for n in names})
        entries: list[tuple[str, str]] = []
        for name in used_terrain:
            entries.append(("hex", name))
        for name in used_sides:
            entries.append(("hexside", name))
        for name in used_markers:
            entries.append(("marker", name))
        if los is not None:
            entries += [("key", "crossed"), ("key", "pair"), ("key", "hindrance")]
            if los.blocked is not None:
                entries.append(("key", "block"))
        if arc is not None:
            entries.append(("key", "arc"))
        column_width = self.s * 5.2
        per_row = max(1, int((self.width - 2 * self.margin) // column_width))
        row_height = self.s * 0.9
        for index, (kind, name) in enumerate(entries):
            x = self.margin + (index % per_row) * column_width
            y = top + (index // per_row) * row_height
            self._swatch(kind, name, x, y, arc)
        y = top + ((len(entries) + per_row - 1) // per_row) * row_height + self.s * 0.4
        lines = []
        if arc is not None:
            lines.append(f"Arc: {arc.label or arc.arc} from {self.m.label(arc.origin)}")
        if los is not None:
            lines.append(f"LOS ({los.game}): {los.explanation}")
            if los.cover is not None:
                lines.append(f"Target's cover: {los.cover.reason}")
        chars = max(40, int((self.width - 2 * self.margin) / (self.s * 0.2)))
        for line in lines:
            for chunk in _wrap(line, chars):
                self.add(
                    f'<text x="{self.margin:.1f}" y="{y + self.s * 0.3:.1f}" '
                    f'font-size="{self.s * 0.36:.1f}" font-family="{FONT}">{escape(chunk)}</text>'
                )
                y += self.s * 0.5
        return y + self.s * 0.5

    def _swatch(self, kind: str, name: str, x: float, y: float, arc: ArcView | None) -> None:
        w, h = self.s * 0.9, self.s * 0.55
        box = f'x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}"'
        label = name
        if kind == "hex":
            feature = self.chart.hex(name)
            self.add(f'<rect {box} fill="{feature.colour}" stroke="#8d8d8d"/>')
            label = f"{name}{_what(feature)}"
        elif kind == "hexside":
            feature = self.chart.hexside(name)
            self.line(
                (x, y + h / 2),
                (x + w, y + h / 2),
                f'stroke="{feature.colour}" stroke-width="{self.s * 0.2:.1f}"',
            )
            label = f"{name} (hexside){_what(feature)}"
        elif kind == "marker":
            feature = self.chart.marker(name)
            self.add(
                f'<circle cx="{x + w / 2:.1f}" cy="{y + h / 2:.1f}" r="{h / 2:.1f}" '
                f'fill="{feature.colour}" stroke="#212121"/>'
            )
            label = f"{name} ({feature.mark or 'marker'})"
        else:
            colour, label = {
                "crossed": (CROSSED_COLOUR, "hex the LOS crosses"),
                "pair": (PAIR_COLOUR, "pair along a hexside"),
                "hindrance": (HIND_COLOUR, "+N hindrance at that range"),
                "block": (HIND_COLOUR, "what blocks the LOS"),
                "arc": (ARC_COLOUR, "in the arc"),
            }[name]
            self.add(
                f'<rect {box} fill="{colour}" fill-opacity="0.3" stroke="{colour}" '
                'stroke-width="2"/>'
            )
        self.add(
            f'<text x="{x + w + self.s * 0.2:.1f}" y="{y + h * 0.8:.1f}" '
            f'font-size="{self.s * 0.32:.1f}" font-family="{FONT}">{escape(label)}</text>'
        )


def _what(feature: Feature) -> str:
    if feature.blocks:
        return ": blocks"
    if feature.hindrance:
        return f": +{feature.hindrance}"
    return ""


def _ink(colour: str, light: str = "#ffffff") -> str:
    """Dark text on a light fill, light text on a dark one."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#212121" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else light


def _wrap(text: str, width: int) -> list[str]:
    words, lines, current = text.split(), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        lines.append(current)
    return lines
