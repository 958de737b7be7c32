r"""Which hexes a V&V unit's AP weapons can fire at, on a map (VV.AP-range, VV.AP-arc).

Gun APFP reaches any range, MG APFP 8 hexes (range counts the target's hex, not the firer's). A
turreted Gun and a 360-degree MG fire in any direction; an unturreted Gun and a forward-firing
MG only into the Forward Firing Arc (:class:`~ordnance.core.hexgrid.Arc` kind FFA: 120 degrees
facing a hexside, boundary hexes inside; reference/vv.md section 6). Weapons combined into one
attack take the shortest range and the narrowest arc of those used. A target hex also needs a
LOS that is not blocked (:func:`ordnance.vv.los.vv_los`).

A Gun G facing N: its FFA is the 120-degree wedge between the rays through its NW and NE
neighbours, boundary hexes inside; the ``.`` hexes are those at range 1 and 2 (3 and 5 of
them; an FF MG reaches eight such rings, 80 hexes)::

           __
        __/. \__
     __/. \__/. \__
    /. \__/. \__/. \
    \__/. \__/. \__/
    /  \__/G \__/  \
    \__/  \__/  \__/
       \__/  \__/

>>> from ordnance.core.hexgrid import Direction, GridLabels
>>> from ordnance.core.maps import GameMap
>>> grid = GridLabels(columns=20, rows=20)
>>> m = GameMap("demo", "vv", grid, "open")
>>> reach(ApWeapon.TURRETED_GUN, ApWeapon.FF_MG)
(Arc.parse('FFA:N'), 8)
>>> len(ap_target_hexes(m, grid.parse("J15"), Direction.N, ApWeapon.FF_MG))
80
"""

from __future__ import annotations

import enum

from ordnance.core.hexgrid import ANY_DIRECTION, Arc, Direction, Hex
from ordnance.core.maps import GameMap
from ordnance.vv.los import vv_los

MG_RANGE = 8


class ApWeapon(enum.StrEnum):
    """An AP weapon by where it may fire and how far."""

    TURRETED_GUN = "turreted gun"  # white circle under the Gun APFP: any direction
    GUN = "gun"  # unturreted: Forward Firing Arc only
    MG_360 = "360 mg"  # circled MG APFP: any direction, 8 hexes
    FF_MG = "ff mg"  # forward-firing MG: FFA only, 8 hexes


_FFA_ONLY = {ApWeapon.GUN, ApWeapon.FF_MG}
_MGS = {ApWeapon.MG_360, ApWeapon.FF_MG}


def reach(*weapons: ApWeapon, facing: Direction = Direction.N) -> tuple[Arc, int | None]:
    """The arc and the farthest range of an attack with these weapons (None: no limit)."""
    if not weapons:
        raise ValueError("an attack uses at least one weapon")
    arc = Arc.forward_firing(facing) if _FFA_ONLY & set(weapons) else ANY_DIRECTION
    return arc, MG_RANGE if _MGS & set(weapons) else None


def ap_target_hexes(
    game_map: GameMap, firer: Hex, facing: Direction, *weapons: ApWeapon
) -> tuple[Hex, ...]:
    """The hexes of the map these weapons can fire AP at: in arc, in range, LOS not blocked."""
    arc, max_range = reach(*weapons, facing=facing)
    farthest = max(firer.distance(h) for h in game_map)
    limit = farthest if max_range is None else min(max_range, farthest)
    return tuple(
        hex
        for hex in arc.hexes(firer, limit)
        if hex in game_map and vv_los(game_map, firer, hex).clear
    )
