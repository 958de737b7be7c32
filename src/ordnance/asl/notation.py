"""ASL counter notation for special ammunition and smoke dispensers (C8, D13).

The back of a vehicle or Gun counter lists capabilities such as ``A5⁴/6⁵`` (APCR, Depletion
Number 5 in 1944 and 6 in 1945) or ``sD7`` (smoke discharger, Usage Number 7). This module reads
and writes them in a canonical ASCII form (``A5(4)/6(5)``, ``sD7``, ``H6[9]!``) and in the printed
form with daggers and superscripts.

>>> token = Token.parse("A5(4)/6(5)")
>>> token
Token.parse('A5(4)/6(5)')
>>> token.family.ammo, [step.number for step in token.steps]
('APCR', [5, 6])
>>> str(Token.parse("WP7(J4+)†³")), str(Token.parse("A5⁴/6⁵"))
('WP7(J4+)!3', 'A5(4)/6(5)')
>>> [str(t) for t in parse_capabilities("sN7(4)/8(5), H6[9]! s8")]
['sN7(4)/8(5)', 'H6[9]!', 's8']

Grammar (canonical form)::

    token   := family [number ["[" number "]"]] [steps] [dagger]
    steps   := "(" date ")" { "/" number ["[" number "]"] "(" date ")" }
    date    := [month] year [extent] [theater] [nation] | year "-" year [nation]
             | theater [nation] | nation | "cal" number
    month   := F | M | J | A | S | N       (Feb, Mar, Jun, Aug, Sep, Nov)
    year    := digit (194d) | two digits (19dd); a "before" date is always two digits: 44-
    extent  := "+" (that date and later) | "-" (only before that year)
    theater := E | P | B                    (ETO, PTO, Burma)
    nation  := R | S | CS                   (Romanian, Slovakian, Croatian or Slovakian)
    dagger  := "!" [index]                  (printed † and †¹)
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from ordnance.asl.families import Family
from ordnance.core.errors import BadInput

__all__ = [
    "MAX_NUMBER",
    "MONTH_LETTERS",
    "NATIONS",
    "THEATERS",
    "DateCode",
    "Extent",
    "Family",
    "Step",
    "Token",
    "format_capabilities",
    "parse_capabilities",
]

# Longest symbols first, so that "sD7" is not read as "s" followed by junk.
_FAMILY_SYMBOLS = sorted((f.value for f in Family), key=len, reverse=True)

MONTH_LETTERS = {"F": 2, "M": 3, "J": 6, "A": 8, "S": 9, "N": 11}
_LETTER_OF_MONTH = {month: letter for letter, month in MONTH_LETTERS.items()}
THEATERS = ("E", "P", "B")
NATIONS = ("CS", "R", "S")  # CS before S: longest match

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")
_SUPER_CHARS = frozenset("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")
_DIGIT_TO_SUPER = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

MAX_NUMBER = 12
# str.isdigit() also accepts digits int() cannot read (circled ①), so digits are ASCII only.
_DIGITS = frozenset("0123456789")


class Extent(enum.StrEnum):
    """How a dated step reaches beyond its own date."""

    ONLY = ""  # that year only (from the month, if any, to December)
    ONWARD = "+"  # from that date on
    BEFORE = "-"  # only before that year


@dataclass(frozen=True)
class DateCode:
    """The superscript date code of one step, e.g. ``J4+`` or ``1-2R``.

    Years are full years (1944); ``until`` ends a year range; ``theater`` and ``nation`` are
    the counter's flags; ``calibre`` marks a number that names a gun calibre, not a year
    (``AP9(cal75)``: only the 75mm weapon has the limited stowage).

    >>> DateCode.parse("J4+")
    DateCode.parse('J4+')
    >>> code = DateCode.parse("1-2R")
    >>> code.year, code.until, code.nation
    (1941, 1942, 'R')
    """

    year: int | None = None
    month: int | None = None
    extent: Extent = Extent.ONLY
    until: int | None = None
    theater: str | None = None
    nation: str | None = None
    calibre: int | None = None

    def __post_init__(self) -> None:
        _check_date_code(self)

    @classmethod
    def parse(cls, text: str) -> DateCode:
        parser = _Parser(text)
        code = parser.date_code(end=len(text))
        parser.expect_end()
        return code

    def __str__(self) -> str:
        if self.calibre is not None:
            return f"cal{self.calibre}"
        text = ""
        if self.year is not None:
            text += _LETTER_OF_MONTH[self.month] if self.month is not None else ""
            text += _year_text(self.year, two_digits=self.extent is Extent.BEFORE)
            if self.until is not None:
                text += "-" + _year_text(self.until, two_digits=False)
            else:
                text += self.extent.value
        return text + (self.theater or "") + (self.nation or "")

    def __repr__(self) -> str:
        return f"DateCode.parse('{self}')"


def _year_text(year: int, *, two_digits: bool) -> str:
    if 1940 <= year <= 1949 and not two_digits:
        return str(year - 1940)
    return str(year - 1900)


def _check_date_code(code: DateCode) -> None:
    text = "date code"
    if code.calibre is not None:
        if any(
            v is not None for v in (code.year, code.month, code.until, code.theater, code.nation)
        ):
            raise BadInput(text, str(code.calibre), "a calibre code stands alone")
        return
    if code.year is None and (
        code.month is not None or code.until is not None or code.extent is not Extent.ONLY
    ):
        raise BadInput(text, "", "a month, range or extent needs a year")
    if code.year is None and code.theater is None and code.nation is None:
        raise BadInput(text, "", "a date code needs a year, a theater or a nation")
    if code.year is not None and not 1940 <= code.year <= 1959:
        raise BadInput(text, str(code.year), "years are 1940 to 1959")
    if code.month is not None and code.month not in _LETTER_OF_MONTH:
        raise BadInput(text, str(code.month), "only months F, M, J, A, S, N appear on counters")
    if code.until is not None:
        if code.year is None or not code.year < code.until <= 1949:
            raise BadInput(text, str(code.until), "a year range runs forward within the 1940s")
        if code.month is not None or code.extent is not Extent.ONLY or code.theater is not None:
            raise BadInput(text, str(code.until), "a year range takes only a nation flag")
    if code.extent is Extent.BEFORE and code.month is not None:
        raise BadInput(text, "-", "a 'before' date names a year, not a month")
    if code.theater is not None and code.theater not in THEATERS:
        raise BadInput(text, code.theater, "theater flags are E, P, B")
    if code.nation is not None and code.nation not in NATIONS:
        raise BadInput(text, code.nation, "nation flags are R, S, CS")


@dataclass(frozen=True)
class Step:
    """One number of a token, with its bracketed second number and date code if any."""

    number: int | None = None
    second: int | None = None
    date: DateCode | None = None

    def __str__(self) -> str:
        text = "" if self.number is None else str(self.number)
        if self.second is not None:
            text += f"[{self.second}]"
        if self.date is not None:
            text += f"({self.date})"
        return text


@dataclass(frozen=True)
class Token:
    """One capability on a counter: a family, its numbered (and maybe dated) steps, a dagger.

    A fixed number is one undated step (``s8``); ``IR`` and dagger-only tokens (``A!1``) have
    no steps at all; ``HE(4+)`` is a dated step without a number.

    >>> Token.parse("H6[9](3+)!").steps[0]
    Step(number=6, second=9, date=DateCode.parse('3+'))
    >>> Token.parse("s8!").display()
    's8†'
    >>> Token.parse("C7(A2+)!1").display()
    'C7(A2+)†¹'
    >>> Token.parse("A5(4)/6")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad notation 'A5(4)/6' at position 7: expected '(' and a date...
    """

    family: Family
    steps: tuple[Step, ...] = ()
    dagger: bool = False
    note: int | None = None

    def __post_init__(self) -> None:
        if self.note is not None and not self.dagger:
            raise BadInput("notation", str(self.note), "a note index needs a dagger")
        for index, step in enumerate(self.steps):
            for value in (step.number, step.second):
                if value is not None and not 1 <= value <= MAX_NUMBER:
                    raise BadInput("notation", str(value), f"numbers are 1 to {MAX_NUMBER}")
            if index > 0 and (step.number is None or step.date is None):
                raise BadInput("notation", str(step), "a later step needs a number and a date")
            if step.number is None and step.second is not None:
                raise BadInput("notation", str(step), "a bracketed number needs a number")
        if len(self.steps) > 1 and self.steps[0].date is None:
            raise BadInput(
                "notation", str(self.steps[0]), "the first of several steps needs a date"
            )
        if len(self.steps) == 1 and self.steps[0].number is None and self.steps[0].date is None:
            raise BadInput("notation", "", "an empty step is written as no step at all")

    @classmethod
    def parse(cls, text: str) -> Token:
        """Read one token in the canonical or printed form (``†``, superscripts, ``+dagger``)."""
        parser = _Parser(text)
        token = parser.token()
        parser.expect_end()
        return token

    @property
    def is_dated(self) -> bool:
        return any(step.date is not None for step in self.steps)

    def __str__(self) -> str:
        text = self.family.value + "/".join(str(step) for step in self.steps)
        if self.dagger:
            text += "!" + ("" if self.note is None else str(self.note))
        return text

    def __repr__(self) -> str:
        return f"Token.parse('{self}')"

    def display(self) -> str:
        """The printed form, with a dagger sign and a superscript note index."""
        text = self.family.value + "/".join(str(step) for step in self.steps)
        if self.dagger:
            text += "†" + ("" if self.note is None else str(self.note).translate(_DIGIT_TO_SUPER))
        return text


def parse_capabilities(text: str) -> tuple[Token, ...]:
    """Read several tokens separated by spaces or commas.

    >>> parse_capabilities("A5(4)/6(5) s7")
    (Token.parse('A5(4)/6(5)'), Token.parse('s7'))
    """
    tokens: list[Token] = []
    for start, word in _words(text):
        try:
            tokens.append(Token.parse(word))
        except BadInput as error:
            position = None if error.position is None else start + error.position
            raise BadInput("notation", text, error.problem, position) from None
    if not tokens:
        raise BadInput("notation", text, "no capability given")
    return tuple(tokens)


def format_capabilities(tokens: tuple[Token, ...]) -> str:
    return " ".join(str(token) for token in tokens)


def _words(text: str) -> Iterator[tuple[int, str]]:
    start = None
    for index, char in enumerate(text + " "):
        if char in " ,\t\n":
            if start is not None:
                yield start, text[start:index]
                start = None
        elif start is None:
            start = index


class _Parser:
    """Recursive descent over one token, tracking the position for error messages."""

    def __init__(self, text: str) -> None:
        self.whole = text
        # Printed forms are folded into the canonical one, keeping positions one-to-one.
        self.text = text.translate(_SUPERSCRIPTS).replace("†", "!")
        self.superscript = [char in _SUPER_CHARS for char in text]
        self.pos = 0

    def fail(self, problem: str, position: int | None = None) -> BadInput:
        return BadInput("notation", self.whole, problem, self.pos if position is None else position)

    def peek(self, length: int = 1) -> str:
        return self.text[self.pos : self.pos + length]

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def expect_end(self) -> None:
        if not self.at_end():
            raise self.fail(f"unexpected {self.peek()!r}")

    def number(self, *, limit: int = 2, in_date: bool = False) -> int | None:
        """Digits at the cursor; superscript digits count only inside a date code."""
        start = self.pos

        def digit_here() -> bool:
            return (
                self.pos < len(self.text)
                and self.text[self.pos] in _DIGITS
                and (in_date or not self.superscript[self.pos])
            )

        while digit_here() and self.pos - start < limit:
            self.pos += 1
        if self.pos == start:
            return None
        if digit_here():
            raise self.fail("number too long")
        return int(self.text[start : self.pos])

    def token(self) -> Token:
        family = self.family()
        steps: list[Step] = []
        first = self.step(first=True)
        if first is not None:
            steps.append(first)
            while self.peek() == "/":
                self.pos += 1
                later = self.step(first=False)
                assert later is not None
                steps.append(later)
        dagger, note = self.dagger()
        try:
            return Token(family, tuple(steps), dagger, note)
        except BadInput as error:
            raise self.fail(error.problem) from None

    def family(self) -> Family:
        for symbol in _FAMILY_SYMBOLS:
            if self.text.startswith(symbol, self.pos):
                self.pos += len(symbol)
                return Family(symbol)
        symbols = ", ".join(f.value for f in Family)
        raise self.fail(f"expected a capability symbol ({symbols})")

    def step(self, *, first: bool) -> Step | None:
        start = self.pos
        number = self.number()
        if number is None and not first:
            raise self.fail("expected a number after '/'")
        second = None
        if self.peek() == "[":
            if number is None:
                raise self.fail("a bracketed number follows a number")
            self.pos += 1
            second = self.number()
            if second is None:
                raise self.fail("expected a number inside '[...]'")
            if self.peek() != "]":
                raise self.fail("expected ']'")
            self.pos += 1
        date = self.date()
        if date is None and not first:
            raise self.fail("expected '(' and a date code after a later step's number")
        for value in (number, second):
            if value is not None and not 1 <= value <= MAX_NUMBER:
                raise self.fail(f"numbers are 1 to {MAX_NUMBER}", start)
        if number is None and date is None:
            return None
        return Step(number, second, date)

    def date(self) -> DateCode | None:
        if self.peek() == "(":
            self.pos += 1
            close = self.text.find(")", self.pos)
            if close < 0:
                raise self.fail("expected ')'", len(self.text))
            code = self.date_code(end=close)
            self.pos = close + 1
            return code
        if self.pos < len(self.text) and self.superscript[self.pos]:
            end = self.pos
            while end < len(self.text) and self.superscript[end]:
                end += 1
            return self.date_code(end=end)
        return None

    def date_code(self, *, end: int) -> DateCode:
        start = self.pos
        body = self.text[start:end]
        if body.startswith("cal"):
            self.pos += 3
            calibre = self.number(limit=3, in_date=True)
            if calibre is None or self.pos != end:
                raise self.fail("expected a calibre in mm after 'cal'")
            return DateCode(calibre=calibre)
        month = None
        if self.pos < end and self.text[self.pos] in MONTH_LETTERS:
            # A lone letter may be a flag (S = Slovakian); it is a month only before a year.
            nxt = self.text[self.pos + 1 : self.pos + 2]
            if nxt in _DIGITS:
                month = MONTH_LETTERS[self.text[self.pos]]
                self.pos += 1
        year, extent, until = self.year_part()
        if year is None and month is not None:
            raise self.fail("expected a year after the month")
        theater = None
        if self.pos < end and self.text[self.pos] in THEATERS:
            theater = self.text[self.pos]
            self.pos += 1
        nation = None
        for flag in NATIONS:
            if self.text.startswith(flag, self.pos) and self.pos + len(flag) <= end:
                nation = flag
                self.pos += len(flag)
                break
        if self.pos != end:
            raise self.fail(f"unexpected {self.peek()!r} in date code")
        if year is None and theater is None and nation is None:
            raise self.fail("expected a date code (year, theater or nation flag)", start)
        try:
            return DateCode(year, month, extent, until, theater, nation)
        except BadInput as error:
            raise self.fail(error.problem, start) from None

    def year_part(self) -> tuple[int | None, Extent, int | None]:
        """A year with its extent or range end: ``4``, ``4+``, ``44-``, ``1-2``, ``51+``."""
        digits_start = self.pos
        raw = self.number(in_date=True)
        if raw is None:
            return None, Extent.ONLY, None
        two_digits = self.pos - digits_start == 2
        if two_digits and not 40 <= raw <= 59:
            raise self.fail("a two-digit year is 40 to 59", digits_start)
        year = 1900 + raw if two_digits else 1940 + raw
        extent, until = Extent.ONLY, None
        if self.peek() == "+":
            extent = Extent.ONWARD
            self.pos += 1
        elif self.peek() == "-":
            self.pos += 1
            after = self.pos
            other = self.number(in_date=True)
            if other is None:
                if not two_digits:
                    raise self.fail(
                        "a 'before' date is written with two digits, e.g. 44-", digits_start
                    )
                extent = Extent.BEFORE
            elif two_digits or self.pos - after != 1:
                raise self.fail(
                    "a year range is written with single digits, e.g. 1-2", digits_start
                )
            else:
                until = 1940 + other
        if two_digits and raw < 50 and extent is not Extent.BEFORE:
            raise self.fail("a 1940s year is one digit, e.g. 4 for 1944", digits_start)
        return year, extent, until

    def dagger(self) -> tuple[bool, int | None]:
        if self.text.startswith("+dagger", self.pos):
            self.pos += len("+dagger")
        elif self.peek() == "!":
            self.pos += 1
        else:
            return False, None
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _DIGITS:
            self.pos += 1
        if self.pos == start:
            return True, None
        note = int(self.text[start : self.pos])
        if note == 0:
            raise self.fail("a note index starts at 1", start)
        return True, note
