"""Checks for the fields of a scenario file, each fault a :class:`BadInput` naming its key.

Every ruleset reads its own scenario keys, but the primitive checks (a whole number in a range,
a mapping of names, no unknown keys, ...) and their wording are the same for all of them: a
player who mistypes a key gets the same sentence whatever the game. Each ruleset keeps its own
key sets and vocabulary and calls these with them.

``where`` is the dotted path of the key (``sides.german.units.pak.size``); it becomes the
fault's ``text``, and ``"scenario"`` its ``what``.

>>> whole(3, "turns", 1, 50)
3
>>> whole(0, "turns", 1, 50)
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario 'turns': expected a whole number from 1 to 50
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Mapping
from typing import Any, TypeVar

from ordnance.core.errors import BadInput

T = TypeVar("T")

# Names a scenario gives its sides and units; the log and the commands quote them as words.
SIDE_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
UNIT_ID = re.compile(r"[A-Za-z][A-Za-z0-9_.#-]{0,31}")


def fault(where: str, problem: str) -> BadInput:
    """The fault for the scenario key ``where`` (to raise).

    >>> fault("first", "names no side").problem
    'names no side'
    """
    return BadInput("scenario", where, problem)


def text(value: object, where: str, *, numbers: bool = False) -> str:
    """``value`` as non-blank text, stripped; with ``numbers``, a bare YAML number counts too.

    >>> text("  pak ", "name"), text(12, "name", numbers=True)
    ('pak', '12')
    >>> text(12, "name")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad scenario 'name': expected text
    """
    # bool is an int to Python, but ``yes`` is never a name.
    allowed = (str, int) if numbers else (str,)
    if isinstance(value, bool) or not isinstance(value, allowed) or not str(value).strip():
        raise fault(where, "expected text")
    return str(value).strip()


def flag(value: object, where: str) -> bool:
    """``value`` as true or false (never a number or a word standing for one).

    >>> flag(True, "elite")
    True
    >>> flag("yes", "elite")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad scenario 'elite': expected true or false
    """
    if not isinstance(value, bool):
        raise fault(where, "expected true or false")
    return value


def whole(value: object, where: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (a bool is not one).

    >>> whole(50, "turns", 1, 50)
    50
    >>> whole(True, "turns", 1, 50)
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad scenario 'turns': expected a whole number from 1 to 50
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fault(where, f"expected a whole number from {low} to {high}")
    return value


def mapping(value: object, where: str) -> Mapping[str, Any]:
    """``value`` as a mapping whose keys are all names (text).

    >>> dict(mapping({"german": {}}, "sides"))
    {'german': {}}
    >>> mapping([1, 2], "sides")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad scenario 'sides': expected a mapping of names to values
    """
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise fault(where, "expected a mapping of names to values")
    return value


def known(data: Mapping[str, Any], keys: frozenset[str], where: str) -> None:
    """Refuse the first (in sorted order) key of ``data`` that is not in ``keys``.

    >>> known({"name": "x"}, frozenset({"name", "kind"}), "unit")
    >>> known({"nmae": "x"}, frozenset({"name", "kind"}), "unit")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad scenario 'unit.nmae': unknown key; known: kind, name
    """
    unknown = sorted(set(data) - keys)
    if unknown:
        raise fault(f"{where}.{unknown[0]}", f"unknown key; known: {', '.join(sorted(keys))}")


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


def side_name(side: str, where: str) -> None:
    """Refuse a side's name that is not a short lower-case word (it names a token and a seat).

    >>> side_name("german", "sides.german")
    >>> try:
    ...     side_name("Germans!", "sides.Germans!")
    ... except BadInput as error:
    ...     print(error.problem)
    a side's name is a lower-case word (letters, digits, '-')
    """
    if not SIDE_NAME.fullmatch(side):
        raise fault(where, "a side's name is a lower-case word (letters, digits, '-')")


def unit_id(unit: str, where: str, taken: Container[str]) -> None:
    """Refuse a unit id that is not a short word, or that another unit (of either side) took.

    >>> unit_id("pak", "sides.german.units.pak", {"t34"})
    >>> try:
    ...     unit_id("t34", "sides.german.units.t34", {"t34"})
    ... except BadInput as error:
    ...     print(error.problem)
    unit ids must be unique across both sides
    """
    if not UNIT_ID.fullmatch(unit):
        raise fault(where, "a unit id is a short word (letters, digits, _.#-)")
    if unit in taken:
        raise fault(where, "unit ids must be unique across both sides")
