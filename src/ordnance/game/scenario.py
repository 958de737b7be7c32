"""Scenario files: YAML with a ruleset, a name, a dice mode and the ruleset's own content.

The keys every game shares are read here (``ruleset``, ``name``, ``description``, ``dice``);
the ruleset checks the rest (``examples/scenario.schema.json`` documents the whole file) and
returns it self-contained, so the first log entry holds everything a replay needs.

``dice`` is ``fair`` (the default: the server rolls, verifiably, SYS.dice) or ``physical``
(players enter the dice they rolled at the table with ``--dice W,C``).

>>> scenario = scenario_from_mapping({"ruleset": "asl", "name": "demo", "date": "1944-06",
...     "sides": {"german": {"units": {"pak": {"notation": "s7"}}}, "american": {}}}, None)
>>> scenario.sides, scenario.dice
(('german', 'american'), 'fair')
>>> Scenario.from_json(scenario.to_json()) == scenario
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, check_tree, parsing, read_limited
from ordnance.game.registry import ruleset

DICE_MODES = ("fair", "physical")


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: which ruleset, its name, the dice mode, the sides, and its body."""

    ruleset: str
    name: str
    dice: str
    sides: tuple[str, ...]
    body: Mapping[str, Any]

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


def load_scenario_file(path: str | Path) -> Scenario:
    """Read and check a scenario file; every fault is one BadInput naming file and key."""
    file = Path(path)
    try:
        text = read_limited(file, "scenario file", MAX_TEXT_FILE_BYTES).decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadInput("scenario file", str(path), f"cannot be read ({error})") from None
    try:
        with parsing("scenario file", str(path)):
            data = yaml.safe_load(text)
        check_tree(data, "scenario file", str(path))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise BadInput("scenario file", str(path), f"not valid YAML{where}") from None
    try:
        return scenario_from_mapping(data, file.parent)
    except BadInput as error:
        where = f"{path}: {error.text}" if error.what == "scenario" else str(path)
        problem = error.problem if error.what == "scenario" else str(error)
        raise BadInput("scenario", where, problem) from None


def scenario_from_mapping(data: object, base: Path | None) -> Scenario:
    """Check a scenario given as a mapping (the parsed YAML)."""
    if not isinstance(data, Mapping):
        found = "nothing" if data is None else f"a {type(data).__name__}"
        raise BadInput(
            "scenario", "top level", f"expected a mapping of keys to values, not {found}"
        )
    name = data.get("ruleset")
    if not isinstance(name, str):
        raise BadInput("scenario", "ruleset", "say which game it is, e.g. 'ruleset: asl'")
    rules = ruleset(name)
    title = data.get("name")
    if not isinstance(title, str) or not title.strip():
        raise BadInput("scenario", "name", "give the scenario a name")
    dice = data.get("dice", "fair")
    if dice not in DICE_MODES:
        raise BadInput("scenario", "dice", f"one of {', '.join(DICE_MODES)}")
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        raise BadInput("scenario", "description", "expected text")
    body = rules.load_scenario(data, base)
    return Scenario(rules.name, title.strip(), dice, rules.sides(body), body)
