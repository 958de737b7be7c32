"""The drawing surface of :mod:`.svg`: a map's hexes in drawing units, and the SVG elements
the layers are made of (polygons, lines, texts, the boxes the layout keeps apart, the tags at
a hex's edge).

Drawing uses floats: this is a picture, not geometry; every decision was made exactly before.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape as _escape

from ordnance.core.hexgrid import Corner, Direction, Hex, Hexside, Vertex
from ordnance.core.maps.counters import CounterView
from ordnance.core.maps.model import GameMap
from ordnance.core.maps.svg_labels import raw_centre
from ordnance.core.maps.svg_legend import FONT

SQRT3 = math.sqrt(3)
Point = tuple[float, float]


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` escaped for SVG text (quotes are fine there).

    ``html.escape``, not ``xml.sax.saxutils``: that one pulls in urllib, http and email on import.

    >>> escape("A & B <C>")
    'A &amp; B &lt;C&gt;'
    """
    return _escape(text, quote=False)


class Canvas:
    """A map at ``size`` (pixels from a hex's centre to a corner) with its units' stacks;
    the owner sets the offset (``dx``, ``dy``) that places the map in the picture."""

    def __init__(self, game_map: GameMap, size: float, counters: Sequence[CounterView]) -> None:
        self.m, self.s = game_map, size
        self.stacks: dict[Hex, list[CounterView]] = {}
        for counter in counters:
            self.stacks.setdefault(counter.hex, []).append(counter)
        self.dx = self.dy = 0.0
        self.parts: list[str] = []

    # --- coordinates ------------------------------------------------------------------------
    def _raw(self, hex: Hex) -> Point:
        return raw_centre(hex, self.s)

    def centre(self, hex: Hex) -> Point:
        x, y = self._raw(hex)
        return x + self.dx, y + self.dy

    def corners(self, hex: Hex, scale: float = 1.0) -> list[Point]:
        x, y = self.centre(hex)
        r = self.s * scale
        return [
            (x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]

    def vertex_point(self, vertex: Vertex) -> Point:
        a, b, c = vertex.hexes
        points = [self.centre(h) for h in (a, b, c)]
        return sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3

    def side_points(self, side: Hexside) -> tuple[Point, Point]:
        first, second = side.vertices
        return self.vertex_point(first), self.vertex_point(second)

    def angle(self, hex: Hex, toward: Direction | Corner) -> float:
        """The screen angle (degrees, clockwise from east) from a hex's centre toward one of
        its hexsides or hexspines."""
        x, y = self.centre(hex)
        if isinstance(toward, Direction):
            a, b = self.side_points(Hexside.of(hex, toward))
            tx, ty = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        else:
            tx, ty = self.vertex_point(Vertex.of(hex, toward))
        return math.degrees(math.atan2(ty - y, tx - x))

    # --- output -----------------------------------------------------------------------------
    def add(self, text: str) -> None:
        self.parts.append(text)

    def polygon(self, points: Sequence[Point], style: str) -> None:
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.add(f'<polygon points="{coords}" {style}/>')

    def line(self, a: Point, b: Point, style: str) -> None:
        self.add(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" {style}/>')

    def text(self, x: float, y: float, words: str, size: float, extra: str = "") -> None:
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" font-family="{FONT}" '
            f'text-anchor="middle" {extra}>{escape(words)}</text>'
        )

    def box(self, rect: tuple[float, float, float, float], style: str, kind: str) -> None:
        """A rectangle (x, y, width, height) the layout keeps clear of every other box."""
        x, y, w, h = rect
        self.add(
            f'<rect class="box {kind}-box" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}" rx="{min(h, w) * 0.25:.1f}" {style}/>'
        )

    def has_units(self, hex: Hex) -> bool:
        return bool(self.stacks.get(hex))

    def end(self, hex: Hex, letter: str, colour: str) -> None:
        """The LOS's firer/target or the arc's origin: in the middle of an empty hex, else at
        its left edge, clear of counters and markers."""
        x, y = self.centre(hex)
        busy = self.has_units(hex) or bool(self.m.markers_in(hex))
        side = self.s * (0.3 if busy else 0.6)
        if busy:
            x -= self.s * 0.74
        self.box(
            (x - side / 2, y - side / 2, side, side),
            f'fill="{colour}" stroke="#212121" stroke-width="1"',
            "end",
        )
        self.text(x, y + side * 0.3, letter, side * 0.75, 'fill="#ffffff" font-weight="bold"')
