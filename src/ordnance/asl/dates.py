"""Scenario dates, theatres and nationalities: the context that selects a counter's numbers."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ordnance.core.errors import BadInput

# ASL scenarios run from the Spanish Civil War to the Korean War; a date outside is a typo.
FIRST_YEAR = 1936
LAST_YEAR = 1953

MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})")  # ASCII digits: not full-width ones


@dataclass(frozen=True, order=True)
class ScenarioDate:
    """A scenario's year and month.

    >>> date = ScenarioDate.parse("1944-08")
    >>> date
    ScenarioDate.parse('1944-08')
    >>> str(date), date.year, date.month
    ('1944-08', 1944, 8)
    >>> ScenarioDate.parse("1944-13")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad date '1944-13' at position 5: month must be 01 to 12
    """

    year: int
    month: int

    def __post_init__(self) -> None:
        text = f"{self.year:04d}-{self.month:02d}"
        if not FIRST_YEAR <= self.year <= LAST_YEAR:
            raise BadInput(
                "date", text, f"year must be {FIRST_YEAR} to {LAST_YEAR} (ASL's wars)", 0
            )
        if not 1 <= self.month <= 12:
            raise BadInput("date", text, "month must be 01 to 12", 5)

    @classmethod
    def parse(cls, text: str) -> ScenarioDate:
        """Read ``YYYY-MM``."""
        match = _DATE.fullmatch(text.strip())
        if match is None:
            raise BadInput("date", text, "expected YYYY-MM (two-digit month), e.g. 1944-06")
        year, month = int(match[1]), int(match[2])
        if not 1 <= month <= 12:
            raise BadInput("date", text, "month must be 01 to 12", match.start(2))
        if not FIRST_YEAR <= year <= LAST_YEAR:
            raise BadInput(
                "date", text, f"year must be {FIRST_YEAR} to {LAST_YEAR} (ASL's wars)", 0
            )
        return cls(year, month)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    def __repr__(self) -> str:
        return f"ScenarioDate.parse('{self}')"

    @property
    def label(self) -> str:
        """Human form, e.g. ``Aug 1944``."""
        return f"{MONTH_NAMES[self.month - 1]} {self.year}"


class Theater(enum.StrEnum):
    """Where a scenario is fought; counter flags E, P and B name ETO, PTO and Burma."""

    ETO = "ETO"
    MTO = "MTO"
    DTO = "DTO"
    PTO = "PTO"
    BURMA = "Burma"
    KOREA = "Korea"

    @classmethod
    def parse(cls, text: str) -> Theater:
        """Case-insensitive: ``eto``, ``PTO``, ``burma``...

        >>> Theater.parse("pto")
        <Theater.PTO: 'PTO'>
        """
        for theater in cls:
            if theater.value.lower() == text.strip().lower():
                return theater
        names = ", ".join(t.value for t in cls)
        raise BadInput("theater", text, f"unknown theater; one of {names}")


# Lower-case nationality words, as players and the vasl-templates files name them. Commonwealth
# forces are British for C8.2's service rule; the Korean War sides are kept for their counters.
COMMONWEALTH = frozenset(
    {"anzac", "australian", "canadian", "new-zealand", "indian", "south-african"}
)
NATIONALITIES = (
    frozenset(
        {
            "german",
            "american",
            "british",
            "russian",
            "italian",
            "japanese",
            "french",
            "free-french",
            "finnish",
            "chinese",
            "gmd",
            "swedish",
            "polish",
            "belgian",
            "danish",
            "dutch",
            "greek",
            "yugoslavian",
            "norwegian",
            "bulgarian",
            "croatian",
            "hungarian",
            "romanian",
            "slovakian",
            "thai",
            "indonesian",
            "kpa",
            "cpva",
            "rok",
            "ounc",
            "bcfk",
        }
    )
    | COMMONWEALTH
)


# Short names players type for a nationality (README "Nationality aliases").
ALIASES: Mapping[str, str] = {
    **dict.fromkeys(("us", "usa", "america", "united-states", "usmc"), "american"),
    **dict.fromkeys(("ge", "de", "ger", "germany"), "german"),
    **dict.fromkeys(("ru", "su", "rus", "ussr", "soviet", "soviets", "russia"), "russian"),
    **dict.fromkeys(("br", "uk", "gb", "brit", "britain", "commonwealth"), "british"),
    **dict.fromkeys(("it", "ita", "italy"), "italian"),
    **dict.fromkeys(("jp", "ja", "jap", "japan"), "japanese"),
    **dict.fromkeys(("fr", "france"), "french"),
    **dict.fromkeys(("ff", "free-france"), "free-french"),
    **dict.fromkeys(("fi", "fin", "finland"), "finnish"),
    **dict.fromkeys(("cn", "china"), "chinese"),
    **dict.fromkeys(("pl", "pol", "poland"), "polish"),
    **dict.fromkeys(("ca", "can", "canada"), "canadian"),
    **dict.fromkeys(("au", "aus", "australia"), "australian"),
    **dict.fromkeys(("nz", "new-zealander"), "new-zealand"),
    **dict.fromkeys(("za", "sa", "south-africa"), "south-african"),
    **dict.fromkeys(("hu", "hun", "hungary"), "hungarian"),
    **dict.fromkeys(("ro", "rom", "romania"), "romanian"),
    **dict.fromkeys(("nl", "holland", "netherlands"), "dutch"),
    **dict.fromkeys(("be", "belgium"), "belgian"),
    **dict.fromkeys(("gr", "greece"), "greek"),
    **dict.fromkeys(("yu", "yugoslavia"), "yugoslavian"),
    **dict.fromkeys(("se", "sweden"), "swedish"),
    **dict.fromkeys(("dk", "denmark"), "danish"),
    **dict.fromkeys(("nor", "norway"), "norwegian"),
    **dict.fromkeys(("bg", "bulgaria"), "bulgarian"),
    **dict.fromkeys(("hr", "croatia"), "croatian"),
    **dict.fromkeys(("sk", "slovakia"), "slovakian"),
    **dict.fromkeys(("th", "thailand"), "thai"),
}


def parse_nationality(text: str) -> str:
    """Normalise a nationality word.

    >>> parse_nationality(" German ")
    'german'
    >>> parse_nationality("New Zealand")
    'new-zealand'
    >>> parse_nationality("US"), parse_nationality("u.s.a."), parse_nationality("su")
    ('american', 'american', 'russian')
    >>> parse_nationality("klingon")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad nationality 'klingon': unknown nationality; known: ...
    """
    word = "-".join(text.strip().lower().replace("_", " ").replace(".", "").split())
    word = ALIASES.get(word, word)
    if word not in NATIONALITIES:
        known = ", ".join(sorted(NATIONALITIES))
        raise BadInput("nationality", text, f"unknown nationality; known: {known}")
    return word
