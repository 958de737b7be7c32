"""Where canister may be aimed: five vertices per CA, or three levels of a building (C8.4).

The firer F faces corner E; its CA is bounded by the rays through p, A, d and q, C, g::

           __
        __/  \\__
     __/  \\__/d \\        aim   cluster   next to F
    /  \\__/A \\__/        a     A d e     p
    \\__/p \\__/e \\        b     A B e     p
    /F \\__/B \\__/        c     B e f     p and q (the LOS runs along their hexside)
    \\__/q \\__/f \\        d     B C f     q
    /  \\__/C \\__/        e     C f g     q
    \\__/  \\__/g \\
       \\__/  \\__/
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.asl.canister_target import (
    canister_aim,
    canister_aiming_points,
    canister_building_levels,
)
from ordnance.core.errors import IllegalAction
from ordnance.core.hexgrid import Corner, Hex, Vertex

F = Hex(0, 0)
p, q = Hex(1, -1), Hex(1, 0)
A, B, C = Hex(2, -2), Hex(2, -1), Hex(2, 0)
d, e, f, g = Hex(3, -3), Hex(3, -2), Hex(3, -1), Hex(3, 0)


@pytest.mark.clause("C8.4-target")
def test_five_aiming_points_with_their_clusters_facing_east():
    aims = canister_aiming_points(F, Corner.E)
    assert len(aims) == 5
    # Every cluster's nearest hex is two hexsides out; none is the firer's hex or adjacent.
    for aim in aims:
        assert sorted(F.distance(h) for h in aim.cluster)[0] == 2
        assert set(aim.cluster) == set(aim.vertex.hexes)
    assert [set(aim.cluster) for aim in aims] == [
        {A, d, e},
        {A, B, e},
        {B, e, f},
        {B, C, f},
        {C, f, g},
    ]
    assert aims[0].adjacent == aims[1].adjacent == (p,)
    assert set(aims[2].adjacent) == {p, q}  # C8.41: along the hexside between p and q
    assert aims[3].adjacent == aims[4].adjacent == (q,)


@pytest.mark.clause("C8.4-target")
@given(st.integers(-20, 20), st.integers(-20, 20), st.sampled_from(list(Corner)))
def test_every_ca_holds_exactly_five_aiming_points(q_, r_, facing):
    firer = Hex(q_, r_)
    aims = canister_aiming_points(firer, facing)
    assert len(aims) == 5
    assert len({aim.vertex for aim in aims}) == 5
    for aim in aims:
        assert min(firer.distance(h) for h in aim.cluster) == 2
        assert all(firer.distance(h) == 1 for h in aim.adjacent)


@pytest.mark.clause("C8.4-target")
def test_a_vertex_outside_the_five_is_refused():
    behind = Vertex.of(Hex(-2, 0), Corner.W)
    with pytest.raises(IllegalAction) as refused:
        canister_aim(F, Corner.E, behind)
    assert refused.value.clause == "C8.4-target"
    middle = canister_aiming_points(F, Corner.E)[2]
    assert canister_aim(F, Corner.E, middle.vertex) == middle


@pytest.mark.clause("C8.4-building")
def test_three_contiguous_levels_two_hexes_away():
    assert canister_building_levels(F, B, aimed_level=1, building_levels=(0, 1, 2)) == (0, 1, 2)
    assert canister_building_levels(F, B, aimed_level=2, building_levels=(0, 1, 2, 3)) == (1, 2, 3)


@pytest.mark.clause("C8.4-building")
@pytest.mark.parametrize(
    ("target", "aimed", "levels", "why"),
    [
        (Hex(3, -1), 1, (0, 1, 2), "two hexes away"),
        (p, 1, (0, 1, 2), "two hexes away"),
        (B, 0, (0, 1, 2), "needs levels -1 to 1"),
        (B, 2, (0, 1, 2), "needs levels 1 to 3"),
    ],
)
def test_building_target_refusals(target, aimed, levels, why):
    with pytest.raises(IllegalAction, match=why) as refused:
        canister_building_levels(F, target, aimed_level=aimed, building_levels=levels)
    assert refused.value.clause == "C8.4-building"
