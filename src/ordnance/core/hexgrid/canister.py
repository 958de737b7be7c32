r"""Canister aiming geometry (ASL C8.4, C8.41): vertex aiming points and the hexes they hit.

A canister shot aims at a vertex, and the three hexes meeting there are its target cluster.
The aiming vertex is two hexsides out from the firer, not counting the firing hex: the nearest
hex of its cluster is at range 2 (the cluster is two hexes at range 2 and one at 3, or one at
2 and two at 3). The shot also attacks the hex next to the firer on the line of sight toward
the vertex, or both hexes there when that line runs along their hexside (C8.41).

Counting the aiming points inside a 60-degree CA: facing a corner, exactly five (as C8.4's
example says), the middle one straight out through the corner, where the line to it runs along
the hexside between the two front hexes. Facing a hexside, no vertex lies on the CA's centre
line, so aiming points come in mirror pairs: four inside and two on the boundary rays.

F with its CA facing corner E: the CA is bounded by the rays through p, A, d and q, C, g::

           __
        __/  \__
     __/  \__/d \        aim   cluster   next to F on the line
    /  \__/A \__/        a     A d e     p
    \__/p \__/e \        b     A B e     p
    /F \__/B \__/        c     B e f     p and q (along their hexside)
    \__/q \__/f \        d     B C f     q
    /  \__/C \__/        e     C f g     q
    \__/  \__/g \
       \__/  \__/

>>> aims = canister_aims(Hex(0, 0), Arc.parse("CA:E"))
>>> len(aims), [len(aim.adjacent) for aim in aims]
(5, [1, 1, 2, 1, 1])
>>> middle = aims[2]
>>> str(middle.vertex), [str(h) for h in middle.cluster], middle.adjacent
('2,-1,-1/E', ['2,-1,-1', '3,-2,-1', '3,-1,-2'], (Hex(1, -1), Hex(1, 0)))
>>> len(canister_aims(Hex(0, 0), Arc.parse("CA:N")))
6
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ordnance.core.hexgrid.arcs import Arc
from ordnance.core.hexgrid.coords import Corner, Hex, cross
from ordnance.core.hexgrid.features import Vertex
from ordnance.core.hexgrid.los import SightLine


@dataclass(frozen=True, slots=True)
class CanisterAim:
    """One aiming point: the vertex, its three-hex cluster and the hex(es) next to the firer.

    ``cluster`` lists the nearest hex first. ``adjacent`` holds one hex, or two when the line
    of sight to the vertex runs along the hexside between them (C8.41).
    """

    vertex: Vertex
    cluster: tuple[Hex, Hex, Hex]
    adjacent: tuple[Hex, ...]


def canister_aims(firer: Hex, arc: Arc) -> tuple[CanisterAim, ...]:
    """Every canister aiming point in ``arc``, anticlockwise to clockwise (C8.4-target)."""
    if arc.bounds is None:
        raise ValueError("canister aims within a CA; an ANY arc has no bounds to order by")
    found: set[Vertex] = set()
    for hex in firer.ring(2):
        for corner in Corner:
            vertex = Vertex.of(hex, corner)
            nearest = min(firer.distance(h) for h in vertex.hexes)
            if nearest == 2 and arc.contains(firer, vertex):
                found.add(vertex)
    ordered = sorted(found, key=functools.cmp_to_key(_clockwise(firer)))
    return tuple(_aim(firer, vertex) for vertex in ordered)


def adjacent_toward(firer: Hex, vertex: Vertex) -> tuple[Hex, ...]:
    """The hex (or two hexes) next to the firer on the line of sight to a vertex (C8.41)."""
    offset = _thirds_offset(firer, vertex)  # never zero: a vertex is never a hex centre
    # The first hex a line meets depends only on its direction, and the offset in thirds
    # points the same way as the vertex: trace to that (integer) hex instead.
    return SightLine.between(firer, firer + offset).steps[1].hexes


def _aim(firer: Hex, vertex: Vertex) -> CanisterAim:
    ranked = sorted(vertex.hexes, key=lambda h: (firer.distance(h), h))
    return CanisterAim(vertex, (ranked[0], ranked[1], ranked[2]), adjacent_toward(firer, vertex))


def _thirds_offset(firer: Hex, vertex: Vertex) -> Hex:
    x, y, _ = vertex.thirds
    return Hex(x - 3 * firer.q, y - 3 * firer.r)


def _clockwise(firer: Hex) -> functools.partial[int]:
    return functools.partial(_compare, firer)


def _compare(firer: Hex, a: Vertex, b: Vertex) -> int:
    """Anticlockwise first; along one ray, nearer first. Valid within an arc under 180 degrees."""
    va, vb = _thirds_offset(firer, a), _thirds_offset(firer, b)
    turn = cross(va, vb)
    if turn:
        return -1 if turn > 0 else 1
    return (va.length > vb.length) - (va.length < vb.length)
