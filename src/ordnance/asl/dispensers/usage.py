"""Which smoke dispenser a counter carries on a date, and its Usage Number (D13.1, D13.34).

The numbers come from :func:`ordnance.asl.capabilities.evaluate`, so a dated sN, a dagger or an
Elite context are read exactly as ``ordnance asl ammo`` reads them: Elite never changes a Usage
Number (D13.1) and Depletion Numbers do not apply to dispensers (C8.9-scope).

>>> from ordnance.asl.dates import ScenarioDate
>>> from ordnance.asl.notation import parse_capabilities
>>> ctx = AmmoContext(ScenarioDate.parse("1945-02"), elite=True)
>>> d = pick_dispenser(parse_capabilities("A5(4)/6(5) sN7(4)/8(5)"), ctx)
>>> d.family.value, d.usage_number, d.token
('sN', 8, 'sN7(4)/8(5)')
>>> pick_dispenser(parse_capabilities("sN7(4)/8(5)"),
...                AmmoContext(ScenarioDate.parse("1944-06")))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.IllegalAction: refused by D13.34: the sN sN7(4)/8(5) is not available ...
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ordnance.asl.capabilities import AmmoContext, Capability, evaluate
from ordnance.asl.dates import MONTH_NAMES
from ordnance.asl.notation import Family, Token
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.errors import BadInput, IllegalAction

DISPENSER_FAMILIES: tuple[Family, ...] = (
    Family.SMOKE_DISCHARGER,
    Family.SMOKE_MORTAR,
    Family.SMOKE_POT,
    Family.NAHVERTEIDIGUNGSWAFFE,
)

__all__ = [
    "DISPENSER_FAMILIES",
    "Dispenser",
    "dispenser_family",
    "pick_dispenser",
]


@dataclass(frozen=True)
class Dispenser:
    """One dispenser as it exists in the scenario: type, Usage Number, and how it was read.

    ``elite`` records that the owner is Elite, only so that rulings can say it changed nothing
    (D13.1).

    >>> Dispenser(Family.SMOKE_DISCHARGER, 7).kind
    'sD'
    >>> Dispenser(Family.APCR, 7)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad dispenser 'A': not a smoke dispenser; one of sD, sM, sP, sN
    """

    family: Family
    usage_number: int
    token: str = ""
    explanation: str = ""
    elite: bool = False

    def __post_init__(self) -> None:
        if not self.family.is_dispenser:
            raise BadInput("dispenser", self.family.value, _NOT_A_DISPENSER)
        if not 1 <= self.usage_number <= 12:
            raise BadInput("Usage Number", str(self.usage_number), "a Usage Number is 1 to 12")

    @property
    def kind(self) -> str:
        """The symbol: ``sD``, ``sM``, ``sP`` or ``sN``."""
        return self.family.value

    @classmethod
    def of(cls, capability: Capability, *, elite: bool = False) -> Dispenser:
        """From an available capability that has a Usage Number."""
        if capability.usage_number is None:
            raise BadInput(
                "notation",
                capability.token,
                "no Usage Number is printed; the vehicle note must give it",
            )
        return cls(
            capability.family,
            capability.usage_number,
            capability.token,
            capability.explanation,
            elite=elite,
        )


_NOT_A_DISPENSER = "not a smoke dispenser; one of sD, sM, sP, sN"


def dispenser_family(text: str) -> Family:
    """``sD``, ``sM``, ``sP`` or ``sN`` (any case).

    >>> dispenser_family("SM")
    <Family.SMOKE_MORTAR: 'sM'>
    """
    for family in DISPENSER_FAMILIES:
        if family.value.lower() == text.strip().lower():
            return family
    raise BadInput("dispenser", text, _NOT_A_DISPENSER)


def pick_dispenser(
    tokens: Iterable[Token],
    context: AmmoContext,
    kind: Family | None = None,
    settings: Settings = DEFAULT,
) -> Dispenser:
    """The one dispenser a counter uses now, refused when it has none on this date.

    ``kind`` picks one type; without it the counter must list exactly one dispenser type.
    Refusals: no dispenser (or none of ``kind``) on the counter (D13.1), a dispenser whose dated
    steps do not cover the scenario (D13.34 for an sN: July 1944 on; D13.1 otherwise).

    >>> from ordnance.asl.dates import ScenarioDate
    >>> from ordnance.asl.notation import parse_capabilities
    >>> ctx = AmmoContext(ScenarioDate.parse("1944-08"))
    >>> pick_dispenser(parse_capabilities("sD7"), ctx).usage_number
    7
    >>> pick_dispenser(parse_capabilities("sD7 sM8"), ctx)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad dispenser 'sD7 sM8': the counter lists sD and sM; ...
    """
    listed = [t for t in tokens if t.family.is_dispenser]
    if kind is not None:
        if not kind.is_dispenser:
            raise BadInput("dispenser", kind.value, _NOT_A_DISPENSER)
        listed = [t for t in listed if t.family is kind]
        if not listed:
            raise IllegalAction(
                "D13.1", f"the counter shows no {kind.value}; an AFV has only what it prints"
            )
    if not listed:
        raise IllegalAction(
            "D13.1", "the counter shows no smoke dispenser (sD, sM, sP or sN with a Usage Number)"
        )
    kinds = sorted({t.family.value for t in listed}, key=_ORDER.index)
    if len(kinds) > 1:  # only without ``kind``: ``listed`` is then every dispenser listed
        raise BadInput(
            "dispenser",
            " ".join(str(t) for t in listed),
            f"the counter lists {' and '.join(kinds)}; name the one to use (--type)",
        )
    capabilities = [evaluate(t, context, settings) for t in listed]
    available = [c for c in capabilities if c.available]
    if not available:
        first = capabilities[0]
        clause = "D13.34" if first.family is Family.NAHVERTEIDIGUNGSWAFFE else "D13.1"
        raise IllegalAction(
            clause,
            f"the {first.ammo} {first.token} is not available in {context.label}"
            + (_sn_start(settings) if clause == "D13.34" else ""),
        )
    # Two tokens of one type would be a data error; the last listed is the counter's latest.
    return Dispenser.of(available[-1], elite=context.elite)


_ORDER = [f.value for f in DISPENSER_FAMILIES]


def _sn_start(settings: Settings) -> str:
    month = MONTH_NAMES[settings.sn_first_number_from_month - 1]
    return f"; a dated sN's first number serves from {month} 1944"
