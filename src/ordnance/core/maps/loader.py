"""Reading a map file (YAML) into a :class:`GameMap`, refusing bad files in one clear line.

The format is described in README.md ("Maps") and by the JSON Schema shipped beside this module
(``map.schema.json``); in brief::

    version: 1                 # optional; the only version so far
    name: Village edge
    game: asl                  # whose terrain table names the terrain: asl, lnl, vv
    grid: {boards: "4/3"}      # ASL geomorphic boards (rows joined by /, boards by ,)
    # grid: {columns: 16, rows: 10}   # or one plain grid of lettered columns, numbered rows
    default: open              # terrain of every hex not listed
    hexes:
      4G5: woods               # a terrain name ...
      4H4: {terrain: building, elevation: 1}   # ... or terrain and/or ground level
    hexsides:
      4G5/NE: wall             # a hex and one of its sides, or two hexes: 4G5|4H4
    markers:
      4J3: smoke               # one marker or a list of them
      4K4: [dispersed smoke, wp]

Every fault (malformed YAML, an unknown key, a label off the boards, a hex given twice under
two labels, a terrain the game does not know) raises :class:`MapFileError`: a
:class:`~ordnance.core.errors.BadInput` whose one line names the file, the line, the key and
the fault.

>>> text = '''
... name: demo
... game: test
... grid: {columns: 4, rows: 3}
... hexes:
...   B2: woods
...   C9: woods
... '''
>>> vocabulary = Vocabulary("test", frozenset({"open", "woods"}), frozenset(), frozenset())
>>> try:
...     load_map_text(text, "demo.yaml", lambda game: vocabulary)
... except MapFileError as error:
...     print(error)
bad map file 'demo.yaml', line 7: hexes.C9: row 9 is outside 1..3
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import GeomorphicLabels, GridLabels, Hex, Hexside, Shift
from ordnance.core.limits import (
    MAX_GRID_SIDE,
    MAX_MAP_HEXES,
    MAX_TEXT_FILE_BYTES,
    check_tree,
    parsing,
    read_limited,
)
from ordnance.core.maps.model import GameMap, Labels, parse_hexside
from ordnance.core.maps.terrain import Vocabulary
from ordnance.core.yaml_lines import check_size

FORMAT_VERSION = 1
TOP_KEYS = (
    "version",
    "name",
    "game",
    "description",
    "grid",
    "default",
    "hexes",
    "hexsides",
    "markers",
)
VocabularyFor = Callable[[str], Vocabulary | None]


class MapFileError(BadInput):
    """A map file that cannot be read: the file, the line, the key and the fault, in one line.

    >>> str(MapFileError("maps/v.yaml", "hexes.4Z5", "no column Z", line=12))
    "bad map file 'maps/v.yaml', line 12: hexes.4Z5: no column Z"
    """

    def __init__(self, file: str, key: str, problem: str, line: int | None = None) -> None:
        super().__init__("map file", file, f"{key}: {problem}" if key else problem)
        self.file, self.key, self.line = file, key, line

    def __str__(self) -> str:
        where = f", line {self.line}" if self.line is not None else ""
        return f"bad map file {self.file!r}{where}: {self.problem}"


class _Mapping(dict[str, Any]):
    """A YAML mapping that remembers the line of each key (1-based), of itself, and the first
    key it was given twice (the reader refuses it, naming the key's full path)."""

    lines: dict[str, int]
    line: int
    duplicate: tuple[str, int, int] | None = None


class _Loader(yaml.SafeLoader):
    """Safe YAML with two changes: keys are kept as written, and a key given twice is noted.

    PyYAML would keep the last of two equal keys silently; a map must not lose a hex that way,
    so the first repeat is kept on the mapping and the reader refuses it with its full key.
    Keys stay the text written (``1E5``, ``yes``, ``012`` are labels, not numbers or booleans).
    """

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        result = _Mapping()
        result.lines, result.line = {}, node.start_mark.line + 1
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise _Fault("", "a key must be plain text", key_node.start_mark.line + 1)
            key = str(key_node.value)
            line = key_node.start_mark.line + 1
            if key in result:
                if result.duplicate is None:
                    result.duplicate = (key, line, result.lines[key])
                continue
            result[key] = self.construct_object(value_node, deep=True)
            result.lines[key] = line
        return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _Loader.construct_mapping)


class _Names(NamedTuple):
    """The names one kind of thing may take in a game's table."""

    names: frozenset[str]
    kind: str
    game: str


class _Fault(Exception):
    def __init__(self, key: str, problem: str, line: int | None) -> None:
        super().__init__(key, problem, line)
        self.key, self.problem, self.line = key, problem, line


def load_map(path: str | Path, vocabulary_for: VocabularyFor) -> GameMap:
    """Read a map file; ``vocabulary_for(game)`` gives the names that game's table defines."""
    file = str(path)
    try:
        text = read_limited(Path(path), "map file", MAX_TEXT_FILE_BYTES).decode("utf-8")
    except BadInput as err:
        raise MapFileError(file, "", err.problem) from None
    except UnicodeDecodeError:
        raise MapFileError(file, "", "the file is not UTF-8 text") from None
    return load_map_text(text, file, vocabulary_for)


def load_map_text(text: str, file: str, vocabulary_for: VocabularyFor) -> GameMap:
    """Read a map from YAML text; ``file`` names it in messages."""
    try:
        with parsing("map file", file):
            check_size(text, "map file", file)
            data = yaml.load(text, Loader=_Loader)
        check_tree(data, "map file", file)
    except BadInput as err:
        raise MapFileError(file, "", err.problem) from None
    except _Fault as fault:
        raise MapFileError(file, fault.key, fault.problem, fault.line) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise MapFileError(file, "", f"malformed YAML: {problem}", line) from None
    return _Reader(file, vocabulary_for).read(data)


class _Reader:
    """Builds a map from the parsed YAML, checking each key and value as it goes."""

    def __init__(self, file: str, vocabulary_for: VocabularyFor) -> None:
        self.file, self.vocabulary_for = file, vocabulary_for

    def fail(self, parent: Any, key: str, problem: str, path: str = "") -> MapFileError:
        line = parent.lines.get(key) if isinstance(parent, _Mapping) else None
        if line is None and isinstance(parent, _Mapping):
            line = parent.line
        return MapFileError(self.file, path or key, problem, line)

    def unique(self, mapping: _Mapping, path: str = "") -> _Mapping:
        """``mapping``, unless YAML gave it one key twice (PyYAML would keep the last)."""
        if mapping.duplicate is not None:
            key, line, first = mapping.duplicate
            where = f"{path}.{key}" if path else key
            raise MapFileError(self.file, where, f"duplicate key (first at line {first})", line)
        return mapping

    def read(self, data: Any) -> GameMap:
        if not isinstance(data, _Mapping):
            raise MapFileError(self.file, "", "a map file is a YAML mapping (name:, game:, ...)")
        self.unique(data)
        for key in data:
            if key not in TOP_KEYS:
                raise self.fail(data, key, f"unknown key; expected one of {', '.join(TOP_KEYS)}")
        version = data.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION or isinstance(version, bool):
            raise self.fail(data, "version", f"unknown format version {version!r}; expected 1")
        name = self.text(data, "name")
        game = self.text(data, "game")
        vocabulary = self.vocabulary_for(game)
        if vocabulary is None:
            raise self.fail(data, "game", f"unknown game {game!r}")
        description = self.text(data, "description", required=False)
        labels = self.grid(data)
        default = self.name_in(data, "default", _Names(vocabulary.terrains, "terrain", game))
        default = default or vocabulary.default_terrain
        terrains, elevations = self.hexes(data, labels, vocabulary)
        return GameMap(
            name=name,
            game=game,
            labels=labels,
            default_terrain=default,
            terrains=terrains,
            elevations=elevations,
            hexsides=self.hexsides(data, labels, vocabulary),
            markers=self.markers(data, labels, vocabulary),
            description=description,
            source=self.file,
        )

    def text(self, parent: _Mapping, key: str, required: bool = True, path: str = "") -> str:
        value = parent.get(key)
        if value is None:
            if required:
                raise self.fail(parent, key, "missing", path)
            return ""
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise self.fail(parent, key, "expected a text value", path)
        return str(value).strip()

    def name_in(self, parent: _Mapping, key: str, names: _Names, path: str = "") -> str:
        """The name at ``parent[key]``, checked against the game's names ("" when absent)."""
        value = parent.get(key)
        return "" if value is None else self.checked(value, parent, key, names, path)

    def checked(self, value: Any, parent: _Mapping, key: str, names: _Names, path: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(parent, key, f"expected a {names.kind} name", path)
        # Names are compared in lower case with single spaces: "Dispersed  SMOKE" is allowed.
        name = " ".join(value.split()).lower()
        if name not in names.names:
            known = ", ".join(sorted(names.names)) or "none"
            problem = f"unknown {names.kind} {value!r} for {names.game} ({known})"
            raise self.fail(parent, key, problem, path)
        return name

    def grid(self, data: _Mapping) -> Labels:
        grid = data.get("grid")
        if not isinstance(grid, _Mapping):
            raise self.fail(data, "grid", "expected {boards: LAYOUT} or {columns: N, rows: N}")
        self.unique(grid, "grid")
        if "boards" in grid:
            extra = set(grid) - {"boards"}
            if extra:
                key = sorted(extra)[0]
                raise self.fail(grid, key, "geomorphic boards take only 'boards'", f"grid.{key}")
            layout = self.text(grid, "boards", path="grid.boards")
            try:
                return GeomorphicLabels.of(layout)
            except BadInput as err:
                raise self.fail(grid, "boards", err.problem, "grid.boards") from None
        for key in grid:
            if key not in ("columns", "rows", "first_row", "shift"):
                expected = "boards, or columns, rows, first_row, shift"
                raise self.fail(grid, key, f"unknown key; expected {expected}", f"grid.{key}")
        sizes = {}
        bounds = (
            ("columns", 1, MAX_GRID_SIDE, None),
            ("rows", 1, MAX_GRID_SIDE, None),
            ("first_row", 0, 1, 1),
        )
        for key, low, high, default in bounds:
            value = grid.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                problem = f"expected a whole number from {low} to {high}"
                raise self.fail(grid, key, problem, f"grid.{key}")
            sizes[key] = value
        if sizes["columns"] * sizes["rows"] > MAX_MAP_HEXES:
            problem = f"{sizes['columns']} x {sizes['rows']} is more than {MAX_MAP_HEXES} hexes"
            raise self.fail(data, "grid", problem)
        shift_text = grid.get("shift", Shift.ODD.value)
        if shift_text not in (Shift.ODD.value, Shift.EVEN.value):
            raise self.fail(grid, "shift", "expected odd or even", "grid.shift")
        return GridLabels(sizes["columns"], sizes["rows"], sizes["first_row"], Shift(shift_text))

    def section(self, data: _Mapping, key: str) -> _Mapping:
        value = data.get(key)
        if value is None:
            empty = _Mapping()
            empty.lines, empty.line = {}, 0
            return empty
        if not isinstance(value, _Mapping):
            raise self.fail(data, key, "expected a mapping of labels")
        return self.unique(value, key)

    def hex_of(self, section: _Mapping, name: str, label: str, labels: Labels) -> Hex:
        try:
            return labels.parse(label.strip())
        except BadInput as err:
            raise self.fail(section, label, err.problem, f"{name}.{label}") from None

    def once(
        self, seen: dict[Any, str], place: Any, label: str, section: _Mapping, name: str
    ) -> None:
        """Refuse a place listed twice under two labels (``2A5`` and ``1GG5`` are one hex)."""
        if place in seen:
            first = seen[place]
            line = section.lines.get(first)
            where = f" (line {line})" if line is not None else ""
            problem = f"the same place as {first}{where}; list it once"
            raise self.fail(section, label, problem, f"{name}.{label}")
        seen[place] = label

    def hexes(
        self, data: _Mapping, labels: Labels, vocabulary: Vocabulary
    ) -> tuple[dict[Hex, str], dict[Hex, int]]:
        section = self.section(data, "hexes")
        terrains: dict[Hex, str] = {}
        elevations: dict[Hex, int] = {}
        terrain_names = _Names(vocabulary.terrains, "terrain", vocabulary.game)
        seen: dict[Any, str] = {}
        for label, value in section.items():
            path = f"hexes.{label}"
            hex = self.hex_of(section, "hexes", label, labels)
            self.once(seen, hex, label, section, "hexes")
            if isinstance(value, str):
                terrains[hex] = self.checked(value, section, label, terrain_names, path)
                continue
            if not isinstance(value, _Mapping):
                problem = "expected a terrain name or {terrain: NAME, elevation: N}"
                raise self.fail(section, label, problem, path)
            self.unique(value, path)
            for key in value:
                if key not in ("terrain", "elevation"):
                    problem = "unknown key; expected terrain or elevation"
                    raise self.fail(value, key, problem, f"{path}.{key}")
            terrain = self.name_in(value, "terrain", terrain_names, f"{path}.terrain")
            if terrain:
                terrains[hex] = terrain
            if "elevation" in value:
                level = value["elevation"]
                if isinstance(level, bool) or not isinstance(level, int):
                    raise self.fail(
                        value, "elevation", "expected a whole number", f"{path}.elevation"
                    )
                if level:
                    elevations[hex] = level
        return terrains, elevations

    def hexsides(
        self, data: _Mapping, labels: Labels, vocabulary: Vocabulary
    ) -> dict[Hexside, str]:
        section = self.section(data, "hexsides")
        result: dict[Hexside, str] = {}
        seen: dict[Any, str] = {}
        for label in section:
            path = f"hexsides.{label}"
            try:
                side = parse_hexside(labels, label)
            except BadInput as err:
                raise self.fail(section, label, err.problem, path) from None
            self.once(seen, side, label, section, "hexsides")
            name = self.name_in(
                section,
                label,
                _Names(vocabulary.hexsides, "hexside feature", vocabulary.game),
                path,
            )
            if not name:
                raise self.fail(section, label, "expected a hexside feature name", path)
            result[side] = name
        return result

    def markers(
        self, data: _Mapping, labels: Labels, vocabulary: Vocabulary
    ) -> dict[Hex, tuple[str, ...]]:
        section = self.section(data, "markers")
        result: dict[Hex, tuple[str, ...]] = {}
        seen: dict[Any, str] = {}
        for label, value in section.items():
            path = f"markers.{label}"
            hex = self.hex_of(section, "markers", label, labels)
            self.once(seen, hex, label, section, "markers")
            values = value if isinstance(value, list) else [value]
            if not values:
                raise self.fail(section, label, "expected a marker name or a list of them", path)
            kind = _Names(vocabulary.markers, "marker", vocabulary.game)
            result[hex] = tuple(self.checked(v, section, label, kind, path) for v in values)
        return result


def schema() -> dict[str, Any]:
    """The JSON Schema of the map format (``map.schema.json``, shipped beside this module)."""
    text = resources.files("ordnance.core.maps").joinpath("map.schema.json").read_text("utf-8")
    result = json.loads(text)
    assert isinstance(result, dict)
    return result
