"""Each kind of fault in a scenario file, for each game, is one line naming the file, the line,
the key and the fault, with exit code 2 and nothing created (docs/scenario-files.md).

The schema (``src/ordnance/<game>/data/scenario.schema.json``) finds the wrong type, the unknown
or missing key, the bad enum value, the malformed hex label and a key another kind of unit has;
the ruleset's code finds a unit id used twice and a hex that is not on the map; the YAML reader
finds a key written twice.
"""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from ordnance.core.scenario_schema import conform, scenario_schema
from ordnance.game.scenario import load_scenario_file

ASL = """\
ruleset: asl
name: schema test
date: 1944-06
boards: "4"
sides:
  german:
    units:
      pak:
        notation: A5(2)/4(3)/3(4) s7
        size: 75L
        hex: 4G5
  russian:
    units:
      t34:
        kind: vehicle
        notation: A5(4)/6(5) s8
"""

LNL = """\
ruleset: lnl
name: schema test
map: lnl-farm
sides:
  german:
    smoke_shells: 2
    units:
      pz4:
        kind: vehicle
        hex: B5
  american:
    units:
      sq1:
        kind: squad
        hex: E6
"""

VV = """\
ruleset: vv
name: schema test
map: vv-hedgerows
sides:
  us:
    elite: false
    units:
      a:
        kind: squad
        counter: 4-6-5
        hex: B8
  de:
    units:
      g:
        kind: squad
        counter: 4-6-5
        hex: E5
"""

TEXTS = {"asl": ASL, "lnl": LNL, "vv": VV}

# game, fault kind, (text replaced, by), line, key, words of the fault
FAULTS = [
    # ASL
    ("asl", "wrong type", ("size: 75L", "breakdown: lots"), 10,
     "sides.german.units.pak.breakdown", "expected a whole number from 2 to 12"),
    ("asl", "unknown key", ("size: 75L", "sise: 75L"), 10,
     "sides.german.units.pak.sise", "unknown key; known: abandoned,"),
    ("asl", "missing key", ("date: 1944-06", "description: undated"), 1,
     "date", "missing (a required key)"),
    ("asl", "bad enum", ("kind: vehicle", "kind: tank"), 15,
     "sides.russian.units.t34.kind", "expected gun, vehicle, scw or atr (not 'tank')"),
    ("asl", "bad hex label", ("hex: 4G5", "hex: G-5"), 11,
     "sides.german.units.pak.hex", "expected a hex label such as 4G5"),
    ("asl", "hex off the map", ("hex: 4G5", "hex: 9G5"), 11,
     "sides.german.units.pak.hex", "board 9 is not on this map"),
    ("asl", "duplicate id", ("      t34:", "      pak:"), 14,
     "sides.russian.units.pak", "unit ids must be unique across both sides"),
    ("asl", "repeated key", ("        hex: 4G5", "        hex: 4G5\n        hex: 4G6"), 12,
     "sides.german.units.pak.hex", "given twice (first at line 11)"),
    ("asl", "key of another kind", ("size: 75L", "caliber: 12"), 10,
     "sides.german.units.pak.caliber", "expected a key other than 'caliber' (only an atr has one)"),
    # LnL
    ("lnl", "wrong type", ("smoke_shells: 2", "smoke_shells: many"), 6,
     "sides.german.smoke_shells", "expected a number of counters from 0 to 99"),
    ("lnl", "unknown key", ("smoke_shells: 2", "smoke_shell: 2"), 6,
     "sides.german.smoke_shell", "unknown key; known: depletion_number,"),
    ("lnl", "missing key", ("kind: squad", "name: rifles"), 13,
     "sides.american.units.sq1.kind", "missing (a required key)"),
    ("lnl", "bad enum", ("kind: squad", "kind: platoon"), 14,
     "sides.american.units.sq1.kind", "expected squad, half-squad, team, leader, hero or vehicle"),
    ("lnl", "bad hex label", ("hex: E6", "hex: E-6"), 15,
     "sides.american.units.sq1.hex", "expected a hex label such as H3 (not 'E-6')"),
    ("lnl", "hex off the map", ("hex: E6", "hex: Z6"), 15,
     "sides.american.units.sq1.hex", "'Z6'"),
    ("lnl", "duplicate id", ("      sq1:", "      pz4:"), 13,
     "sides.american.units.pz4", "unit ids must be unique across both sides"),
    ("lnl", "repeated key", ("        hex: E6", "        hex: E6\n        hex: E7"), 16,
     "sides.american.units.sq1.hex", "given twice (first at line 15)"),
    ("lnl", "key of another kind", ("        hex: E6", "        hex: E6\n        lm: 1"), 16,
     "sides.american.units.sq1.lm", "expected a key of a squad, half-squad, team or hero"),
    # V&V
    ("vv", "wrong type", ("elite: false", "elite: maybe"), 6,
     "sides.us.elite", "expected true or false"),
    ("vv", "unknown key", ("elite: false", "elit: false"), 6,
     "sides.us.elit", "unknown key; known: ai, elite, pool, units"),
    ("vv", "missing key", ("kind: squad\n        counter: 4-6-5\n        hex: E5",
                           "counter: 4-6-5\n        hex: E5"), 14,
     "sides.de.units.g.kind", "missing (a required key)"),
    ("vv", "bad enum", ("kind: squad", "kind: platoon"), 9,
     "sides.us.units.a.kind", "expected squad, half-squad, leader, gun, afv or vehicle"),
    ("vv", "bad hex label", ("hex: E5", "hex: E_5"), 17,
     "sides.de.units.g.hex", "expected a hex label such as G7 (not 'E_5')"),
    ("vv", "hex off the map", ("hex: E5", "hex: Z5"), 17,
     "sides.de.units.g.hex", "'Z5'"),
    ("vv", "duplicate id", ("      g:", "      a:"), 14,
     "sides.de.units.a", "unit ids must be unique across both sides"),
    ("vv", "repeated key", ("        hex: E5", "        hex: E5\n        hex: E6"), 18,
     "sides.de.units.g.hex", "given twice (first at line 17)"),
    ("vv", "key of another kind", ("        hex: B8", "        hex: B8\n        facing: N"), 12,
     "sides.us.units.a.facing", "expected a key of a squad: name, kind, elite, pinned, hex,"),
    ("vv", "unit id a number", ("      g:", "      12:"), 14,
     "sides.de.units.12", "expected a unit id: a short word"),
]  # fmt: skip


def _faulty(game: str, change: tuple[str, str]) -> str:
    text = TEXTS[game]
    old, new = change
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize("game", sorted(TEXTS))
def test_each_schema_is_a_valid_json_schema(game):
    Draft202012Validator.check_schema(scenario_schema(f"ordnance.{game}"))


@pytest.mark.parametrize("game", sorted(TEXTS))
def test_the_base_scenarios_are_good(tmp_path, game):
    path = tmp_path / f"{game}.yaml"
    path.write_text(TEXTS[game])
    assert load_scenario_file(path).ruleset == game


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("fault", FAULTS, ids=[f"{f[0]}-{f[1].replace(' ', '-')}" for f in FAULTS])
def test_a_fault_is_one_line_naming_file_line_key_and_fault(cli, tmp_path, fault):
    game, kind, change, line, key, words = fault
    path = tmp_path / f"{game}-{kind.replace(' ', '-')}.yaml"
    path.write_text(_faulty(game, change))
    db = str(tmp_path / "games.sqlite")
    result = cli("game", "new", str(path), "--db", db)
    assert result.code == 2 and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err, result.err
    assert lines[0].startswith(f"ordnance: bad scenario '{path}', line {line}: {key}: "), lines[0]
    assert words in lines[0]
    assert not (tmp_path / "games.sqlite").exists()  # refused before any database was opened
    assert cli("game", "list", "--db", db, "--json").json == {"games": []}


@pytest.mark.clause("SYS.cite")
def test_a_fault_in_a_mapping_without_a_file_names_the_key():
    data = {"ruleset": "vv", "name": "x", "map": "m", "sides": {"us": {}, "de": 3}}
    with pytest.raises(ValueError, match=r"bad scenario 'sides\.de': expected a mapping"):
        conform(data, "ordnance.vv")


@pytest.mark.clause("SYS.cite")
def test_a_scenario_that_is_not_a_mapping_or_names_no_game_is_one_line(cli, tmp_path):
    for text, words in [
        ("- a\n- b\n", "line 1: top level: expected a mapping of keys to values, not a list"),
        ("name: x\n", "line 1: ruleset: say which game it is"),
        ("ruleset: chess\nname: x\n", "line 1: ruleset: unknown ruleset; known: asl, lnl, vv"),
        ("ruleset: vv\nname: [x\n", "line 3: not valid YAML"),
    ]:
        path = tmp_path / "odd.yaml"
        path.write_text(text)
        result = cli("game", "new", str(path), "--db", str(tmp_path / "g.sqlite"))
        assert result.code == 2 and len(result.err.strip().splitlines()) == 1
        assert words in result.err, result.err
