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

from collections.abc import Sequence
from fractions import Fraction
from xml.sax.saxutils import escape, quoteattr

BAR_WIDTH, BAR_GAP, CHART_HEIGHT = 46, 10, 120
LABEL_CHARS = 9  # what fits under a bar and its gap at 11 px
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


def fit(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters with an ellipsis, so that long outcome names do
    not run into their neighbours (the bar's tooltip and the odds table keep them whole).

    >>> fit("hit", 9), fit("beyond: LOS blocked", 9)
    ('hit', 'beyond: …')
    """
    return text if len(text) <= chars else text[: chars - 1] + "\u2026"


def odds_chart(rows: Sequence[tuple[str, Fraction]], *, title: str) -> str:
    """Bars for each outcome (in the given order), labelled with fraction and percent.

    The dashed line and the caption under each bar give the chance of *at least* that outcome
    (this one or any later in the order), which is what a player weighs before firing.
    """
    count = max(1, len(rows))
    width = count * (BAR_WIDTH + BAR_GAP) + BAR_GAP
    height = CHART_HEIGHT + 70
    top = max((p for _, p in rows), default=Fraction(1)) or Fraction(1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="odds" width="{width}"'
        f' height="{height}" viewBox="0 0 {width} {height}" role="img"'
        f" aria-label={quoteattr(title)}>",
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    remaining = Fraction(1)
    line: list[str] = []
    for index, (label, p) in enumerate(rows):
        x = BAR_GAP + index * (BAR_WIDTH + BAR_GAP)
        bar = float(p / top) * (CHART_HEIGHT - 20)
        y = 20 + (CHART_HEIGHT - 20) - bar
        at_least = remaining
        remaining -= p
        level = 20 + (CHART_HEIGHT - 20) * (1 - float(min(at_least, top) / top))
        line.append(f"{x},{level:.1f} {x + BAR_WIDTH},{level:.1f}")
        parts += [
            f'<rect x="{x}" y="{y:.1f}" width="{BAR_WIDTH}" height="{bar:.1f}" fill="#1565c0">'
            f"<title>{escape(label)}: {p.numerator}/{p.denominator} ({percent(p)});"
            f" at least {escape(label)}: {percent(at_least)}</title></rect>",
            f'<text x="{x + BAR_WIDTH / 2}" y="{y - 4:.1f}" font-size="10"'
            f' text-anchor="middle">{percent(p)}</text>',
            f'<text x="{x + BAR_WIDTH / 2}" y="{CHART_HEIGHT + 14}" font-size="11"'
            f' text-anchor="middle">{escape(fit(label, LABEL_CHARS))}</text>',
            f'<text x="{x + BAR_WIDTH / 2}" y="{CHART_HEIGHT + 28}" font-size="10"'
            f' text-anchor="middle">{p.numerator}/{p.denominator}</text>',
            f'<text x="{x + BAR_WIDTH / 2}" y="{CHART_HEIGHT + 42}" font-size="9"'
            f' text-anchor="middle" fill="#b71c1c">&#8805;{percent(at_least)}</text>',
        ]
    for segment in line:
        parts.append(
            f'<polyline points="{segment}" stroke="#b71c1c" stroke-dasharray="3,2" fill="none"/>'
        )
    summary = "; ".join(f"at least {label}: {percent(p)}" for label, p in _at_least(rows)[1:2])
    summary = fit(summary, int((width - BAR_GAP) / 5.5))  # ~5.5 px a character at 10 px
    parts.append(
        f'<text x="{BAR_GAP}" y="{height - 6}" font-size="10">{escape(summary)}</text></svg>'
    )
    return "".join(parts)


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
