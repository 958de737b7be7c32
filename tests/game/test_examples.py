"""The bundled example scenarios load, and the documented schema lists exactly the keys the
loader accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ordnance.asl.game import scenario as asl_scenario
from ordnance.game.scenario import load_scenario_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCHEMA = json.loads((EXAMPLES / "scenario.schema.json").read_text())


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_scenario_loads(path):
    scenario = load_scenario_file(path)
    assert scenario.ruleset == yaml.safe_load(path.read_text())["ruleset"]
    assert len(scenario.sides) == 2


def test_the_schema_lists_the_keys_the_loader_accepts():
    assert set(SCHEMA["properties"]) == asl_scenario.TOP_KEYS
    assert set(SCHEMA["$defs"]["side"]["properties"]) == asl_scenario.SIDE_KEYS
    assert set(SCHEMA["$defs"]["unit"]["properties"]) == asl_scenario.UNIT_KEYS
    assert SCHEMA["$defs"]["unit"]["properties"]["kind"]["enum"] == list(asl_scenario.KINDS)


def test_every_example_uses_only_schema_keys():
    for path in EXAMPLES.glob("asl-*.yaml"):  # scenario.schema.json is the ASL scenario's
        data = yaml.safe_load(path.read_text())
        assert set(data) <= set(SCHEMA["properties"])
        for side in data["sides"].values():
            assert set(side) <= set(SCHEMA["$defs"]["side"]["properties"])
            for unit in side.get("units", {}).values():
                assert set(unit) <= set(SCHEMA["$defs"]["unit"]["properties"])
