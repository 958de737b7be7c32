"""Which of a counter's capabilities exist in a scenario, and with which numbers (C8, D13).

A counter lists tokens such as ``A5(4)/6(5)`` or ``sN7(4)/8(5)``; the scenario's date, theater,
the owner's nationality and whether the unit is Elite decide which of them exist and what their
effective Depletion Number (or, for smoke dispensers, Usage Number) is.

>>> ctx = AmmoContext(ScenarioDate.parse("1944-06"))
>>> ruling = evaluate_tokens(parse_capabilities("A5(4)/6(5) sD7"), ctx)
>>> [(c.ammo, c.available, c.depletion_number, c.usage_number) for c in ruling.capabilities]
[('APCR', True, 5, None), ('sD', True, None, 7)]
>>> evaluate(Token.parse("A5(4)/6(5)"), AmmoContext(ScenarioDate.parse("1943-12"))).available
False

How a token is read (C8.91; ``reference/asl.md`` section 5):

- an undated token always exists, with its printed number;
- dated steps are tried in order and the last one whose date code fits the scenario decides;
  when none fits, the capability is absent;
- Elite units add one to Depletion Numbers (C8.2-elite), never to a dispenser's Usage Number
  (D13.1, C8.9-scope);
- a dated 1944 sN step counts only from July (D13.34; setting ``sn_first_number_from_month``);
- American Canister in the PTO gains ``us_pto_canister_bonus`` unless the deciding step carries
  the P flag (US Ordnance Note C).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ordnance.asl.date_fit import AmmoContext, DateFit, date_code_fits
from ordnance.asl.dates import ScenarioDate, Theater
from ordnance.asl.notation import Family, Step, Token, parse_capabilities
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.rulings import Ruling, jsonable

__all__ = [
    "Adjustment",
    "AmmoContext",
    "AmmoRuling",
    "Capability",
    "DateFit",
    "date_code_fits",
    "evaluate",
    "evaluate_text",
    "evaluate_tokens",
]

# C8.2-elite names Depletion Numbers; these families carry one (IR has no number at all).
ELITE_FAMILIES = frozenset(
    {
        Family.APCR,
        Family.APDS,
        Family.HEAT,
        Family.CANISTER,
        Family.SMOKE,
        Family.WP,
        Family.AP,
        Family.HE,
    }
)
_AMERICAN = "american"


@dataclass(frozen=True)
class Adjustment:
    """A change to a printed number, why, and the rule behind it.

    >>> Adjustment(1, "Elite unit", "C8.2-elite")
    Adjustment(value=1, reason='Elite unit', clause='C8.2-elite')
    """

    value: int
    reason: str
    clause: str | None = None


@dataclass(frozen=True, kw_only=True)
class Capability:
    """One token read in one context: whether it exists and its effective number.

    ``number`` is the effective number whatever the family; it is also given as
    ``depletion_number`` (special ammunition) or ``usage_number`` (dispensers, D13.1), never
    both. ``printed_number`` is the number on the counter before any adjustment, ``step`` the
    0-based index of the step that decided, ``note`` the dagger's note index.
    """

    family: Family
    ammo: str
    token: str
    display: str
    available: bool
    depletion_number: int | None
    usage_number: int | None
    number: int | None
    printed_number: int | None
    second: int | None
    dagger: bool
    note: int | None
    step: int | None
    date_code: str | None
    adjustments: tuple[Adjustment, ...]
    rule: str
    clauses: tuple[str, ...]
    explanation: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (a dataclass is always one)."""
        return dict(jsonable(self))


@dataclass(frozen=True, kw_only=True)
class AmmoRuling(Ruling):
    """The capabilities of one counter (or any list of tokens) in one context.

    >>> ruling = evaluate_tokens(parse_capabilities("s7"), AmmoContext(ScenarioDate(1944, 6)))
    >>> ruling.to_json()["date"], ruling.clauses
    ('1944-06', ('C8.0',))
    """

    capabilities: tuple[Capability, ...]
    date: ScenarioDate
    elite: bool
    theater: Theater | None
    nationality: str | None

    def to_json(self) -> dict[str, Any]:
        """JSON with the date as ``YYYY-MM``."""
        return {**super().to_json(), "date": str(self.date)}

    def available(self) -> tuple[Capability, ...]:
        """The capabilities that exist in this context."""
        return tuple(c for c in self.capabilities if c.available)


def evaluate_tokens(
    tokens: Iterable[Token], context: AmmoContext, settings: Settings = DEFAULT
) -> AmmoRuling:
    """Read every token in ``context`` (see the module docstring for the rules).

    >>> ctx = AmmoContext(ScenarioDate.parse("1945-01"), elite=True)
    >>> [c.number for c in evaluate_tokens(parse_capabilities("A5(4)/6(5) sD7"), ctx).capabilities]
    [7, 7]
    """
    capabilities = tuple(evaluate(token, context, settings) for token in tokens)
    clauses = _merged(c.clauses for c in capabilities)
    present = [c.token for c in capabilities if c.available]
    summary = (
        f"{len(present)} of {len(capabilities)} capabilities exist in {context.label}"
        + (f": {', '.join(present)}" if present else "")
        + "."
    )
    return AmmoRuling(
        capabilities=capabilities,
        date=context.date,
        elite=context.elite,
        theater=context.theater,
        nationality=context.nationality,
        clauses=clauses or ("C8.91",),
        explanation=summary,
    )


def evaluate_text(text: str, context: AmmoContext, settings: Settings = DEFAULT) -> AmmoRuling:
    """Read tokens written in the notation, separated by spaces or commas.

    >>> ruling = evaluate_text("A5(4)/6(5)", AmmoContext(ScenarioDate.parse("1945-03")))
    >>> ruling.capabilities[0].depletion_number
    6
    """
    return evaluate_tokens(parse_capabilities(text), context, settings)


def evaluate(token: Token, context: AmmoContext, settings: Settings = DEFAULT) -> Capability:
    """Read one token in ``context``.

    >>> ctx = AmmoContext(ScenarioDate.parse("1944-07"))
    >>> cap = evaluate(Token.parse("sN7(4)/8(5)"), ctx)
    >>> cap.usage_number, cap.depletion_number, cap.clauses
    (7, None, ('D13.1', 'C8.9-scope', 'C8.91', 'D13.34'))
    >>> evaluate(Token.parse("sN7(4)/8(5)"), AmmoContext(ScenarioDate.parse("1944-06"))).available
    False
    >>> evaluate(Token.parse("A5(4)/6(5)"), ctx) is evaluate(Token.parse("A5(4)/6(5)"), ctx)
    True
    """
    return _evaluated(token, context, settings)


# A game reads the same few tokens in one context command after command (every shot, every
# dispenser attempt): each reading is worked out once. Safe to share: the answer depends only
# on the three arguments, all frozen values, and a Capability is frozen too.
@lru_cache(maxsize=1024)
def _evaluated(token: Token, context: AmmoContext, settings: Settings) -> Capability:
    if not token.is_dated:
        step = token.steps[0] if token.steps else None
        return _build(
            token,
            step,
            index=None,
            context=context,
            settings=settings,
            clauses=_base_clauses(token),
            why="",
        )
    fits = [
        date_code_fits(step.date, context, settings, family=token.family)
        for step in token.steps
        if step.date is not None  # always true: every step of a dated token is dated
    ]
    clauses = _merged([_base_clauses(token), *(fit.clauses for fit in fits)])
    missing = _merged([[fit.missing] for fit in fits if fit.missing is not None])
    note = "".join(f"; {words}" for words in missing)
    chosen = [index for index, fit in enumerate(fits) if fit.matches]
    if not chosen:
        readings = "; ".join(
            f"{s.date} = {fit.reason}" for s, fit in zip(token.steps, fits, strict=True)
        )
        sentence = (
            f"{_head(token)}: not available in {context.label}; no step fits ({readings}){note}."
        )
        return _absent(token, clauses, sentence)
    # C8.91: the last step whose date fits decides.
    index = chosen[-1]
    step = token.steps[index]
    why = f"{step.date} = {fits[index].reason}"
    if len(token.steps) > 1:
        why = f"step {index + 1} of {len(token.steps)} ({why}) is the last that fits"
    return _build(
        token,
        step,
        index=index,
        context=context,
        settings=settings,
        clauses=clauses,
        why=f"; {why}{note}",
    )


def _base_clauses(token: Token) -> tuple[str, ...]:
    """The clauses that govern a family whatever the date."""
    family = token.family
    if family.is_dispenser:
        return ("D13.1", "C8.9-scope")
    if family is Family.IR:
        return ("C8.7",)
    if family in (Family.AP, Family.HE):
        return ("C8.8",)
    if family in (Family.APCR, Family.APDS):
        # The counter's own notation is one of the two sources of APCR/APDS availability.
        return ("C8.1-date", "C8.2-counter") if _has_number(token) else ("C8.1-date",)
    return ("C8.0",)


def _has_number(token: Token) -> bool:
    return any(step.number is not None for step in token.steps)


def _absent(token: Token, clauses: tuple[str, ...], sentence: str) -> Capability:
    return _capability(
        token,
        available=False,
        number=None,
        printed=None,
        second=None,
        step=None,
        adjustments=(),
        clauses=clauses,
        explanation=sentence,
    )


def _build(
    token: Token,
    step: Step | None,
    *,
    index: int | None,
    context: AmmoContext,
    settings: Settings,
    clauses: tuple[str, ...],
    why: str,
) -> Capability:
    """An available capability: the step's number, adjusted for Elite and US Note C."""
    printed = step.number if step is not None else None
    adjustments = _adjustments(token, step, context, settings) if printed is not None else ()
    number = None if printed is None else printed + sum(a.value for a in adjustments)
    clauses = _merged([clauses, [a.clause for a in adjustments if a.clause is not None]])
    sentence = _sentence(
        token,
        number=number,
        printed=printed,
        adjustments=adjustments,
        context=context,
        why=why,
    )
    return _capability(
        token,
        available=True,
        number=number,
        printed=printed,
        second=step.second if step is not None else None,
        step=index,
        adjustments=adjustments,
        clauses=clauses,
        explanation=sentence,
    )


def _adjustments(
    token: Token, step: Step | None, context: AmmoContext, settings: Settings
) -> tuple[Adjustment, ...]:
    result: list[Adjustment] = []
    if context.elite and token.family in ELITE_FAMILIES:
        result.append(Adjustment(1, "Elite unit", "C8.2-elite"))
    bonus = settings.us_pto_canister_bonus
    p_flagged = step is not None and step.date is not None and step.date.theater == "P"
    if (
        token.family is Family.CANISTER
        and bonus
        and context.nationality == _AMERICAN
        and context.theater is Theater.PTO
        and not p_flagged
    ):
        # The clause inventory has no ID for the Ordnance Note; its name is the reason.
        result.append(Adjustment(bonus, "US Ordnance Note C: American Canister in the PTO"))
    return tuple(result)


def _sentence(
    token: Token,
    *,
    number: int | None,
    printed: int | None,
    adjustments: tuple[Adjustment, ...],
    context: AmmoContext,
    why: str,
) -> str:
    """The explanation of an available capability: number, adjustments, step, notes."""
    family = token.family
    kind = "Usage Number" if family.is_dispenser else "Depletion Number"
    if number is None:
        return f"{_head(token)}: available in {context.label}{why}; {_why_no_number(token)}."
    text = f"{_head(token)}: {kind} {number} in {context.label}"
    if adjustments:
        parts = ", ".join(f"{a.value:+d} {a.reason}" for a in adjustments)
        text += f" (printed {printed}, {parts})"
    text += why
    if family.is_dispenser:
        text += "; a dispenser has no Depletion Number"
        if context.elite:
            text += " and gets no Elite bonus (D13.1, C8.9-scope)"
    if token.dagger:
        text += f"; see {_note_words(token)}"
    return text + "."


def _why_no_number(token: Token) -> str:
    """Why an available token has no number, and where its number (if any) comes from."""
    if token.family is Family.IR:
        return "Illuminating Rounds are only recorded; they carry no number (C8.7)"
    if token.steps:
        return "no number is printed, so no number limits it"
    sources = [_note_words(token)] if token.dagger else []
    if token.family in (Family.APCR, Family.APDS):
        sources.append("the Ammunition Supply Chart (C8.1-date)")
    if not sources:
        return "no number is printed, so no number limits it"
    return "the number comes from " + " or ".join(sources)


def _note_words(token: Token) -> str:
    return "the vehicle/ordnance note" + ("" if token.note is None else f" (note {token.note})")


def _head(token: Token) -> str:
    """``APCR A5(4)/6(5)``; ``sD7`` alone where the name is the symbol."""
    ammo = token.family.ammo
    return str(token) if ammo == token.family.value else f"{ammo} {token}"


def _capability(
    token: Token,
    *,
    available: bool,
    number: int | None,
    printed: int | None,
    second: int | None,
    step: int | None,
    adjustments: tuple[Adjustment, ...],
    clauses: tuple[str, ...],
    explanation: str,
) -> Capability:
    dispenser = token.family.is_dispenser
    date = token.steps[step].date if step is not None else None
    return Capability(
        family=token.family,
        ammo=token.family.ammo,
        token=str(token),
        display=token.display(),
        available=available,
        depletion_number=None if dispenser else number,
        usage_number=number if dispenser else None,
        number=number,
        printed_number=printed,
        second=second,
        dagger=token.dagger,
        note=token.note,
        step=step,
        date_code=None if date is None else str(date),
        adjustments=adjustments,
        rule=token.family.rule,
        clauses=clauses,
        explanation=explanation,
    )


def _merged(groups: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """Clause IDs in first-seen order, each once."""
    seen: dict[str, None] = {}
    for group in groups:
        for clause in group:
            seen.setdefault(clause, None)
    return tuple(seen)
