"""The odds chart stays readable whatever the outcomes are called, and as narrow as a phone."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from ordnance.web.charts import CHART_WIDTH, LINE_CHARS, MARGIN, odds_chart

# An LnL smoke shell's outcomes are sentences; six of them shared one chart in the preview
# and their names ran into each other (seen in the board's screenshots, issue 27).
LONG = [
    ("beyond: LOS blocked, nothing placed", Fraction(1, 12)),
    ("beyond: Smoke Shell counter placed", Fraction(1, 12)),
    ("on target: Smoke Shell counter placed", Fraction(5, 24)),
    ("short: Smoke Shell counter placed", Fraction(5, 24)),
    ("no smoke: the shell is a dud", Fraction(5, 24)),
    ("depleted: no more smoke", Fraction(5, 24)),
]
# An LnL WP shell into a stacked hex: names of 70 characters and more, eight of them.
WP = [
    (f"hit: WP in H3; lt, m3, sq1 check for WP; WP Shell counter {end}", Fraction(1, 8))
    for end in ("back to the pool", "removed (0 left)", "a", "b", "c", "d", "e", "f")
]


def texts(svg: str, size: str) -> list[str]:
    return re.findall(rf'<text [^>]*font-size="{size}"[^>]*>([^<]*)</text>', svg)


def width_of(svg: str) -> int:
    return int(re.search(r'width="(\d+)"', svg).group(1))  # type: ignore[union-attr]


@pytest.mark.clause("SYS.odds")
@pytest.mark.parametrize("rows", [LONG, WP], ids=["smoke", "wp"])
def test_outcome_names_are_shown_whole_in_lines_that_fit_the_chart(rows) -> None:
    svg = odds_chart(rows, title="Odds of wp-shell pz4 --at H3")
    lines = texts(svg, "11")
    # ~6.6 px a character at 11 px: every line of a name fits across the chart.
    assert all(len(line) * 6.6 <= CHART_WIDTH - 2 * MARGIN for line in lines), lines
    assert max(len(line) for line in lines) <= LINE_CHARS
    # Each name whole, in order (its lines joined), never cut with an ellipsis.
    joined = " ".join(lines)
    assert "\u2026" not in joined
    at = 0
    for label, _ in rows:
        at = joined.index(label, at) + len(label)
    # The whole names stay in each bar's tooltip too.
    assert all(f"<title>{label}: " in svg for label, _ in rows)


@pytest.mark.clause("SYS.odds")
def test_many_outcomes_make_the_chart_taller_never_wider() -> None:
    many = [(f"{n} casualties", Fraction(1, 12)) for n in range(12)]
    few, more = odds_chart(many[:2], title="t"), odds_chart(many, title="t")
    assert width_of(few) == width_of(more) == CHART_WIDTH <= 303  # a phone's preview
    heights = [int(re.search(r'height="(\d+)"', s).group(1)) for s in (few, more)]  # type: ignore[union-attr]
    assert heights[1] > heights[0]
    # Each row says its exact fraction after its bar.
    numbers = [t for t in texts(more, "10") if re.fullmatch(r"\d+\.\d% \(\d+/\d+\)", t)]
    assert numbers == ["8.3% (1/12)"] * 12


@pytest.mark.clause("SYS.odds")
def test_short_outcome_names_are_shown_whole() -> None:
    svg = odds_chart([("hit", Fraction(5, 12)), ("miss", Fraction(7, 12))], title="To Hit")
    assert texts(svg, "11") == ["hit", "miss"]
    assert "at least miss: 58.3%" in svg
