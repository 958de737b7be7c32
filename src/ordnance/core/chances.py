"""Exact odds of any command, by walking the tree of the dice its resolution rolls (SYS.odds).

A ruleset rolls only through a :class:`~ordnance.core.dice.DiceSource`, so the full distribution
of a command's outcomes can be had without knowing its procedure: resolve it with dice that
replay a given prefix of faces, and at each roll past the prefix take one face and note the
others as branches still to walk. Every run of ``resolve`` is one leaf (a full resolution) with
its exact probability; the leaves are grouped by the outcome words the ruleset reads off each
:class:`~ordnance.core.ruleset.Resolution` (never off its dice faces, so that leaves group).

A roll may be walked coarser than face by face: ``classes(kind, purpose)`` may give the
classes of faces the procedure cannot tell apart, each as one representative face and how many
faces it stands for (a WP check that keeps the higher die: six classes of a DR, not 36). One
class means the roll changes nothing the outcome reads: it is fed without branching.

Cost: one run of ``resolve`` per leaf, and no more (the first face of every new roll is taken
at once, so a run never stops to be restarted). Past :data:`MAX_LEAVES` the walk stops with
:class:`TooManyOutcomes` rather than run for minutes.

A To Hit DR of 7 or less, then a depletion dr that keeps the round on 3 or more:

>>> from ordnance.core.ruleset import Command, Resolution
>>> def fire(state, command, dice):
...     hit = dice.roll_dr("To Hit DR").total <= 7
...     kept = dice.roll_die("depletion dr").value >= 3
...     words = f"{'hit' if hit else 'miss'}; {'kept' if kept else 'gone'}"
...     return Resolution((), {"words": words})
>>> odds = chance_outcomes(fire, None, Command("german", "fire"), lambda r: r.ruling["words"])
>>> odds["hit; kept"], odds["miss; gone"], sum(odds.fractions().values())
(Fraction(7, 18), Fraction(5, 36), Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from ordnance.core.dice import DR, DiceSource, DieRoll
from ordnance.core.errors import BadInput, OrdnanceError
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, Resolution, RollKind

OutcomeT = TypeVar("OutcomeT", bound=Hashable)

Face = DR | DieRoll
# The classes one roll is walked in: (representative face, how many faces it stands for).
Classes = Sequence[tuple[Face, int]]
ClassesOf = Callable[[RollKind, str], Classes | None]

# Full resolutions one preview may run. A preview must answer in well under a second; at the
# slowest resolution measured (an LnLT shell, ~0.75 ms with its LOS) this is ~3 s of work, so
# a walk that would go past it is refused before it gets there (TooManyOutcomes).
MAX_LEAVES = 4096

_TOTALS: dict[RollKind, int] = {"DR": 36, "dr": 6}
_EVERY: dict[RollKind, Classes] = {
    "DR": tuple((roll, 1) for roll in DR.all()),
    "dr": tuple((roll, 1) for roll in DieRoll.all()),
}


class TooManyOutcomes(OrdnanceError):
    """The command's dice tree has more leaves than a preview may walk.

    >>> str(TooManyOutcomes("fire pak", 4096))
    "the odds of 'fire pak' would take more than 4096 resolutions to work out; not shown"
    """

    def __init__(self, command: str, limit: int) -> None:
        super().__init__(command, limit)
        self.command = command
        self.limit = limit

    def __str__(self) -> str:
        return (
            f"the odds of {self.command!r} would take more than {self.limit} resolutions to"
            " work out; not shown"
        )


def every_face(kind: RollKind) -> Classes:
    """Each face of a roll of ``kind`` as its own class (the default)."""
    return _EVERY[kind]


def unread(kind: RollKind) -> Classes:
    """A roll whose faces the outcome never reads and nothing after it depends on: one class
    standing for every face, fed without branching.

    >>> [(str(face), n) for face, n in unread("DR")]
    [('1,1', 36)]
    """
    return _UNREAD[kind]


_UNREAD: dict[RollKind, Classes] = {"DR": ((DR(1, 1), 36),), "dr": ((DieRoll(1), 6),)}


def by_higher_die() -> Classes:
    """A DR read only by its higher die: six classes, (1,1) for 1 up to (6,1) for 6.

    >>> [(str(face), n) for face, n in by_higher_die()][:3]
    [('1,1', 1), ('2,1', 3), ('3,1', 5)]
    """
    return _HIGHER


_HIGHER: Classes = tuple((DR(high, 1), 2 * high - 1) for high in range(1, 7))


def by_total_and_doubles() -> Classes:
    """A DR read only by its total and whether it is a double: 16 classes, each represented
    by its lowest white die.

    >>> [(str(face), n) for face, n in by_total_and_doubles()][:4]
    [('1,1', 1), ('1,2', 2), ('1,3', 2), ('2,2', 1)]
    """
    return _TOTAL_DOUBLES


def _total_doubles() -> Classes:
    found: dict[tuple[int, bool], list[DR]] = {}
    for roll in DR.all():
        found.setdefault((roll.total, roll.is_doubles), []).append(roll)
    return tuple((rolls[0], len(rolls)) for _, rolls in sorted(found.items()))


_TOTAL_DOUBLES: Classes = _total_doubles()


class _Walked(Exception):
    """Raised when a replay finds a roll of another kind than the one walked at its place."""


class _Replay:
    """Dice that hand out ``prefix`` and then, at each new roll, the first class of it,
    noting the roll so the walk can branch on its other classes."""

    def __init__(self, prefix: tuple[Face, ...], classes: ClassesOf | None) -> None:
        self._prefix = prefix
        self._classes = classes
        self._index = 0
        self.new: list[tuple[Classes, int]] = []  # each new roll: its classes and their total
        self.rolled = False

    def _next(self, kind: RollKind, purpose: str) -> Face:
        self.rolled = True
        index = self._index
        self._index += 1
        if index < len(self._prefix):
            face = self._prefix[index]
            if isinstance(face, DR) != (kind == "DR"):
                raise _Walked(f"roll {index} ({purpose}) is a {kind} now, not before")
            return face
        found = None if self._classes is None else self._classes(kind, purpose)
        classes = every_face(kind) if found is None else found
        self.new.append((classes, _TOTALS[kind]))
        return classes[0][0]

    def roll_dr(self, purpose: str) -> DR:
        face = self._next("DR", purpose)
        assert isinstance(face, DR)
        return face

    def roll_die(self, purpose: str) -> DieRoll:
        face = self._next("dr", purpose)
        assert isinstance(face, DieRoll)
        return face


def chance_outcomes(
    resolve: Callable[[Any, Command, DiceSource], Resolution],
    state: Any,
    command: Command,
    outcome: Callable[[Resolution], OutcomeT],
    *,
    classes: ClassesOf | None = None,
    limit: int = MAX_LEAVES,
) -> Distribution[OutcomeT]:
    """Every outcome of ``command`` in ``state`` with its exact probability.

    ``outcome`` reads a resolution's words (a pure function of its ruling and events);
    ``classes`` may walk a roll coarser (see the module docstring). A command the rules refuse
    raises the error ``resolve`` raises; one that rolls nothing raises :class:`BadInput`
    (nothing to give odds for); past ``limit`` leaves, :class:`TooManyOutcomes`.

    >>> from ordnance.core.ruleset import Command, Resolution
    >>> def still(state, command, dice):
    ...     return Resolution((), {})
    >>> chance_outcomes(still, None, Command("german", "phase", {}, "phase next"), str)
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad command 'phase next': it rolls no dice, so it has no odds
    """
    weights: dict[OutcomeT, Fraction] = {}
    stack: list[tuple[tuple[Face, ...], Fraction]] = [((), Fraction(1))]
    leaves = 0
    while stack:
        prefix, chance = stack.pop()
        leaves += 1
        if leaves > limit:
            raise TooManyOutcomes(command.text or command.verb, limit)
        dice = _Replay(prefix, classes)
        try:
            done = resolve(state, command, dice)
        except _Walked as error:
            raise RuntimeError(f"{command.text}: resolve is not deterministic: {error}") from None
        if not dice.rolled:
            raise BadInput("command", command.text, "it rolls no dice, so it has no odds")
        # The run took the first class of each new roll: its leaf, and a branch for each other.
        branches: list[tuple[tuple[Face, ...], Fraction]] = []
        taken = prefix
        for rolled, total in dice.new:
            for face, count in rolled[1:]:
                branches.append(((*taken, face), chance * Fraction(count, total)))
            first, count = rolled[0]
            chance *= Fraction(count, total)
            taken = (*taken, first)
        key = outcome(done)
        weights[key] = weights.get(key, Fraction(0)) + chance
        stack.extend(reversed(branches))
    return Distribution(weights)
