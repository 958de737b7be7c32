"""Which physical rolls a command needs next (SYS.dice), found without rolling anything.

A command's rolls are discovered as :class:`~ordnance.game.pbem.ProbeDice` discovers the first
one: the ruleset resolves the command with the dice entered so far, and the first roll past
them names its purpose and kind. A later roll may depend on an earlier one's faces (a hit
leads to a survival roll, a miss does not), so :func:`rolls_needed` looks further only where
the answer is the same for every face the earlier rolls could show: it lists the rolls that
are certain, in order, and says whether more may follow. The CLI (``game ai --dice``), the web
table and the tests all ask here.

>>> from ordnance.core.ruleset import Resolution
>>> class Duel:  # a shot, and a second roll only on a hit (total 7 or less)
...     def resolve(self, state, command, dice):
...         if dice.roll_dr("To Hit DR").total <= 7:
...             dice.roll_die("Kill dr")
...         return Resolution((), {})
>>> needed = needed_rolls(Duel(), None, None, [])
>>> [r.text for r in needed.rolls], needed.more
(['To Hit DR (two dice)'], True)
>>> needed_rolls(Duel(), None, None, [DR(3, 3)]).rolls[0].text
'Kill dr (one die)'
>>> needed_rolls(Duel(), None, None, [DR(6, 6)]).rolls
()
>>> needed_rolls(Duel(), None, None, [DieRoll(6)])
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad dice '6': roll 1 (To Hit DR) needs two dice (W,C)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ordnance.core.dice import DR, FACES, DieRoll
from ordnance.core.errors import BadInput, OrdnanceError
from ordnance.core.ruleset import Command
from ordnance.game.fairdice import parse_entered

# Resolutions tried to look past a roll whose faces decide what follows: one DR's 36 faces,
# then a few dice more. Past it, the caller asks again once those dice are known.
MAX_PROBES = 300


@dataclass(frozen=True)
class NeededRoll:
    """One roll to enter: what it is for and how many dice (2: a DR as W,C; 1: a dr)."""

    purpose: str
    dice: int

    @property
    def text(self) -> str:
        return f"{self.purpose} ({'two dice' if self.dice == 2 else 'one die'})"

    @property
    def form(self) -> str:
        """How it is typed: ``W,C`` or ``N``."""
        return "W,C" if self.dice == 2 else "N"

    def to_json(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "dice": self.dice}


@dataclass(frozen=True)
class DiceNeeded:
    """The rolls a command certainly needs after the dice entered, in order; ``more``: a roll
    may follow that depends on the faces of these."""

    rolls: tuple[NeededRoll, ...]
    more: bool
    # What the entered dice were rolled for, in order.
    given: tuple[NeededRoll, ...] = ()


class _Short(Exception):
    """The resolution reached a roll past the dice given (not an error: a signal)."""

    def __init__(self, roll: NeededRoll) -> None:
        super().__init__(roll.purpose)
        self.roll = roll


class _Given:
    """Dice that hand out the rolls given, checked for their kind, then stop the resolution."""

    def __init__(self, rolls: Sequence[DR | DieRoll]) -> None:
        self.rolls = rolls
        self.used: list[NeededRoll] = []

    def _next(self, purpose: str, count: int) -> DR | DieRoll:
        wanted = NeededRoll(purpose, count)
        if len(self.used) >= len(self.rolls):
            raise _Short(wanted)
        roll = self.rolls[len(self.used)]
        if isinstance(roll, DR) != (count == 2):
            # Only an entered roll can be of the wrong kind: the probes follow the purpose.
            need = "two dice (W,C)" if count == 2 else "one die"
            raise BadInput("dice", str(roll), f"roll {len(self.used) + 1} ({purpose}) needs {need}")
        self.used.append(wanted)
        return roll

    def roll_dr(self, purpose: str) -> DR:
        roll = self._next(purpose, 2)
        assert isinstance(roll, DR)
        return roll

    def roll_die(self, purpose: str) -> DieRoll:
        roll = self._next(purpose, 1)
        assert isinstance(roll, DieRoll)
        return roll


def _next_roll(rules: Any, state: Any, command: Any, rolls: Sequence[DR | DieRoll]) -> object:
    """The roll the command needs after ``rolls`` (None: it needs no more), or its refusal
    (any other outcome of these faces: a value that differs from every roll)."""
    try:
        rules.resolve(state, command, _Given(rolls))
    except _Short as short:
        return short.roll
    except OrdnanceError as error:
        return ("refused", str(error))
    return None


def _outcomes(roll: NeededRoll) -> list[DR | DieRoll]:
    if roll.dice == 2:
        return [DR(w, c) for w, c in itertools.product(FACES, FACES)]
    return [DieRoll(v) for v in FACES]


def needed_rolls(
    rules: Any, state: Any, command: Command | None, entered: Sequence[DR | DieRoll]
) -> DiceNeeded:
    """The rolls ``command`` needs after ``entered`` (see the module's text).

    A refusal before the first roll past ``entered`` is raised as it is; so is an entered roll
    of the wrong kind. Dice entered beyond what the command rolls are refused (BadInput).
    """
    dice = _Given(entered)
    try:
        rules.resolve(state, command, dice)
    except _Short as short:
        first = short.roll
    else:
        if len(dice.used) < len(entered):
            unused = ", ".join(str(r) for r in entered[len(dice.used) :])
            raise BadInput("dice", unused, "more dice were entered than the command rolls")
        return DiceNeeded((), False, tuple(dice.used))
    given = tuple(dice.used)
    known = [first]
    frontier: list[list[DR | DieRoll]] = [list(entered)]
    budget = MAX_PROBES
    while True:
        longer = [[*p, o] for p in frontier for o in _outcomes(known[-1])]
        if len(longer) > budget:
            return DiceNeeded(tuple(known), True, given)
        budget -= len(longer)
        found = {_next_roll(rules, state, command, p) for p in longer}
        if len(found) > 1:
            return DiceNeeded(tuple(known), True, given)  # what follows depends on the faces
        (after,) = found
        if not isinstance(after, NeededRoll):
            return DiceNeeded(tuple(known), after is not None, given)
        known.append(after)
        frontier = longer


def entered_dice(texts: Sequence[str]) -> list[DR | DieRoll]:
    """The dice as typed (``3,4`` a DR, ``5`` a dr), each checked."""
    return [parse_entered(t.strip()) for t in texts]
