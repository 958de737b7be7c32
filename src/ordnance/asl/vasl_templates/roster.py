"""Rosters: every vehicle and Gun of a nationality in a scenario's context, and which data
files (:func:`roster_groups`) it reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ordnance.asl.capabilities import AmmoContext, Capability, evaluate
from ordnance.asl.dates import COMMONWEALTH, ScenarioDate, Theater, parse_nationality
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.asl.vasl_templates.data import Entry, load
from ordnance.core.errors import BadInput
from ordnance.core.rulings import Ruling

# From this year a scenario is the Korean War, whose forces have files of their own.
KOREAN_WAR_FROM = 1950
# K:FW files are shared: the U.S., ROK and OUNC have one together, all UN forces a common one.
_SHARED_GROUPS = {
    "rok": ("us-rok-ounc", "un-common"),
    "ounc": ("us-rok-ounc", "un-common"),
    "bcfk": ("un-common",),
}
_KOREAN_WAR_GROUPS = {
    "american": ("us-rok-ounc", "un-common"),
    "british": ("bcfk", "un-common"),
}


@dataclass(frozen=True, kw_only=True)
class Unit:
    """One counter of a roster, with its capabilities read in the roster's context."""

    name: str
    id: str
    kind: str
    nationality: str
    type: str | None
    source: str
    capabilities: tuple[Capability, ...]


@dataclass(frozen=True, kw_only=True)
class RosterRuling(Ruling):
    """Every vehicle and Gun of a nationality, with what each may fire in one context."""

    nationality: str
    groups: tuple[str, ...]
    date: ScenarioDate
    elite: bool
    theater: Theater | None
    directory: str
    units: tuple[Unit, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON with the date as ``YYYY-MM``."""
        return {**super().to_json(), "date": str(self.date)}


def roster_groups(
    nationality: str,
    date: ScenarioDate,
    parents: Mapping[str, str] | None = None,
    minors: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """The entry nationalities (files) a nationality's roster reads, in order.

    - the nationality itself;
    - the file a ``~`` variant belongs to (``canadian`` -> ``british``), and for every
      Commonwealth nationality ``british``: British ordnance covers Guns in Commonwealth
      service (C8.2-service);
    - the minor-nation common file when the nationality has a file in that folder
      (``parents`` and ``minors`` as in :class:`VaslData`);
    - the shared Korean War files; and from 1950 on, the Korean War files of the U.S. and
      the British Commonwealth for ``american`` and ``british`` (and its Commonwealth).

    >>> roster_groups("canadian", ScenarioDate(1944, 6))
    ('canadian', 'british')
    >>> roster_groups("polish", ScenarioDate(1939, 9), minors={"polish": "allied-minor"})
    ('polish', 'allied-minor')
    >>> roster_groups("american", ScenarioDate(1951, 3))
    ('american', 'us-rok-ounc', 'un-common')
    """
    groups = [nationality]
    if parents and nationality in parents:
        groups.append(parents[nationality])
    if nationality in COMMONWEALTH:
        groups.append("british")
    if minors and nationality in minors:
        groups.append(minors[nationality])
    groups.extend(_SHARED_GROUPS.get(nationality, ()))
    if date.year >= KOREAN_WAR_FROM:
        for group in list(groups):
            groups.extend(_KOREAN_WAR_GROUPS.get(group, ()))
    return tuple(dict.fromkeys(groups))


def name_matches(name: str, text: str) -> bool:
    """Whether ``text`` occurs in ``name``, ignoring case (``--name``, ``--vehicle``).

    >>> name_matches("M4A3(76)W", "a3(76)w"), name_matches("M4A3(76)W", "M4A1")
    (True, False)
    >>> name_matches("PzKpfw IVF<sub>2</sub>", "ivf2")  # the data's markup is not the name
    True
    """
    wanted = text.casefold()
    return wanted in name.casefold() or wanted in plain_name(name).casefold()


def plain_name(name: str) -> str:
    """A name without the data's markup: ``PzKpfw IVF<sub>2</sub>`` -> ``PzKpfw IVF2``."""
    return re.sub(r"<[^>]*>", "", name)


def find_unit(directory: str | Path, nationality: str, date: ScenarioDate, text: str) -> Entry:
    """The one roster entry whose name matches ``text``: a name equal to it (ignoring case)
    wins, else the only one that contains it; none or several is bad input naming them."""
    word = parse_nationality(nationality)
    data = load(directory)
    groups = roster_groups(word, date, data.parents, data.minors)
    found = [
        e
        for group in groups
        for e in data.entries
        if e.nationality == group and not e.amends and name_matches(e.name, text.strip())
    ]
    exact = [e for e in found if plain_name(e.name).casefold() == text.strip().casefold()]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]
    if not found:
        raise BadInput("vehicle", text, f"no {word} vehicle or Gun has it in its name")
    names = "; ".join(dict.fromkeys(plain_name(e.name) for e in (exact or found)))
    raise BadInput("vehicle", text, f"{len(exact or found)} {word} units match: {names}")


def roster(
    directory: str | Path,
    nationality: str,
    context: AmmoContext,
    settings: Settings = DEFAULT,
    name: str | None = None,
) -> RosterRuling:
    """Read a nationality's units from ``directory`` and their capabilities in ``context``.

    The context's own nationality is replaced by ``nationality`` (its nation flags decide).
    An entry that only amends another (an extension adding counter art) is listed once.
    ``name`` keeps only the units whose name contains it, ignoring case.
    """
    word = parse_nationality(nationality)
    context = replace(context, nationality=word)
    data = load(directory)
    groups = roster_groups(word, context.date, data.parents, data.minors)
    units = tuple(
        Unit(
            name=entry.name,
            id=entry.id,
            kind=entry.kind,
            nationality=entry.nationality,
            type=entry.type,
            source=entry.source,
            capabilities=tuple(evaluate(token, context, settings) for token in entry.tokens),
        )
        for group in groups
        for entry in data.entries
        if entry.nationality == group
        and not entry.amends
        and (name is None or name_matches(entry.name, name.strip()))
    )
    return RosterRuling(
        nationality=word,
        groups=groups,
        date=context.date,
        elite=context.elite,
        theater=context.theater,
        directory=str(data.directory),
        units=units,
        clauses=_roster_clauses(word, groups, units),
        explanation=_roster_sentence(word, groups, units, context)
        + ("" if name is None else f" Only names containing '{name.strip()}' (any case)."),
    )


def _roster_clauses(word: str, groups: tuple[str, ...], units: tuple[Unit, ...]) -> tuple[str, ...]:
    seen: dict[str, None] = {"C8.0": None}
    if word in COMMONWEALTH and "british" in groups:
        seen["C8.2-service"] = None
    for unit in units:
        for capability in unit.capabilities:
            seen.update(dict.fromkeys(capability.clauses))
    return tuple(seen)


def _roster_sentence(
    word: str, groups: tuple[str, ...], units: tuple[Unit, ...], context: AmmoContext
) -> str:
    listing = [u for u in units if u.capabilities]
    ready = [u for u in listing if any(c.available for c in u.capabilities)]
    return (
        f"{context.label}: {len(units)} units from {', '.join(groups)};"
        f" {len(listing)} list special ammunition or smoke dispensers,"
        f" {len(ready)} of them with at least one available."
    )
