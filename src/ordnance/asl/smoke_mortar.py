r"""Where a vehicle's smoke mortar may place its smoke (D13.32-place), on a map.

A successful sM puts Dispersed smoke at the Base Level of a hex of the firer's choice at range
1 to 3, inside its TCA and in its LOS. The TCA is an :class:`~ordnance.core.hexgrid.Arc` of
kind TCA (facing a corner, its hexspine reading, or a hexside); LOS is the ASL verdict of
:func:`ordnance.asl.los.asl_los` (not blocked; hindrances allowed, they modify the usage DR).

An AFV A in 4E5 with its TCA facing corner E. Of the nine hexes at range 1-3 in the TCA
(boundary hexes inside), a building b in 4F4 leaves 4G4, 4H3 and 4H4 (x) out of LOS; the
other six (o, and b itself) may receive the smoke::

              __
           __/x \        column E: A = 4E5
        __/x \__/        column F: b = 4F4, o = 4F5
     __/b \__/x \       column G: x = 4G4, o = 4G5, 4G6
    /A \__/o \__/       column H: x = 4H3, 4H4, o = 4H5, 4H6
    \__/o \__/o \
       \__/o \__/
          \__/o \
             \__/

>>> from ordnance.core.hexgrid import Corner, GeomorphicLabels
>>> from ordnance.core.maps import GameMap
>>> labels = GeomorphicLabels.of("4")
>>> m = GameMap("demo", "asl", labels, "open", {labels.parse("4F4"): "building"})
>>> [labels.label(h) for h in smoke_mortar_hexes(m, labels.parse("4E5"), Corner.E)]
['4F4', '4F5', '4G5', '4G6', '4H5', '4H6']
"""

from __future__ import annotations

from ordnance.asl.los import asl_los
from ordnance.core.hexgrid import Arc, Corner, Direction, Hex
from ordnance.core.maps import GameMap

SM_MIN_RANGE, SM_MAX_RANGE = 1, 3


def smoke_mortar_hexes(
    game_map: GameMap, firer: Hex, facing: Corner | Direction
) -> tuple[Hex, ...]:
    """The hexes an sM may place smoke in: range 1-3, inside the TCA, in LOS (D13.32-place)."""
    tca = Arc.covered(facing, turret=True)
    return tuple(
        hex
        for hex in tca.hexes(firer, SM_MAX_RANGE, SM_MIN_RANGE)
        if hex in game_map and asl_los(game_map, firer, hex).clear
    )
