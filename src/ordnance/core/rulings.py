"""A ruling is a value: what happened, the numbers that produced it, and the rules that decided it.

Every procedure in a ruleset returns a subclass of :class:`Ruling`. The same value is printed by
the CLI, returned as JSON and (later) stored in the game log, so it must serialise losslessly.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ordnance.core.dice import DR, DieRoll


@dataclass(frozen=True)
class DRM:
    """A dice-roll modifier and why it applies.

    >>> DRM(+1, "AFV is buttoned up", "D13.3")
    DRM(value=1, reason='AFV is buttoned up', clause='D13.3')
    """

    value: int
    reason: str
    clause: str | None = None

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason}"


def total(drms: tuple[DRM, ...]) -> int:
    """The sum of some DRMs."""
    return sum(drm.value for drm in drms)


@dataclass(frozen=True, kw_only=True)
class Ruling:
    """Base of all rulings: the clause IDs that decided it and one plain sentence."""

    clauses: tuple[str, ...]
    explanation: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (tuples become lists, fractions strings)."""
        result = jsonable(self)
        assert isinstance(result, dict)
        return result


def jsonable(value: object) -> Any:
    """Convert rulings and the values inside them to plain JSON types.

    >>> jsonable({"p": Fraction(5, 36), "dice": DR(3, 4), "drms": (DRM(1, "BU"),)})
    {'p': '5/36', 'dice': {'white': 3, 'colored': 4, 'total': 7}, 'drms': [{...}]}
    """
    if isinstance(value, bool | int | str | float) or value is None:
        return value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, DR):
        return {"white": value.white, "colored": value.colored, "total": value.total}
    if isinstance(value, DieRoll):
        return value.value
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, tuple | list | frozenset | set):
        return [jsonable(v) for v in value]
    return str(value)
