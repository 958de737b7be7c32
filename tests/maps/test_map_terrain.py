"""Terrain tables: the common shape is checked when a ruleset loads its table."""

from __future__ import annotations

import pytest

from ordnance.asl.terrain import asl_chart
from ordnance.core.maps import TerrainChart
from ordnance.lnl.terrain import lnl_chart
from ordnance.vv.terrain import vv_chart

MINIMAL = 'source = "test"\n[hex.open]\n'


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("[hex.open]\n", "needs a 'source' note"),
        (MINIMAL + "[hex.woods]\nblocks = 1\n", "'blocks' must be true or false"),
        (MINIMAL + "[hex.woods]\nhindrance = -1\n", "cannot be negative"),
        (MINIMAL + "[hex.woods]\nheight = 1.5\n", "'height' must be a whole number"),
        (MINIMAL + '[hex.woods]\ncolour = "green"\n', "'colour' must be #rrggbb"),
        (MINIMAL + "[hex.woods]\nmark = 3\n", "must be text"),
        (MINIMAL + "[hexes.woods]\n", "unknown top-level keys"),
        ('source = "t"\nhex = 3\n', "must be a table"),
        ('source = "t"\n[hex.woods]\n', "default terrain is not a [hex] entry"),
        ('source = "t"\nsettings = 3\n[hex.open]\n', "[settings] must be a table"),
    ],
)
def test_malformed_tables_are_refused(text, fault):
    with pytest.raises((ValueError, TypeError)) as refused:
        TerrainChart.from_toml_text(text, "test")
    assert fault in str(refused.value)


def test_extra_keys_and_settings_are_checked_by_the_ruleset():
    chart = TerrainChart.from_toml_text(MINIMAL + "[hex.woods]\nrule = 13\n", "test")
    with pytest.raises(ValueError, match="'rule' must be str"):
        chart.check_extra({"rule": str})
    with pytest.raises(ValueError, match="unknown key 'rule'"):
        chart.check_extra({})
    chart = TerrainChart.from_toml_text(MINIMAL + "[settings]\nlimit = true\n", "test")
    with pytest.raises(ValueError, match=r"settings\.limit must be int"):
        chart.setting("limit", int)


def test_every_ruleset_table_loads_once_with_a_source_note():
    for load in (asl_chart, lnl_chart, vv_chart):
        chart = load()
        assert chart is load()  # loaded once
        assert chart.source and chart.vocabulary.default_terrain == "open"
        assert {"open", "woods"} <= set(chart.hexes)
        assert chart.markers and chart.hexsides


def test_the_asl_table_holds_the_smoke_values_of_the_reference():
    """reference/asl.md section 10: SMOKE +3, Dispersed +2, WP +2, Dispersed WP +1; section 11:
    grenade SMOKE +2."""
    chart = asl_chart()
    values = {name: chart.marker(name).hindrance for name in chart.markers}
    expected = {"smoke": 3, "dispersed smoke": 2, "wp": 2, "dispersed wp": 1, "grenade smoke": 2}
    assert values == expected
    assert all(chart.marker(name).height == 2 for name in chart.markers)  # two levels
    assert not any(chart.marker(name).blocks for name in chart.markers)
