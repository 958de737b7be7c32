"""Scenario dates, theaters and nationalities: the context of every C8 answer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.asl.dates import ScenarioDate, Theater, parse_nationality
from ordnance.core.errors import BadInput


@given(st.integers(1936, 1953), st.integers(1, 12))
def test_date_round_trips(year, month):
    date = ScenarioDate(year, month)
    assert ScenarioDate.parse(str(date)) == date
    assert eval(repr(date)) == date


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("1944-13", "month"),
        ("1944-00", "month"),
        ("2024-05", "year"),
        ("1899-05", "year"),
        ("1944/05", "YYYY-MM"),
        ("May 1944", "YYYY-MM"),
        ("", "YYYY-MM"),
    ],
)
def test_impossible_dates_are_refused(text, fault):
    with pytest.raises(BadInput, match=fault):
        ScenarioDate.parse(text)


def test_dates_order_by_year_then_month():
    assert ScenarioDate(1944, 12) < ScenarioDate(1945, 1)
    assert ScenarioDate.parse("1944-08") == ScenarioDate(1944, 8)


@pytest.mark.parametrize("text", ["1944-8", "1944-1", "１９４４-０６", "1944-٠٦", "44-06"])
def test_a_date_is_four_ascii_digits_and_two(text):
    with pytest.raises(BadInput, match="YYYY-MM"):
        ScenarioDate.parse(text)


def test_theater_and_nationality_words():
    assert Theater.parse("burma") is Theater.BURMA
    with pytest.raises(BadInput, match="unknown theater"):
        Theater.parse("Mars")
    assert parse_nationality("British") == "british"
    with pytest.raises(BadInput, match="unknown nationality"):
        parse_nationality("klingon")
