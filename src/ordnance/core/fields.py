"""What a ruleset checks in a scenario beyond its JSON Schema, each fault a :class:`BadInput`.

Keys, types, ranges, names and patterns are the schema's (:mod:`ordnance.core.scenario_schema`
checks them first). What is left for code is the library's own parsers (a date, a notation, a
hex on the map) and references between values (a unit id used by both sides); these helpers word
those faults the same way for every game.

``where`` is the dotted path of the key (``sides.german.units.pak.size``); it becomes the
fault's ``text``, and ``"scenario"`` its ``what``.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any, TypeVar

from ordnance.core.errors import BadInput

T = TypeVar("T")


def fault(where: str, problem: str) -> BadInput:
    """The fault for the scenario key ``where`` (to raise).

    >>> fault("first", "names no side").problem
    'names no side'
    """
    return BadInput("scenario", where, problem)


def checked(where: str, read: Callable[[Any], T], value: Any) -> T:
    """Run one of the library's parsers on ``value``, reporting its complaint at ``where``.

    The parser's own :class:`BadInput` names what it read but not where in the file it stood.

    >>> checked("turns", int, "3")
    3
    >>> def parse(value):
    ...     raise BadInput("date", value, "expected YYYY-MM")
    >>> checked("date", parse, "1945")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad scenario 'date': '1945': expected YYYY-MM
    """
    try:
        return read(value)
    except BadInput as error:
        raise fault(where, f"{error.text!r}: {error.problem}") from None


def unique(unit: str, where: str, taken: Container[str]) -> None:
    """Refuse a unit id that another unit (of either side) took.

    >>> unique("pak", "sides.german.units.pak", {"t34"})
    >>> try:
    ...     unique("t34", "sides.german.units.t34", {"t34"})
    ... except BadInput as error:
    ...     print(error.problem)
    unit ids must be unique across both sides
    """
    if unit in taken:
        raise fault(where, "unit ids must be unique across both sides")
