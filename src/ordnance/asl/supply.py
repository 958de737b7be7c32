"""The Ammunition Supply Chart (C8.2): APCR/APDS Depletion Numbers by nationality, gun and date.

The chart itself is data (``data/ammo_supply.toml``, with its source note); this module finds
the row and column that answer, and applies the rules around the chart: month starts
(C8.2-month), Elite +1 (C8.2-elite), which nationality's ordnance a Gun counts as
(C8.2-service) and the counter's own number (C8.2-counter).

>>> ruling = chart_number("american", "76l", "1944-08")
>>> ruling.ammo, ruling.available, ruling.depletion_number, ruling.row
('APCR', True, 4, 'american 76L')
>>> chart_number("american", "76L", "1944-07").available
False
>>> chart_number("canadian", "57L", "1945-03", elite=True).depletion_number
8
>>> chart_number("german", "75X", "1943-01")
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad gun size '75X' at position 2: expected digits, then L or LL
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ordnance.asl.dates import (
    COMMONWEALTH,
    MONTH_NAMES,
    NATIONALITIES,
    ScenarioDate,
    parse_nationality,
)
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.data import load_toml
from ordnance.core.errors import BadInput
from ordnance.core.rulings import Ruling

AMMO_OF_LETTER = {"A": "APCR", "D": "APDS"}
# Depletion Numbers live on 2d6, so a counter's number is 1..12 (as in the notation module).
MAX_DEPLETION = 12

# ASCII digits, at most 3 (core.limits.MAX_CALIBRE): never a full-width digit or 5,000 of them.
_GUN = re.compile(r"([0-9]{1,3})(L{0,2})", re.IGNORECASE)
_CELL = re.compile(r"([AD])(\d+)(?:\(([A-Z][a-z]{2})\))?")


@dataclass(frozen=True)
class Cell:
    """One year of one row: the Depletion Number (None for "-") and the first month it holds."""

    number: int | None
    month: int = 1


@dataclass(frozen=True)
class ChartRow:
    """One line of the chart: whose ordnance, which gun sizes, and a cell per year."""

    nationality: str
    guns: tuple[str, ...]
    letter: str
    cells: tuple[Cell, ...]

    @property
    def ammo(self) -> str:
        """``APCR`` for an A row, ``APDS`` for a D row."""
        return AMMO_OF_LETTER[self.letter]

    @property
    def label(self) -> str:
        """How rulings name the row, e.g. ``german 75L, 76L``."""
        return f"{self.nationality} {', '.join(self.guns)}"


@dataclass(frozen=True)
class SupplyChart:
    """The whole chart: its year columns, its rows and where it comes from."""

    years: tuple[int, ...]
    rows: tuple[ChartRow, ...]
    source: str

    @property
    def nationalities(self) -> frozenset[str]:
        """The nationalities that have at least one row."""
        return frozenset(row.nationality for row in self.rows)

    def find(self, nationalities: Iterable[str], gun: str) -> ChartRow | None:
        """The first row listing ``gun``, trying the nationalities in order."""
        for nationality in nationalities:
            for row in self.rows:
                if row.nationality == nationality and gun in row.guns:
                    return row
        return None

    @property
    def gun_sizes(self) -> tuple[str, ...]:
        """Every gun size some row lists, smallest calibre first."""
        sizes = {gun for row in self.rows for gun in row.guns}
        return tuple(sorted(sizes, key=lambda g: (int(g.rstrip("L")), len(g))))

    def cell(self, row: ChartRow, year: int) -> Cell | None:
        """The row's cell for ``year``, or None when the year has no column."""
        if year not in self.years:
            return None
        return row.cells[self.years.index(year)]


@dataclass(frozen=True, kw_only=True)
class ChartRuling(Ruling):
    """What the chart (or the counter) says about one Gun's APCR/APDS on one date.

    ``ammo`` is the row's ammunition (None when no row answered); ``row`` names the row;
    ``searched`` lists, in order, the nationalities whose rows were tried; ``from_counter``
    is True when the counter's own number decided (C8.2-counter).
    """

    ammo: str | None
    available: bool
    depletion_number: int | None
    row: str | None
    gun: str
    searched: tuple[str, ...]
    from_counter: bool = False


def parse_gun_size(text: str) -> str:
    """Normalise a gun size: calibre digits, then nothing, ``L`` or ``LL`` (upper case).

    >>> parse_gun_size(" 76ll "), parse_gun_size("50")
    ('76LL', '50')
    >>> parse_gun_size("banana")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad gun size 'banana' at position 0: expected the calibre in mm
    """
    stripped = text.strip()
    match = _GUN.match(stripped)
    if match is None:
        raise BadInput("gun size", text, "expected the calibre in mm", 0)
    if match.end() != len(stripped):
        raise BadInput("gun size", text, "expected digits, then L or LL", match.end())
    return f"{int(match[1])}{match[2].upper()}"


def search_order(nationality: str, origin: str | None = None) -> tuple[str, ...]:
    """Whose chart rows a Gun uses, in the order they are tried.

    Reading of C8.2-service: U.S. ordnance includes Guns in British and Commonwealth service,
    and British ordnance includes Guns in Commonwealth service. So a British Gun is looked up
    on the British rows, then the American ones (a U.S. Gun lent to Britain); a Commonwealth
    Gun on the British rows, then the American ones. The two nations' rows list different gun
    sizes, so the order never changes an answer; it only says which row is tried first.

    ``origin`` names the nationality that built the Gun (a captured or lent piece); it replaces
    the search with that nationality's own rows (a Commonwealth origin means the British rows,
    its ordnance being British under the same rule).

    >>> search_order("canadian"), search_order("german")
    (('british', 'american'), ('german',))
    >>> search_order("russian", origin="american")
    ('american',)
    """
    if origin is not None:
        return ("british",) if origin in COMMONWEALTH else (origin,)
    if nationality == "british" or nationality in COMMONWEALTH:
        return ("british", "american")
    return (nationality,)


def chart_number(
    nationality: str,
    gun: str,
    date: ScenarioDate | str,
    elite: bool = False,
    settings: Settings = DEFAULT,
    *,
    origin: str | None = None,
    counter: int | None = None,
) -> ChartRuling:
    """The APCR/APDS Depletion Number of a Gun on a scenario date.

    ``nationality`` is the side using the Gun, ``gun`` its size (``75L``), ``date`` the scenario
    date (``YYYY-MM`` or a :class:`ScenarioDate`). ``origin`` picks the chart row of another
    nationality (see :func:`search_order`); ``counter`` is a Depletion Number printed on the
    AFV's counter, which replaces the chart (C8.2-counter). Elite adds one to whichever number
    applies, the counter's included (C8.2-elite: the rule names no exception). ``settings`` is
    accepted for a uniform signature; no chart reading is a setting yet.

    >>> chart_number("british", "76L", "1945-01").row  # a U.S. Gun in British service
    'american 76L'
    >>> print(chart_number("italian", "47L", "1942-06").explanation)  # doctest: +ELLIPSIS
    The Ammunition Supply Chart has no row for italian ordnance, so it gives no APCR/APDS; ...
    >>> chart_number("american", "76L", "1943-06", counter=5).depletion_number
    5
    """
    return _chart_number(nationality, gun, date, elite, settings, origin=origin, counter=counter)


# A game asks the chart about the same Gun and date at every APCR/APDS shot: each answer is
# worked out once. Safe to share: a pure function of hashable arguments; the ruling is frozen.
@lru_cache(maxsize=256)
def _chart_number(
    nationality: str,
    gun: str,
    date: ScenarioDate | str,
    elite: bool,
    settings: Settings,
    *,
    origin: str | None,
    counter: int | None,
) -> ChartRuling:
    side = parse_nationality(nationality)
    maker = parse_nationality(origin) if origin is not None else None
    size = parse_gun_size(gun)
    when = date if isinstance(date, ScenarioDate) else ScenarioDate.parse(date)
    order = search_order(side, maker)
    # A captured or lent Gun answers from its maker's rows in its own right; only a row of
    # another nationality than the maker's (or the side's) is the service rule at work.
    ruling = _from_chart(CHART, order, size, when, maker or side)
    if counter is not None:
        return _from_counter(ruling, _checked_counter(counter), elite)
    if elite and ruling.depletion_number is not None:
        return _elite(ruling)
    return ruling


def _checked_counter(counter: int) -> int:
    if not 1 <= counter <= MAX_DEPLETION:
        raise BadInput("counter", str(counter), f"a Depletion Number is 1 to {MAX_DEPLETION}")
    return counter


def _from_chart(
    chart: SupplyChart, order: tuple[str, ...], size: str, when: ScenarioDate, owner: str
) -> ChartRuling:
    """The chart's own answer, before Elite and counter; ``owner`` is whose Gun it is."""
    base: dict[str, Any] = {"gun": size, "searched": order}
    on_chart = [n for n in order if n in chart.nationalities]
    if not on_chart:
        names = " or ".join(order)
        return _none(
            base,
            f"The Ammunition Supply Chart has no row for {names} ordnance, so it gives no"
            " APCR/APDS; give the counter's own number, or the nationality that built the Gun.",
        )
    row = chart.find(on_chart, size)
    if row is None:
        names = " or ".join(on_chart)
        return _none(base, f"No {names} row of the Ammunition Supply Chart lists a {size} Gun.")
    base |= {"ammo": row.ammo, "row": row.label}
    clauses = ["C8.2-chart"]
    if row.nationality != owner:
        clauses.append("C8.2-service")
    cell = chart.cell(row, when.year)
    if cell is None:
        first, last = chart.years[0], chart.years[-1]
        return _answer(
            base,
            clauses,
            None,
            f"The chart covers {first} to {last} only; {when.year} is off it, so the {row.label}"
            f" row gives no {row.ammo}.",
        )
    return _from_cell(base, clauses, row, cell, when)


def _from_cell(
    base: dict[str, Any], clauses: list[str], row: ChartRow, cell: Cell, when: ScenarioDate
) -> ChartRuling:
    where = f"The {row.label} row, {when.year} column"
    if cell.number is None:
        return _answer(base, clauses, None, f"{where}, shows '-': no {row.ammo} that year.")
    shown = f"{row.letter}{cell.number}"
    if cell.month > 1:
        clauses.append("C8.2-month")
        start = f"{MONTH_NAMES[cell.month - 1]} {when.year}"
        shown += f" from {start}"
        if when.month < cell.month:
            return _answer(
                base, clauses, None, f"{where}, shows {shown}; {when.label} is before that."
            )
    return _answer(
        base,
        clauses,
        cell.number,
        f"{where}, shows {shown}: {row.ammo} Depletion Number {cell.number}.",
    )


def _none(base: dict[str, Any], explanation: str) -> ChartRuling:
    return _answer({"ammo": None, "row": None} | base, ["C8.2-chart"], None, explanation)


def _answer(
    base: dict[str, Any], clauses: list[str], number: int | None, explanation: str
) -> ChartRuling:
    return ChartRuling(
        available=number is not None,
        depletion_number=number,
        clauses=tuple(clauses),
        explanation=explanation,
        **base,
    )


def _elite(ruling: ChartRuling) -> ChartRuling:
    """Elite units add one to the Depletion Number (C8.2-elite)."""
    assert ruling.depletion_number is not None
    raised = ruling.depletion_number + 1
    return dataclasses.replace(
        ruling,
        depletion_number=raised,
        clauses=(*ruling.clauses, "C8.2-elite"),
        explanation=f"{ruling.explanation} Elite: +1, so {raised}.",
    )


def _from_counter(ruling: ChartRuling, counter: int, elite: bool) -> ChartRuling:
    """The counter's printed number replaces whatever the chart said (C8.2-counter)."""
    chart_said = (
        f"the chart gives {ruling.depletion_number}"
        if ruling.depletion_number is not None
        else "the chart gives none"
    )
    clauses = ("C8.2-counter", *ruling.clauses)
    number, sentence = counter, f"The counter's Depletion Number {counter} applies ({chart_said})."
    if elite:
        number += 1
        clauses += ("C8.2-elite",)
        sentence += f" Elite: +1, so {number}."
    return dataclasses.replace(
        ruling,
        available=True,
        depletion_number=number,
        from_counter=True,
        clauses=clauses,
        explanation=sentence,
    )


@cache
def load() -> SupplyChart:
    """Read and check ``ammo_supply.toml`` (once)."""
    data = load_toml("ordnance.asl", "ammo_supply.toml")
    years = tuple(int(y) for y in data["years"])
    if list(years) != list(range(years[0], years[0] + len(years))):
        raise ValueError("ammo_supply.toml: years must be consecutive and ascending")
    rows = tuple(_load_row(raw, len(years)) for raw in data["rows"])
    for row in rows:
        for other in rows:
            shared = set(row.guns) & set(other.guns)
            if other is not row and other.nationality == row.nationality and shared:
                raise ValueError(f"ammo_supply.toml: {row.nationality} {shared} on two rows")
    return SupplyChart(years, rows, str(data["source"]))


def _load_row(raw: dict[str, Any], width: int) -> ChartRow:
    nationality = str(raw["nationality"])
    if nationality not in NATIONALITIES:
        raise ValueError(f"ammo_supply.toml: unknown nationality {nationality!r}")
    guns = tuple(parse_gun_size(str(g)) for g in raw["guns"])
    texts = [str(c) for c in raw["cells"]]
    if len(texts) != width:
        raise ValueError(f"ammo_supply.toml: {nationality} {guns} needs {width} cells")
    letters = {t[0] for t in texts if t != "-"}
    if len(letters) != 1:
        raise ValueError(f"ammo_supply.toml: {nationality} {guns} needs one ammunition letter")
    return ChartRow(nationality, guns, letters.pop(), tuple(map(_cell, texts)))


def _cell(text: str) -> Cell:
    if text == "-":
        return Cell(None)
    match = _CELL.fullmatch(text)
    if match is None or (match[3] is not None and match[3] not in MONTH_NAMES):
        raise ValueError(f"ammo_supply.toml: bad cell {text!r}")
    month = MONTH_NAMES.index(match[3]) + 1 if match[3] is not None else 1
    return Cell(int(match[2]), month)


CHART = load()
