"""Drawing a map as SVG, with the standard library only: terrain, markers, units, an arc, a LOS.

What is drawn, bottom to top: hexes in their terrain's colour (from the ruleset's table), a
brown wash and ``L1`` for ground above level 0, the arc's hexes shaded orange with its two
boundary rays dashed, the hexes a LOS crosses outlined in gold (the two hexes of a pair along a
hexside in blue, with that hexside drawn blue), hexside features as thick coloured edges, hex
labels, markers as labelled tags, the LOS line itself (dashed past a block, a red cross on what
blocks it), the units' counters (:mod:`.counters`), each range's hindrance as a red ``+N`` tag,
the LOS and arc ends (``F``, ``T``, ``A``), and under the map a legend and the verdict in words
(:mod:`.svg_legend`).

Each hex has its places, so nothing drawn in it hides another: the label along the top, the
counters in the middle (one, two side by side, or a 2x2 or 3x3 grid for a stack), the markers
in a row along the bottom (in the middle when no unit is there), the ``F``/``T``/``A`` tag at
the left and a hindrance tag at the right edge.

For a web page the SVG is also a document to script: every hex is a ``polygon`` with
``id="hex-LABEL"``, ``class="hex terrain-NAME"``, ``data-hex`` and ``points`` (its six corners,
in drawing units: a script takes the hex's centre from them, never from layout), inside one
``g class="hexes"`` that gives them their outline; the hex labels are ``text`` elements in a
``g class="hex-labels"`` (and ``L1``... in a ``g class="levels"``) whose presentation
attributes they inherit, or, when the caller asks for them apart (``labels_href``: the web's
pages), one ``<image class="hex-labels">`` of a document holding them (:mod:`.svg_labels`);
every unit a ``g`` with ``id="unit-ID"``, ``class="counter side-S glyph-G state-..."``,
``data-unit``, ``data-hex``, ``data-side`` and a ``title``, placed by
``transform="translate(x y)"`` at its hex's centre; every marker a ``g`` with
``class="marker"``, ``data-marker`` and ``data-hex``. The boxes the layout keeps apart
(markers, badges, tags) are ``rect`` elements of class ``box``.

Drawing uses floats: this is a picture, not geometry; every decision was made exactly before.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps.model import GameMap
>>> from ordnance.core.maps.terrain import TerrainChart
>>> chart = TerrainChart.from_toml_text('source = "t"\\n[hex.open]\\n', "t")
>>> svg = render_svg(GameMap("tiny", "t", GridLabels(3, 2), "open"), chart)
>>> svg.startswith("<svg") and svg.count("<polygon") == 6 and ">B2<" in svg
True
>>> unit = CounterView("a1", GridLabels(3, 2).parse("B2"), "us", "a1", "4-6-5", "squad")
>>> 'data-unit="a1" data-hex="B2" data-side="us"' in render_svg(
...     GameMap("tiny", "t", GridLabels(3, 2), "open"), chart, counters=[unit])
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from html import escape as _escape
from typing import TypeVar, cast

from ordnance.core.hexgrid import Arc, Hex
from ordnance.core.maps.cache import BoundedCache
from ordnance.core.maps.counters import CounterView, css_name
from ordnance.core.maps.model import GameMap
from ordnance.core.maps.svg_canvas import SQRT3, escape
from ordnance.core.maps.svg_counters import (
    counter_svg,
    grid_slots,
    side_colours,
    text_width,
)
from ordnance.core.maps.svg_labels import LabelSheet, ink, raw_centre
from ordnance.core.maps.svg_legend import (
    ARC_COLOUR,
    FONT,
    LOS_COLOUR,
    PAIR_COLOUR,
    SEEN_COLOUR,
    Legend,
    legend_svg,
    wrap_to,
)
from ordnance.core.maps.svg_sight import SightLayer
from ordnance.core.maps.terrain import TerrainChart
from ordnance.core.maps.verdict import LosVerdict

# The colours are named here too: a reader of a picture finds them where it is made.
__all__ = [
    "ARC_COLOUR",
    "LOS_COLOUR",
    "PAIR_COLOUR",
    "SEEN_COLOUR",
    "ArcView",
    "SightView",
    "escape",
    "render_svg",
]

PLAIN_SIZE, COUNTER_SIZE = 26.0, 48.0  # default hex sizes: a bare map, a map with units


@dataclass(frozen=True)
class ArcView:
    """A unit's arc to draw: where the unit is, its arc, how far (None: to the map's edge)."""

    origin: Hex
    arc: Arc
    max_range: int | None = None
    label: str = ""


@dataclass(frozen=True)
class SightView:
    """What a unit can see, to shade: its hex, and each hex it sees with that line's hindrance
    (:meth:`ordnance.core.maps.visibility.Visibility.visible_from`)."""

    origin: Hex
    seen: Mapping[Hex, int]
    label: str = ""


# The hexes, their labels and their extent are the same at every state of a game whose map
# does not change: on the ASL village map (6,650 hexes) they were 90% of a 33 ms picture drawn
# at every version (2.2 ms with them kept; docs/benchmarks.md, bench_web). So are the
# hexsides and, mostly, the legend: a third of what was left (bench_web, 150 games: 5% of the
# server's CPU). They are kept per map, hex size and frame offset, and chart: a key holds the
# chart's id only (a chart holds mappings, so it has no hash) and the value the chart itself,
# so a kept layer is used only with that very chart. Four layers of a map and its frame: room
# for the maps of many games at once (a V&V map with smoke is a map of its own).
T = TypeVar("T")
_LAYERS = BoundedCache[tuple[object, ...], tuple[TerrainChart | None, object]](256)


def _layer(key: tuple[object, ...], chart: TerrainChart | None, make: Callable[[], T]) -> T:
    kept_chart, layer = _LAYERS.get((*key, id(chart)), lambda: (chart, make()))
    return cast(T, layer) if kept_chart is chart else make()


def _extent(game_map: GameMap, size: float) -> tuple[float, float, float, float]:
    """The least and greatest x and y of the hexes' centres (hexes of ``size``)."""

    def measure() -> tuple[float, float, float, float]:
        points = [raw_centre(h, size) for h in game_map]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return min(xs), min(ys), max(xs), max(ys)

    return _layer(("extent", game_map, size), None, measure)


def render_svg(
    game_map: GameMap,
    chart: TerrainChart,
    *,
    los: LosVerdict | None = None,
    arc: ArcView | None = None,
    seen: SightView | None = None,
    size: float | None = None,
    title: str | None = None,
    counters: Iterable[CounterView] = (),
    labels_href: Callable[[LabelSheet], str] | None = None,
) -> str:
    """The whole picture as SVG text.

    ``size`` is the pixels from a hex's centre to a corner (default 26, or 48 with
    ``counters``, so that a counter's words can be read); ``counters`` are the units to draw,
    each on its hex (units on hexes off the map are left out); ``seen`` shades the hexes a
    unit can see.

    The picture is self-contained unless ``labels_href`` is given: then the hex labels are
    one ``<image>`` whose address is ``labels_href(sheet)``, the caller serving
    ``sheet.document()`` there (a web page: :mod:`.svg_labels` says why).

    >>> from ordnance.core.hexgrid import GridLabels
    >>> chart = TerrainChart.from_toml_text('source = "t"\\n[hex.open]\\n', "t")
    >>> tiny = GameMap("tiny", "t", GridLabels(3, 2), "open")
    >>> svg = render_svg(tiny, chart, labels_href=lambda sheet: f"/labels.svg?h={sheet.digest}")
    >>> ">B2<" in svg, svg.count('<image class="hex-labels" href="/labels.svg?h=')
    (False, 1)
    """
    units = [c for c in counters if c.hex in game_map]
    scale = size if size is not None else (COUNTER_SIZE if units else PLAIN_SIZE)
    heading = title or f"{game_map.name} ({game_map.game})"
    drawing = _Drawing(game_map, chart, scale, heading, units)
    drawing.labels_href = labels_href
    return drawing.draw(los, arc, seen)


class _Drawing(SightLayer):
    def __init__(
        self,
        game_map: GameMap,
        chart: TerrainChart,
        size: float,
        heading: str,
        counters: Sequence[CounterView],
    ) -> None:
        super().__init__(game_map, size, counters)
        self.chart = chart
        self.heading = heading
        self.colours = side_colours([c.side for c in counters])
        left, top, right, bottom = _extent(game_map, size)
        self.margin = size * 1.2
        self.width = right - left + 2 * size + 2 * self.margin
        # The title wraps to the width; the map starts below its last line.
        self.title_size = min(size * 0.62, 22.0)
        room = self.width - 2 * self.margin
        self.title_lines = wrap_to(heading, room, self.title_size, bold=True)
        self.top = self.s * 0.6 + len(self.title_lines) * self.title_size * 1.3 + size * 0.4
        self.dx = self.margin - left + size
        self.dy = self.top - top + size * SQRT3 / 2
        self.map_bottom = self.dy + bottom + size * SQRT3 / 2
        self.labels_href: Callable[[LabelSheet], str] | None = None

    # --- the picture ------------------------------------------------------------------------
    def draw(
        self, los: LosVerdict | None, arc: ArcView | None, seen: SightView | None = None
    ) -> str:
        self.plan_tags(los)
        ends = [] if los is None else [los.line.firer, los.line.target]
        self.edged = {*ends, *([] if arc is None else [arc.origin]), *(t[0] for t in self.tags)}
        if seen is not None:
            self.edged.add(seen.origin)
        self.terrain()
        if seen is not None:
            self.sees(seen)
        if arc is not None:
            self.arc(arc)
        if los is not None:
            self.crossed(los)
        self.hexsides()
        self.labels()
        self.markers()
        if los is not None:
            self.sight(los)
        self.counters()
        if los is not None:
            self.hindrance_tags(los)
            self.end(los.line.firer, "F", LOS_COLOUR)
            self.end(los.line.target, "T", LOS_COLOUR)
        if arc is not None:
            self.end(arc.origin, "A", ARC_COLOUR)
        if seen is not None:
            self.end(seen.origin, "S", SEEN_COLOUR)
        badges = {b.text: b.key for stack in self.stacks.values() for c in stack for b in c.badges}
        legend = Legend(self.m, self.chart, self.colours, badges, los, arc, seen)
        if los is None and arc is None and seen is None:
            # Without a line or a shading it changes only with the sides and badges shown.
            key = (
                "legend",
                self.m,
                self.s,
                self.dx,
                self.dy,
                *self.colours.items(),
                *badges.items(),
            )
            parts, height = _layer(key, self.chart, lambda: self.legend(legend))
        else:
            parts, height = self.legend(legend)
        self.parts += parts
        for index, words in enumerate(self.title_lines):
            self.text(
                self.width / 2,
                self.s * 0.6 + (index + 0.8) * self.title_size * 1.3,
                words,
                self.title_size,
                f'font-weight="bold" class="title" data-width="{self._title_width(words):.1f}"',
            )
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {self.width:.1f} {height:.1f}" '
            f'class="ordnance-map" data-game="{escape(self.m.game)}">'
            f"<title>{escape(self.heading)}</title>"
            f'<rect width="100%" height="100%" fill="#ffffff"/>'
            f'<clipPath id="map"><rect x="{self.margin:.1f}" y="{self.top:.1f}" '
            f'width="{self.width - 2 * self.margin:.1f}" '
            f'height="{self.map_bottom - self.top:.1f}"/></clipPath>'
        )
        return head + "\n".join(self.parts) + "</svg>\n"

    def legend(self, legend: Legend) -> tuple[list[str], float]:
        """The legend's parts below the map, and the picture's height."""
        return legend_svg(
            legend,
            left=self.margin,
            room=self.width - 2 * self.margin,
            top=self.map_bottom + self.s * 0.8,
            scale=min(self.s, 30.0),  # the legend's own scale: readable, never huge
        )

    def _title_width(self, words: str) -> float:
        return text_width(words, self.title_size, bold=True)

    def kept(self, what: str, draw: Callable[[], None]) -> None:
        """What ``draw`` adds to the picture, drawn once per map, frame and chart and kept as
        one text (see ``_LAYERS``): it reads nothing but those."""

        def make() -> str:
            start = len(self.parts)
            draw()
            drawn = "\n".join(self.parts[start:])
            del self.parts[start:]
            return drawn

        text = _layer((what, self.m, self.s, self.dx, self.dy), self.chart, make)
        if text:
            self.add(text)

    def terrain(self) -> None:
        """Every hex."""
        self.kept("terrain", self._terrain)

    def _terrain(self) -> None:
        # The outline every hex shares is said once, on their group (inherited); the brown
        # washes of higher ground follow the group, each inside its own hex.
        self.add('<g class="hexes" stroke="#8d8d8d" stroke-width="0.7">')
        washes: list[Hex] = []
        for hex in self.m:
            name = self.m.terrain(hex)
            fill = self.chart.hex(name).colour
            label = escape(self.m.label(hex))
            # A title per hex: browsers show it on hover and screen readers read it.
            tip = ", ".join([str(name), *sorted(self.m.markers_in(hex))])
            coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in self.corners(hex))
            self.add(
                f'<polygon points="{coords}" id="hex-{label}" class="hex terrain-{css_name(name)}" '
                f'data-hex="{label}" fill="{fill}">'
                f"<title>{label}: {escape(tip)}</title></polygon>"
            )
            if self.m.elevation(hex) > 0:
                washes.append(hex)
        self.add("</g>")
        for hex in washes:
            level = self.m.elevation(hex)
            if level > 0:
                opacity = min(0.15 + 0.12 * level, 0.6)
                self.polygon(
                    self.corners(hex, 0.86),
                    f'fill="#8d6e63" fill-opacity="{opacity:.2f}" stroke="#5d4037" '
                    'stroke-width="1.2" pointer-events="none"',
                )

    def sees(self, view: SightView) -> None:
        """Each hex the unit sees, shaded: stronger for a clear line, lighter when hindered."""
        origin = self.m.label(view.origin)
        for hex, hindrance in sorted(view.seen.items()):
            if hex not in self.m:
                continue
            label = self.m.label(hex)
            opacity = 0.32 if hindrance == 0 else 0.16
            words = "clear" if hindrance == 0 else f"hindrance +{hindrance}"
            coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in self.corners(hex, 0.92))
            self.add(
                f'<polygon points="{coords}" class="seen" data-hex="{label}" '
                f'data-hindrance="{hindrance}" fill="{SEEN_COLOUR}" '
                f'fill-opacity="{opacity:.2f}" stroke="none" pointer-events="none">'
                f"<title>{label}: seen from {origin}, {words}</title></polygon>"
            )

    def arc(self, view: ArcView) -> None:
        edge = max(view.origin.distance(h) for h in self.m)
        reach = edge if view.max_range is None else min(view.max_range, edge)
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

    def hexsides(self) -> None:
        """Every hexside's feature (walls, hedges, bocage...)."""
        self.kept("hexsides", self._hexsides)

    def _hexsides(self) -> None:
        for side, name in sorted(self.m.hexsides.items()):
            feature = self.chart.hexside(name)
            a, b = self.side_points(side)
            width = self.s * (0.28 if feature.blocks and feature.height else 0.2)
            self.line(
                a, b, f'stroke="{feature.colour}" stroke-width="{width:.1f}" stroke-linecap="round"'
            )

    def markers(self) -> None:
        """Each hex's markers side by side: along its bottom under units, else in its middle."""
        for hex, names in sorted(self.m.markers.items()):
            if hex not in self.m or not names:
                continue
            x, y = self.centre(hex)
            # Under units the markers keep to the bottom row; between a LOS end or tag at the
            # hex's edges they keep to the middle, no wider than the room the edges leave.
            crowded = self.has_units(hex)
            height = self.s * (0.22 if crowded else 0.38 if not self.stacks else 0.3)
            font = height * 0.72
            cy = y + self.s * 0.69 if crowded else y + self.s * 0.08
            room = self.s * (1.04 if crowded else 0.96 if hex in self.edged else 1.3)
            marks = [self.chart.marker(n).mark or n[:3].upper() for n in names]
            widths = [
                max(height * 1.5, text_width(m, font, bold=True) + height * 0.5) for m in marks
            ]
            gap = self.s * 0.04
            total = sum(widths) + gap * (len(widths) - 1)
            shrink = min(1.0, room / total)
            left = x - total * shrink / 2
            label = escape(self.m.label(hex))
            for name, mark, width in zip(names, marks, widths, strict=True):
                marker = self.chart.marker(name)
                w = width * shrink
                self.add(
                    f'<g class="marker marker-{css_name(name)}" data-marker="{escape(name)}" '
                    f'data-hex="{label}">'
                )
                self.box(
                    (left, cy - height / 2, w, height),
                    f'fill="{marker.colour}" stroke="#212121" stroke-width="1"',
                    "marker",
                )
                self.text(
                    left + w / 2,
                    cy + font * 0.36,
                    mark,
                    font * shrink,
                    f'fill="{ink(marker.colour)}" font-weight="bold"',
                )
                self.add(f"<title>{escape(name)} in {label}</title></g>")
                left += w + gap * shrink

    def labels(self) -> None:
        """Each hex's label (and ``L1``... on higher ground), as the picture's own texts or,
        with ``labels_href``, as one ``<image>`` of their document (:mod:`.svg_labels`) in
        the map's frame. The image says nothing to a screen reader: each hex's ``<title>``
        names it."""
        compact = bool(self.stacks)
        made = partial(LabelSheet, self.m, self.chart, self.s, compact)
        sheet = _layer(("labels", self.m, self.s, compact), self.chart, made)
        if self.labels_href is None:
            self.parts += sheet.groups(self.centre)
            return
        href = _escape(self.labels_href(sheet))
        self.add(
            f'<image class="hex-labels" href="{href}" x="{self.margin:.1f}" y="{self.top:.1f}" '
            f'width="{sheet.width:.1f}" height="{sheet.height:.1f}" '
            'aria-hidden="true" pointer-events="none"/>'
        )

    def counters(self) -> None:
        """Every unit's counter, in its hex's slots (see :func:`grid_slots`)."""
        for hex, stack in sorted(self.stacks.items(), key=lambda item: item[0]):
            x, y = self.centre(hex)
            label = self.m.label(hex)
            for counter, (ox, oy, side) in zip(stack, grid_slots(len(stack)), strict=True):
                facing = None if counter.facing is None else self.angle(hex, counter.facing)
                turret = None if counter.turret is None else self.angle(hex, counter.turret)
                self.add(
                    counter_svg(
                        counter,
                        hex_label=label,
                        centre=(x, y),
                        offset=(ox * self.s, oy * self.s),
                        side=side * self.s,
                        colour=self.colours[counter.side],
                        facing=facing,
                        turret=turret,
                        font=FONT,
                    )
                )
