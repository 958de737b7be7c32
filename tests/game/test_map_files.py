"""MapFiles: the one policy for what a scenario's ``map:`` may name (issue 26).

The CLI reads map files relative to the scenario's folder; the server reads no file at all,
only the bundled maps and the maps uploaded with the scenario.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from tests.opened_files import files_opened

from ordnance.core.errors import BadInput
from ordnance.core.maps import BUNDLED_ONLY, MapFiles, MapUnreadable
from ordnance.core.maps.source import MAX_UPLOADED_MAPS
from ordnance.game.scenario import load_scenario_file, scenario_from_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = {"asl": "asl-d13-demo", "lnl": "lnl-smoke-wp", "vv": "vv-hedgerow-ambush"}
BUNDLED = {"asl": "asl-village", "lnl": "lnl-farm", "vv": "vv-hedgerows"}
RULESETS = tuple(EXAMPLE)


def example(ruleset: str, map_name: str) -> str:
    text = (EXAMPLES / f"{EXAMPLE[ruleset]}.yaml").read_text(encoding="utf-8")
    changed, count = re.subn(r"(?m)^map: .*$", f"map: {json.dumps(map_name)}", text)
    assert count == 1
    return changed


def own_map(ruleset: str) -> str:
    """The ruleset's bundled map under another name."""
    entry = resources.files(f"ordnance.{ruleset}").joinpath(
        "data", "maps", f"{BUNDLED[ruleset]}.yaml"
    )
    text, count = re.subn(r"(?m)^name: .*$", "name: Our own ground", entry.read_text("utf-8"))
    assert count == 1
    return text


def map_name_of(body: dict) -> str:
    """The name the scenario's map has inside (each ruleset keeps its text in the body)."""
    found = re.search(r"(?m)^name: (.*)$", body["map"]["text"])
    assert found is not None
    return found.group(1)


# --- the CLI: files relative to the scenario's folder ------------------------------------------


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_cli_reads_a_map_relative_to_the_scenario_file(tmp_path, monkeypatch, ruleset):
    folder = tmp_path / "scenarios"
    (folder / "maps").mkdir(parents=True)
    (folder / "maps" / "ground.yaml").write_text(own_map(ruleset), encoding="utf-8")
    path = folder / "s.yaml"
    path.write_text(example(ruleset, "maps/ground.yaml"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # elsewhere: the scenario's folder decides, not this one
    scenario = load_scenario_file(path)
    assert map_name_of(dict(scenario.body)) == "Our own ground"
    # A bundled map by name still needs no file.
    path.write_text(example(ruleset, BUNDLED[ruleset]), encoding="utf-8")
    assert load_scenario_file(path).body["map"]["text"]


def test_the_cli_says_which_map_file_cannot_be_read(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(example("lnl", "maps/none.yaml"), encoding="utf-8")
    with pytest.raises(BadInput) as caught:
        load_scenario_file(path)
    message = str(caught.value)
    assert "line 10" in message and "'maps/none.yaml'" in message and "cannot be read" in message


# --- the server: bundled or uploaded, never a file ---------------------------------------------


@pytest.mark.parametrize("name", ["/etc/passwd", "../x.yaml", "~/x.yaml", "maps/x.yaml", "C:x"])
def test_an_uploaded_scenarios_path_is_refused_as_a_path_without_opening_it(name):
    files = MapFiles.uploaded({"ground.yaml": own_map("vv")})
    with files_opened() as opened, pytest.raises(MapUnreadable) as caught:
        files.read("ordnance.vv", name)
    reason = caught.value.reason
    assert "is a path: the server reads no file" in reason
    assert "vv-hedgerows" in reason and "'ground.yaml'" in reason
    assert not opened


def test_a_name_neither_bundled_nor_uploaded_says_what_would_do():
    with pytest.raises(MapUnreadable) as caught:
        MapFiles.uploaded().read("ordnance.asl", "village")
    assert caught.value.reason == (
        "'village' is not a map the server has: it reads only its bundled maps (asl-village)"
        " or a map uploaded with the scenario"
    )


@pytest.mark.parametrize(
    ("upload", "named"), [("g.yaml", "g"), ("g.yaml", "g.yaml"), ("g", "g.yml")]
)
def test_an_upload_is_named_with_or_without_its_yaml_suffix(upload, named):
    found = MapFiles.uploaded({upload: own_map("lnl")}).read("ordnance.lnl", named)
    assert not found.bundled and "Our own ground" in found.text


def test_an_uploaded_name_is_only_a_key_never_a_path(tmp_path):
    # The CLI sends a scenario's 'maps/g.yaml' under that name: matched as written, not opened.
    files = MapFiles.uploaded({"maps/g.yaml": own_map("lnl")})
    with files_opened() as opened:
        assert "Our own ground" in files.read("ordnance.lnl", "maps/g.yaml").text
        with pytest.raises(MapUnreadable, match="is a path"):
            files.read("ordnance.lnl", str(tmp_path / "maps" / "g.yaml"))
    assert not opened


def test_uploads_are_checked_when_the_policy_is_made():
    text = own_map("lnl")
    with pytest.raises(BadInput, match=f"at most {MAX_UPLOADED_MAPS}"):
        MapFiles.uploaded({f"m{i}": text for i in range(MAX_UPLOADED_MAPS + 1)})
    with pytest.raises(BadInput, match="same name"):
        MapFiles.uploaded({"m.yaml": text, "m.yml": text})
    with pytest.raises(BadInput, match="control characters"):
        MapFiles.uploaded({"m\x00": text})
    with pytest.raises(BadInput, match="blanks"):
        MapFiles.uploaded({" m": text})
    for named in ("lnl-farm", "lnl-farm.yaml"):
        with pytest.raises(MapUnreadable, match="both a bundled map and a map uploaded"):
            MapFiles.uploaded({"lnl-farm.yaml": text}).read("ordnance.lnl", named)


def test_other_files_a_scenario_names_are_refused_off_the_cli(tmp_path):
    with pytest.raises(MapUnreadable, match="the server reads no file"):
        MapFiles.uploaded().local_path("vasl_templates", str(tmp_path))
    assert MapFiles.folder(tmp_path).local_path("vasl_templates", "data") == tmp_path / "data"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_scenario_read_without_a_policy_reads_no_file(tmp_path, ruleset):
    (tmp_path / "ground.yaml").write_text(own_map(ruleset), encoding="utf-8")
    with files_opened() as opened, pytest.raises(BadInput, match="is a path"):
        scenario_from_text(example(ruleset, str(tmp_path / "ground.yaml")), "s.yaml")
    assert not [o for o in opened if o.startswith(str(tmp_path))]
    assert MapFiles.bundled() == BUNDLED_ONLY and not BUNDLED_ONLY.reads_files
