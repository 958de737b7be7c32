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
from math import gcd, lcm
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


# Every k/36 and k/6, made once: reading odds over one or two dice then makes no new Fraction.
_SHARED = {
    (count, total): Fraction(count, total) for total in (6, 36) for count in range(total + 1)
}


def _fraction(count: int, total: int) -> Fraction:
    """``Fraction(count, total)``, shared for the common totals (Fractions are immutable)."""
    shared = _SHARED.get((count, total))
    return Fraction(count, total) if shared is None else shared


class Distribution(Generic[T]):
    """A probability distribution over hashable outcomes, exact to the last fraction.

    Outcomes keep the order in which they first appear, so tables read in the order of the
    procedure (for a DR: from 2 upwards).

    Weights are kept as integer counts over one common total (36 for a DR, 6 for a dr, their
    products for composed stages): composing and summing stays in machine integers, and a
    :class:`~fractions.Fraction` is made only when a probability is read out.

    >>> Distribution.from_counts({"hit": 15, "miss": 21}, 36)["hit"]
    Fraction(5, 12)
    """

    # ``_read``: the fractions, made on first read (a distribution never changes; many cells of
    # an odds table share one).
    __slots__ = ("_counts", "_read", "_total")
    _read: dict[T, Fraction]

    def __init__(self, weights: Mapping[T, Fraction]) -> None:
        cleaned = {outcome: Fraction(p) for outcome, p in weights.items() if p != 0}
        if any(p < 0 for p in cleaned.values()):
            raise ValueError("a probability cannot be negative")
        if sum(cleaned.values(), Fraction(0)) != 1:
            raise ValueError("probabilities must add up to exactly 1")
        total = lcm(*(p.denominator for p in cleaned.values()))
        self._counts: dict[T, int] = {
            outcome: p.numerator * (total // p.denominator) for outcome, p in cleaned.items()
        }
        self._total: int = total

    @classmethod
    def from_counts(cls, counts: Mapping[T, int], total: int) -> Distribution[T]:
        """Outcomes counted over ``total`` equally likely cases (zero counts are left out).

        >>> Distribution.from_counts({"a": 1}, 2)
        Traceback (most recent call last):
        ...
        ValueError: probabilities must add up to exactly 1
        """
        cleaned = {outcome: n for outcome, n in counts.items() if n}
        if any(n < 0 for n in cleaned.values()):
            raise ValueError("a probability cannot be negative")
        if total <= 0 or sum(cleaned.values()) != total:
            raise ValueError("probabilities must add up to exactly 1")
        return cls.trusted_counts(cleaned, total)

    @classmethod
    def trusted_counts(cls, counts: dict[T, int], total: int) -> Distribution[T]:
        """Wrap counts known by construction to be positive and to add up to ``total``.

        The fast path for procedures that count rolls themselves; the dict is kept, not copied.
        """
        made = cls.__new__(cls)
        made._counts = counts
        made._total = total
        return made

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        """Each listed outcome equally likely (repeats add up)."""
        counts: dict[T, int] = {}
        for outcome in outcomes:
            counts[outcome] = counts.get(outcome, 0) + 1
        if not counts:
            raise ValueError("a distribution needs at least one outcome")
        return cls.trusted_counts(counts, sum(counts.values()))

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        return cls.trusted_counts({outcome: 1}, 1)

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

    @property
    def total(self) -> int:
        """The number of equally likely cases the counts are over (not always in lowest terms)."""
        return self._total

    def count(self, outcome: T) -> int:
        """How many of the :attr:`total` cases give ``outcome``."""
        return self._counts.get(outcome, 0)

    def map(self, function: Callable[[T], U]) -> Distribution[U]:
        """What becomes of each outcome under a deterministic rule."""
        counts: dict[U, int] = {}
        for outcome, n in self._counts.items():
            key = function(outcome)
            counts[key] = counts.get(key, 0) + n
        return Distribution.trusted_counts(counts, self._total)

    def bind(self, stage: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Compose a further chance stage that depends on this outcome."""
        stages = [(n, stage(outcome)) for outcome, n in self._counts.items()]
        # Every branch is brought to one common total for the second stage.
        inner_total = lcm(*(inner._total for _, inner in stages))
        counts: dict[U, int] = {}
        for n, inner in stages:
            scale = n * (inner_total // inner._total)
            for outcome, m in inner._counts.items():
                counts[outcome] = counts.get(outcome, 0) + scale * m
        total = self._total * inner_total
        common = gcd(total, *counts.values())
        if common > 1:
            counts = {outcome: m // common for outcome, m in counts.items()}
            total //= common
        return Distribution.trusted_counts(counts, total)

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        """The chance that the outcome satisfies ``predicate``."""
        return _fraction(sum(n for o, n in self._counts.items() if predicate(o)), self._total)

    def expectation(self, value: Callable[[T], Fraction | int]) -> Fraction:
        return sum((n * Fraction(value(o)) for o, n in self._counts.items()), Fraction(0)) / (
            self._total
        )

    def at_least(self, threshold: int) -> Fraction:
        """For whole-number outcomes: the chance of ``threshold`` or more ("2 or more CP").

        >>> Distribution.dr().map(lambda roll: roll.total).at_least(11)
        Fraction(1, 12)
        """
        return self.probability(lambda o: isinstance(o, int) and o >= threshold)

    def __getitem__(self, outcome: T) -> Fraction:
        return _fraction(self._counts.get(outcome, 0), self._total)

    def __iter__(self) -> Iterator[T]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def items(self) -> Iterator[tuple[T, Fraction]]:
        total = self._total
        return ((o, _fraction(n, total)) for o, n in self._counts.items())

    def fractions(self) -> dict[T, Fraction]:
        """Every outcome's probability as a fraction, in the distribution's order."""
        read: dict[T, Fraction]
        try:
            read = self._read
        except AttributeError:
            total = self._total
            read = self._read = {o: _fraction(n, total) for o, n in self._counts.items()}
        return dict(read)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return False
        # Same outcomes, same probabilities: compare counts cross-multiplied by the totals.
        mine, theirs = self._counts, other._counts
        return mine.keys() == theirs.keys() and all(
            n * other._total == theirs[o] * self._total for o, n in mine.items()
        )

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {p}" for o, p in self.items())
        return f"Distribution({{{inner}}})"

    def table(self, order: Iterable[T] | None = None) -> list[OutcomeOdds]:
        """Rows for display and JSON: each outcome's text, fraction and percent.

        ``order`` lists outcomes in the wanted order; unlisted ones follow in their own order,
        and listed ones that cannot happen are left out.
        """
        keys = [o for o in (order or ()) if o in self._counts]
        keys += [o for o in self._counts if o not in keys]
        return [OutcomeOdds(str(o), self[o]) for o in keys]
