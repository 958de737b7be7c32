"""The scenario map cache every ruleset reads through (core/maps/cache.py): one parse per map,
bounded, shared safely between threads; and the V&V sheets built on it stay equal after an
eviction, so a replayed game still equals the live one (SYS.record)."""

from __future__ import annotations

import re
import threading
from importlib.resources import files
from typing import Any

import pytest

from ordnance.core.maps import MapFiles, cache
from ordnance.core.maps.terrain import Feature, TerrainChart
from ordnance.core.ruleset import JsonObject
from ordnance.lnl.game import LnlRuleset
from ordnance.vv.game import VvRuleset
from ordnance.vv.game import scenario as vv_scenario


def chart() -> TerrainChart:
    return TerrainChart("test", "a test table", {"open": Feature("open", "hex")}, {}, {})


def text(columns: int) -> str:
    return f"version: 1\nname: m{columns}\ngame: test\ngrid: {{columns: {columns}, rows: 2}}\n"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the cache parses (not finds kept), from an empty cache."""
    made: list[str] = []
    real = cache.load_map_text

    def counted(text: str, file: str, vocabulary):  # type: ignore[no-untyped-def]
        made.append(file)
        return real(text, file, vocabulary)

    monkeypatch.setattr(cache, "load_map_text", counted)
    cache.clear()
    yield made
    cache.clear()


@pytest.mark.clause("SYS.record")
def test_a_map_is_parsed_once_and_its_file_name_is_part_of_it(parses):
    first = cache.cached_map(text(3), "a.yaml", chart)
    assert cache.cached_map(text(3), "a.yaml", chart) is first
    other = cache.cached_map(text(3), "b.yaml", chart)
    assert other is not first and other.source != first.source
    assert parses == ["a.yaml", "b.yaml"]


@pytest.mark.clause("SYS.record")
def test_the_cache_keeps_the_last_maps_read_and_no_more(parses):
    for columns in range(2, cache.MAX_MAPS + 3):
        cache.cached_map(text(columns), "m.yaml", chart)
    assert len(parses) == cache.MAX_MAPS + 1
    cache.cached_map(text(cache.MAX_MAPS + 2), "m.yaml", chart)  # the newest: still kept
    cache.cached_map(text(2), "m.yaml", chart)  # the oldest went: parsed again
    assert len(parses) == cache.MAX_MAPS + 2


@pytest.mark.clause("SYS.record")
def test_a_bad_map_is_refused_every_time_and_never_kept(parses):
    bad = "version: 1\nname: bad\ngame: test\ngrid: {columns: 0, rows: 2}\n"
    for _ in range(2):
        with pytest.raises(ValueError, match="bad map file"):
            cache.cached_map(bad, "bad.yaml", chart)
    assert parses == ["bad.yaml", "bad.yaml"]


@pytest.mark.clause("SYS.record")
def test_threads_reading_one_new_map_at_once_share_one_value(parses):
    start = threading.Barrier(8)
    found: list[object] = []

    def read() -> None:
        start.wait()
        found.append(cache.cached_map(text(5), "t.yaml", chart))

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and all(value is found[0] for value in found)


@pytest.mark.clause("SYS.record")
def test_vv_states_of_one_scenario_stay_equal_when_its_sheet_was_dropped():
    rules = VvRuleset()
    body = rules.load_scenario(
        {
            "map": "vv-hedgerows",
            "sides": {
                "us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C7"}}},
                "de": {"units": {"g": {"kind": "squad", "counter": "4-6-5", "hex": "C4"}}},
            },
        }
    )
    live = rules.initial_state(body)
    vv_scenario._SHEETS.clear()  # as if many other games had been read since
    cache.clear()
    replayed = rules.initial_state(body)
    assert replayed.sheet is not live.sheet
    assert replayed == live
    other = dict(body, turns=(body.get("turns") or 0) + 1)
    assert rules.initial_state(other).sheet != live.sheet


def _uploaded_game(rules: Any, package: str, bundled: str, number: int) -> JsonObject:
    """A game of ``rules`` on its bundled map uploaded as a map of its own (renamed)."""
    text = files(package).joinpath(f"data/maps/{bundled}.yaml").read_text(encoding="utf-8")
    renamed = re.sub(r"(?m)^name: .*$", f"name: Upload {number}", text, count=1)
    name = f"upload{number}.yaml"
    return rules.load_scenario(
        {"map": name, **GAMES[package][2]}, MapFiles.uploaded({name: renamed})
    )


GAMES: dict[str, tuple[Any, str, dict[str, Any]]] = {
    "ordnance.lnl": (
        LnlRuleset,
        "lnl-farm",
        {
            "sides": {
                "german": {"units": {"pz4": {"kind": "vehicle", "hex": "B5"}}},
                "american": {"units": {"sq1": {"kind": "squad", "hex": "E5"}}},
            }
        },
    ),
    "ordnance.vv": (
        VvRuleset,
        "vv-hedgerows",
        {
            "sides": {
                "us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C7"}}},
                "de": {"units": {"g": {"kind": "squad", "counter": "4-6-5", "hex": "C4"}}},
            }
        },
    ),
}


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("package", sorted(GAMES))
def test_a_game_folded_again_after_many_other_maps_equals_the_live_game(package: str):
    # The server reads the maps uploaded with many games; a game whose map was read long ago
    # is folded again from its log and must equal its live state (replays, snapshots).
    rules = GAMES[package][0]()
    mine = _uploaded_game(rules, package, GAMES[package][1], 0)
    live = rules.initial_state(mine)
    for number in range(1, cache.MAX_MAPS + vv_scenario.SHEETS + 2):  # more than either keeps
        rules.initial_state(_uploaded_game(rules, package, GAMES[package][1], number))
    assert rules.initial_state(mine) == live
