"""Fulfilling Casualty Points: the defender's allocation, checked (VV.AP-resolve, r. 14.6-14.65)."""

from __future__ import annotations

import pytest

from ordnance.core.errors import BadInput, IllegalAction
from ordnance.vv.casualties import (
    Action,
    Allocation,
    Pending,
    auto_allocation,
    check_allocation,
    parse_allocations,
    value,
)


def pending(pos, cp, *units, hex="E5"):
    return Pending(pos.hex(hex), cp, "us", "de", tuple(units))


def check(pos, cp, units, *words):
    board = pos.board()
    return check_allocation(board, pending(pos, cp, *units), parse_allocations(words))


def refusal(pos, cp, units, *words) -> str:
    with pytest.raises(IllegalAction) as caught:
        check(pos, cp, units, *words)
    assert caught.value.clause == "VV.AP-resolve"
    return caught.value.sentence


@pytest.fixture
def hex_e5(build):
    pos = build()
    pos.squad("a", "de", "E5", counter="4-6-5")  # reduces to 2-6-3: 2 CP
    pos.half("b", "de", "E5")
    pos.leader("lt", "de", "E5")
    return pos


def test_allocations_parse_and_print():
    assert [str(a) for a in parse_allocations(["a:pin", "t:3", "b:Reduce+Pin"])] == [
        "a:pin",
        "t:3",
        "b:reduce+pin",
    ]
    assert Allocation.parse("t:3") == Allocation("t", Action.ABSORB, 3)
    for bad in ("a", ":pin", "a:kill", "a:absorb"):
        with pytest.raises(BadInput):
            Allocation.parse(bad)


@pytest.mark.clause("VV.AP-resolve")
def test_what_each_action_fulfils(hex_e5):
    board = hex_e5.board()
    assert value(board, Allocation("a", Action.PIN)) == 1
    assert value(board, Allocation("a", Action.REDUCE)) == 2
    assert value(board, Allocation("a", Action.REDUCE_PIN)) == 3
    assert value(board, Allocation("a", Action.ELIMINATE)) == 5
    assert value(board, Allocation("lt", Action.ELIMINATE)) == 1


@pytest.mark.clause("VV.AP-resolve")
def test_the_total_meets_the_cp_and_stops(hex_e5):
    units = ("a", "b", "lt")
    assert check(hex_e5, 2, units, "a:reduce")
    assert check(hex_e5, 2, units, "b:pin", "lt:pin")
    assert check(hex_e5, 3, units, "a:eliminate")  # over, but nothing can be dropped
    assert "fulfils 2 of 4" in refusal(hex_e5, 4, units, "b:pin", "lt:pin")
    assert "more than needed" in refusal(hex_e5, 2, units, "a:reduce", "b:pin")


@pytest.mark.clause("VV.AP-resolve")
def test_more_cp_than_the_hex_can_take_eliminates_everything(hex_e5):
    units = ("a", "b", "lt")
    assert check(hex_e5, 20, units, "a:eliminate", "b:eliminate", "lt:eliminate")


@pytest.mark.clause("VV.AP-resolve")
def test_only_units_the_attack_affects(hex_e5):
    assert "not a unit this attack affects" in refusal(hex_e5, 1, ("a",), "b:pin")
    with pytest.raises(BadInput):
        check(hex_e5, 2, ("a", "b"), "a:pin", "a:pin")


@pytest.mark.clause("VV.AP-resolve")
def test_pinned_units_only_die_and_only_after_the_unpinned(build):
    pos = build()
    pos.squad("a", "de", "E5")
    pos.squad("p", "de", "E5", pinned=True)
    units = ("a", "p")
    assert "can only be eliminated" in refusal(pos, 1, units, "p:pin")
    assert "can only be eliminated" in refusal(pos, 2, units, "p:reduce")
    assert "r. 14.62" in refusal(pos, 5, units, "p:eliminate")
    assert check(pos, 10, units, "a:eliminate", "p:eliminate")
    # Once the unpinned squad is pinned by this result, only pinned units remain: they die.
    assert check(pos, 6, units, "a:pin", "p:eliminate")
    assert check(pos, 8, units, "a:reduce+pin", "p:eliminate")
    assert "r. 14.62" in refusal(pos, 7, units, "a:reduce", "p:eliminate")
    strict = type(pos)(settings={"unpinned_first_until": "eliminated"})
    strict.units, strict.status = pos.units, pos.status
    assert "every unpinned one is eliminated" in refusal(strict, 6, units, "a:pin", "p:eliminate")


@pytest.mark.clause("VV.AP-resolve")
def test_only_full_squads_are_reduced(hex_e5, build):
    assert "only a full squad" in refusal(hex_e5, 1, ("b",), "b:reduce")
    pos = build()
    pos.squad("r", "de", "E5", reduced=True)
    assert "only a full squad" in refusal(pos, 2, ("r",), "r:reduce")
    assert check(pos, 3, ("r",), "r:eliminate")  # a reduced squad dies at 3, its half side


@pytest.fixture
def truck(build):
    pos = build()
    pos.vehicle("truck", "de", "E5", "S", casualty=3)
    pos.squad("p", "de", None, aboard="truck")
    pos.gun("pak", "de", None, aboard="truck", casualty=2)
    return pos


@pytest.mark.clause("VV.AP-resolve")
def test_vehicles_pin_take_a_survival_roll_or_die_with_their_riders(truck):
    units = ("truck", "p", "pak")
    assert check(truck, 1, units, "truck:pin")
    assert check(truck, 3, units, "truck:3")
    assert "2 to 3 CP" in refusal(truck, 4, units, "truck:4")
    assert "2 to 3 CP" in refusal(truck, 1, units, "truck:1")
    board = truck.board()
    # Eliminating the loaded truck counts its rating, its passenger's and the towed Gun's.
    assert value(board, Allocation("truck", Action.ELIMINATE)) == 3 + 5 + 2
    assert check(truck, 10, units, "truck:eliminate")
    assert "shares the fate" in refusal(truck, 10, units, "truck:eliminate", "p:eliminate")
    assert "not a unit this attack affects" in refusal(truck, 2, units, "pak:eliminate")


@pytest.mark.clause("VV.AP-resolve")
def test_passengers_of_an_unarmored_vehicle_are_reduced_or_eliminated_not_pinned(truck):
    units = ("truck", "p", "pak")
    assert check(truck, 2, units, "p:reduce")
    assert "not pinned" in refusal(truck, 1, units, "p:pin")
    assert check(truck, 4, units, "p:reduce", "truck:2")
    assert "takes only the 2 CP" in refusal(truck, 4, units, "p:reduce", "truck:3")


@pytest.mark.clause("VV.AP-resolve")
def test_a_pinned_vehicle_is_eliminated_without_a_roll(build):
    pos = build()
    pos.vehicle("truck", "de", "E5", "S", pinned=True)
    assert "can only be eliminated" in refusal(pos, 2, ("truck",), "truck:2")
    assert check(pos, 2, ("truck",), "truck:eliminate")


@pytest.mark.clause("VV.AP-resolve")
@pytest.mark.parametrize(
    ("cp", "expected"),
    [
        (1, ["lt:pin"]),
        (2, ["b:pin", "lt:pin"]),
        (3, ["a:pin", "b:pin", "lt:pin"]),
        (4, ["a:reduce", "b:pin", "lt:pin"]),
        (5, ["a:reduce+pin", "b:pin", "lt:pin"]),
        (9, ["a:eliminate", "b:eliminate", "lt:pin"]),
    ],
)
def test_the_engines_allocation_loses_the_least(hex_e5, cp, expected):
    board = hex_e5.board()
    chosen = auto_allocation(board, pending(hex_e5, cp, "a", "b", "lt"))
    assert [str(a) for a in chosen] == expected
    check_allocation(board, pending(hex_e5, cp, "a", "b", "lt"), chosen)


@pytest.mark.clause("VV.AP-resolve")
def test_the_engine_prefers_a_survival_roll_to_a_certain_loss(truck):
    chosen = auto_allocation(truck.board(), pending(truck, 3, "truck", "p", "pak"))
    assert [str(a) for a in chosen] == ["truck:3"]
