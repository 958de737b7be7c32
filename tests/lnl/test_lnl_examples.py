"""The LnLT example scenarios load and play, the schema lists exactly the keys the loader
accepts, and faulty scenarios are refused naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from tests.lnl.hamlet import hamlet_scenario

from ordnance.core.errors import BadInput
from ordnance.core.maps import MapFiles
from ordnance.core.scenario_schema import scenario_schema
from ordnance.game.scenario import load_scenario_file, scenario_from_mapping
from ordnance.lnl.shell import ShellKind
from ordnance.lnl.wp import UNIT_KINDS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCHEMA = scenario_schema("ordnance.lnl")
LNL_EXAMPLES = sorted(EXAMPLES.glob("lnl-*.yaml"))


def test_there_is_an_example():
    assert LNL_EXAMPLES


@pytest.mark.parametrize("path", LNL_EXAMPLES, ids=lambda p: p.name)
def test_every_example_loads_and_uses_only_schema_keys(path):
    scenario = load_scenario_file(path)
    assert scenario.ruleset == "lnl" and len(scenario.sides) == 2
    data = yaml.safe_load(path.read_text())
    assert set(data) <= set(SCHEMA["properties"])
    for side in data["sides"].values():
        assert set(side) <= set(SCHEMA["$defs"]["side"]["properties"])
        for unit in side.get("units", {}).values():
            assert set(unit) <= set(SCHEMA["$defs"]["unit"]["properties"])


def test_the_schema_names_what_the_library_knows():
    unit = SCHEMA["$defs"]["unit"]["properties"]
    assert unit["kind"]["enum"] == list(UNIT_KINDS)
    assert unit["shells"]["items"]["enum"] == [str(kind) for kind in ShellKind]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"turns": 0}, "turns"),
        ({"first": "russian"}, "first"),
        ({"settings": {"parity_of": "odd"}}, "settings"),
        ({"damage_check_table": {"tank": {}}}, "damage_check_table.tank"),
        ({"nonsense": 1}, "nonsense"),
        ({"map": "no-such-map"}, "map"),
    ],
)
def test_a_faulty_scenario_names_the_key(hamlet_dir, change, where):
    with pytest.raises(BadInput) as fault:
        scenario_from_mapping(hamlet_scenario(**change), MapFiles.folder(hamlet_dir))
    assert fault.value.text == where


@pytest.mark.parametrize(
    ("unit", "where"),
    [
        ({"kind": "tank", "hex": "E3"}, "kind"),
        ({"kind": "squad", "hex": "Z9"}, "hex"),
        ({"kind": "squad", "hex": "E3", "open": True}, "open"),
        ({"kind": "squad", "hex": "E3", "lm": 1}, "lm"),
        ({"kind": "vehicle", "hex": "E3", "shells": ["hc"], "to_hit": {7: 9}}, "shells.0"),
        ({"kind": "vehicle", "hex": "E3", "shells": ["smoke"]}, "to_hit"),
        ({"kind": "vehicle", "hex": "E3", "to_hit": {7: 14}}, "to_hit.7"),
        ({"kind": "vehicle", "hex": "E3", "acquired": "Q1"}, "acquired"),
    ],
)
def test_a_faulty_unit_names_its_key(hamlet_dir, unit, where):
    data = hamlet_scenario()
    data["sides"]["american"]["units"]["bad"] = unit
    with pytest.raises(BadInput) as fault:
        scenario_from_mapping(data, MapFiles.folder(hamlet_dir))
    assert fault.value.text == f"sides.american.units.bad.{where}"


def test_pools_take_a_count_or_a_count_and_their_own_number(hamlet_dir):
    data = hamlet_scenario()
    data["sides"]["german"]["wp_shells"] = {"count": 2, "depletion_number": 2}
    body = scenario_from_mapping(data, MapFiles.folder(hamlet_dir)).body
    assert body["sides"]["german"]["pools"] == {
        "smoke": {"count": 1, "depletion_number": 4},
        "wp": {"count": 2, "depletion_number": 2},
    }
    data["sides"]["german"]["wp_shells"] = {"count": 2, "number": 2}
    with pytest.raises(BadInput) as fault:
        scenario_from_mapping(data, MapFiles.folder(hamlet_dir))
    assert fault.value.text == "sides.german.wp_shells.number"
