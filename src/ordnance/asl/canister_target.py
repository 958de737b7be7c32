"""Where canister may be aimed (C8.4-target, C8.4-building), on the exact hex geometry of core.

An ASL Gun's CA opens toward a hexspine (a corner of its hex): CA changes are counted in
hexspines (C5.1 Case A), and under that reading each CA holds exactly the five vertex aiming
points that C8.4's example names. Each aiming point is a vertex whose nearest hex is two hexes
out; its three hexes are the target cluster, and the hex next to the firer on the way there is
attacked too (C8.41), or both such hexes where the line runs along their hexside.

>>> aims = canister_aiming_points(Hex(0, 0), Corner.E)
>>> len(aims)
5
>>> [len(aim.adjacent) for aim in aims]
[1, 1, 2, 1, 1]
>>> canister_building_levels(Hex(0, 0), Hex(2, -1), aimed_level=1, building_levels=(0, 1, 2))
(0, 1, 2)
"""

from __future__ import annotations

from functools import lru_cache

from ordnance.core.errors import IllegalAction
from ordnance.core.hexgrid import Arc, CanisterAim, Corner, Hex, Vertex, canister_aims

CANISTER_RANGE = 2


@lru_cache(maxsize=1024)
def canister_aiming_points(firer: Hex, facing: Corner) -> tuple[CanisterAim, ...]:
    """The five aiming points of a CA facing ``facing``, anticlockwise first (C8.4-target).

    Pure geometry, worked out once per hex and facing (a board asks for them on every click)."""
    return canister_aims(firer, Arc.covered(facing))


def canister_aim(firer: Hex, facing: Corner, vertex: Vertex) -> CanisterAim:
    """The aiming point at ``vertex``, or a refusal naming C8.4-target."""
    for aim in canister_aiming_points(firer, facing):
        if aim.vertex == vertex:
            return aim
    raise IllegalAction(
        "C8.4-target",
        f"canister aims at a vertex two hexsides out within the CA; {vertex} is not one of"
        f" the five aiming points of a CA facing {facing}",
    )


def canister_building_levels(
    firer: Hex, target: Hex, *, aimed_level: int, building_levels: tuple[int, ...]
) -> tuple[int, int, int]:
    """The three contiguous building levels hit when canister aims at ``aimed_level``.

    The building hex must be two hexes away and have a level above and below the one aimed at
    (C8.4-building).
    """
    distance = firer.distance(target)
    if distance != CANISTER_RANGE:
        raise IllegalAction(
            "C8.4-building",
            f"canister may aim at a building's levels only two hexes away; {target} is at"
            f" range {distance}",
        )
    levels = (aimed_level - 1, aimed_level, aimed_level + 1)
    if any(level not in building_levels for level in levels):
        raise IllegalAction(
            "C8.4-building",
            f"aiming at level {aimed_level} needs levels {levels[0]} to {levels[2]} in the"
            f" building; it has {', '.join(map(str, sorted(building_levels)))}",
        )
    return levels
