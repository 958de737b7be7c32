"""``evolve``: :func:`dataclasses.replace` for the values a game's log is folded into, fast.

Folding a log makes a new state value per event, each a copy of the last with a few fields
changed. ``dataclasses.replace`` does that by calling the class's ``__init__`` again, field by
field, which is most of a fold's time. :func:`evolve` copies the instance's ``__dict__`` and
sets the changed fields: the same value, without re-running ``__init__``. A class with a
``__post_init__`` (which may check or derive fields), ``__slots__`` or a ``cached_property``
still goes through ``dataclasses.replace``, so nothing a class checks is skipped.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Point:
...     x: int
...     y: int = 0
>>> evolve(Point(1, 2), y=5)
Point(x=1, y=5)
>>> evolve(Point(1), z=3)
Traceback (most recent call last):
...
TypeError: Point has no field 'z'
"""

from __future__ import annotations

import dataclasses
from functools import cache, cached_property
from typing import Any, TypeVar

T = TypeVar("T")


@cache
def _plain_fields(cls: type) -> frozenset[str] | None:
    """The field names of a dataclass whose instances may be copied by ``__dict__``; else None."""
    if hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__:
        return None
    # A cached_property keeps its value in the instance's __dict__: a copy would carry it over.
    if any(isinstance(v, cached_property) for k in cls.__mro__ for v in vars(k).values()):
        return None
    return frozenset(f.name for f in dataclasses.fields(cls))


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes`` (as ``dataclasses.replace``)."""
    cls: type = type(obj)
    names = _plain_fields(cls)
    if names is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if not names.issuperset(changes):
        name = next(n for n in changes if n not in names)
        raise TypeError(f"{cls.__name__} has no field {name!r}")
    values = obj.__dict__.copy()
    values.update(changes)
    made: T = object.__new__(cls)
    object.__setattr__(made, "__dict__", values)
    return made
