"""Rulings serialise losslessly; errors say what and where (SYS.cite)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.rulings import DRM, Ruling, total


@dataclass(frozen=True, kw_only=True)
class _Example(Ruling):
    outcome: str
    dice: DR
    drms: tuple[DRM, ...]
    chance: Fraction


@pytest.mark.clause("SYS.cite")
def test_a_ruling_serialises_every_field():
    ruling = _Example(
        clauses=("C8.9-lt",),
        explanation="Used.",
        outcome="used",
        dice=DR(2, 3),
        drms=(DRM(1, "BU", "D13.3"), DRM(-2, "hindrance")),
        chance=Fraction(5, 36),
    )
    assert ruling.to_json() == {
        "clauses": ["C8.9-lt"],
        "explanation": "Used.",
        "outcome": "used",
        "dice": {"white": 2, "colored": 3, "total": 5},
        "drms": [
            {"value": 1, "reason": "BU", "clause": "D13.3"},
            {"value": -2, "reason": "hindrance", "clause": None},
        ],
        "chance": "5/36",
    }
    assert total(ruling.drms) == -1
    assert str(ruling.drms[0]) == "+1 BU"


@pytest.mark.clause("SYS.cite")
def test_illegal_action_names_its_clause():
    error = IllegalAction("C8.52", "no SMOKE in the firer's own hex")
    assert error.clause == "C8.52"
    assert str(error) == "refused by C8.52: no SMOKE in the firer's own hex"


def test_bad_input_points_at_the_fault():
    error = BadInput("notation", "A5(4", "expected ')'", 4)
    assert (error.what, error.text, error.position) == ("notation", "A5(4", 4)
    assert str(error) == "bad notation 'A5(4' at position 4: expected ')'"
    assert isinstance(error, ValueError)
