"""Which capabilities a counter has in a scenario, and their effective numbers (C8, D13)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ordnance.asl.capabilities import (
    AmmoContext,
    Capability,
    date_code_fits,
    evaluate,
    evaluate_text,
    evaluate_tokens,
)
from ordnance.asl.dates import ScenarioDate, Theater
from ordnance.asl.notation import DateCode, Family, Token, parse_capabilities
from ordnance.asl.settings import Settings

CLAUSES_MD = Path(__file__).resolve().parents[3] / "shared" / "rules" / "CLAUSES.md"
CLAUSES_MD_ROW = re.compile(r"^\| ([A-Z][A-Za-z0-9.\-]+) \|", re.M)
REQUIRED_FIELDS = {
    "family",
    "ammo",
    "token",
    "available",
    "depletion_number",
    "usage_number",
    "number",
    "second",
    "note",
    "rule",
    "clauses",
    "explanation",
}


def read(
    token: str,
    date: str,
    *,
    elite: bool = False,
    theater: Theater | None = None,
    nationality: str | None = None,
    settings: Settings | None = None,
) -> Capability:
    context = AmmoContext(ScenarioDate.parse(date), elite, theater, nationality)
    return evaluate(Token.parse(token), context, settings or Settings())


def number(token: str, date: str, **kwargs) -> int | None:
    """The effective number, or None when the capability does not exist at all."""
    capability = read(token, date, **kwargs)
    return capability.number if capability.available else None


# --- C8.91: the last matching step wins ----------------------------------------------------


@pytest.mark.clause("C8.91")
@pytest.mark.parametrize(
    ("date", "expected"),
    [("1943-12", None), ("1944-01", 5), ("1944-12", 5), ("1945-01", 6), ("1945-03", 6)],
)
def test_t34_85_golden_example(date: str, expected: int | None) -> None:
    # The rule text's own example: A5(4)/6(5) is 5 in 1944, 6 in 1945, none before 1944.
    capability = read("A5(4)/6(5)", date)
    assert capability.available is (expected is not None)
    assert capability.depletion_number == expected
    assert "C8.91" in capability.clauses
    assert capability.rule == "C8.1"


@pytest.mark.clause("C8.91", "C8.1-date")
def test_a_gun_may_lose_its_apcr_in_a_later_year() -> None:
    # 5cm PaK 38: A5(1)/6(2)/5(3)/4(4) and nothing in 1945.
    token = "A5(1)/6(2)/5(3)/4(4)"
    assert [number(token, f"194{y}-06") for y in range(6)] == [None, 5, 6, 5, 4, None]
    assert read(token, "1942-06").step == 1
    assert "not available in Jun 1945" in read(token, "1945-06").explanation


@pytest.mark.clause("C8.91", "C8.2-month")
@pytest.mark.parametrize(
    ("token", "date", "expected"),
    [
        ("A5(4)", "1943-12", None),
        ("A5(4)", "1944-01", 5),
        ("A5(4)", "1945-01", None),
        ("s5(4+)", "1943-12", None),
        ("s5(4+)", "1944-01", 5),
        ("s5(4+)", "1950-06", 5),
        ("WP7(J4)", "1944-05", None),
        ("WP7(J4)", "1944-06", 7),
        ("WP7(J4)", "1944-12", 7),
        ("WP7(J4)", "1945-01", None),
        ("WP7(J4+)", "1944-05", None),
        ("WP7(J4+)", "1944-06", 7),
        ("WP7(J4+)", "1946-01", 7),
        ("AP6(44-)", "1940-01", 6),
        ("AP6(44-)", "1943-12", 6),
        ("AP6(44-)", "1944-01", None),
        ("s5(1-2)", "1940-12", None),
        ("s5(1-2)", "1941-01", 5),
        ("s5(1-2)", "1942-12", 5),
        ("s5(1-2)", "1943-01", None),
        ("WP6(M51+)!2", "1951-02", None),
        ("WP6(M51+)!2", "1951-03", 6),
        ("D5(S4)/6(5)!", "1944-08", None),
        ("D5(S4)/6(5)!", "1944-09", 5),
        ("D5(S4)/6(5)!", "1945-01", 6),
        ("HE7(F3)/8(4+)!1", "1943-01", None),
        ("HE7(F3)/8(4+)!1", "1943-02", 7),
        ("HE7(F3)/8(4+)!1", "1944-06", 8),
        ("HE7(F3)/8(4+)!1", "1945-06", 8),
    ],
)
def test_each_date_code_form(token: str, date: str, expected: int | None) -> None:
    assert number(token, date) == expected


@pytest.mark.clause("C8.91", "C8.2-month")
def test_a_month_step_runs_on_when_the_setting_says_so() -> None:
    runs_on = Settings(month_step_ends_with_year=False)
    assert number("WP7(J4)", "1945-01") is None
    assert number("WP7(J4)", "1945-01", settings=runs_on) == 7
    # A later step still takes over: the last match wins.
    assert number("D5(S4)/6(5)", "1945-01", settings=runs_on) == 6
    assert "C8.2-month" in read("WP7(J4)", "1944-06").clauses


@pytest.mark.clause("C8.91")
def test_date_code_fits_explains_itself() -> None:
    context = AmmoContext(ScenarioDate.parse("1944-03"))
    fit = date_code_fits(DateCode.parse("J4"), context, family=Family.WP)
    assert not fit.matches and fit.reason == "Jun to Dec 1944"
    assert date_code_fits(DateCode.parse("44-"), context, family=Family.AP).reason == (
        "before 1944"
    )


# --- theater and nation flags --------------------------------------------------------------


@pytest.mark.clause("C8.91")
@pytest.mark.parametrize(
    ("token", "theater", "expected"),
    [
        ("C7(P)!", Theater.PTO, 7),
        ("C7(P)!", Theater.ETO, None),
        ("WP6(B)!", Theater.BURMA, 6),
        ("WP6(B)!", Theater.PTO, None),
        ("s6(3+P)!", Theater.PTO, 6),
        ("s6(3+P)!", Theater.MTO, None),
        ("A5(A4E)/6(5E)!1", Theater.ETO, 5),
        ("A5(A4E)/6(5E)!1", Theater.MTO, None),
    ],
)
def test_theater_flags(token: str, theater: Theater, expected: int | None) -> None:
    assert number(token, "1944-08", theater=theater) == expected


@pytest.mark.clause("C8.91")
def test_a_theater_flag_without_a_theater_does_not_match_and_says_why() -> None:
    capability = read("C7(P)!", "1944-08")
    assert not capability.available
    assert "the scenario theater is not given" in capability.explanation
    # A step without the flag still decides.
    mixed = read("A5(4+)/6(5E)", "1945-02")
    assert mixed.number == 5 and "theater is not given" in mixed.explanation


@pytest.mark.clause("C8.91")
def test_theater_flags_follow_the_settings() -> None:
    wider = Settings(theater_b="Burma,PTO", theater_e="ETO, MTO")
    assert number("WP6(B)!", "1944-08", theater=Theater.PTO, settings=wider) == 6
    assert number("A5(A4E)", "1944-08", theater=Theater.MTO, settings=wider) == 5


@pytest.mark.clause("C8.91")
@pytest.mark.parametrize(
    ("token", "nationality", "expected"),
    [
        ("s5(1-2R)!", "romanian", 5),
        ("s5(1-2R)!", "slovakian", None),
        ("A4(1S)!", "slovakian", 4),
        ("A4(1S)!", "croatian", None),
        ("C7(CS)!", "croatian", 7),
        ("C7(CS)!", "slovakian", 7),
        ("C7(CS)!", "hungarian", None),
    ],
)
def test_nation_flags(token: str, nationality: str, expected: int | None) -> None:
    assert number(token, "1941-06", nationality=nationality) == expected


@pytest.mark.clause("C8.91")
def test_a_nation_flag_without_a_nationality_does_not_match_and_says_why() -> None:
    capability = read("C7(CS)!", "1941-06")
    assert not capability.available
    assert "nationality is not given" in capability.explanation


@pytest.mark.clause("C8.8", "C8.91")
def test_a_calibre_code_is_not_a_date() -> None:
    for date in ("1940-05", "1945-05"):
        capability = read("AP9(cal75)!", date)
        assert capability.depletion_number == 9
        assert "75mm" in capability.explanation


# --- Elite (C8.2-elite) and dispensers (D13.1, C8.9-scope) ---------------------------------


@pytest.mark.clause("C8.2-elite")
@pytest.mark.parametrize("symbol", ["A", "D", "H", "C", "s", "WP", "AP", "HE"])
def test_elite_adds_one_to_every_depletion_number(symbol: str) -> None:
    plain = read(f"{symbol}7", "1944-06")
    elite = read(f"{symbol}7", "1944-06", elite=True)
    assert (plain.depletion_number, elite.depletion_number) == (7, 8)
    assert elite.printed_number == 7
    assert "C8.2-elite" in elite.clauses and "C8.2-elite" not in plain.clauses
    assert [a.value for a in elite.adjustments] == [1]


@pytest.mark.clause("C8.2-elite", "C8.91")
def test_elite_applies_to_the_dated_number_only() -> None:
    assert number("A5(4)/6(5)", "1945-03", elite=True) == 7
    heat = read("H6[9]!", "1944-06", elite=True)
    assert (heat.number, heat.second) == (7, 9)


@pytest.mark.clause("D13.1", "C8.9-scope", "C8.2-elite")
@pytest.mark.parametrize("symbol", ["sD", "sM", "sP", "sN"])
def test_dispensers_have_a_usage_number_and_no_elite_bonus(symbol: str) -> None:
    capability = read(f"{symbol}7", "1944-08", elite=True)
    assert capability.usage_number == 7 and capability.number == 7
    assert capability.depletion_number is None
    assert capability.adjustments == ()
    assert {"D13.1", "C8.9-scope"} <= set(capability.clauses)
    assert "C8.2-elite" not in capability.clauses
    assert "no Elite bonus" in capability.explanation


@pytest.mark.clause("C8.7", "C8.2-elite")
def test_ir_has_no_number_even_for_elite() -> None:
    capability = read("IR", "1944-06", elite=True)
    assert capability.available
    assert (capability.number, capability.depletion_number, capability.usage_number) == (
        None,
        None,
        None,
    )
    assert capability.clauses == ("C8.7",)


# --- sN dating (D13.34) ----------------------------------------------------------------------


@pytest.mark.clause("D13.34", "D13.1")
@pytest.mark.parametrize(
    ("date", "expected"),
    [
        ("1943-12", None),
        ("1944-01", None),
        ("1944-06", None),
        ("1944-07", 7),
        ("1944-12", 7),
        ("1945-01", 8),
        ("1945-05", 8),
    ],
)
def test_sn_first_number_covers_only_july_to_december_1944(date: str, expected: int | None) -> None:
    capability = read("sN7(4)/8(5)", date, elite=True)
    assert capability.usage_number == expected
    assert capability.available is (expected is not None)
    assert "D13.34" in capability.clauses


@pytest.mark.clause("D13.34")
def test_sn_month_is_a_setting_and_concerns_sn_only() -> None:
    assert number("sN7(4)/8(5)", "1944-03", settings=Settings(sn_first_number_from_month=3)) == 7
    assert "Jul to Dec 1944" in read("sN7(4)/8(5)", "1944-06").explanation
    # Other dispensers dated the same way cover the whole year.
    assert number("sD7(4)/8(5)", "1944-06") == 7


# --- US Ordnance Note C ------------------------------------------------------------------------


@pytest.mark.clause("C8.91")
@pytest.mark.parametrize(
    ("token", "nationality", "theater", "expected"),
    [
        ("C7", "american", Theater.PTO, 10),
        ("C7", "american", Theater.ETO, 7),
        ("C7", "american", None, 7),
        ("C7", "british", Theater.PTO, 7),
        ("C10(P)!1", "american", Theater.PTO, 10),
        ("C7(4+P)!1", "american", Theater.PTO, 7),
        ("C7(A2+)!1", "american", Theater.PTO, 10),
        ("s7", "american", Theater.PTO, 7),
    ],
)
def test_us_note_c_raises_american_canister_in_the_pto(
    token: str, nationality: str, theater: Theater | None, expected: int
) -> None:
    assert number(token, "1944-08", nationality=nationality, theater=theater) == expected


@pytest.mark.clause("C8.2-elite")
def test_us_note_c_is_a_setting_and_adds_to_elite() -> None:
    pto = {"nationality": "american", "theater": Theater.PTO}
    assert number("C7", "1944-08", settings=Settings(us_pto_canister_bonus=0), **pto) == 7
    assert number("C7", "1944-08", settings=Settings(us_pto_canister_bonus=2), **pto) == 9
    capability = read("C7", "1944-08", elite=True, **pto)
    assert capability.depletion_number == 11
    assert "US Ordnance Note C" in capability.explanation


# --- number-less forms, limited stowage --------------------------------------------------


@pytest.mark.clause("C8.7", "C8.91")
def test_dated_ir_exists_from_its_date() -> None:
    assert not read("IR(2+)!", "1941-12").available
    late = read("IR(2+)!", "1942-01")
    assert late.available and late.number is None and late.dagger


@pytest.mark.clause("C8.8", "C8.91")
def test_number_less_he_exists_from_its_date_without_a_limit() -> None:
    assert not read("HE(4+)", "1943-12").available
    capability = read("HE(4+)", "1944-01", elite=True)
    assert capability.available and capability.depletion_number is None
    assert "no number limits it" in capability.explanation


@pytest.mark.clause("C8.1-date")
@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("A!1", ("note 1", "Ammunition Supply Chart")),
        ("D!", ("vehicle/ordnance note", "Ammunition Supply Chart")),
        ("A", ("Ammunition Supply Chart",)),
        ("s!2", ("note 2",)),
    ],
)
def test_dagger_only_tokens_take_their_number_elsewhere(token: str, words: tuple[str]) -> None:
    capability = read(token, "1944-06")
    assert capability.available and capability.number is None
    assert all(word in capability.explanation for word in words)
    if token.startswith(("A", "D")):
        assert "C8.1-date" in capability.clauses


@pytest.mark.clause("C8.8")
def test_limited_stowage_is_a_depletion_number() -> None:
    for token in ("AP7", "HE7"):
        capability = read(token, "1943-06")
        assert capability.depletion_number == 7
        assert capability.rule == "C8.8" and "C8.8" in capability.clauses
    assert read("AP4!1", "1944-06").note == 1


@pytest.mark.clause("C8.2-counter", "C8.1-date")
def test_a_counter_number_for_apcr_cites_the_counter_rule() -> None:
    assert {"C8.1-date", "C8.2-counter"} <= set(read("A5", "1944-06").clauses)


# --- the ruling -------------------------------------------------------------------------------


@pytest.mark.clause("SYS.cite", "C8.0")
def test_ruling_json_has_every_field_and_names_its_rules() -> None:
    context = AmmoContext(ScenarioDate.parse("1944-06"), True, Theater.ETO, "german")
    ruling = evaluate_tokens(parse_capabilities("A5(4)/6(5) sN7(4)/8(5) H6[9]!"), context)
    data = ruling.to_json()
    assert data["date"] == "1944-06" and data["theater"] == "ETO" and data["elite"] is True
    assert data["nationality"] == "german"
    first, sn, heat = data["capabilities"]
    assert set(first) >= REQUIRED_FIELDS
    assert (first["family"], first["ammo"], first["token"]) == ("A", "APCR", "A5(4)/6(5)")
    assert (first["depletion_number"], first["number"], first["usage_number"]) == (6, 6, None)
    assert first["clauses"] == ["C8.1-date", "C8.2-counter", "C8.91", "C8.2-elite"]
    assert (sn["available"], sn["number"]) == (False, None)
    assert (heat["second"], heat["note"], heat["rule"]) == (9, None, "C8.3")
    assert set(ruling.clauses) >= {"C8.91", "C8.2-elite", "D13.34"}
    assert "2 of 3" in ruling.explanation
    assert [c.token for c in ruling.available()] == ["A5(4)/6(5)", "H6[9]!"]


def test_evaluate_text_reads_the_notation() -> None:
    ruling = evaluate_text("A5(4)/6(5), sD7", AmmoContext(ScenarioDate(1945, 1)))
    assert [c.number for c in ruling.capabilities] == [6, 7]


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize(
    "token",
    ["A5(4)/6(5)", "sN7(4)/8(5)", "C7(P)!", "IR", "HE(4+)", "A!1", "AP9(cal75)!", "WP7(J4+)!3"],
)
def test_every_explanation_is_one_sentence_citing_real_clauses(token: str, clause_ids) -> None:
    for date in ("1943-06", "1944-06", "1944-09", "1945-06"):
        capability = read(token, date, elite=True)
        assert capability.explanation.endswith(".")
        assert capability.explanation.count(". ") == 0
        assert capability.token in capability.explanation
        assert set(capability.clauses) <= clause_ids


@pytest.fixture
def clause_ids() -> set[str]:
    if not CLAUSES_MD.is_file():
        pytest.skip("../shared/rules/CLAUSES.md is not present")
    return set(CLAUSES_MD_ROW.findall(CLAUSES_MD.read_text(encoding="utf-8")))
