"""Settings: the readings a game takes where its rules are silent, documented and overridable.

Each game declares its readings as the fields of one frozen dataclass that derives from
:class:`GameSettings`, each made with :func:`setting` (default, provenance tag, rule, why, and
what values it takes); the base reads the text a player or a scenario gives
(:meth:`GameSettings.override`), writes them as JSON and lists them (``settings``).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo(GameSettings):
...     reach: int = setting(3, "[default]", "R1", "How far.", bounds=(1, 6))
...     rounding: str = setting("down", "[inferred]", "R2", "Which way.", choices=("down", "up"))
>>> Demo().override({"reach": " 5 ", "rounding": "UP"})
Demo(reach=5, rounding='up')
>>> Demo().override({"reach": "9"})
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad setting 'reach=9': expected a whole number from 1 to 6
>>> Demo().override({"far": "1"})
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad setting 'far': unknown setting; known: reach, rounding
>>> [(row["name"], row["default"], row["choices"]) for row in Demo.describe()]
[('reach', 3, []), ('rounding', 'down', ['down', 'up'])]
>>> Demo.scenario_values({"reach": 2, "rounding": "up"})
{'reach': '2', 'rounding': 'up'}
>>> Demo.scenario_values({"reach": 0})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario 'settings': 'reach=0': expected a whole number...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Self

from ordnance.core import fields
from ordnance.core.errors import BadInput
from ordnance.core.limits import whole_number

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def setting(
    default: Any,
    tag: str,
    rule: str,
    doc: str,
    *,
    choices: tuple[str, ...] = (),
    bounds: tuple[int, int] | None = None,
    read: Callable[[str], Any] | None = None,
) -> Any:
    """One reading: its ``default``, provenance ``tag`` (reference/ fact sheets), the ``rule``
    it concerns and ``doc``, why it is open and what the other reading does.

    What a text may say: a bool ``true``/``false`` (``yes``/``no``, ``on``/``off``, 1/0); a
    whole number or a fraction within ``bounds`` (both required for those); a text one of
    ``choices`` (any case), or anything ``read`` accepts (it returns the value or raises
    :class:`~ordnance.core.errors.BadInput`).
    """
    metadata = {"tag": tag, "rule": rule, "doc": doc, "choices": choices, "bounds": bounds}
    return dataclasses.field(default=default, metadata={**metadata, "read": read})


class GameSettings:
    """The machinery of a game's settings dataclass (frozen, every field a :func:`setting`)."""

    def override(self, values: Mapping[str, object]) -> Self:
        """A copy with some settings changed, from their text forms."""
        known = {f.name: f for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        changes: dict[str, Any] = {}
        for name, text in values.items():
            if name not in known:
                raise BadInput(
                    "setting", name, "unknown setting; known: " + ", ".join(sorted(known))
                )
            kind = type(getattr(self, name))
            changes[name] = _convert(name, str(text), kind, known[name].metadata)
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    @classmethod
    def scenario_values(cls, raw: Mapping[str, object] | None) -> dict[str, str]:
        """A scenario's ``settings:`` as the texts :meth:`override` reads (a YAML ``true`` as
        ``true``), each checked now; a bad one is the scenario's fault at ``settings``.

        The scenario JSON keeps these texts, so a replay reads them as the game did.
        """
        values = {
            name: str(value).lower() if isinstance(value, bool) else str(value)
            for name, value in (raw or {}).items()
        }
        fields.checked("settings", cls().override, values)
        return values

    def to_json(self) -> dict[str, Any]:
        """Every setting's value as JSON (a fraction as its text, ``3/2``)."""
        return {
            f.name: _json(getattr(self, f.name))
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
        }

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Every setting with its default, provenance tag, rule, choices and explanation."""
        defaults = cls().to_json()
        return [
            {
                "name": f.name,
                "default": defaults[f.name],
                "tag": f.metadata["tag"],
                "rule": f.metadata["rule"],
                "choices": list(f.metadata["choices"]),
                "doc": f.metadata["doc"],
            }
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        ]

    def rows(self) -> list[dict[str, Any]]:
        """:meth:`describe` with each setting's ``value`` here (what ``settings`` prints)."""
        current = self.to_json()
        return [{**row, "value": current[row["name"]]} for row in self.describe()]


def _json(value: object) -> object:
    return str(value) if isinstance(value, Fraction) else value


def _convert(name: str, text: str, kind: type, meta: Mapping[str, Any]) -> Any:
    whole, value = f"{name}={text}", text.strip()
    try:
        return _read(value, kind, meta)
    except BadInput as error:
        raise BadInput("setting", whole, error.problem) from None


def _read(value: str, kind: type, meta: Mapping[str, Any]) -> Any:
    read: Callable[[str], Any] | None = meta["read"]
    if read is not None:
        return read(value)
    if kind is bool:
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise BadInput("setting", value, "expected true or false")
    if kind is int or kind is Fraction:
        return _number(value, kind, meta["bounds"])
    choices: tuple[str, ...] = meta["choices"]
    if choices:
        if value.lower() not in choices:
            raise BadInput("setting", value, f"expected one of {', '.join(choices)}")
        return value.lower()
    return value


def _number(value: str, kind: type, bounds: tuple[int, int] | None) -> int | Fraction:
    assert bounds is not None, "a number setting declares its bounds"
    low, high = bounds
    if kind is int:
        return whole_number(value, "setting", low, high)
    try:
        number = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise BadInput("setting", value, "expected a number such as 1 or 3/2") from None
    if not low <= number <= high:
        raise BadInput("setting", value, f"expected a number from {low} to {high}")
    return number
