"""Scenario files: YAML with a ruleset, a name, a dice mode and the ruleset's own content.

``ruleset`` picks the game; the whole file is then checked against that ruleset's JSON Schema
(``src/ordnance/<ruleset>/data/scenario.schema.json``, see :mod:`ordnance.core.scenario_schema`)
before the ruleset reads it, checks what a schema cannot say and returns it self-contained, so
the first log entry holds everything a replay needs. A fault in a file names the file, the line,
the key and the fault in one line (:class:`ScenarioFileError`).

``dice`` is ``fair`` (the default: the server rolls, verifiably, SYS.dice) or ``physical``
(players enter the dice they rolled at the table with ``--dice W,C``).

>>> scenario = scenario_from_mapping({"ruleset": "asl", "name": "demo", "date": "1944-06",
...     "sides": {"german": {"units": {"pak": {"notation": "s7"}}}, "american": {}}})
>>> scenario.sides, scenario.dice
(('german', 'american'), 'fair')
>>> Scenario.from_json(scenario.to_json()) == scenario
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ordnance.core import yaml_lines
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, check_tree, parsing, read_limited
from ordnance.core.maps import BUNDLED_ONLY, MapFiles
from ordnance.core.scenario_schema import conform
from ordnance.game.registry import ruleset, spec

DICE_MODES = ("fair", "physical")


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: which ruleset, its name, the dice mode, the sides, and its body."""

    ruleset: str
    name: str
    dice: str
    sides: tuple[str, ...]
    body: Mapping[str, Any]

    @property
    def ai_sides(self) -> tuple[str, ...]:
        """The sides the scenario gives the AI (``ai: true`` in a side's sheet), in its order;
        none where its sides are a plain list (a game whose sides have no sheets).

        >>> sheets = {"sides": {"us": {}, "de": {"ai": True}}}
        >>> Scenario("vv", "s", "fair", ("us", "de"), sheets).ai_sides
        ('de',)
        >>> Scenario("race", "s", "fair", ("a", "b"), {"sides": ["a", "b"]}).ai_sides
        ()
        """
        sheets = self.body.get("sides")
        if not isinstance(sheets, Mapping):
            return ()
        return tuple(s for s in self.sides if _marked(sheets.get(s)))

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "name": self.name,
            "dice": self.dice,
            "sides": list(self.sides),
            "body": dict(self.body),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Scenario:
        try:
            return cls(
                str(data["ruleset"]),
                str(data["name"]),
                str(data["dice"]),
                tuple(str(s) for s in data["sides"]),
                dict(data["body"]),
            )
        except (KeyError, TypeError) as error:
            raise BadInput("scenario", str(error), "the log's scenario lacks a field") from None


def _marked(sheet: object) -> bool:
    return isinstance(sheet, Mapping) and sheet.get("ai") is True


def mark_ai_sides(data: dict[str, Any], chosen: Sequence[str]) -> bool:
    """Write into a scenario's ``data`` which sides the AI plays (each side's sheet's ``ai``);
    whether anything could be written (False where the sides are a plain list).

    >>> data = {"sides": {"us": {"ai": True}, "de": {}}}
    >>> mark_ai_sides(data, ["de"]), data["sides"]
    (True, {'us': {'ai': False}, 'de': {'ai': True}})
    >>> mark_ai_sides({"sides": ["a", "b"]}, [])
    False
    """
    sheets = data.get("sides")
    if not isinstance(sheets, dict):
        return False
    for side, sheet in sheets.items():
        if isinstance(sheet, dict):
            sheet["ai"] = side in chosen
    return True


class ScenarioFileError(BadInput):
    """A scenario file that cannot be played: the file, the line, the key and the fault.

    >>> str(ScenarioFileError("s.yaml", "sides.german.units.pak.kind", "one of gun, atr", 12))
    "bad scenario 's.yaml', line 12: sides.german.units.pak.kind: one of gun, atr"
    """

    def __init__(self, file: str, key: str, problem: str, line: int | None = None) -> None:
        super().__init__("scenario", f"{file}: {key}", problem)
        self.file, self.key, self.line = file, key, line

    def __str__(self) -> str:
        where = f", line {self.line}" if self.line is not None else ""
        key = f"{self.key}: " if self.key else ""
        return f"bad scenario {self.file!r}{where}: {key}{self.problem}"


def load_scenario_file(path: str | Path) -> Scenario:
    """Read and check a scenario file; every fault is one :class:`ScenarioFileError`."""
    file = Path(path)
    try:
        text = read_limited(file, "scenario file", MAX_TEXT_FILE_BYTES).decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadInput("scenario file", str(path), f"cannot be read ({error})") from None
    # The CLI's policy: a map may be a file, relative to the scenario's folder.
    return scenario_from_text(text, str(path), MapFiles.folder(file.parent))


def scenario_from_text(text: str, name: str, maps: MapFiles = BUNDLED_ONLY) -> Scenario:
    """Check a scenario's YAML text (``name`` says where it came from, for the message);
    ``maps`` says which maps and files it may name (default: the bundled maps only)."""
    try:
        with parsing("scenario file", name):
            yaml_lines.check_size(text, "scenario file", name)
            data, node = yaml_lines.load(text)
        check_tree(data, "scenario file", name)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = None if mark is None else mark.line + 1
        problem = getattr(error, "problem", None) or "syntax error"
        raise ScenarioFileError(name, "", f"not valid YAML ({problem})", line) from None
    repeated = yaml_lines.repeated_key(node)
    if repeated is not None:
        key, line, first = repeated
        raise ScenarioFileError(name, key, f"given twice (first at line {first})", line)
    try:
        return scenario_from_mapping(data, maps)
    except BadInput as error:
        if error.what != "scenario":  # a map or counter file it names, say
            raise ScenarioFileError(name, "", str(error)) from None
        line = yaml_lines.line_of(node, error.text)
        raise ScenarioFileError(name, error.text, error.problem, line) from None


def scenario_from_mapping(data: object, maps: MapFiles = BUNDLED_ONLY) -> Scenario:
    """Check a scenario given as a mapping (the parsed YAML): its ruleset's schema, then the
    ruleset's own checks, which read its map through ``maps``."""
    if not isinstance(data, Mapping):
        found = "nothing" if data is None else f"a {type(data).__name__}"
        raise BadInput(
            "scenario", "top level", f"expected a mapping of keys to values, not {found}"
        )
    name = data.get("ruleset")
    if not isinstance(name, str):
        raise BadInput("scenario", "ruleset", "say which game it is, e.g. 'ruleset: asl'")
    try:
        rules = ruleset(name)
    except BadInput as error:
        raise BadInput("scenario", "ruleset", error.problem) from None
    # Each ruleset package ships its scenario format as data/scenario.schema.json.
    conform(data, spec(rules.name).package)
    body = rules.load_scenario(data, maps)
    dice = data.get("dice", DICE_MODES[0])
    return Scenario(rules.name, data["name"].strip(), dice, rules.sides(body), body)
