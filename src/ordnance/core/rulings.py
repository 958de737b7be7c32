"""A ruling is a value: what happened, the numbers that produced it, and the rules that decided it.

Every procedure in a ruleset returns a subclass of :class:`Ruling`. The same value is printed by
the CLI, returned as JSON and (later) stored in the game log, so it must serialise losslessly.
A game command's ruling has one shape in every ruleset (:func:`command_ruling`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ordnance.core.dice import DR, DieRoll

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ordnance.core.ruleset import Command


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


def command_ruling(
    command: Command,
    clauses: Sequence[str],
    explanation: str,
    detail: Mapping[str, Any] | None = None,
    *,
    detail_last: bool = False,
) -> dict[str, Any]:
    """A game command's ruling as JSON: the command's text, its side, the ruleset's own fields
    (``detail``), the clauses in first-seen order (no repeats) and one explanation.

    ``detail_last`` puts the fields after the explanation (the order V&V's rulings have always
    been written in; a reader of the JSON finds the same keys either way).

    >>> from ordnance.core.ruleset import Command
    >>> command = Command("german", "fire", {}, "fire pak")
    >>> ruling = command_ruling(command, ["C8", "A3", "C8"], "Hit.", {"hex": "E5"})
    >>> ruling["command"], ruling["side"], ruling["clauses"], ruling["explanation"]
    ('fire pak', 'german', ['C8', 'A3'], 'Hit.')
    >>> list(ruling)
    ['command', 'side', 'hex', 'clauses', 'explanation']
    >>> list(command_ruling(command, ["C8"], "Hit.", {"hex": "E5"}, detail_last=True))
    ['command', 'side', 'clauses', 'explanation', 'hex']
    """
    head = {"command": command.text, "side": command.side}
    tail = {"clauses": list(dict.fromkeys(clauses)), "explanation": explanation}
    if not detail:
        return {**head, **tail}
    return {**head, **tail, **detail} if detail_last else {**head, **detail, **tail}


def jsonable(value: object) -> Any:
    """Convert rulings and the values inside them to plain JSON types.

    >>> jsonable({"p": Fraction(5, 36), "dice": DR(3, 4), "drms": (DRM(1, "BU"),)})
    {'p': '5/36', 'dice': {'white': 3, 'colored': 4, 'total': 7}, 'drms': [{...}]}
    """
    cls = type(value)
    if cls in SCALARS:
        return value
    how = _HOW.get(cls)
    if how is None:
        how = _how(cls)
    if how is _AS_IS:
        return value
    # Most fields and items are plain scalars: kept as they are without a call for each.
    if type(how) is tuple:  # a dataclass: its fields' names
        made = {}
        for name in how:
            field = getattr(value, name)
            made[name] = field if type(field) in SCALARS else jsonable(field)
        return made
    if how is _MAPPING:
        return {str(k): jsonable(v) for k, v in value.items()}  # type: ignore[attr-defined]
    if how is _ITEMS:
        return [v if type(v) in SCALARS else jsonable(v) for v in value]  # type: ignore[attr-defined]
    if how is _FRACTION:
        assert isinstance(value, Fraction)
        return f"{value.numerator}/{value.denominator}"
    if how is _DR:
        assert isinstance(value, DR)
        return {"white": value.white, "colored": value.colored, "total": value.total}
    if how is _DIE:
        assert isinstance(value, DieRoll)
        return value.value
    if how is _ENUM:
        assert isinstance(value, enum.Enum)
        return jsonable(value.value)
    return str(value)


# The exact types JSON holds as they are (their subclasses, such as a StrEnum, take the
# general path: an enum is written as its plain value).
SCALARS: frozenset[type] = frozenset({str, int, bool, float, type(None)})
# How jsonable writes a value of each type: which of its cases the type falls in is decided
# once per type (by the same isinstance tests, in the same order), not once per value.
_AS_IS, _FRACTION, _DR, _DIE, _ENUM, _MAPPING, _ITEMS, _TEXT = (
    "as is",
    "fraction",
    "DR",
    "die",
    "enum",
    "mapping",
    "items",
    "text",
)
_HOW: dict[type, str | tuple[str, ...]] = {}


def _how(cls: type) -> str | tuple[str, ...]:
    how: str | tuple[str, ...]
    if issubclass(cls, enum.Enum):
        how = _ENUM  # a str or int enum too: its plain value, as a reader of the JSON gets it
    elif issubclass(cls, bool | int | str | float) or cls is type(None):
        how = _AS_IS
    elif issubclass(cls, Fraction):
        how = _FRACTION
    elif issubclass(cls, DR):
        how = _DR
    elif issubclass(cls, DieRoll):
        how = _DIE
    elif dataclasses.is_dataclass(cls) and not issubclass(cls, type):
        how = tuple(f.name for f in dataclasses.fields(cls))
    elif issubclass(cls, Mapping):
        how = _MAPPING
    elif issubclass(cls, tuple | list | frozenset | set):
        how = _ITEMS
    else:
        how = _TEXT
    _HOW[cls] = how
    return how
