r"""One hex short of the target and one beyond it, along the line of sight (LnLT smoke misses)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.hexgrid import Hex, SightLine, distance, one_beyond, one_short

near = st.integers(min_value=-25, max_value=25)
far = st.integers(min_value=-200, max_value=200)


@pytest.mark.clause("LNL.S-miss")
def test_short_and_beyond_along_a_line_through_hexsides():
    r"""F fires at T (1,-3,2): the line meets F, the hex marked ., S, then T.

    It leaves T on the far side into B; one short is S, one beyond is B (the line is symmetric
    about T's centre, so B mirrors S through T)::

         __
        /  \__
        \__/B \
        /  \__/
        \__/T \
        /  \__/
        \__/S \
        /. \__/
        \__/  \
        /F \__/
        \__/
    """
    firer, target = Hex(0, 0), Hex(1, -3)
    line = SightLine.between(firer, target)
    assert line.hexes == (firer, Hex(0, -1), Hex(1, -2), target)
    assert one_short(firer, target) == (Hex(1, -2),)
    assert one_beyond(firer, target) == (Hex(1, -4),)


@pytest.mark.clause("LNL.S-miss", "LNL.S-los")
def test_along_a_hexside_the_short_and_beyond_hexes_are_pairs():
    r"""F fires at T four hexes due east: next to T the line runs along hexsides.

    One short is either s, one beyond either b; the rules choose (the enemy player, in LnLT)::

         __    __    __
        /  \__/  \__/  \__
        \__/. \__/s \__/b \
        /F \__/. \__/T \__/
        \__/. \__/s \__/b \
        /  \__/  \__/  \__/
    """
    assert one_short(Hex(0, 0), Hex(4, -2)) == (Hex(3, -2), Hex(3, -1))
    assert one_beyond(Hex(0, 0), Hex(4, -2)) == (Hex(5, -3), Hex(5, -2))


@pytest.mark.clause("LNL.S-miss")
def test_one_short_of_an_adjacent_target_is_the_firers_hex():
    assert one_short(Hex(0, 0), Hex(1, 0)) == (Hex(0, 0),)
    assert one_beyond(Hex(0, 0), Hex(1, 0)) == (Hex(2, 0),)
    with pytest.raises(ValueError, match="itself"):
        one_short(Hex(1, 1), Hex(1, 1))
    with pytest.raises(ValueError, match="itself"):
        one_beyond(Hex(1, 1), Hex(1, 1))


@given(st.builds(Hex, far, far), st.builds(Hex, near, near).filter(lambda d: d != Hex(0, 0)))
def test_short_and_beyond_sit_next_to_the_target_one_range_either_side(firer, d):
    target = firer + d
    reach = distance(firer, target)
    short, beyond = one_short(firer, target), one_beyond(firer, target)
    along_corner = len(set(d.cube)) < 3
    assert len(short) == len(beyond) == (2 if along_corner else 1)
    for hex in short:
        assert distance(hex, target) == 1 and distance(firer, hex) == reach - 1
    for hex in beyond:
        assert distance(hex, target) == 1 and distance(firer, hex) == reach + 1
        # The beyond hex lies on the firer's line extended through the target.
        assert hex in SightLine.between(firer, target + d).hexes
    # One short is the first step back from the target toward the firer; one beyond mirrors it.
    assert short == SightLine.between(target, firer).steps[1].hexes
    assert set(beyond) == {target * 2 - hex for hex in short}
