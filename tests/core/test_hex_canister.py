r"""Canister aiming geometry: the vertex aiming points in a CA and the hexes each one hits.

F with its CA facing corner E; the CA's boundary rays run through p, A, d and q, C, g::

           __
        __/  \__
     __/  \__/d \
    /  \__/A \__/
    \__/p \__/e \
    /F \__/B \__/
    \__/q \__/f \
    /  \__/C \__/
    \__/  \__/g \
       \__/  \__/

The aiming vertex is two hexsides out, not counting F's hex: the nearest hex of its cluster is
at range 2 (A, B or C). Worked by hand, left to right across the CA, the five aiming points
are where these hexes meet: A d e, A B e, B e f, B C f, C f g.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.hexgrid import (
    ANY_DIRECTION,
    Arc,
    Corner,
    Direction,
    Hex,
    SightLine,
    Vertex,
    adjacent_toward,
    canister_aims,
    distance,
)

F = Hex(0, 0)
p, q = Hex(1, -1), Hex(1, 0)
A, B, C = Hex(2, -2), Hex(2, -1), Hex(2, 0)
d, e, f, g = Hex(3, -3), Hex(3, -2), Hex(3, -1), Hex(3, 0)
coordinate = st.integers(min_value=-100, max_value=100)


@pytest.mark.clause("C8.4-target")
def test_five_aiming_points_in_a_ca_each_with_its_three_hexes():
    aims = canister_aims(F, Arc.covered(Corner.E))
    clusters = [set(aim.cluster) for aim in aims]
    assert clusters == [{A, d, e}, {A, B, e}, {B, e, f}, {B, C, f}, {C, f, g}]
    assert [aim.vertex for aim in aims] == [Vertex.among(*c) for c in clusters]
    for aim in aims:
        assert distance(F, aim.cluster[0]) == 2  # nearest first
        assert sorted(distance(F, h) for h in aim.cluster) in ([2, 2, 3], [2, 3, 3])


@pytest.mark.clause("C8.41")
def test_the_hex_next_to_the_firer_toward_each_aiming_point():
    r"""Toward the middle point (B e f) the line runs out along the hexside between p and q.

    That one attacks both p and q (C8.41's quartered case); the others one hex each.
    """
    aims = canister_aims(F, Arc.covered(Corner.E))
    assert [aim.adjacent for aim in aims] == [(p,), (p,), (p, q), (q,), (q,)]
    middle = aims[2]
    line = SightLine.between(F, F + Corner.E.vector * 3)
    assert line.steps[1].is_pair and set(line.steps[1].hexes) == {p, q}
    assert adjacent_toward(F, middle.vertex) == (p, q)


@pytest.mark.clause("C8.4-target")
@given(st.builds(Hex, coordinate, coordinate), st.sampled_from(list(Corner)))
def test_every_ca_facing_a_corner_has_exactly_five_aiming_points(firer, corner):
    arc = Arc.covered(corner)
    aims = canister_aims(firer, arc)
    assert len(aims) == 5
    assert [len(aim.adjacent) for aim in aims] == [1, 1, 2, 1, 1]
    for aim in aims:
        assert arc.contains(firer, aim.vertex)
        assert set(aim.cluster) == set(aim.vertex.hexes)
        assert min(distance(firer, h) for h in aim.cluster) == 2
        assert all(distance(firer, h) == 1 and arc.contains(firer, h) for h in aim.adjacent)
        assert firer not in aim.cluster and firer not in aim.adjacent
    # Turning the CA turns its aiming points.
    turned = canister_aims(firer, arc.turned(1))
    assert [a.vertex.hexes for a in turned] == [
        tuple(sorted(h.rotated(1, firer) for h in a.vertex.hexes)) for a in aims
    ]


@pytest.mark.clause("C8.4-target")
def test_a_ca_facing_a_hexside_gives_mirror_pairs_not_five():
    r"""Read as facing hexside N, the CA has no vertex on its centre line: 4 + 2 on the edges.

    The two boundary points lie on the rays through the CA's corners, where the line to them
    runs along the hexside between the front hex and a hex outside the CA.
    """
    arc = Arc.covered(Direction.N)
    aims = canister_aims(F, arc)
    assert len(aims) == 6
    on_edge = [aim for aim in aims if len(aim.adjacent) == 2]
    assert len(on_edge) == 2 and [aims.index(a) for a in on_edge] == [0, 5]
    assert all(any(not arc.contains(F, h) for h in aim.adjacent) for aim in on_edge)


def test_canister_needs_a_bounded_arc():
    with pytest.raises(ValueError, match="within a CA"):
        canister_aims(F, ANY_DIRECTION)
