"""How one counter is drawn, where a stack's counters sit in a hex, and how wide text is.

:func:`counter_svg` returns one unit's ``<g>``: placed at its hex's centre by
``transform="translate(x y)"`` (so a page reads where a unit is without geometry), its slot in
the stack by an inner translate, then under the counter its turret line and facing arrow, the
counter in its side's colour with the short label on top, the type glyph in the middle (unless
two rows of badges need its room) and the notation below, and its state badges in rows along
its bottom edge.

Widths are estimated from DejaVu Sans's proportions (narrow, wide and other letters), a little
generously, so that a title, a legend column or a badge is never narrower than its words.

>>> [round(side, 2) for _, _, side in grid_slots(3)]
[0.52, 0.52, 0.52]
>>> 40 < text_width("Hedgerow", 12) < 70
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from xml.sax.saxutils import escape

from ordnance.core.maps.counters import CounterView

# Colours by side name for the nations the bundled games use; other sides take the next
# free colour of the spare palette, in the order they first appear.
NATION_COLOURS = {
    "american": "#a4b86a",
    "german": "#a9bccf",
    "russian": "#cfa775",
    "british": "#dcc98f",
    "italian": "#c2c29a",
    "japanese": "#e6cf62",
}
SPARE_COLOURS = ("#9fc5e8", "#f6b26b", "#b4a7d6", "#93c47d", "#ea9999", "#ffe599")
INK = "#212121"
BADGE_FILL = "#fff8e1"

_NARROW = set("ijlt.,:;!|'()[]/ ")
_WIDE = set("mwMW@%")


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """About how many pixels ``text`` takes at font ``size`` (a little more, not less)."""
    ems = 0.0
    for char in text:
        if char in _NARROW:
            ems += 0.34
        elif char in _WIDE:
            ems += 0.92
        elif char.isupper():
            ems += 0.74
        else:
            ems += 0.63
    return ems * size * (1.1 if bold else 1.0)


def side_colours(sides: Iterable[str]) -> dict[str, str]:
    """A fill colour per side, in the order the sides first appear.

    >>> side_colours(["german", "us", "german"])
    {'german': '#a9bccf', 'us': '#9fc5e8'}
    """
    colours: dict[str, str] = {}
    spare = iter(SPARE_COLOURS * 4)
    for side in sides:
        if side not in colours:
            colours[side] = NATION_COLOURS.get(side.lower()) or next(spare)
    return colours


def grid_slots(count: int) -> list[tuple[float, float, float]]:
    """Where a stack's counters sit in a hex of size 1: each centre offset and side.

    One counter fills the middle (as wide as the hex's half-height allows, so that its words
    read at a modest zoom); two stand side by side; three or four make a 2x2 grid, up to
    nine a 3x3 grid, up to sixteen a 4x4 grid; more share the last slot, fanned (the tooltips
    and the status still list them all). Every slot lies inside the hex, below its label and
    above its markers' row, clear of its left and right edges' tags.
    """
    if count <= 1:
        return [(0.0, -0.03, 0.98)][:count]
    if count == 2:
        return [(-0.28, -0.02, 0.54), (0.28, -0.02, 0.54)]
    if count <= 4:
        cells = [(-0.28, -0.27), (0.28, -0.27), (-0.28, 0.3), (0.28, 0.3)]
        return [(x, y, 0.52) for x, y in cells[:count]]
    if count <= 9:
        cells = [(x, y) for y in (-0.32, 0.04, 0.4) for x in (-0.37, 0.0, 0.37)]
        return [(x, y, 0.34) for x, y in cells[:count]]
    cells = [(x, y) for y in (-0.39, -0.13, 0.13, 0.39) for x in (-0.39, -0.13, 0.13, 0.39)]
    slots = [(x, y, 0.24) for x, y in cells[: min(count, 16)]]
    for extra in range(count - 16):
        x, y = cells[-1]
        step = 0.02 * (extra + 1)
        slots.append((x - step, y - step, 0.24))
    return slots


# A map is drawn again at every version of a game, and most of its counters are as they were:
# each one's group is kept by all it is drawn from (bench_web: the counters were 0.3-0.5 ms
# of a 0.5-1.2 ms map).
@functools.lru_cache(maxsize=4096)
def counter_svg(
    counter: CounterView,
    *,
    hex_label: str,
    centre: tuple[float, float],
    offset: tuple[float, float],
    side: float,
    colour: str,
    facing: float | None,
    turret: float | None,
    font: str,
) -> str:
    """One unit's group (see the module docstring); angles in degrees clockwise from east."""
    unit = escape(counter.unit, {'"': "&quot;"})
    states = ", ".join(b.key.replace("-", " ") for b in counter.badges) or "no markers"
    name = counter.name or counter.label
    tooltip = f"{name} ({counter.unit}, {counter.side}) in {hex_label}"
    if counter.notation:
        tooltip += f": {counter.notation}"
    parts = [
        f'<g id="unit-{unit}" class="{counter.classes}" data-unit="{unit}" '
        f'data-hex="{escape(hex_label)}" data-side="{escape(counter.side)}" '
        f'transform="translate({centre[0]:.1f} {centre[1]:.1f})">',
        f"<title>{escape(tooltip)}; {escape(states)}</title>",
        f'<g class="counter-body" transform="translate({offset[0]:.1f} {offset[1]:.1f})">',
    ]
    c = side
    if turret is not None:
        parts.append(_turret(turret, c))
    if facing is not None:
        parts.append(_arrow(facing, c))
    parts.append(
        f'<rect class="counter-face" x="{-c / 2:.1f}" y="{-c / 2:.1f}" width="{c:.1f}" '
        f'height="{c:.1f}" rx="{c * 0.08:.1f}" fill="{colour}" stroke="{INK}" '
        f'stroke-width="{max(0.8, c * 0.03):.1f}"/>'
    )
    parts.append(
        _text((0, -c * 0.24), counter.label, c * 0.24, room=c * 0.92, font=font, bold=True)
    )
    rows = _badge_rows(counter, c)
    if len(rows) <= 1:
        parts.append(_glyph(counter.glyph, c))
    if counter.notation:
        # Two rows of badges take the glyph's place: the notation stays readable above them.
        bottom = c * 0.2 if len(rows) <= 1 else c * 0.44 - len(rows) * c * 0.26
        parts.append(_text((0, bottom), counter.notation, c * 0.2, room=c * 0.96, font=font))
    parts += _badges(rows, c, font)
    parts.append("</g></g>")
    return "".join(parts)


def _text(
    at: tuple[float, float], words: str, size: float, *, room: float, font: str, bold: bool = False
) -> str:
    """Centred text, in a smaller font when it would be wider than ``room`` (a font size
    every renderer honours, where some ignore ``textLength``)."""
    x, y = at
    wide = text_width(words, size, bold=bold)
    if wide > room:
        size *= room / wide
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" font-family="{font}" '
        f'text-anchor="middle" fill="{INK}"{weight}>{escape(words)}</text>'
    )


def _arrow(angle: float, c: float) -> str:
    """The facing: a dark arrow from under the counter out past its edge."""
    a = math.radians(angle)
    reach = c * 0.5 / max(abs(math.cos(a)), abs(math.sin(a))) + c * 0.24
    tip = (reach * math.cos(a), reach * math.sin(a))
    back = reach - c * 0.2
    wing = c * 0.11
    left = (back * math.cos(a) - wing * math.sin(a), back * math.sin(a) + wing * math.cos(a))
    right = (back * math.cos(a) + wing * math.sin(a), back * math.sin(a) - wing * math.cos(a))
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (tip, left, right))
    return (
        f'<g class="facing"><line x1="0" y1="0" x2="{tip[0]:.1f}" y2="{tip[1]:.1f}" '
        f'stroke="{INK}" stroke-width="{c * 0.07:.1f}"/>'
        f'<polygon points="{points}" fill="{INK}"/></g>'
    )


def _turret(angle: float, c: float) -> str:
    """A turret's Covered Arc: a long line ending in a ring, past the facing arrow."""
    a = math.radians(angle)
    reach = c * 0.5 / max(abs(math.cos(a)), abs(math.sin(a))) + c * 0.36
    x, y = reach * math.cos(a), reach * math.sin(a)
    return (
        f'<g class="turret"><line x1="0" y1="0" x2="{x:.1f}" y2="{y:.1f}" stroke="#5d4037" '
        f'stroke-width="{c * 0.05:.1f}"/><circle cx="{x:.1f}" cy="{y:.1f}" r="{c * 0.07:.1f}" '
        f'fill="#ffffff" stroke="#5d4037" stroke-width="{c * 0.04:.1f}"/></g>'
    )


def _glyph(kind: str, c: float) -> str:
    """The type symbol in the middle of the counter, in a NATO-like frame."""
    w, h, cy = c * 0.44, c * 0.22, -c * 0.05
    x0, y0 = -w / 2, cy - h / 2
    stroke = f'stroke="{INK}" stroke-width="{max(0.6, c * 0.025):.1f}" fill="none"'
    frame = f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{w:.1f}" height="{h:.1f}" {stroke}/>'
    inner = ""
    if kind == "tank":
        inner = f'<ellipse cx="0" cy="{cy:.1f}" rx="{w * 0.36:.1f}" ry="{h * 0.28:.1f}" {stroke}/>'
    elif kind == "vehicle":
        r = h * 0.16
        inner = "".join(
            f'<circle cx="{x:.1f}" cy="{y0 + h * 0.68:.1f}" r="{r:.1f}" fill="{INK}"/>'
            for x in (-w * 0.22, w * 0.22)
        )
    elif kind == "gun":
        inner = (
            f'<circle cx="{-w * 0.15:.1f}" cy="{cy:.1f}" r="{h * 0.18:.1f}" fill="{INK}"/>'
            f'<line x1="{-w * 0.15:.1f}" y1="{cy:.1f}" x2="{w * 0.42:.1f}" y2="{cy:.1f}" '
            f"{stroke}/>"
        )
    elif kind in ("squad", "half-squad", "team"):
        inner = (
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{-x0:.1f}" y2="{y0 + h:.1f}" {stroke}/>'
            f'<line x1="{x0:.1f}" y1="{y0 + h:.1f}" x2="{-x0:.1f}" y2="{y0:.1f}" {stroke}/>'
        )
        if kind == "half-squad":
            frame = frame.replace("/>", f' stroke-dasharray="{c * 0.04:.1f},{c * 0.03:.1f}"/>')
        if kind == "team":
            inner += f'<circle cx="0" cy="{y0 - h * 0.25:.1f}" r="{h * 0.12:.1f}" fill="{INK}"/>'
    elif kind == "leader":
        frame = ""
        r = h * 0.62
        points = []
        for i in range(10):
            radius = r if i % 2 == 0 else r * 0.45
            a = math.radians(-90 + 36 * i)
            points.append(f"{radius * math.cos(a):.1f},{cy + radius * math.sin(a):.1f}")
        inner = f'<polygon points="{" ".join(points)}" fill="{INK}"/>'
    elif kind == "weapon":
        frame = ""
        inner = (
            f'<line x1="{x0:.1f}" y1="{cy:.1f}" x2="{-x0:.1f}" y2="{cy:.1f}" {stroke}/>'
            f'<polygon points="{-x0:.1f},{cy:.1f} {-x0 - h * 0.4:.1f},{cy - h * 0.3:.1f} '
            f'{-x0 - h * 0.4:.1f},{cy + h * 0.3:.1f}" fill="{INK}"/>'
        )
    return f'<g class="glyph">{frame}{inner}</g>'


MAX_BADGE_ROWS = 3


def _badge_rows(counter: CounterView, c: float) -> list[list[tuple[str, str, float]]]:
    """The badges in rows that fit the counter's width, at most three rows: (key, text, width)
    each. What would not fit is one ``+N`` badge (the classes and the tooltip keep them all)."""
    size = c * 0.19
    room = c * 0.94
    gap = c * 0.03
    badges = [(b.key, b.text) for b in counter.badges]
    while True:
        rows: list[list[tuple[str, str, float]]] = []
        used = room + 1
        for key, text in badges:
            width = min(room, text_width(text, size, bold=True) + c * 0.08)
            if used + width + gap > room:
                rows.append([])
                used = -gap
            rows[-1].append((key, text, width))
            used += width + gap
        if len(rows) <= MAX_BADGE_ROWS:
            return rows
        kept = len(badges) - 2
        hidden = len(counter.badges) - kept
        badges = [*[(b.key, b.text) for b in counter.badges[:kept]], ("more", f"+{hidden}")]


def _badges(rows: list[list[tuple[str, str, float]]], c: float, font: str) -> list[str]:
    """Each row centred, the first along the bottom edge, the next above it."""
    parts = []
    h = c * 0.23
    for index, row in enumerate(rows):
        total = sum(w for _, _, w in row) + c * 0.03 * (len(row) - 1)
        x = -total / 2
        y = c * 0.47 - h - index * (h + c * 0.03)
        for key, text, width in row:
            parts.append(
                f'<rect class="box badge-box badge-{escape(key)}" x="{x:.1f}" y="{y:.1f}" '
                f'width="{width:.1f}" height="{h:.1f}" rx="{h * 0.3:.1f}" fill="{BADGE_FILL}" '
                f'stroke="{INK}" stroke-width="{max(0.5, c * 0.02):.1f}"/>'
            )
            room = width - c * 0.04
            at = (x + width / 2, y + h * 0.76)
            parts.append(_text(at, text, c * 0.19, room=room, font=font, bold=True))
            x += width + c * 0.03
    return parts
