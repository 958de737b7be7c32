"""Which vasl-templates counter a VASL piece is: by its gpid, as VASL renumbered it.

A piece's gpid names the module slot it came from (``2598``, or ``08d:75`` for a slot of the
extension ``08d``). The vasl-templates data lists the gpids of each vehicle and Gun. VASL gave
some counters new gpids (in 6.4.3, 6.5.0 and 6.5.1: ``data/vasl_gpids.toml``, the table
vasl-templates publishes), so a piece is looked for under its own gpid, under the gpid a
renumbering in force at the save's version replaced (every renumbering for a save that does not
say its version), and under the gpid that replaced it (a piece an older VASL placed). When one
gpid belongs to several entries (the same counter in the WWII and the Korean War files), the
readings that decide, in order:

1. the side the piece's concealment trait names (``am`` -> American files, ``ax`` -> the
   axis-minor files), when some entries are of that side;
2. the era: Korean War files only from 1950 on (without a date: WWII);
3. the first entry in the data's file order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from ordnance.asl.dates import ScenarioDate
from ordnance.asl.vasl_templates import Entry, VaslData
from ordnance.core.data import load_toml

KOREAN_WAR_FROM = 1950
_KOREAN_WAR_WORDS = frozenset({"kpa", "cpva", "rok", "ounc", "bcfk", "us-rok-ounc", "un-common"})


@dataclass(frozen=True)
class GpidTable:
    """The data file: per VASL version, the renumbered gpids (the data's -> the pieces' from
    that version on), and the side codes of concealment traits."""

    renumbered: tuple[tuple[tuple[int, ...], Mapping[str, str]], ...]
    nation_codes: Mapping[str, str]

    @cached_property
    def replaced(self) -> tuple[tuple[tuple[int, ...], Mapping[str, str]], ...]:
        """The same pairs the other way round (the pieces' gpid -> the data's)."""
        return tuple(
            (since, {new: old for old, new in pairs.items()}) for since, pairs in self.renumbered
        )


@cache
def gpid_table() -> GpidTable:
    """The shipped ``vasl_gpids.toml``, loaded once."""
    raw = load_toml("ordnance.asl", "vasl_gpids.toml")
    renumbered = sorted(
        (version_key(str(version)), {str(k): str(v) for k, v in pairs.items()})
        for version, pairs in raw["renumbered"].items()
    )
    return GpidTable(
        renumbered=tuple(renumbered),
        nation_codes={str(k): str(v) for k, v in raw["nation_codes"].items()},
    )


@lru_cache(maxsize=64)
def version_key(text: str | None) -> tuple[int, ...]:
    """``6.5.0`` -> (6, 5, 0); the numbers of a version, for comparing.

    >>> version_key("6.6.1") > version_key("6.5.0"), version_key("6.4.4-beta2")
    (True, (6, 4, 4, 2))
    """
    return tuple(int(number) for number in re.findall(r"[0-9]+", text or ""))


def data_gpids(
    gpid: str, vasl_version: str | None, table: GpidTable | None = None
) -> tuple[str, ...]:
    """The gpids the data may list a piece under, its own first (see the module docstring).

    >>> data_gpids("12483", "6.5.0"), data_gpids("12483", "6.4.4"), data_gpids("12730", None)
    (('12483', '879'), ('12483',), ('12730', '1527'))
    >>> data_gpids("7140", "6.4.1"), data_gpids("687", None)
    (('7140', '2775'), ('687',))
    """
    table = table or gpid_table()
    found = [gpid]
    saved = None if vasl_version is None else version_key(vasl_version)
    for (since, pairs), (_, back) in zip(table.renumbered, table.replaced, strict=True):
        if gpid in back and (saved is None or saved >= since):
            found.append(back[gpid])
        if gpid in pairs:
            found.append(pairs[gpid])
    return tuple(dict.fromkeys(found))


def is_korean_war(entry: Entry) -> bool:
    """Whether the entry comes from the Korean War (K:FW) files."""
    return entry.nationality in _KOREAN_WAR_WORDS or "/kfw" in f"/{entry.source}"


def _side_words(entry: Entry) -> set[str]:
    return {word for word in (entry.nationality, entry.parent, entry.minor) if word}


@dataclass(frozen=True)
class GpidIndex:
    """Every entry by gpid, amending records folded into the entry they amend."""

    entries: Mapping[str, tuple[Entry, ...]]

    @classmethod
    def of(cls, data: VaslData) -> GpidIndex:
        """Index a loaded data directory."""
        first: dict[str, Entry] = {}
        for entry in data.entries:
            first.setdefault(entry.id, entry)
        found: dict[str, dict[str, Entry]] = {}
        for entry in data.entries:
            base = first[entry.id]
            for gpid in entry.gpids:
                found.setdefault(gpid, {}).setdefault(base.id, base)
        return cls({gpid: tuple(by_id.values()) for gpid, by_id in found.items()})

    def match(
        self,
        gpids: Sequence[str],
        *,
        side_code: str | None = None,
        date: ScenarioDate | None = None,
    ) -> Entry | None:
        """The entry for a piece listed under any of ``gpids`` (:func:`data_gpids`), ties
        broken as the module docstring says."""
        by_id = {entry.id: entry for gpid in gpids for entry in self.entries.get(gpid, ())}
        candidates: Sequence[Entry] = tuple(by_id.values())
        if len(candidates) > 1 and side_code is not None:
            word = gpid_table().nation_codes.get(side_code)
            ours = [entry for entry in candidates if word in _side_words(entry)]
            candidates = ours or candidates
        if len(candidates) > 1:
            korean = date is not None and date.year >= KOREAN_WAR_FROM
            fitting = [entry for entry in candidates if is_korean_war(entry) == korean]
            candidates = fitting or candidates
        return candidates[0] if candidates else None
