"""Dice values: ordered DR, single dr, sources (SYS.dice)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.dice import DR, DieRoll, ManualDice, SeededDice
from ordnance.core.errors import BadInput

faces = st.integers(1, 6)


@pytest.mark.clause("SYS.dice")
@given(faces, faces)
def test_dr_text_round_trips_and_keeps_die_order(white, colored):
    roll = DR(white, colored)
    assert DR.parse(str(roll)) == roll
    assert eval(repr(roll)) == roll  # repr rebuilds the value
    assert (roll.white, roll.colored, roll.total) == (white, colored, white + colored)
    assert roll.is_doubles == (white == colored)


@pytest.mark.parametrize("text", ["0,3", "3,7", "3", "a,b", "1,2,3", "", " , "])
def test_bad_dice_name_the_fault(text):
    with pytest.raises(BadInput) as caught:
        DR.parse(text)
    assert caught.value.what == "dice"


def test_dr_enumeration_is_the_36_ordered_outcomes():
    rolls = list(DR.all())
    assert len(rolls) == len(set(rolls)) == 36
    assert sum(1 for r in rolls if r.total == 7) == 6


def test_die_roll():
    assert [d.value for d in DieRoll.all()] == [1, 2, 3, 4, 5, 6]
    assert DieRoll.parse("4") == DieRoll(4)
    with pytest.raises(BadInput):
        DieRoll(0)


@pytest.mark.clause("SYS.dice")
def test_seeded_dice_repeat_and_differ_by_seed():
    first = [SeededDice(11).roll_dr("x") for _ in range(1)]
    again = [SeededDice(11).roll_dr("x") for _ in range(1)]
    assert first == again
    source = SeededDice(11)
    many = {source.roll_dr("x") for _ in range(500)}
    assert len(many) == 36  # every ordered outcome turns up


@pytest.mark.clause("SYS.dice")
def test_manual_dice_are_handed_out_in_order_and_checked():
    dice = ManualDice([DR(1, 2), DieRoll(5)])
    assert dice.roll_dr("to hit") == DR(1, 2)
    with pytest.raises(BadInput, match="needs two dice"):
        ManualDice([DieRoll(3)]).roll_dr("to hit")
    assert dice.roll_die("dr") == DieRoll(5)
    with pytest.raises(BadInput, match="no physical roll"):
        dice.roll_die("dr")
