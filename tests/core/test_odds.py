"""Exact odds: distributions over enumerated outcomes, composed in stages (SYS.odds)."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from ordnance.core.dice import DR
from ordnance.core.odds import Distribution


@pytest.mark.clause("SYS.odds")
def test_dr_totals_agree_with_icepool():
    totals = Distribution.dr().map(lambda roll: roll.total)
    oracle = icepool.d6 + icepool.d6
    for total in range(2, 13):
        assert totals[total] == Fraction(oracle.quantity(total), oracle.denominator())


@pytest.mark.clause("SYS.odds")
def test_bind_composes_a_second_roll():
    # Two dr in a row, keep the higher: an exact stage composition, checked against icepool.
    both = Distribution.die().bind(
        lambda a: Distribution.die().map(lambda b: max(a.value, b.value))
    )
    oracle = icepool.highest(icepool.d6, icepool.d6)
    for k in range(1, 7):
        assert (
            both[k] == Fraction(oracle.quantity(k), oracle.denominator()) == Fraction(2 * k - 1, 36)
        )


def test_probabilities_must_sum_to_one_and_be_non_negative():
    with pytest.raises(ValueError, match="add up"):
        Distribution({"a": Fraction(1, 2)})
    with pytest.raises(ValueError, match="negative"):
        Distribution({"a": Fraction(3, 2), "b": Fraction(-1, 2)})


def test_table_orders_rows_and_formats_fractions():
    totals = Distribution.dr().map(lambda roll: "low" if roll.total <= 6 else "high")
    rows = totals.table(order=["high", "low", "never"])
    assert [row.outcome for row in rows] == ["high", "low"]
    assert rows[0].to_json() == {"outcome": "high", "probability": "7/12", "percent": 700 / 12}


def test_probability_and_expectation():
    dist = Distribution.dr()
    assert dist.probability(lambda r: r.is_doubles) == Fraction(1, 6)
    assert dist.expectation(lambda r: r.total) == 7
    assert dist[DR(1, 1)] == Fraction(1, 36)
    assert len(dist) == 36
