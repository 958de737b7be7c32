"""Property tests of the counter notation: canonical text round-trips, junk fails cleanly.

The strategies build tokens from the grammar in ``ordnance.asl.notation``'s docstring: every
family, undated and dated steps, bracketed second numbers, each date code form (year, year+,
month+year, month+year+, two-digit before-years, year ranges, theater and nation flags, bare
flags, calibres) and daggers with and without a note index.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ordnance.asl.notation import (
    MAX_NUMBER,
    MONTH_LETTERS,
    NATIONS,
    THEATERS,
    Family,
    Token,
    format_capabilities,
    parse_capabilities,
)
from ordnance.core.errors import BadInput

numbers = st.integers(1, MAX_NUMBER).map(str)
months = st.sampled_from(sorted(MONTH_LETTERS))
theaters = st.sampled_from(THEATERS)
nations = st.sampled_from(NATIONS)
flags = st.tuples(st.one_of(st.none(), theaters), st.one_of(st.none(), nations)).map(
    lambda pair: (pair[0] or "") + (pair[1] or "")
)


@st.composite
def dated_year(draw: st.DrawFn) -> str:
    """``[month] year [+]`` with optional flags; 1950s years have two digits (``M51+``)."""
    year = draw(st.integers(1940, 1959))
    text = draw(st.one_of(st.just(""), months))
    text += str(year - 1940) if year < 1950 else str(year - 1900)
    text += draw(st.sampled_from(["", "+"]))
    return text + draw(flags)


@st.composite
def before_year(draw: st.DrawFn) -> str:
    """``44-``: always two digits, no month."""
    return f"{draw(st.integers(40, 59))}-" + draw(flags)


@st.composite
def year_range(draw: st.DrawFn) -> str:
    """``1-2R``: single digits within the 1940s, only a nation flag may follow."""
    first = draw(st.integers(0, 8))
    last = draw(st.integers(first + 1, 9))
    return f"{first}-{last}" + draw(st.one_of(st.just(""), nations))


bare_flags = flags.filter(bool)
calibres = st.integers(1, 999).map(lambda mm: f"cal{mm}")
date_codes = st.one_of(dated_year(), before_year(), year_range(), bare_flags, calibres)


@st.composite
def numbered(draw: st.DrawFn) -> str:
    """A number with an optional bracketed second number: ``6`` or ``6[9]``."""
    text = draw(numbers)
    if draw(st.booleans()):
        text += f"[{draw(numbers)}]"
    return text


@st.composite
def steps(draw: st.DrawFn) -> str:
    """No step, one undated number, one dated (maybe number-less) step, or several dated."""
    shape = draw(st.sampled_from(["none", "undated", "dated", "several"]))
    if shape == "none":
        return ""
    if shape == "undated":
        return draw(numbered())
    first = draw(st.one_of(st.just(""), numbered())) + f"({draw(date_codes)})"
    if shape == "dated":
        return first
    later = draw(st.lists(st.tuples(numbered(), date_codes), min_size=1, max_size=3))
    return first + "".join(f"/{number}({code})" for number, code in later)


daggers = st.one_of(st.just(""), st.just("!"), st.integers(1, 99).map(lambda n: f"!{n}"))


@st.composite
def canonical_tokens(draw: st.DrawFn) -> str:
    family = draw(st.sampled_from([f.value for f in Family]))
    return family + draw(steps()) + draw(daggers)


@pytest.mark.clause("C8.91", "D13.1")
@given(canonical_tokens())
@example("A5(4)/6(5)")
@example("sN7(4)/8(5)")
@example("WP6(M51+)!2")
@example("s5(1-2R)!")
@example("AP9(cal75)!")
@example("HE(4+)")
@example("C7(CS)!")
@example("D5(S4)/6(5)!")
def test_canonical_tokens_round_trip(text: str) -> None:
    token = Token.parse(text)
    assert str(token) == text
    assert Token.parse(token.display()) == token
    assert eval(repr(token), {"Token": Token}) == token


@given(st.lists(canonical_tokens(), min_size=1, max_size=5), st.sampled_from([" ", ", ", ","]))
def test_several_tokens_round_trip(texts: list[str], separator: str) -> None:
    tokens = parse_capabilities(separator.join(texts))
    assert format_capabilities(tokens) == " ".join(texts)


def check_parsers(text: str) -> None:
    """Both parsers either succeed or raise BadInput about the notation, pointing inside it."""
    for parse in (Token.parse, parse_capabilities):
        try:
            parse(text)
        except BadInput as error:
            assert error.what == "notation"
            assert error.position is None or 0 <= error.position <= len(text)


@given(st.text())
@example("A①")  # digits that str.isdigit() accepts but int() cannot read
@example("A5(4)!①")
@example("WP(J٤)")
@example("s5(٤)")
def test_any_text_parses_or_fails_with_bad_input(text: str) -> None:
    check_parsers(text)


@given(st.text(alphabet=st.sampled_from("AaDHCsWPIREMJFNSB0123456789()[]/!+-†¹²⁴⁵⁺ ,cal")))
def test_notation_like_text_parses_or_fails_with_bad_input(text: str) -> None:
    check_parsers(text)
