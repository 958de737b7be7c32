"""A side's pool of Smoke or WP Shell counters, and the optional depletion roll.

Each side gets the counters its scenario gives, off board and tied to no vehicle (LNL.S-pool,
LNL.W-pool). Firing a shell spends one. Without a Depletion Number the counter is discarded;
with one (the optional rule, LNL.S-deplete and LNL.W-deplete) the active player rolls a die
once the fire procedure is resolved: below the number the counter is gone for good, otherwise
it goes back to the pool. No public source lists Depletion Numbers (reference/lnl.md 6.13), so
the scenario gives them; without one the optional rule is off.

>>> pool = Pool(2, depletion_number=4)
>>> spent = spend(pool, ShellKind.SMOKE, DieRoll(4))
>>> spent.removed, spent.left
(False, 2)
>>> spend(pool, ShellKind.SMOKE, DieRoll(3)).left
1
>>> spend(Pool(0), ShellKind.WP, None)
Traceback (most recent call last):
...
ordnance.core.errors.IllegalAction: refused by LnL 14.2.3 (LNL.W-pool): no WP Shell counter is ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ordnance.core.dice import DieRoll
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.rulings import Ruling
from ordnance.lnl.shell import ShellKind

# A Depletion Number is compared with one die: 1 never removes a counter, 7 always would.
DEPLETION_RANGE = range(1, 7)
MAX_COUNTERS = 99


@dataclass(frozen=True)
class Pool:
    """How many counters of one kind a side has left, and its Depletion Number (None: off)."""

    count: int
    depletion_number: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.count <= MAX_COUNTERS:
            raise BadInput("pool", str(self.count), f"a pool holds 0 to {MAX_COUNTERS} counters")
        if self.depletion_number is not None and self.depletion_number not in DEPLETION_RANGE:
            raise BadInput("Depletion Number", str(self.depletion_number), "1 to 6 (one die)")

    def require(self, kind: ShellKind) -> None:
        """Refuse a shot when the pool is empty."""
        if self.count < 1:
            raise IllegalAction(kind.pool_clause, f"no {kind.counter} counter is left in the pool")


@dataclass(frozen=True, kw_only=True)
class Spent(Ruling):
    """A counter spent: the depletion die (None when the optional rule is off), whether the
    counter is gone for good, and the pool before and after."""

    kind: ShellKind
    depletion_number: int | None
    die: int | None
    removed: bool
    before: int
    left: int

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "kind": str(self.kind)}


def spend(pool: Pool, kind: ShellKind, die: DieRoll | None) -> Spent:
    """Spend one counter; ``die`` is the depletion roll (needed exactly when the rule is on)."""
    pool.require(kind)
    number = pool.depletion_number
    if number is None:
        if die is not None:
            raise BadInput("die", str(die), "no Depletion Number: the counter is simply discarded")
        return Spent(
            clauses=(kind.pool_clause,),
            explanation=f"The {kind.counter} counter is spent and discarded"
            f" ({pool.count - 1} left).",
            kind=kind,
            depletion_number=None,
            die=None,
            removed=True,
            before=pool.count,
            left=pool.count - 1,
        )
    if die is None:
        raise BadInput("die", "", "the Depletion Number needs a die")
    removed = die.value < number
    left = pool.count - 1 if removed else pool.count
    verdict = (
        "below it: the counter is removed for good"
        if removed
        else "not below it: the counter goes back to the pool"
    )
    return Spent(
        clauses=(kind.pool_clause, kind.depletion_clause),
        explanation=f"Depletion: die {die} against Depletion Number {number}, {verdict}"
        f" ({left} left).",
        kind=kind,
        depletion_number=number,
        die=die.value,
        removed=removed,
        before=pool.count,
        left=left,
    )
