"""The shape of a ruleset's terrain table: what each terrain, hexside feature and marker does.

Each ruleset owns its table as a TOML file in its package (``data/terrain.toml``) with a
``source`` note, and its own LOS procedure reads it; this module only gives the common shape
and checks it, so that a map can be validated against the names and drawn in their colours.

A table has three sections, ``[hex.NAME]``, ``[hexside.NAME]`` and ``[marker.NAME]``. The
common fields of an entry:

- ``blocks`` (bool): blocks a line of sight that meets it;
- ``hindrance`` (int >= 0): the hindrance (or degrading) value it adds;
- ``height`` (int >= 0): levels it rises above its hex's ground, for the simple level rule
  (:mod:`ordnance.core.maps.levels`); a half-level obstacle has height 0;
- ``cover`` (int): what it gives a unit in it (ASL TEM, LnLT TM, V&V cover);
- ``colour`` (``#rrggbb``) and ``mark`` (a few letters): how a map draws it;
- ``note``: where the values come from (rule numbers, tags like ``[unverified]``).

Anything else in an entry is kept in ``extra`` for the ruleset to read and check.

>>> chart = TerrainChart.from_toml_text('''
... source = "a test table"
... [hex.open]
... [hex.woods]
... blocks = true
... height = 1
... colour = "#2f6b2f"
... [hexside.wall]
... blocks = true
... [marker.smoke]
... hindrance = 3
... height = 2
... mark = "S3"
... ''', "test")
>>> chart.hex("woods").blocks, chart.marker("smoke").hindrance, sorted(chart.vocabulary.terrains)
(True, 3, ['open', 'woods'])
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from ordnance.core.data import load_toml

SECTIONS = ("hex", "hexside", "marker")
_T = TypeVar("_T")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_DEFAULT_COLOURS = {"hex": "#f2efe2", "hexside": "#555555", "marker": "#9a9a9a"}


@dataclass(frozen=True)
class Feature:
    """One entry of a terrain table (see the module docstring for the fields)."""

    name: str
    section: str
    blocks: bool = False
    hindrance: int = 0
    height: int = 0
    cover: int = 0
    colour: str = "#f2efe2"
    mark: str = ""
    note: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Vocabulary:
    """The names a map of one game may use."""

    game: str
    terrains: frozenset[str]
    hexsides: frozenset[str]
    markers: frozenset[str]
    default_terrain: str = "open"


@dataclass(frozen=True)
class TerrainChart:
    """A ruleset's terrain table: hex terrains, hexside features and markers by name."""

    game: str
    source: str
    hexes: Mapping[str, Feature]
    hexsides: Mapping[str, Feature]
    markers: Mapping[str, Feature]
    settings: Mapping[str, Any] = field(default_factory=dict)

    def hex(self, name: str) -> Feature:
        return self.hexes[name]

    def hexside(self, name: str) -> Feature:
        return self.hexsides[name]

    def marker(self, name: str) -> Feature:
        return self.markers[name]

    def check_extra(self, allowed: Mapping[str, type]) -> None:
        """Refuse a key of an entry that neither the common shape nor the ruleset knows."""
        for section in SECTIONS:
            for entry in self._section(section).values():
                for key, value in entry.extra.items():
                    kind = allowed.get(key)
                    where = f"{self.game} terrain table [{section}.{entry.name}]"
                    if kind is None:
                        raise ValueError(f"{where}: unknown key {key!r}")
                    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                        raise ValueError(f"{where}: {key!r} must be {kind.__name__}")

    def setting(self, name: str, kind: type[_T], default: _T | None = None) -> _T:
        """A value of the table's ``[settings]``, checked for its type."""
        value = self.settings.get(name, default)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"{self.game} terrain table: settings.{name} must be {kind.__name__}")
        return value

    def _section(self, section: str) -> Mapping[str, Feature]:
        return {"hex": self.hexes, "hexside": self.hexsides, "marker": self.markers}[section]

    @property
    def vocabulary(self) -> Vocabulary:
        default = str(self.settings.get("default_terrain", "open"))
        return Vocabulary(
            self.game,
            frozenset(self.hexes),
            frozenset(self.hexsides),
            frozenset(self.markers),
            default,
        )

    @classmethod
    def load(cls, package: str, game: str, name: str = "terrain.toml") -> TerrainChart:
        """Read and check ``package``'s ``data/terrain.toml`` (cached by the data loader)."""
        return cls.from_data(load_toml(package, name), f"{package}/data/{name}", game)

    @classmethod
    def from_toml_text(cls, text: str, game: str) -> TerrainChart:
        return cls.from_data(tomllib.loads(text), "<text>", game)

    @classmethod
    def from_data(cls, data: Mapping[str, Any], where: str, game: str) -> TerrainChart:
        """Build a chart from parsed TOML, refusing anything malformed with a clear message."""
        source = data.get("source")
        if not isinstance(source, str) or not source.strip():
            raise ValueError(f"{where}: a terrain table needs a 'source' note")
        settings = data.get("settings", {})
        if not isinstance(settings, dict):
            raise ValueError(f"{where}: [settings] must be a table")
        sections: dict[str, dict[str, Feature]] = {}
        for section in SECTIONS:
            entries = data.get(section, {})
            if not isinstance(entries, dict):
                raise ValueError(f"{where}: [{section}] must be a table of entries")
            sections[section] = {
                name: _feature(name, section, entry, f"{where}: [{section}.{name}]")
                for name, entry in entries.items()
            }
        unknown = set(data) - {"source", "settings", "verified", *SECTIONS}
        if unknown:
            raise ValueError(f"{where}: unknown top-level keys {sorted(unknown)}")
        chart = cls(
            game,
            source.strip(),
            MappingProxyType(sections["hex"]),
            MappingProxyType(sections["hexside"]),
            MappingProxyType(sections["marker"]),
            MappingProxyType(dict(settings)),
        )
        if chart.vocabulary.default_terrain not in chart.hexes:
            raise ValueError(f"{where}: the default terrain is not a [hex] entry")
        return chart


def _feature(name: str, section: str, entry: object, where: str) -> Feature:
    if not isinstance(entry, dict):
        raise ValueError(f"{where} must be a table")
    values = dict(entry)
    blocks = values.pop("blocks", False)
    numbers = {key: values.pop(key, 0) for key in ("hindrance", "height", "cover")}
    colour = values.pop("colour", _DEFAULT_COLOURS[section])
    mark = values.pop("mark", "")
    note = values.pop("note", "")
    if not isinstance(blocks, bool):
        raise ValueError(f"{where}: 'blocks' must be true or false")
    for key, number in numbers.items():
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError(f"{where}: {key!r} must be a whole number")
    if numbers["hindrance"] < 0 or numbers["height"] < 0:
        raise ValueError(f"{where}: 'hindrance' and 'height' cannot be negative")
    if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
        raise ValueError(f"{where}: 'colour' must be #rrggbb")
    if not isinstance(mark, str) or not isinstance(note, str):
        raise ValueError(f"{where}: 'mark' and 'note' must be text")
    return Feature(
        name,
        section,
        blocks,
        numbers["hindrance"],
        numbers["height"],
        numbers["cover"],
        colour,
        mark,
        note,
        MappingProxyType(values),
    )
