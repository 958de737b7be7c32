r"""Where a missed LnLT Smoke or WP shell lands, on a map (LNL.S-miss, LNL.S-los, LNL.W-proc).

A miss lands one hex short of the target along the LOS (an odd To Hit roll) or one hex beyond
it (an even one); a double places nothing (:mod:`ordnance.lnl` leaves the roll to the caller).
The hex must be on the map and have a clear LOS from the firer, else nothing is placed. Where
the LOS runs along a hexside next to the target there are two candidate hexes, and the enemy
player picks one (both are returned). Readings (reference/lnl.md section 6): one short of an
adjacent target is the firer's own hex; "clear LOS" means not blocked (degrading hexes allowed).

F in B2 fires at T in E4, three hexes down a straight row of south-east neighbours. One short
is s (D3), one beyond is b (F4). With woods in T's own hex, a hit or a short shell is placed,
but the woods block the LOS to b, so a long miss places nothing::

     __
    /F \__
    \__/. \__
       \__/s \__
          \__/T \__
             \__/b \
                \__/

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> grid = GridLabels(columns=10, rows=8)
>>> firer, target = grid.parse("B2"), grid.parse("E4")
>>> m = GameMap("demo", "lnl", grid, "open")
>>> [grid.label(h) for h in landing_hexes(m, firer, target, Miss.SHORT)]
['D3']
>>> [grid.label(h) for h in landing_hexes(m, firer, target, Miss.BEYOND)]
['F4']
>>> wooded = GameMap("demo", "lnl", grid, "open", {target: "woods"})
>>> landing_hexes(wooded, firer, target, Miss.BEYOND)
()
"""

from __future__ import annotations

import enum

from ordnance.core.hexgrid import Hex, one_beyond, one_short
from ordnance.core.maps import GameMap
from ordnance.lnl.los import lnl_los


class Miss(enum.StrEnum):
    """Which way a missed shell goes along the LOS."""

    SHORT = "short"  # an odd To Hit roll
    BEYOND = "beyond"  # an even one (not a double)


def landing_hexes(game_map: GameMap, firer: Hex, target: Hex, miss: Miss) -> tuple[Hex, ...]:
    """The hex(es) the marker may be placed in; empty when nothing is placed (LNL.S-los)."""
    candidates = one_short(firer, target) if miss is Miss.SHORT else one_beyond(firer, target)
    return tuple(
        hex
        for hex in candidates
        if hex in game_map and (hex == firer or lnl_los(game_map, firer, hex).clear)
    )
