"""Whether a capability's date code fits a scenario (C8.91; ``reference/asl.md`` section 5),
and the context (:class:`AmmoContext`) a counter's capabilities are read in.

A date code bounds a step by year or month (``4``, ``J4``, ``4+``, ``-4``, ``4-5``), by
theater (``E``, ``P``, ``B``: settings ``theater_e``/``_p``/``_b``) or by nation (``R``,
``S``, ``CS``); a calibre superscript (``cal75``) is not a date but says which weapon the
number concerns (C8.8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ordnance.asl.dates import MONTH_NAMES, ScenarioDate, Theater
from ordnance.asl.notation import DateCode, Extent, Family
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.errors import BadInput

__all__ = ["NATION_FLAGS", "AmmoContext", "DateFit", "date_code_fits"]

# The nationality words each nation flag of a date code stands for.
NATION_FLAGS = {
    "R": frozenset({"romanian"}),
    "S": frozenset({"slovakian"}),
    "CS": frozenset({"croatian", "slovakian"}),
}
_NATION_NAMES = {"R": "Romanian", "S": "Slovakian", "CS": "Croatian or Slovakian"}
# A month index far outside any scenario, standing for "no bound".
_OPEN = 10**6


@dataclass(frozen=True)
class AmmoContext:
    """What a token is read against: the scenario date, Elite status, theater, nationality.

    ``theater`` and ``nationality`` may be unknown (None); a step that needs them then does not
    match, and the explanation says what was missing.

    >>> AmmoContext(ScenarioDate.parse("1945-03"), elite=True).label
    'Mar 1945, Elite'
    """

    date: ScenarioDate
    elite: bool = False
    theater: Theater | None = None
    nationality: str | None = None

    @property
    def label(self) -> str:
        """The context in words, for explanations."""
        parts = [self.date.label]
        if self.theater is not None:
            parts.append(self.theater.value)
        if self.nationality is not None:
            parts.append(self.nationality)
        if self.elite:
            parts.append("Elite")
        return ", ".join(parts)


class DateFit(NamedTuple):
    """Whether one date code fits a context, in words, and the clauses involved."""

    matches: bool
    reason: str
    clauses: tuple[str, ...] = ()
    missing: str | None = None


def date_code_fits(
    code: DateCode, context: AmmoContext, settings: Settings = DEFAULT, *, family: Family
) -> DateFit:
    """Whether one step's date code fits the context (C8.91, reference section 5).

    >>> ctx = AmmoContext(ScenarioDate.parse("1944-08"))
    >>> date_code_fits(DateCode.parse("J4"), ctx, family=Family.WP)
    DateFit(matches=True, reason='Jun to Dec 1944', clauses=('C8.91', 'C8.2-month'), missing=None)
    >>> date_code_fits(DateCode.parse("4P"), ctx, family=Family.CANISTER).missing
    'the scenario theater is not given'
    """
    if code.calibre is not None:
        # Not a date: the counter says which of its weapons the number concerns.
        return DateFit(True, f"concerns only the {code.calibre}mm weapon", ("C8.8",))
    clauses: tuple[str, ...] = ("C8.91",)
    reason = "any date"
    if code.year is not None:
        first, last, reason, extra = _span(code, family, settings)
        clauses += extra
        now = _month_index(context.date.year, context.date.month)
        if not first <= now <= last:
            return DateFit(False, reason, clauses)
    for flag_test in (_theater_test(code, context, settings), _nation_test(code, context)):
        if flag_test is None:
            continue
        fits, words, missing = flag_test
        reason += f", {words}"
        if not fits:
            return DateFit(False, reason, clauses, missing)
    return DateFit(True, reason, clauses)


def _span(
    code: DateCode, family: Family, settings: Settings
) -> tuple[int, int, str, tuple[str, ...]]:
    """The first and last month (as indexes) a dated code covers, in words, and extra clauses."""
    assert code.year is not None
    year = code.year
    if code.until is not None:
        return (
            _month_index(year, 1),
            _month_index(code.until, 12),
            f"{year} to {code.until}",
            (),
        )
    if code.extent is Extent.BEFORE:
        return -_OPEN, _month_index(year - 1, 12), f"before {year}", ()
    month = code.month
    extra: tuple[str, ...] = ()
    if code.month is not None:
        extra = ("C8.2-month",)
    elif family is Family.NAHVERTEIDIGUNGSWAFFE and year == 1944:
        # D13.34: the first number of a "#4/#5" sN covers only the second half of 1944.
        month, extra = settings.sn_first_number_from_month, ("D13.34",)
    start = _month_index(year, month or 1)
    from_words = f"{MONTH_NAMES[month - 1]} {year}" if month is not None else str(year)
    if code.extent is Extent.ONWARD:
        return start, _OPEN, f"from {from_words} on", extra
    if month is not None and code.month is not None and not settings.month_step_ends_with_year:
        # The other reading of a month-dated step: it runs on until a later step takes over.
        return start, _OPEN, f"from {from_words} on (month_step_ends_with_year off)", extra
    if month is None:
        return start, _month_index(year, 12), f"{year}", extra
    return start, _month_index(year, 12), f"{MONTH_NAMES[month - 1]} to Dec {year}", extra


def _theater_test(
    code: DateCode, context: AmmoContext, settings: Settings
) -> tuple[bool, str, str | None] | None:
    if code.theater is None:
        return None
    covered = _theaters(code.theater, settings)
    names = "/".join(t.value for t in covered)
    words = f"{names} only ({code.theater} flag)"
    if context.theater is None:
        return False, words, "the scenario theater is not given"
    return context.theater in covered, words, None


def _nation_test(code: DateCode, context: AmmoContext) -> tuple[bool, str, str | None] | None:
    if code.nation is None:
        return None
    words = f"{_NATION_NAMES[code.nation]} units only ({code.nation} flag)"
    if context.nationality is None:
        return False, words, "the owner's nationality is not given"
    return context.nationality in NATION_FLAGS[code.nation], words, None


def _theaters(flag: str, settings: Settings) -> tuple[Theater, ...]:
    """The theaters a counter flag covers, from the settings ``theater_e``/``_p``/``_b``."""
    name = f"theater_{flag.lower()}"
    text: str = getattr(settings, name)
    try:
        return tuple(Theater.parse(part) for part in text.split(",") if part.strip())
    except BadInput as error:
        raise BadInput("setting", f"{name}={text}", error.problem) from None


def _month_index(year: int, month: int) -> int:
    return year * 12 + month - 1
