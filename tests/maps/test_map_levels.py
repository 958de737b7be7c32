"""The simple level rule: symmetric, and what it says for hills, obstacles and SMOKE."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.maps import Ends

levels = st.integers(min_value=-2, max_value=5)


@given(levels, levels, levels, st.integers(min_value=0, max_value=3))
def test_both_tests_are_symmetric_in_the_two_ends(a, b, ground, height):
    assert Ends(a, b).passes_over(ground, height) == Ends(b, a).passes_over(ground, height)
    assert Ends(a, b).ground_blocks(ground) == Ends(b, a).ground_blocks(ground)


@pytest.mark.clause("C8.5-effect")
def test_smoke_two_levels_high_hinders_up_to_level_two_only():
    assert not Ends(2, 2).passes_over(ground=0, height=2)
    assert not Ends(3, 2).passes_over(ground=0, height=2)
    assert Ends(3, 3).passes_over(ground=0, height=2)
    assert Ends(4, 4).passes_over(ground=1, height=2) and not Ends(3, 4).passes_over(1, 2)


@pytest.mark.parametrize(
    ("firer", "target", "ground", "blocks"),
    [
        (0, 0, 1, True),  # a hill between two units below it
        (1, 1, 1, False),  # a plateau between two units on it
        (2, 0, 1, False),  # the higher unit sees over a lower hill
        (1, 0, 1, True),  # a hill as high as the higher unit, higher than the lower
        (0, 0, 0, False),
    ],
)
def test_hills(firer, target, ground, blocks):
    assert Ends(firer, target).ground_blocks(ground) is blocks
