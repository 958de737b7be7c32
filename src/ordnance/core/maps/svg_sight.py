"""The line of sight drawn over a map (:mod:`.svg`): the hexes it crosses, the line itself
(dashed past a block, a red cross on what blocks it) and each range's hindrance as a ``+N``
tag at a hex's right edge.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ordnance.core.hexgrid import Hex, Hexside
from ordnance.core.maps.svg_canvas import Canvas, Point
from ordnance.core.maps.svg_legend import CROSSED_COLOUR, HIND_COLOUR, LOS_COLOUR, PAIR_COLOUR
from ordnance.core.maps.verdict import LosVerdict


class SightLayer(Canvas):
    """A canvas that draws a LOS verdict (:meth:`plan_tags` first, to keep its tags' hexes
    clear of other marks)."""

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

    def sight(self, los: LosVerdict) -> None:
        start, end = self.centre(los.line.firer), self.centre(los.line.target)
        solid = 'stroke-width="2.6" stroke-linecap="round" class="los"'
        if los.blocked is None:
            self.line(start, end, f'stroke="{LOS_COLOUR}" {solid}')
            return
        stop = self._place_point(los.blocked.places)
        self.line(start, stop, f'stroke="{LOS_COLOUR}" {solid}')
        self.line(
            stop, end, f'stroke="{LOS_COLOUR}" stroke-width="2" stroke-dasharray="6,5" class="los"'
        )
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

    def plan_tags(self, los: LosVerdict | None) -> None:
        """Which hex's right edge carries each range's ``+N`` tag: the hindering hex, or a hex
        of the pair or hexside that hinders (one tag per hex; a second one goes below it)."""
        self.tags: list[tuple[Hex, int, str]] = []
        if los is None:
            return
        used: dict[Hex, int] = {}
        for hindrance in los.hindrances:
            hexes = [
                h
                for place in hindrance.places
                for h in ((place,) if isinstance(place, Hex) else place.hexes)
                if h in self.m
            ]
            if not hexes:
                continue
            free = [h for h in hexes if h not in used]
            hex = (free or hexes)[0]
            used[hex] = used.get(hex, -1) + 1
            self.tags.append((hex, used[hex], f"+{hindrance.drm}"))

    def hindrance_tags(self, los: LosVerdict) -> None:
        for hindrance in los.hindrances:
            for place in hindrance.places:
                if isinstance(place, Hexside):
                    a, b = self.side_points(place)
                    self.line(a, b, f'stroke="{HIND_COLOUR}" stroke-width="3"')
        for hex, nth, words in self.tags:
            x, y = self.centre(hex)
            # The hex's right edge, clear of its markers, counters and LOS end.
            self._tag(x + self.s * 0.72, y + nth * self.s * 0.34, words)

    def _place_point(self, places: Iterable[Hex | Hexside]) -> Point:
        points = []
        for place in places:
            if isinstance(place, Hex):
                points.append(self.centre(place))
            else:
                a, b = self.side_points(place)
                points.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)

    def cross(self, at: Point) -> None:
        x, y, r = at[0], at[1], self.s * 0.24
        style = f'stroke="{HIND_COLOUR}" stroke-width="3.5" stroke-linecap="round"'
        self.line((x - r, y - r), (x + r, y + r), style)
        self.line((x - r, y + r), (x + r, y - r), style)

    def _tag(self, x: float, y: float, words: str) -> None:
        # Smaller on a map with counters, where the hex's right edge is all the room there is.
        w, h = self.s * (0.34 if self.stacks else 0.44), self.s * (0.3 if self.stacks else 0.36)
        self.box(
            (x - w / 2, y - h / 2, w, h),
            f'fill="#ffffff" stroke="{HIND_COLOUR}" stroke-width="1.2"',
            "hindrance",
        )
        self.text(x, y + h * 0.3, words, h * 0.75, f'fill="{HIND_COLOUR}" font-weight="bold"')
