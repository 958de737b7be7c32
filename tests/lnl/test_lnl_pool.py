"""Side pools of Smoke and WP Shell counters and the optional depletion roll (LNL.S-pool,
LNL.W-pool, LNL.S-deplete, LNL.W-deplete)."""

from __future__ import annotations

import pytest

from ordnance.core.dice import DieRoll
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.lnl.pool import Pool, spend
from ordnance.lnl.shell import ShellKind


@pytest.mark.clause("LNL.S-pool", "LNL.W-pool")
@pytest.mark.parametrize("kind", list(ShellKind))
def test_without_a_depletion_number_a_spent_counter_is_discarded(kind):
    spent = spend(Pool(2), kind, None)
    assert (spent.before, spent.left, spent.removed, spent.die) == (2, 1, True, None)
    assert spent.clauses == (kind.pool_clause,)
    with pytest.raises(IllegalAction) as refusal:
        spend(Pool(0), kind, None)
    assert refusal.value.clause == kind.pool_clause
    assert "no" in str(refusal.value) and "left in the pool" in str(refusal.value)


@pytest.mark.clause("LNL.S-deplete", "LNL.W-deplete")
@pytest.mark.parametrize("kind", list(ShellKind))
@pytest.mark.parametrize(("die", "removed"), [(1, True), (3, True), (4, False), (6, False)])
def test_a_die_below_the_depletion_number_removes_the_counter_for_good(kind, die, removed):
    spent = spend(Pool(3, depletion_number=4), kind, DieRoll(die))
    assert (spent.removed, spent.left) == (removed, 2 if removed else 3)
    assert spent.clauses == (kind.pool_clause, kind.depletion_clause)
    assert ("removed for good" if removed else "goes back to the pool") in spent.explanation


@pytest.mark.clause("LNL.S-deplete")
def test_the_depletion_die_is_needed_exactly_when_the_rule_is_on():
    with pytest.raises(BadInput):
        spend(Pool(1, depletion_number=4), ShellKind.SMOKE, None)
    with pytest.raises(BadInput):
        spend(Pool(1), ShellKind.SMOKE, DieRoll(3))
    never = spend(Pool(1, depletion_number=1), ShellKind.SMOKE, DieRoll(1))
    assert not never.removed  # nothing is below 1


@pytest.mark.clause("LNL.S-pool")
def test_a_pool_holds_a_sensible_count_and_number():
    with pytest.raises(BadInput):
        Pool(-1)
    with pytest.raises(BadInput):
        Pool(1, depletion_number=7)
