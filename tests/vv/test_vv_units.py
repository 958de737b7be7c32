"""Counters (APFP-Range-Casualty Rating) and what a unit adds to an AP attack by range."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.errors import BadInput
from ordnance.vv.counters import Counter
from ordnance.vv.units import Kind, SupportWeapon, SwKind, Unit


@given(st.integers(0, 99), st.integers(1, 99), st.integers(1, 99))
def test_counters_round_trip(apfp, range_, casualty):
    counter = Counter(apfp, range_, casualty)
    assert Counter.parse(str(counter)) == counter
    assert eval(repr(counter)) == counter


@pytest.mark.parametrize(
    ("text", "position"), [("4-6", 3), ("4-6-5-1", 7), ("a-6-5", 0), ("4--5", 2), ("", 0)]
)
def test_bad_counters_point_at_the_fault(text, position):
    with pytest.raises(BadInput) as caught:
        Counter.parse(text)
    assert caught.value.position == position


def test_a_counter_needs_range_and_rating():
    with pytest.raises(BadInput, match="at least 1"):
        Counter.parse("4-0-5")


def _unit(kind, counter, sw=None):
    weapon = None if sw is None else SupportWeapon(SwKind(sw[0]), sw[1], sw[2])
    return Unit("u", "us", kind, counter=Counter.parse(counter), sw=weapon)


@pytest.mark.clause("VV.AP-range")
@pytest.mark.parametrize(
    ("kind", "counter", "sw", "distance", "apfp"),
    [
        (Kind.SQUAD, "4-6-5", ("lmg", 2, 8), 6, 6),  # own + SW
        (Kind.SQUAD, "4-6-5", ("lmg", 2, 8), 7, 2),  # beyond own range: SW only
        (Kind.SQUAD, "4-6-5", ("mmg", 4, 10), 9, 4),
        (Kind.SQUAD, "4-6-5", ("lmg", 2, 8), 9, 0),  # beyond both
        (Kind.HALF_SQUAD, "2-6-3", ("lmg", 2, 8), 3, 4),  # L adds to a half squad
        (Kind.HALF_SQUAD, "2-6-3", ("hmg", 5, 12), 3, 5),  # H fires alone (the better)
        (Kind.HALF_SQUAD, "2-6-3", ("mmg", 1, 12), 3, 2),
        (Kind.LEADER, "1-3-1", ("lmg", 2, 8), 2, 2),  # a leader fires his weapon alone
        (Kind.LEADER, "1-3-1", None, 4, 0),
    ],
)
def test_support_weapons_by_range(kind, counter, sw, distance, apfp):
    assert _unit(kind, counter, sw).apfp_at(distance) == apfp


@pytest.mark.clause("VV.AP-passengers")
def test_passengers_use_light_mgs_only():
    lmg = _unit(Kind.SQUAD, "4-6-5", ("lmg", 2, 8))
    mmg = _unit(Kind.SQUAD, "4-6-5", ("mmg", 4, 10))
    flame = _unit(Kind.SQUAD, "4-6-5", ("flamethrower", 8, 1))
    assert lmg.apfp_at(2, passenger=True) == 6
    assert mmg.apfp_at(2, passenger=True) == 4
    assert flame.apfp_at(1, passenger=True) == 4
    assert flame.apfp_at(1) == 12


def test_a_reduced_squad_fights_as_its_half_squad():
    squad = _unit(Kind.SQUAD, "4-6-5", ("mmg", 4, 10))
    assert squad.printed(reduced=True) == Counter.parse("2-6-3")
    assert squad.plays_as(True) is Kind.HALF_SQUAD
    assert squad.apfp_at(3, reduced=True) == 4  # an H weapon: alone
    assert squad.casualty_rating(reduced=True) == 3
