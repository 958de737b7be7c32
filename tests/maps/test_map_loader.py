"""Map files: the bundled examples load, and every bad file is refused in one clear line.

A refusal names the file, the line, the key (as a dotted path) and the fault, so a player can
go straight to it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator, ValidationError

from ordnance.cli.map_games import bundled_maps, open_map, vocabulary_for
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Direction, Hexside
from ordnance.core.maps import MapFileError, load_map, load_map_text
from ordnance.core.maps.loader import schema

GOOD = """\
name: test map
game: asl
grid: {boards: "1,2"}
hexes:
  1G5: woods
  1H4: {terrain: grain, elevation: 1}
  2C3: {elevation: 2}
hexsides:
  1G5/NE: wall
  1I5|1I6: hedge
markers:
  1J4: smoke
  1K4: [dispersed smoke, wp]
"""


def load(text: str, name: str = "test.yaml"):
    return load_map_text(text, name, vocabulary_for)


def test_a_good_file_loads_with_every_section():
    m = load(GOOD)
    assert (m.name, m.game, len(m)) == ("test map", "asl", 65 * 10)
    assert m.terrain(m.parse("1G5")) == "woods"
    assert m.terrain(m.parse("1G6")) == "open"  # the default
    assert (m.terrain(m.parse("1H4")), m.elevation(m.parse("1H4"))) == ("grain", 1)
    assert (m.terrain(m.parse("2C3")), m.elevation(m.parse("2C3"))) == ("open", 2)
    assert m.hexside(Hexside.of(m.parse("1G5"), Direction.NE)) == "wall"
    assert m.hexside(Hexside.between(m.parse("1I6"), m.parse("1I5"))) == "hedge"
    assert m.markers_in(m.parse("1K4")) == ("dispersed smoke", "wp")
    assert m.markers_in(m.parse("1J4")) == ("smoke",)


def test_names_are_read_in_any_case_and_spacing():
    m = load(GOOD.replace("[dispersed smoke, wp]", "[Dispersed  SMOKE, WP]"))
    assert m.markers_in(m.parse("1K4")) == ("dispersed smoke", "wp")


def test_plain_grids_take_columns_rows_first_row_and_shift():
    text = "name: g\ngame: vv\ngrid: {columns: 5, rows: 4, first_row: 0, shift: even}\n"
    m = load(text)
    assert len(m) == 20
    assert m.label(m.parse("A0")) == "A0" and m.label(m.parse("E3")) == "E3"


@pytest.mark.parametrize("name", ["asl-village", "lnl-farm", "vv-hedgerows"])
def test_every_bundled_example_loads_and_uses_its_game(name):
    m = open_map(name)
    assert m.game == name.split("-")[0]
    assert len(m.terrains) > 10 and m.hexsides and m.markers


def test_bundled_maps_are_found_by_path_too(tmp_path):
    for name, entry in bundled_maps().items():
        copy = tmp_path / f"{name}.yaml"
        copy.write_text(entry.read_text(encoding="utf-8"), encoding="utf-8")
        assert open_map(str(copy)).name == open_map(name).name


# --- bad files: one line naming the file, the line, the key and the fault ----------------------

BAD = [
    # (what is wrong, replace this, with this, key in the message, fault in the message)
    ("malformed YAML", "hexes:\n", "hexes: [\n", "", "malformed YAML"),
    ("unknown terrain", "1G5: woods", "1G5: jungle", "hexes.1G5", "unknown terrain 'jungle'"),
    ("unknown nested terrain", "{terrain: grain", "{terrain: wheat", "hexes.1H4.terrain", "wheat"),
    ("hex off the boards", "1G5: woods", "1G11: woods", "hexes.1G11", "row 11 is outside"),
    ("board not on the map", "1G5: woods", "5G5: woods", "hexes.5G5", "board 5 is not"),
    ("column beyond GG", "1G5: woods", "1HH5: woods", "hexes.1HH5", "beyond the last column"),
    ("bad label", "1G5: woods", "G5: woods", "hexes.G5", "expected the board number"),
    (
        "duplicate key",
        "2C3: {elevation: 2}",
        "1G5: brush",
        "hexes.1G5",
        "duplicate key (first at line 5)",
    ),
    ("same hex twice", "2C3: {elevation: 2}", "2A5: brush\n  1GG5: woods", "hexes.1GG5", "2A5"),
    ("unknown top key", "markers:", "units:", "units", "unknown key"),
    ("unknown game", "game: asl", "game: chess", "game", "unknown game 'chess'"),
    ("missing name", "name: test map\n", "", "name", "missing"),
    ("bad layout", 'boards: "1,2"', 'boards: "1,x"', "grid.boards", "not a board number"),
    ("hexside not adjacent", "1I5|1I6", "1I5|1I8", "hexsides.1I5|1I8", "not adjacent"),
    ("bad direction", "1G5/NE", "1G5/E", "hexsides.1G5/E", "expected one of N, NE"),
    ("unknown hexside", "1G5/NE: wall", "1G5/NE: fence", "hexsides.1G5/NE", "fence"),
    ("unknown marker", "1J4: smoke", "1J4: fog", "markers.1J4", "unknown marker 'fog'"),
    ("empty marker list", "1J4: smoke", "1J4: []", "markers.1J4", "expected a marker name"),
    ("bad elevation", "elevation: 2}", "elevation: high}", "hexes.2C3.elevation", "whole number"),
    ("unknown hex key", "{elevation: 2}", "{level: 2}", "hexes.2C3.level", "unknown key"),
    ("bad version", "name: test map", "version: 2\nname: test map", "version", "version 2"),
    ("duplicate top key", "game: asl", "game: asl\ngame: vv", "game", "duplicate key"),
    ("key not text", "1J4: smoke", "[1J4]: smoke", "", "a key must be plain text"),
    ("grid not a mapping", 'grid: {boards: "1,2"}', "grid: 1,2", "grid", "expected {boards"),
]


@pytest.mark.parametrize(("why", "old", "new", "key", "fault"), BAD, ids=[b[0] for b in BAD])
def test_bad_files_are_refused_in_one_line(why, old, new, key, fault):
    assert old in GOOD, why
    with pytest.raises(MapFileError) as refused:
        load(GOOD.replace(old, new, 1), "maps/bad.yaml")
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("bad map file 'maps/bad.yaml'")
    assert re.search(r", line \d+: ", message), message
    assert f": {key}: " in message if key else True, message
    assert fault in message, message
    assert isinstance(refused.value, BadInput)


def test_a_missing_or_binary_file_is_refused_in_one_line(tmp_path):
    with pytest.raises(MapFileError, match=r"bad map file '.*nowhere.yaml': cannot be read"):
        load_map(tmp_path / "nowhere.yaml", vocabulary_for)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(MapFileError, match="not UTF-8"):
        load_map(binary, vocabulary_for)


def test_a_file_that_is_not_a_mapping_is_refused():
    with pytest.raises(MapFileError, match="a map file is a YAML mapping"):
        load("- just\n- a list\n")


def test_yaml_scalars_stay_labels_not_numbers_or_booleans():
    # '1E5' could be read as a float and 'no' as false by plain YAML; here both stay text.
    m = load("name: n\ngame: lnl\ngrid: {columns: 30, rows: 9}\nhexes:\n  E5: woods\n")
    assert m.terrain(m.parse("E5")) == "woods"
    m = load(GOOD.replace("1G5: woods", "1E5: woods"))
    assert m.terrain(m.parse("1E5")) == "woods"


# --- the JSON Schema describes the same format -------------------------------------------------


def test_the_schema_is_json_and_every_example_follows_it():
    root = schema()
    assert root["$schema"].startswith("https://json-schema.org/")
    Draft202012Validator.check_schema(root)
    for entry in bundled_maps().values():
        text = entry.read_text(encoding="utf-8")
        # Editors find the schema from the first line (docs/scenario-files.md).
        assert text.startswith("# yaml-language-server: $schema=../../../core/maps/map.schema.json")
        Draft202012Validator(root).validate(yaml.safe_load(text))
    Draft202012Validator(root).validate(yaml.safe_load(GOOD))


def test_the_schema_refuses_what_the_loader_refuses():
    root = schema()
    for bad in ("units: {}", "grid: {boards: 1, rows: 3}", "hexes: {G 5: woods}"):
        text = GOOD.replace('grid: {boards: "1,2"}', bad) if "grid" in bad else GOOD + bad
        with pytest.raises(ValidationError):
            Draft202012Validator(root).validate(yaml.safe_load(text))


def test_the_schema_file_ships_beside_the_loader():
    here = Path(__file__).resolve().parents[2] / "src" / "ordnance" / "core" / "maps"
    assert (here / "map.schema.json").is_file()
