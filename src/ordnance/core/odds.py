"""Exact odds: finite probability distributions with :class:`fractions.Fraction` weights.

A procedure's odds are built the way the procedure runs: start from the dice, then map each roll
to what the rules make of it, binding further stages (another roll, a choice) where the procedure
has them. Nothing is sampled; every probability is exact.

>>> two = Distribution.dr().map(lambda roll: roll.total)
>>> two[7]
Fraction(1, 6)
>>> two.probability(lambda total: total <= 4)
Fraction(1, 6)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Generic, TypeVar

from ordnance.core.dice import DR, DieRoll

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


@dataclass(frozen=True)
class OutcomeOdds:
    """One row of an odds table."""

    outcome: str
    probability: Fraction

    @property
    def percent(self) -> float:
        return float(self.probability * 100)

    def to_json(self) -> dict[str, object]:
        p = self.probability
        return {
            "outcome": self.outcome,
            "probability": f"{p.numerator}/{p.denominator}",
            "percent": self.percent,
        }


class Distribution(Generic[T]):
    """A probability distribution over hashable outcomes, exact to the last fraction.

    Outcomes keep the order in which they first appear, so tables read in the order of the
    procedure (for a DR: from 2 upwards).
    """

    __slots__ = ("_weights",)

    def __init__(self, weights: Mapping[T, Fraction]) -> None:
        cleaned = {outcome: Fraction(p) for outcome, p in weights.items() if p != 0}
        if any(p < 0 for p in cleaned.values()):
            raise ValueError("a probability cannot be negative")
        if sum(cleaned.values(), Fraction(0)) != 1:
            raise ValueError("probabilities must add up to exactly 1")
        self._weights: dict[T, Fraction] = cleaned

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        """Each listed outcome equally likely (repeats add up)."""
        listed = list(outcomes)
        share = Fraction(1, len(listed))
        weights: dict[T, Fraction] = {}
        for outcome in listed:
            weights[outcome] = weights.get(outcome, Fraction(0)) + share
        return cls(weights)

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        return cls({outcome: Fraction(1)})

    @staticmethod
    @cache
    def dr() -> Distribution[DR]:
        """The 36 ordered outcomes of a DR, each 1/36 (built once: distributions are immutable)."""
        return Distribution.uniform(DR.all())

    @staticmethod
    @cache
    def die() -> Distribution[DieRoll]:
        """The six outcomes of a dr, each 1/6."""
        return Distribution.uniform(DieRoll.all())

    def map(self, function: Callable[[T], U]) -> Distribution[U]:
        """What becomes of each outcome under a deterministic rule."""
        weights: dict[U, Fraction] = {}
        for outcome, p in self._weights.items():
            key = function(outcome)
            weights[key] = weights.get(key, Fraction(0)) + p
        return Distribution(weights)

    def bind(self, stage: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Compose a further chance stage that depends on this outcome."""
        weights: dict[U, Fraction] = {}
        for outcome, p in self._weights.items():
            for inner, q in stage(outcome).items():
                weights[inner] = weights.get(inner, Fraction(0)) + p * q
        return Distribution(weights)

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        """The chance that the outcome satisfies ``predicate``."""
        return sum((p for o, p in self._weights.items() if predicate(o)), Fraction(0))

    def expectation(self, value: Callable[[T], Fraction | int]) -> Fraction:
        return sum((p * Fraction(value(o)) for o, p in self._weights.items()), Fraction(0))

    def at_least(self, threshold: int) -> Fraction:
        """For whole-number outcomes: the chance of ``threshold`` or more ("2 or more CP").

        >>> Distribution.dr().map(lambda roll: roll.total).at_least(11)
        Fraction(1, 12)
        """
        return self.probability(lambda o: isinstance(o, int) and o >= threshold)

    def __getitem__(self, outcome: T) -> Fraction:
        return self._weights.get(outcome, Fraction(0))

    def __iter__(self) -> Iterator[T]:
        return iter(self._weights)

    def __len__(self) -> int:
        return len(self._weights)

    def items(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self._weights.items())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Distribution) and self._weights == other._weights

    def __hash__(self) -> int:
        return hash(frozenset(self._weights.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {p}" for o, p in self._weights.items())
        return f"Distribution({{{inner}}})"

    def table(self, order: Iterable[T] | None = None) -> list[OutcomeOdds]:
        """Rows for display and JSON: each outcome's text, fraction and percent.

        ``order`` lists outcomes in the wanted order; unlisted ones follow in their own order,
        and listed ones that cannot happen are left out.
        """
        keys = [o for o in (order or ()) if o in self._weights]
        keys += [o for o in self._weights if o not in keys]
        return [OutcomeOdds(str(o), self._weights[o]) for o in keys]
