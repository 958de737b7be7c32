"""The Lock 'n Load Tactical terrain table for maps (``data/terrain.toml``), loaded once.

Blocking terrain blocks a line of sight; a degrading hex adds +1 (to an OFT to-hit roll, -1 to
a DFT attack) and the third degrading hex blocks. A WP marker counts as Smoke 2 (LNL.W-smoke).

>>> chart = lnl_chart()
>>> chart.hex("woods").blocks, chart.hex("brush").hindrance, degrading_limit()
(True, 1, 3)
>>> marker_entry("wp").name
'smoke 2'
"""

from __future__ import annotations

from functools import cache

from ordnance.core.maps.terrain import Feature, TerrainChart

GAME = "lnl"


@cache
def lnl_chart() -> TerrainChart:
    """The LnLT terrain table, read once and checked."""
    chart = TerrainChart.load("ordnance.lnl", GAME)
    chart.check_extra({"counts_as": str})
    for marker in chart.markers.values():
        target = marker.extra.get("counts_as")
        if target is not None and target not in chart.markers:
            raise ValueError(
                f"lnl terrain table: [marker.{marker.name}] counts as unknown {target}"
            )
    if chart.setting("degrading_block", int) < 1:
        raise ValueError("lnl terrain table: settings.degrading_block must be at least 1")
    chart.setting("cover_adds", bool, False)
    return chart


def degrading_limit() -> int:
    """The number of degrading hexes that blocks a line (more than two: the third)."""
    return lnl_chart().setting("degrading_block", int)


def marker_entry(name: str) -> Feature:
    """The entry a marker is judged by: its own, or the one it counts as (WP as Smoke 2)."""
    chart = lnl_chart()
    marker = chart.marker(name)
    counts_as = marker.extra.get("counts_as")
    return chart.marker(counts_as) if isinstance(counts_as, str) else marker
