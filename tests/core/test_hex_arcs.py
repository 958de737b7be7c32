r"""Fire arcs (ASL CA/TCA, V&V Forward Firing Arc, any direction) and range counting.

In the drawings F is the unit's hex, ``i`` a hex inside the arc, ``b`` a hex whose centre lies
on a boundary ray (inside by default, outside with ``:open``) and ``.`` a hex outside.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import ANY_DIRECTION, Arc, ArcKind, Corner, Direction, Hex, distance

ORIGIN = Hex(0, 0)
coordinate = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coordinate, coordinate)
facings = st.sampled_from([*Direction, *Corner])


def ring_counts(arc: Arc, radius: int) -> list[int]:
    return [sum(arc.contains(ORIGIN, h) for h in ORIGIN.ring(r)) for r in range(1, radius + 1)]


@pytest.mark.clause("VV.AP-arc")
def test_forward_firing_arc_spans_the_front_and_front_flank_hexes():
    r"""An FFA facing N: 120 degrees, bounded by rays through the NW and NE neighbours' centres.

    The front-flank neighbours and the hexes straight out beyond them are on the boundary and
    count as inside (reference/vv.md, open point 4); the rear-flank neighbours are outside::

               __
            __/i \__
         __/i \__/i \__
        /b \__/i \__/b \
        \__/b \__/b \__/
        /. \__/F \__/. \
        \__/. \__/. \__/
        /. \__/. \__/. \
        \__/. \__/. \__/
           \__/. \__/
              \__/
    """
    ffa = Arc.forward_firing(Direction.N)
    inside = {h for h in ORIGIN.within(2) if ffa.contains(ORIGIN, h)}
    assert inside == {
        ORIGIN,
        Hex(-1, 0),
        Hex(0, -1),
        Hex(1, -1),
        Hex(-2, 0),
        Hex(-1, -1),
        Hex(0, -2),
        Hex(1, -2),
        Hex(2, -2),
    }
    assert [ffa.on_boundary(ORIGIN, h) for h in (Hex(-1, 0), Hex(0, -1), Hex(2, -2))] == [
        True,
        False,
        True,
    ]
    assert ring_counts(ffa, 5) == [3, 5, 7, 9, 11]
    assert ring_counts(Arc.parse("FFA:N:open"), 5) == [1, 3, 5, 7, 9]


@pytest.mark.clause("VV.AP-arc")
def test_turreted_guns_and_360_degree_mgs_fire_in_any_direction():
    assert all(ANY_DIRECTION.contains(ORIGIN, h) for h in ORIGIN.within(4))
    assert ANY_DIRECTION.turned(3) is ANY_DIRECTION
    assert Arc.parse("any") == ANY_DIRECTION and str(ANY_DIRECTION) == "ANY"


@pytest.mark.clause("VV.AP-range")
def test_range_counts_the_target_hex_not_the_firers():
    """An MG that reaches 8 hexes reaches exactly the hexes 1..8 away."""
    assert distance(ORIGIN, Hex(0, -1)) == 1
    reach = set(ANY_DIRECTION.hexes(ORIGIN, max_range=8))
    assert len(reach) == 3 * 8 * 9
    assert Hex(0, -8) in reach and Hex(0, -9) not in reach and ORIGIN not in reach
    assert all(1 <= distance(ORIGIN, h) <= 8 for h in reach)
    # Within an FFA, eight rings of 3, 5, ... 17 hexes.
    assert len(list(Arc.forward_firing(Direction.N).hexes(ORIGIN, 8))) == 80


def test_a_ca_facing_a_corner_opens_between_the_two_hexes_at_that_corner():
    r"""CA facing corner E: bounded by the rays through the NE and SE neighbours' centres.

    The hexes straight out through those two neighbours are cut in two by the boundary::

                  __
               __/. \__
            __/. \__/. \__
         __/. \__/. \__/. \__
        /. \__/. \__/. \__/b \
        \__/. \__/. \__/b \__/
        /. \__/. \__/b \__/i \
        \__/. \__/F \__/i \__/
        /. \__/. \__/b \__/i \
        \__/. \__/. \__/b \__/
        /. \__/. \__/. \__/b \
        \__/. \__/. \__/. \__/
    """
    ca = Arc.covered(Corner.E)
    assert ca.bounds == (Direction.NE.vector, Direction.SE.vector)
    assert ring_counts(ca, 5) == [2, 3, 4, 5, 6]
    assert ring_counts(Arc.parse("CA:E:open"), 5) == [0, 1, 2, 3, 4]
    assert ca.on_boundary(ORIGIN, Hex(3, -3)) and not ca.on_boundary(ORIGIN, Hex(3, -2))
    assert not ca.contains(ORIGIN, Hex(0, -1))


def test_a_ca_facing_a_hexside_opens_between_that_hexsides_corners():
    r"""CA facing hexside N: bounded by the rays through the NNW and NNE corners.

    Such a ray runs along a hexside, then through the centre of a hex two ranges out; those
    hexes (b) are cut in two. The NW and NE neighbours lie outside::

                  __
               __/i \__
            __/i \__/i \__
         __/. \__/i \__/. \__
        /. \__/b \__/b \__/. \
        \__/. \__/i \__/. \__/
        /. \__/. \__/. \__/. \
        \__/. \__/F \__/. \__/
    """
    ca = Arc.covered(Direction.N)
    assert ca.bounds == (Corner.NNW.vector, Corner.NNE.vector)
    assert ring_counts(ca, 4) == [1, 3, 3, 5]
    assert [ca.on_boundary(ORIGIN, h) for h in (Hex(-1, -1), Hex(1, -2), Hex(0, -2))] == [
        True,
        True,
        False,
    ]
    assert not ca.contains(ORIGIN, Hex(-1, 0)) and not ca.contains(ORIGIN, Hex(1, -1))


@pytest.mark.clause("D13.32-place")
def test_smoke_mortar_hexes_one_to_three_away_in_the_tca():
    tca = Arc.covered(Corner.E, turret=True)
    assert tca.kind is ArcKind.TCA
    places = list(tca.hexes(ORIGIN, max_range=3, min_range=1))
    assert len(places) == 2 + 3 + 4
    assert ORIGIN not in places and all(1 <= distance(ORIGIN, h) <= 3 for h in places)


@given(facings, hexes, hexes, st.integers(min_value=-6, max_value=6), st.booleans())
def test_arcs_turn_with_their_facing(facing, origin, hex, turns, inside):
    arc = Arc(ArcKind.CA, facing, boundary_inside=inside)
    turned = arc.turned(turns)
    assert turned.contains(origin, hex.rotated(turns, origin)) == arc.contains(origin, hex)


@given(facings, hexes, hexes)
def test_an_arc_moves_with_its_unit(facing, origin, shift):
    arc = Arc.covered(facing)
    for hex in origin.within(3):
        assert arc.contains(origin, hex) == arc.contains(origin + shift, hex + shift)


@given(facings, st.booleans())
def test_arc_text_round_trips(facing, inside):
    for kind in (ArcKind.CA, ArcKind.TCA):
        arc = Arc(kind, facing, inside)
        assert Arc.parse(str(arc)) == arc and eval(repr(arc)) == arc
    if isinstance(facing, Direction):
        ffa = Arc(ArcKind.FFA, facing, inside)
        assert Arc.parse(str(ffa)) == ffa


@pytest.mark.parametrize(
    ("text", "position", "fault"),
    [
        ("XCA:N", 0, "expected one of CA, TCA, FFA, ANY"),
        ("CA", 2, "KIND:FACING"),
        ("CA:N:shut", 2, "KIND:FACING"),
        ("CA:Q", 3, "facing 'Q' is not one of"),
        ("FFA:E", 4, "an FFA faces a hexside"),
        ("ANY:N", 3, "ANY takes no facing"),
    ],
)
def test_bad_arcs_point_at_the_fault(text, position, fault):
    with pytest.raises(BadInput) as err:
        Arc.parse(text)
    assert err.value.position == position
    assert fault in str(err.value)


def test_arcs_refuse_inconsistent_facings():
    with pytest.raises(ValueError, match="ANY arc has no facing"):
        Arc(ArcKind.ANY, Direction.N)
    with pytest.raises(ValueError, match="ANY arc has no facing"):
        Arc(ArcKind.CA)
    with pytest.raises(ValueError, match="faces a hexside"):
        Arc(ArcKind.FFA, Corner.E)
