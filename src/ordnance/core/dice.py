"""Dice: the ordered two-dice roll (DR), the single die (dr) and where rolls come from.

A DR keeps its white and colored die apart because some checks read one die alone.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from ordnance.core.errors import BadInput, shown

FACES = range(1, 7)


def _face(text: str, whole: str, position: int) -> int:
    stripped = text.strip()
    if len(stripped) != 1 or not "1" <= stripped <= "6":  # one ASCII digit, never 5,000
        raise BadInput("dice", whole, f"a die shows 1 to 6, not {shown(stripped)}", position)
    return int(stripped)


@dataclass(frozen=True, order=True)
class DR:
    """An ordered roll of two dice: white first, colored second.

    >>> roll = DR.parse("3,5")
    >>> roll
    DR.parse('3,5')
    >>> roll.total, roll.is_doubles, str(roll)
    (8, False, '3,5')
    >>> DR(7, 1)
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad dice '7,1': a die shows 1 to 6, not 7
    """

    white: int
    colored: int

    def __post_init__(self) -> None:
        for value in (self.white, self.colored):
            if value not in FACES:
                raise BadInput(
                    "dice", f"{self.white},{self.colored}", f"a die shows 1 to 6, not {value!r}"
                )

    @classmethod
    def parse(cls, text: str) -> DR:
        """Read ``"W,C"`` (white die, colored die)."""
        parts = text.split(",")
        if len(parts) != 2:
            raise BadInput("dice", text, "expected two dice as W,C (white, colored), e.g. 3,4")
        white = _face(parts[0], text, 0)
        colored = _face(parts[1], text, len(parts[0]) + 1)
        return cls(white, colored)

    @property
    def total(self) -> int:
        """The sum of both dice (the Original DR)."""
        return self.white + self.colored

    @property
    def is_doubles(self) -> bool:
        return self.white == self.colored

    def __str__(self) -> str:
        return f"{self.white},{self.colored}"

    def __repr__(self) -> str:
        return f"DR.parse('{self}')"

    @staticmethod
    def all() -> Iterator[DR]:
        """The 36 equally likely ordered outcomes."""
        return (DR(w, c) for w in FACES for c in FACES)


@dataclass(frozen=True, order=True)
class DieRoll:
    """A single die (dr).

    >>> DieRoll.parse("4")
    DieRoll.parse('4')
    """

    value: int

    def __post_init__(self) -> None:
        if self.value not in FACES:
            raise BadInput("die", str(self.value), "a die shows 1 to 6")

    @classmethod
    def parse(cls, text: str) -> DieRoll:
        return cls(_face(text, text, 0))

    @property
    def total(self) -> int:
        return self.value

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"DieRoll.parse('{self}')"

    @staticmethod
    def all() -> Iterator[DieRoll]:
        return (DieRoll(v) for v in FACES)


class DiceSource(Protocol):
    """Where rolls come from; ``purpose`` says what a roll is for (it is logged)."""

    def roll_dr(self, purpose: str) -> DR: ...

    def roll_die(self, purpose: str) -> DieRoll: ...


class SeededDice:
    """Reproducible pseudo-random dice for simulation and tests (never for play between people).

    >>> a, b = SeededDice(7), SeededDice(7)
    >>> a.roll_dr("test") == b.roll_dr("test")
    True
    """

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll_dr(self, purpose: str) -> DR:
        return DR(self._random.randint(1, 6), self._random.randint(1, 6))

    def roll_die(self, purpose: str) -> DieRoll:
        return DieRoll(self._random.randint(1, 6))


class ManualDice:
    """Physical dice entered by the players, handed out in order.

    >>> dice = ManualDice([DR(2, 3)])
    >>> dice.roll_dr("to hit")
    DR.parse('2,3')
    """

    def __init__(self, rolls: Iterable[DR | DieRoll]) -> None:
        self._rolls = list(rolls)

    def _next(self, purpose: str) -> DR | DieRoll:
        if not self._rolls:
            raise BadInput("dice", "", f"no physical roll was entered for {purpose}")
        return self._rolls.pop(0)

    def roll_dr(self, purpose: str) -> DR:
        roll = self._next(purpose)
        if not isinstance(roll, DR):
            raise BadInput("dice", str(roll), f"{purpose} needs two dice (W,C)")
        return roll

    def roll_die(self, purpose: str) -> DieRoll:
        roll = self._next(purpose)
        if not isinstance(roll, DieRoll):
            raise BadInput("dice", str(roll), f"{purpose} needs one die")
        return roll
