"""The bundled example scenarios load, name their ruleset's schema on their first line, and the
ASL schema's names are the library's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ordnance.asl.dates import Theater
from ordnance.asl.dispensers import Crew, Mount
from ordnance.asl.game import scenario as asl_scenario
from ordnance.asl.game.afv import AFV_KEYS
from ordnance.core.hexgrid import Corner
from ordnance.core.scenario_schema import scenario_schema
from ordnance.game.scenario import load_scenario_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCHEMA = scenario_schema("ordnance.asl")


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_scenario_loads(path):
    scenario = load_scenario_file(path)
    assert scenario.ruleset == yaml.safe_load(path.read_text())["ruleset"]
    assert len(scenario.sides) == 2


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_names_its_rulesets_schema_on_its_first_line(path):
    first = path.read_text().splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix)
    schema = (path.parent / first.removeprefix(prefix)).resolve()
    ruleset = yaml.safe_load(path.read_text())["ruleset"]
    assert (
        schema == EXAMPLES.parent / "src" / "ordnance" / ruleset / "data" / "scenario.schema.json"
    )
    assert json.loads(schema.read_text()) == scenario_schema(f"ordnance.{ruleset}")


def test_the_asl_schema_names_what_the_library_knows():
    unit = SCHEMA["$defs"]["unit"]["properties"]
    assert unit["kind"]["enum"] == list(asl_scenario.KINDS)
    assert set(unit) >= AFV_KEYS
    assert {str(c) for c in Corner} <= set(unit["ca"]["enum"]) == set(unit["vca"]["enum"])
    assert {m.value for m in Mount} <= set(unit["mount"]["enum"])
    assert {c.value for c in Crew} <= set(unit["crew"]["enum"])
    assert {t.value for t in Theater} <= set(SCHEMA["properties"]["theater"]["enum"])
