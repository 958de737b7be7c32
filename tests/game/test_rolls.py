"""Which physical rolls a command needs next (game/rolls.py): the certain ones in order, a note
when later ones depend on the faces, and every fault of the dice entered refused."""

from __future__ import annotations

import pytest

from ordnance.core.dice import DR, DieRoll
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.ruleset import Resolution
from ordnance.game.rolls import MAX_PROBES, NeededRoll, needed_rolls


class Script:
    """A ruleset whose one command rolls ``kinds`` in order (each 'DR' or 'dr'), refused
    before any roll when ``refuse``."""

    def __init__(self, *kinds: str, refuse: bool = False) -> None:
        self.kinds = kinds
        self.refuse = refuse
        self.calls = 0

    def resolve(self, state: object, command: object, dice) -> Resolution:
        self.calls += 1
        if self.refuse:
            raise IllegalAction("SYS.dice", "not now")
        for number, kind in enumerate(self.kinds, 1):
            if kind == "DR":
                dice.roll_dr(f"roll {number}")
            else:
                dice.roll_die(f"roll {number}")
        return Resolution((), {})


@pytest.mark.clause("SYS.dice")
def test_rolls_that_do_not_depend_on_the_faces_are_all_named_at_once():
    needed = needed_rolls(Script("DR", "dr"), None, None, [])
    assert needed.rolls == (NeededRoll("roll 1", 2), NeededRoll("roll 2", 1))
    assert not needed.more and needed.given == ()
    after_one = needed_rolls(Script("DR", "dr"), None, None, [DR(1, 2)])
    assert after_one.rolls == (NeededRoll("roll 2", 1),) and after_one.given == (
        NeededRoll("roll 1", 2),
    )
    assert needed_rolls(Script("DR", "dr"), None, None, [DR(1, 2), DieRoll(3)]).rolls == ()


@pytest.mark.clause("SYS.dice")
def test_the_look_ahead_is_bounded_and_says_more_may_follow():
    rules = Script("DR", "DR", "DR")
    needed = needed_rolls(rules, None, None, [])
    # 36 faces of the first roll show the second is certain; 36 x 36 would pass the bound.
    assert [r.purpose for r in needed.rolls] == ["roll 1", "roll 2"] and needed.more
    assert rules.calls <= MAX_PROBES + 1


@pytest.mark.clause("SYS.dice")
def test_faults_of_the_dice_or_the_command_are_raised_before_anything():
    with pytest.raises(BadInput, match="more dice were entered than the command rolls"):
        needed_rolls(Script("dr"), None, None, [DieRoll(2), DieRoll(3)])
    with pytest.raises(BadInput, match=r"roll 2 \(roll 2\) needs one die"):
        needed_rolls(Script("DR", "dr"), None, None, [DR(1, 1), DR(2, 2)])
    with pytest.raises(IllegalAction, match="not now"):
        needed_rolls(Script("DR", refuse=True), None, None, [])
    assert needed_rolls(Script(), None, None, []).rolls == ()
