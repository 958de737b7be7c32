"""The Ammunition Supply Chart (C8.2): every row and year, month starts, Elite, service, counter."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.asl.dates import COMMONWEALTH, ScenarioDate
from ordnance.asl.supply import CHART, chart_number, parse_gun_size, search_order
from ordnance.core.errors import BadInput

YEARS = (1941, 1942, 1943, 1944, 1945)

# Golden: reference/asl.md section 4, typed in here independently of ammo_supply.toml. A cell is
# None for "-", else (ammo, number, first month). The second column is 1942 (C8.2-chart).
A, D = "APCR", "APDS"
GOLDEN = {
    ("german", ("50L",)): [(A, 5, 1), (A, 6, 1), (A, 5, 1), (A, 4, 1), None],
    ("german", ("37L", "47L", "50", "88L")): [(A, 4, 1), (A, 5, 1), (A, 4, 1), (A, 3, 1), None],
    ("german", ("75L", "76L")): [None, (A, 5, 1), (A, 4, 1), (A, 3, 1), None],
    ("american", ("76L",)): [None, None, None, (A, 4, 8), (A, 5, 1)],
    ("american", ("90L",)): [None, None, None, None, (A, 5, 1)],
    ("russian", ("45L", "45LL", "76L", "76LL")): [None, (A, 4, 1), (A, 5, 1), (A, 6, 1), (A, 7, 1)],
    ("russian", ("57LL", "85L")): [None, None, (A, 4, 1), (A, 5, 1), (A, 6, 1)],
    ("british", ("57L",)): [None, None, None, (D, 6, 6), (D, 7, 1)],
    ("british", ("76LL",)): [None, None, None, (D, 5, 9), (D, 6, 1)],
}
CASES = [
    (nationality, gun, year, cell, guns)
    for (nationality, guns), cells in GOLDEN.items()
    for gun in guns
    for year, cell in zip(YEARS, cells, strict=True)
]


def _id(case: tuple[object, ...]) -> str:
    return f"{case[0]}-{case[1]}-{case[2]}"


@pytest.mark.clause("C8.2-chart")
def test_chart_file_holds_exactly_the_golden_rows():
    assert CHART.years == YEARS
    assert {(row.nationality, row.guns) for row in CHART.rows} == set(GOLDEN)
    assert "1942" in CHART.source


@pytest.mark.clause("C8.2-chart", "C8.2-month", "C8.1-date")
@pytest.mark.parametrize(("nationality", "gun", "year", "cell", "guns"), CASES, ids=map(_id, CASES))
def test_every_row_and_year_at_year_end(nationality, gun, year, cell, guns):
    ruling = chart_number(nationality, gun, f"{year}-12")
    assert ruling.row == f"{nationality} {', '.join(guns)}"
    assert ruling.ammo == next(c[0] for c in GOLDEN[(nationality, guns)] if c is not None)
    if cell is None:
        assert not ruling.available
        assert ruling.depletion_number is None
        assert "'-'" in ruling.explanation
    else:
        assert ruling.available
        assert ruling.depletion_number == cell[1]
    assert ruling.clauses[0] == "C8.2-chart"
    assert "C8.2-service" not in ruling.clauses


@pytest.mark.clause("C8.2-chart", "C8.2-month")
@pytest.mark.parametrize(("nationality", "gun", "year", "cell", "guns"), CASES, ids=map(_id, CASES))
def test_every_row_and_year_in_january(nationality, gun, year, cell, guns):
    ruling = chart_number(nationality, gun, f"{year}-01")
    month_start = cell is not None and cell[2] > 1
    expected = None if cell is None or month_start else cell[1]
    assert ruling.depletion_number == expected
    assert ruling.available is (expected is not None)


@pytest.mark.clause("C8.2-month")
@pytest.mark.parametrize(
    ("nationality", "gun", "before", "start", "ammo", "number"),
    [
        ("american", "76L", "1944-07", "1944-08", "APCR", 4),
        ("british", "57L", "1944-05", "1944-06", "APDS", 6),
        ("british", "76LL", "1944-08", "1944-09", "APDS", 5),
    ],
)
def test_month_start(*, nationality, gun, before, start, ammo, number):
    early = chart_number(nationality, gun, before)
    assert (early.available, early.depletion_number, early.ammo) == (False, None, ammo)
    assert "C8.2-month" in early.clauses
    assert "before" in early.explanation
    on_time = chart_number(nationality, gun, start)
    assert (on_time.available, on_time.depletion_number, on_time.ammo) == (True, number, ammo)
    assert "C8.2-month" in on_time.clauses


@pytest.mark.clause("C8.2-month")
def test_month_start_does_not_reach_the_next_year():
    assert chart_number("american", "76L", "1945-01").depletion_number == 5


@pytest.mark.clause("C8.2-elite")
@pytest.mark.parametrize(
    ("nationality", "gun", "date", "number"),
    [
        ("german", "50L", "1942-03", 7),
        ("russian", "85L", "1945-05", 7),
        ("british", "76LL", "1944-09", 6),
        ("american", "76L", "1944-08", 5),
    ],
)
def test_elite_adds_one(nationality, gun, date, number):
    ruling = chart_number(nationality, gun, date, elite=True)
    assert ruling.depletion_number == number
    assert "C8.2-elite" in ruling.clauses
    assert "Elite" in ruling.explanation


@pytest.mark.clause("C8.2-elite")
def test_elite_gives_nothing_where_the_chart_gives_nothing():
    ruling = chart_number("german", "50L", "1945-01", elite=True)
    assert (ruling.available, ruling.depletion_number) == (False, None)
    assert "C8.2-elite" not in ruling.clauses


@pytest.mark.clause("C8.2-service")
@pytest.mark.parametrize(
    ("nationality", "gun", "date", "row", "number"),
    [
        ("british", "76L", "1945-02", "american 76L", 5),
        ("british", "90L", "1945-02", "american 90L", 5),
        ("canadian", "57L", "1944-07", "british 57L", 6),
        ("canadian", "76L", "1944-10", "american 76L", 4),
        ("new-zealand", "76LL", "1945-01", "british 76LL", 6),
        ("south african", "57L", "1945-01", "british 57L", 7),
    ],
)
def test_service_rule(nationality, gun, date, row, number):
    ruling = chart_number(nationality, gun, date)
    assert (ruling.row, ruling.depletion_number) == (row, number)
    assert "C8.2-service" in ruling.clauses


@pytest.mark.clause("C8.2-service")
def test_service_search_order():
    assert search_order("british") == ("british", "american")
    for nationality in COMMONWEALTH:
        assert search_order(nationality) == ("british", "american")
    # The rule runs one way: U.S. ordnance does not include British Guns.
    assert search_order("american") == ("american",)
    assert not chart_number("american", "57L", "1945-01").available


@pytest.mark.clause("C8.2-service", "C8.2-chart")
def test_british_own_rows_need_no_service_clause():
    ruling = chart_number("british", "57L", "1944-06")
    assert ruling.row == "british 57L"
    assert "C8.2-service" not in ruling.clauses


@pytest.mark.clause("C8.2-chart")
@pytest.mark.parametrize(
    ("nationality", "origin", "gun", "date", "row", "number"),
    [
        ("russian", "american", "76L", "1945-01", "american 76L", 5),
        ("american", "german", "75L", "1943-06", "german 75L, 76L", 4),
        ("italian", "german", "50L", "1942-06", "german 50L", 6),
        ("german", "canadian", "57L", "1945-01", "british 57L", 7),
    ],
)
def test_origin_overrides_the_search(*, nationality, origin, gun, date, row, number):
    ruling = chart_number(nationality, gun, date, origin=origin)
    assert (ruling.row, ruling.depletion_number) == (row, number)
    # Only a Commonwealth maker reaches another nation's rows through the service rule.
    assert ("C8.2-service" in ruling.clauses) is (origin == "canadian")


@pytest.mark.clause("C8.2-chart")
def test_origin_without_a_row_is_not_available():
    ruling = chart_number("german", "47L", "1942-06", origin="italian")
    assert not ruling.available
    assert "no row for italian" in ruling.explanation


@pytest.mark.clause("C8.2-counter", "C8.1-date")
def test_counter_overrides_the_chart():
    # M10 GMC: A5(A4E) on the counter, where the chart's American 76L row gives A4.
    ruling = chart_number("american", "76L", "1944-08", counter=5)
    assert (ruling.available, ruling.depletion_number, ruling.from_counter) == (True, 5, True)
    assert ruling.clauses[0] == "C8.2-counter"
    assert "chart gives 4" in ruling.explanation


@pytest.mark.clause("C8.2-counter")
def test_counter_applies_where_the_chart_has_nothing():
    ruling = chart_number("italian", "47L", "1943-01", counter=4)
    assert (ruling.available, ruling.depletion_number, ruling.ammo) == (True, 4, None)
    assert "chart gives none" in ruling.explanation


@pytest.mark.clause("C8.2-counter", "C8.2-elite")
def test_elite_raises_the_counter_number_too():
    ruling = chart_number("german", "75L", "1944-01", elite=True, counter=3)
    assert ruling.depletion_number == 4
    assert {"C8.2-counter", "C8.2-elite"} <= set(ruling.clauses)


@pytest.mark.clause("C8.2-counter")
@pytest.mark.parametrize("counter", [0, 13, -1])
def test_counter_out_of_range_is_bad_input(counter):
    with pytest.raises(BadInput, match="counter"):
        chart_number("german", "75L", "1944-01", counter=counter)


@pytest.mark.clause("C8.2-chart")
@pytest.mark.parametrize("nationality", ["italian", "japanese", "french", "finnish", "chinese"])
def test_nationality_not_on_the_chart(nationality):
    ruling = chart_number(nationality, "47L", "1943-06")
    assert (ruling.available, ruling.ammo, ruling.row, ruling.depletion_number) == (
        False,
        None,
        None,
        None,
    )
    assert f"no row for {nationality}" in ruling.explanation
    assert ruling.clauses == ("C8.2-chart",)


@pytest.mark.clause("C8.2-chart")
@pytest.mark.parametrize("date", ["1940-06", "1939-09", "1946-01", "1950-07"])
def test_year_not_on_the_chart(date):
    ruling = chart_number("german", "50L", date)
    assert not ruling.available
    assert ruling.row == "german 50L"
    assert "1941 to 1945" in ruling.explanation


@pytest.mark.clause("C8.2-chart")
@pytest.mark.parametrize(
    ("nationality", "gun"), [("german", "90L"), ("american", "75L"), ("russian", "50")]
)
def test_gun_size_not_on_any_row(nationality, gun):
    ruling = chart_number(nationality, gun, "1944-10")
    assert (ruling.available, ruling.row, ruling.ammo) == (False, None, None)
    assert gun in ruling.explanation


@pytest.mark.clause("C8.2-chart")
def test_50_and_50l_are_different_rows():
    assert chart_number("german", "50", "1942-01").depletion_number == 5
    assert chart_number("german", "50L", "1942-01").depletion_number == 6


@pytest.mark.parametrize(
    ("text", "position"),
    [("banana", 0), ("75X", 2), ("75LLL", 4), ("L75", 0), ("", 0), ("7 5L", 1), ("75mm", 2)],
)
def test_malformed_gun_size(text, position):
    with pytest.raises(BadInput) as caught:
        chart_number("german", text, "1943-01")
    assert caught.value.what == "gun size"
    assert caught.value.position == position


@given(st.integers(1, 999), st.sampled_from(["", "l", "L", "ll", "LL", "lL"]))
def test_gun_size_normalises(calibre, suffix):
    assert parse_gun_size(f" {calibre}{suffix} ") == f"{calibre}{suffix.upper()}"


@pytest.mark.parametrize("text", ["1000L", "７５L", "9" * 5000])
def test_a_calibre_of_more_than_three_ascii_digits_is_bad_input(text):
    with pytest.raises(BadInput, match="gun size"):
        parse_gun_size(text)


def test_unknown_nationality_is_bad_input():
    with pytest.raises(BadInput, match="nationality"):
        chart_number("klingon", "75L", "1943-01")
    with pytest.raises(BadInput, match="nationality"):
        chart_number("german", "75L", "1943-01", origin="vulcan")


def test_accepts_a_scenario_date():
    assert chart_number("german", "75L", ScenarioDate(1943, 2)).depletion_number == 4


def test_ruling_serialises():
    data = chart_number("american", "76L", "1944-08").to_json()
    assert data["ammo"] == "APCR" and data["depletion_number"] == 4
    assert data["clauses"] == ["C8.2-chart", "C8.2-month"]
