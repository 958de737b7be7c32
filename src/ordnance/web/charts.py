"""SVG written here: the exact odds of an action as a bar chart, and dice as faces.

>>> from fractions import Fraction
>>> svg = odds_chart([("0 CP", Fraction(1, 2)), ("1 CP", Fraction(1, 3)),
...                   ("2 CP", Fraction(1, 6))], title="CP of fire a1 --at C4")
>>> svg.count("<rect"), "50.0%" in svg, "at least 1 CP: 50.0%" in svg
(4, True, True)
>>> die_face(5).count("<circle")
5
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from fractions import Fraction
from xml.sax.saxutils import escape, quoteattr

# One bar a row, its outcome's name above it: the chart is as narrow as a phone's preview
# (390 px, 303 px inside the panel) whatever the outcomes, and grows down, not sideways.
CHART_WIDTH, MARGIN, BAR_MAX = 300, 6, 140
LINE_CHARS = 44  # what fits across the chart at 11 px (~6.6 px a character)
NAME_LINE, BAR_HEIGHT, ROW_GAP = 13, 13, 7
PIPS = {
    1: [(2, 2)],
    2: [(1, 1), (3, 3)],
    3: [(1, 1), (2, 2), (3, 3)],
    4: [(1, 1), (3, 1), (1, 3), (3, 3)],
    5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
    6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
}


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def lines(text: str, chars: int = LINE_CHARS) -> list[str]:
    """``text`` broken into lines of at most ``chars`` characters, at spaces where it can be
    (an outcome's name is shown whole, never cut).

    >>> lines("hit: WP in H3; lt, m3, sq1 check for WP; WP Shell counter back to the pool")
    ['hit: WP in H3; lt, m3, sq1 check for WP; WP', 'Shell counter back to the pool']
    """
    return textwrap.wrap(text, chars, break_on_hyphens=False) or [""]


def odds_chart(rows: Sequence[tuple[str, Fraction]], *, title: str) -> str:
    """A bar for each outcome (in the given order, the longest bar the likeliest), its name
    above it, its fraction and percent after it.

    The red figure at the right of each row, and the line under the chart, give the chance of
    *at least* that outcome (this one or any later in the order), which is what a player weighs
    before firing.
    """
    top = max((p for _, p in rows), default=Fraction(1)) or Fraction(1)
    parts: list[str] = []
    y = MARGIN
    remaining = Fraction(1)
    for label, p in rows:
        at_least = remaining
        remaining -= p
        for line in lines(label):
            y += NAME_LINE
            parts.append(f'<text x="{MARGIN}" y="{y - 3}" font-size="11">{escape(line)}</text>')
        bar = max(1.0, float(p / top) * BAR_MAX) if p else 0.0
        middle = y + BAR_HEIGHT / 2 + 3.5
        parts += [
            f'<rect x="{MARGIN}" y="{y}" width="{bar:.1f}" height="{BAR_HEIGHT}" fill="#1565c0">'
            f"<title>{escape(label)}: {p.numerator}/{p.denominator} ({percent(p)});"
            f" at least {escape(label)}: {percent(at_least)}</title></rect>",
            f'<text x="{MARGIN + bar + 4:.1f}" y="{middle:.1f}" font-size="10">'
            f"{percent(p)} ({p.numerator}/{p.denominator})</text>",
            f'<text x="{CHART_WIDTH - MARGIN}" y="{middle:.1f}" font-size="10"'
            f' text-anchor="end" fill="#b71c1c">&#8805;{percent(at_least)}</text>',
        ]
        y += BAR_HEIGHT + ROW_GAP
    summary = "; ".join(f"at least {label}: {percent(p)}" for label, p in _at_least(rows)[1:2])
    for line in lines(summary, int((CHART_WIDTH - 2 * MARGIN) / 5.6)) if summary else []:
        y += NAME_LINE
        parts.append(
            f'<text x="{MARGIN}" y="{y - 3}" font-size="10" fill="#b71c1c">{escape(line)}</text>'
        )
    height = y + MARGIN
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" class="odds" width="{CHART_WIDTH}"'
            f' height="{height}" viewBox="0 0 {CHART_WIDTH} {height}" role="img"'
            f" aria-label={quoteattr(title)}>",
            f"<title>{escape(title)}</title>",
            f'<rect x="0" y="0" width="{CHART_WIDTH}" height="{height}" fill="#ffffff"/>',
            *parts,
            "</svg>",
        ]
    )


def _at_least(rows: Sequence[tuple[str, Fraction]]) -> list[tuple[str, Fraction]]:
    out: list[tuple[str, Fraction]] = []
    remaining = Fraction(1)
    for label, p in rows:
        out.append((label, remaining))
        remaining -= p
    return out


def die_face(value: int, *, colour: str = "#ffffff", size: int = 36) -> str:
    """One die showing ``value`` (1-6), with its number as the text alternative."""
    ink = "#ffffff" if colour != "#ffffff" else "#111111"
    step = size / 4
    pips = "".join(
        f'<circle cx="{col * step:.1f}" cy="{row * step:.1f}" r="{size / 11:.1f}" fill="{ink}"/>'
        for col, row in PIPS.get(value, [])
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="die" width="{size}" height="{size}"'
        f' viewBox="0 0 {size} {size}" role="img" aria-label="die showing {value}">'
        f'<rect x="1" y="1" width="{size - 2}" height="{size - 2}" rx="6" fill="{colour}"'
        f' stroke="#111111"/>{pips}</svg>'
    )
