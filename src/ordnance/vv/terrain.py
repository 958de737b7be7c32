"""The Valor & Victory terrain table for maps (``data/terrain.toml``), loaded once.

>>> chart = vv_chart()
>>> chart.hex("building").cover, chart.hexside("wall").hindrance, chart.marker("smoke 2").hindrance
(3, 1, 2)
"""

from __future__ import annotations

from functools import cache

from ordnance.core.maps.terrain import TerrainChart

GAME = "vv"


@cache
def vv_chart() -> TerrainChart:
    """The V&V terrain table, read once and checked."""
    chart = TerrainChart.load("ordnance.vv", GAME)
    chart.check_extra({})
    chart.setting("cover_adds", bool, True)
    return chart
