"""The odds chart stays readable whatever the outcomes are called."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from ordnance.web.charts import BAR_GAP, BAR_WIDTH, odds_chart

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


def texts(svg: str, size: str) -> list[str]:
    return re.findall(rf'<text [^>]*font-size="{size}"[^>]*>([^<]*)</text>', svg)


@pytest.mark.clause("SYS.odds")
def test_outcome_names_fit_under_their_bars_and_the_summary_in_the_chart() -> None:
    svg = odds_chart(LONG, title="Odds of smoke-shell stug --at H3")
    names = texts(svg, "11")
    assert len(names) == len(LONG)
    # ~6 px a character at 11 px: a name wider than its bar and gap runs into the next one.
    assert all(len(name) * 6 <= BAR_WIDTH + BAR_GAP for name in names), names
    width = int(re.search(r'width="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    (summary,) = [t for t in texts(svg, "10") if t.startswith("at least")]
    assert len(summary) * 5.5 <= width - BAR_GAP, summary
    # The whole names stay in each bar's tooltip.
    assert all(f"<title>{label}: " in svg for label, _ in LONG)


@pytest.mark.clause("SYS.odds")
def test_short_outcome_names_are_shown_whole() -> None:
    svg = odds_chart([("hit", Fraction(5, 12)), ("miss", Fraction(7, 12))], title="To Hit")
    assert texts(svg, "11") == ["hit", "miss"]
