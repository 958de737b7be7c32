"""A map's hex labels (and the ``L1``... of higher ground) drawn at one size: inline in a
picture, or as an SVG document of their own that a web page shows as one ``<image>``.

Nothing on a label changes within a game: its words, place and ink come from the map's
labels, terrain and elevations and the drawing's size. A browser lays out every ``<text>`` of
an inline SVG again whenever anything in the page changes (a hover, a class on a counter):
the village map's 715 label texts made each such layout 50-110 ms on a loaded 2-core machine,
12 ms without them (benchmarks/bench_board.py). As one image they are drawn once, crisp at
any zoom, and the page's layouts skip them.

The sheet's frame is the map's hexes' bounding box (a picture's ``clipPath id="map"``): its
top-left corner is at the picture's ``(margin, top)``.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps.model import GameMap
>>> from ordnance.core.maps.terrain import TerrainChart
>>> chart = TerrainChart.from_toml_text('source = "t"\\n[hex.open]\\n', "t")
>>> sheet = LabelSheet(GameMap("tiny", "t", GridLabels(3, 2), "open"), chart, 26.0, False)
>>> sheet.document().count("<text "), ">B2</text>" in sheet.document()
(6, True)
>>> len(sheet.digest), sheet.digest == LabelSheet(sheet.game_map, chart, 26.0, False).digest
(16, True)
>>> sheet.digest == LabelSheet(sheet.game_map, chart, 26.0, True).digest  # beside counters
False
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape as _escape

from ordnance.core.cached import cached_property
from ordnance.core.hexgrid import Hex
from ordnance.core.maps.model import GameMap
from ordnance.core.maps.svg_legend import FONT
from ordnance.core.maps.terrain import TerrainChart

SQRT3 = math.sqrt(3)
DARK = "#212121"
Point = tuple[float, float]


def raw_centre(hex: Hex, size: float) -> Point:
    """A hex's centre for hexes of ``size`` (centre to corner), before a picture's offset.

    >>> raw_centre(Hex(2, -1), 10.0)
    (30.0, 0.0)
    """
    return size * 1.5 * hex.q, size * SQRT3 * (hex.r + hex.q / 2)


def ink(colour: str, light: str = "#ffffff") -> str:
    """Dark text on a light fill, light text on a dark one.

    >>> ink("#ffffff"), ink("#1b5e20", light="#f5f5f5")
    ('#212121', '#f5f5f5')
    """
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return DARK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else light


@dataclass(frozen=True, eq=False)
class LabelSheet:
    """The labels of ``game_map`` for hexes of ``size``; ``compact``: beside counters (a
    smaller font, higher in the hex, clear of the counter in its middle)."""

    game_map: GameMap
    chart: TerrainChart
    size: float
    compact: bool

    @cached_property
    def _extent(self) -> tuple[float, float, float, float]:
        points = [raw_centre(h, self.size) for h in self.game_map]
        return (
            min(p[0] for p in points),
            min(p[1] for p in points),
            max(p[0] for p in points),
            max(p[1] for p in points),
        )

    @property
    def width(self) -> float:
        """The frame's width: the hexes' bounding box, corner to corner."""
        left, _, right, _ = self._extent
        return right - left + 2 * self.size

    @property
    def height(self) -> float:
        _, top, _, bottom = self._extent
        return bottom - top + self.size * SQRT3

    def groups(self, centre: Callable[[Hex], Point]) -> list[str]:
        """The labels as SVG: a ``g class="hex-labels"`` (and ``g class="levels"``) that say
        once what their texts share, each text at ``centre(hex)`` (the picture's own
        coordinates, so an inline picture keeps its exact numbers)."""
        s = self.size
        font = s * (0.21 if self.compact else 0.29)
        lift = s * (0.62 if self.compact else 0.5)
        shared = f'font-family="{FONT}" text-anchor="middle" pointer-events="none"'
        parts = [f'<g class="hex-labels" font-size="{font:.1f}" fill="{DARK}" {shared}>']
        levels: list[tuple[float, float, int]] = []
        for hex in self.game_map:
            x, y = centre(hex)
            fill = ink(self.chart.hex(self.game_map.terrain(hex)).colour, light="#f5f5f5")
            own = "" if fill == DARK else f' fill="{fill}"'
            words = _escape(self.game_map.label(hex), quote=False)
            parts.append(f'<text x="{x:.1f}" y="{y - lift:.1f}"{own}>{words}</text>')
            level = self.game_map.elevation(hex)
            if level:
                levels.append((x + s * 0.5, y - lift, level))
        parts.append("</g>")
        if levels:
            parts.append(
                f'<g class="levels" font-size="{font * 0.95:.1f}" fill="#3e2723" '
                f'font-weight="bold" {shared}>'
            )
            parts += [f'<text x="{x:.1f}" y="{y:.1f}">L{level}</text>' for x, y, level in levels]
            parts.append("</g>")
        return parts

    def document(self) -> str:
        """The labels as an SVG document, in the sheet's frame (its top-left is 0, 0)."""
        return self._document

    @cached_property
    def _document(self) -> str:
        left, top, _, _ = self._extent
        dx, dy = self.size - left, self.size * SQRT3 / 2 - top

        def centre(hex: Hex) -> Point:
            x, y = raw_centre(hex, self.size)
            return x + dx, y + dy

        w, h = f"{self.width:.1f}", f"{self.height:.1f}"
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}">' + "\n".join(self.groups(centre)) + "</svg>\n"
        )

    @cached_property
    def digest(self) -> str:
        """16 hex digits of the document's SHA-256: its address changes when it does."""
        return hashlib.sha256(self._document.encode("utf-8")).hexdigest()[:16]
