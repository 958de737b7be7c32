"""The ASL terrain table for maps (``data/terrain.toml``): what blocks, hinders, TEM, heights.

Loaded once and checked: the ASL-only keys of its entries (``rule``, ``same_level_only`` for
half-level hexside obstacles, ``out_of`` for SMOKE's extra hindrance out of its Location, A24.8)
and its settings (the B.10 limit, whether TEM adds up).

>>> chart = asl_chart()
>>> woods, smoke = chart.hex("woods"), chart.marker("smoke")
>>> woods.blocks, woods.cover, smoke.hindrance, smoke.height, smoke.extra["out_of"]
(True, 1, 3, 2, 1)
>>> hindrance_block(), sorted(chart.markers)
(6, ['dispersed smoke', 'dispersed wp', 'grenade smoke', 'smoke', 'wp'])
"""

from __future__ import annotations

from functools import cache

from ordnance.core.maps.terrain import TerrainChart

GAME = "asl"


@cache
def asl_chart() -> TerrainChart:
    """The ASL terrain table, read once and checked."""
    chart = TerrainChart.load("ordnance.asl", GAME)
    chart.check_extra({"rule": str, "same_level_only": bool, "out_of": int})
    if hindrance_limit(chart) < 1:
        raise ValueError("asl terrain table: settings.hindrance_block must be at least 1")
    chart.setting("cover_adds", bool, False)
    return chart


def hindrance_limit(chart: TerrainChart) -> int:
    return chart.setting("hindrance_block", int)


def hindrance_block() -> int:
    """The accumulated hindrance DRM that blocks a line (B.10)."""
    return hindrance_limit(asl_chart())
