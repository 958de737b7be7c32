r"""Stepping along a line of sight: the hex one short of the target, and the hex one beyond.

Both are the hex the line meets right next to the target: coming in (one short) or going on
past it (one beyond: the line from the firer extended through the target's centre). Where the
line runs along a hexside there, both hexes beside it are returned, for the rules to choose
from; otherwise one hex. Which one a ruleset takes, and what happens off the map, is not
geometry.

Firer F, target T two hexes north-east; S is one short, B one beyond::

              __
           __/B \
        __/T \__/
     __/S \__/
    /F \__/
    \__/

Target T four hexes due east of F: the line runs along hexsides on either side of every other
hex, so one short (s) and one beyond (b) are both pairs::

     __    __    __
    /  \__/  \__/  \__
    \__/. \__/s \__/b \
    /F \__/. \__/T \__/
    \__/. \__/s \__/b \
    /  \__/  \__/  \__/

>>> one_short(Hex(0, 0), Hex(2, -2)), one_beyond(Hex(0, 0), Hex(2, -2))
((Hex(1, -1),), (Hex(3, -3),))
>>> one_short(Hex(0, 0), Hex(4, -2)), one_beyond(Hex(0, 0), Hex(4, -2))
((Hex(3, -2), Hex(3, -1)), (Hex(5, -3), Hex(5, -2)))
>>> one_short(Hex(0, 0), Hex(0, -1))
(Hex(0, 0),)
"""

from __future__ import annotations

from ordnance.core.hexgrid.coords import Hex
from ordnance.core.hexgrid.los import SightLine


def one_short(firer: Hex, target: Hex) -> tuple[Hex, ...]:
    """The hex (or the two hexes) next to the target on the firer's side, along the LOS.

    At range 1 this is the firer's own hex.
    """
    if firer == target:
        raise ValueError("no line of sight runs from a hex to itself")
    return SightLine.between(firer, target).steps[-2].hexes


def one_beyond(firer: Hex, target: Hex) -> tuple[Hex, ...]:
    """The hex (or the two hexes) next to the target on the far side, along the extended LOS."""
    if firer == target:
        raise ValueError("no line of sight runs from a hex to itself")
    # The line goes on from the target's centre in the same direction: the first step of the
    # line from the target to the target moved once more by the same displacement.
    return SightLine.between(target, target + (target - firer)).steps[1].hexes
