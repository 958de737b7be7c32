"""``evolve``: :func:`dataclasses.replace` for the values a game's log is folded into, fast.

Folding a log makes a new state value per event, each a copy of the last with a few fields
changed. ``dataclasses.replace`` does that by calling the class's ``__init__`` again, field by
field, which is most of a fold's time. :func:`evolve` copies the instance's ``__dict__`` and
sets the changed fields: the same value, without re-running ``__init__``. A class with a
``__post_init__`` (which may check or derive fields) has it run on the copy, as ``__init__``
would. A class with ``__slots__``, a ``cached_property``, an ``InitVar`` or a field left out of
``__init__`` still goes through ``dataclasses.replace``, so nothing a class checks is skipped.

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
import functools
from functools import cache
from typing import Any, TypeVar

from ordnance.core import cached

T = TypeVar("T")
_NEW, _SET = object.__new__, object.__setattr__  # looked up once, not once per copy


@cache
def _plain_fields(cls: type) -> tuple[frozenset[str], bool] | None:
    """The field names of a dataclass whose instances may be copied by ``__dict__``, and
    whether it has a ``__post_init__`` to run on the copy; else None."""
    if "__slots__" in cls.__dict__:
        return None
    # A cached_property keeps its value in the instance's __dict__: a copy would carry it over.
    kept = (functools.cached_property, cached.cached_property)
    if any(isinstance(v, kept) for k in cls.__mro__ for v in vars(k).values()):
        return None
    fields = dataclasses.fields(cls)
    names = frozenset(f.name for f in fields)
    # An InitVar (a parameter of __init__ that is no field) reaches __post_init__ only through
    # __init__, and a field __init__ leaves out may be set by __post_init__ only when missing:
    # those take dataclasses.replace.
    code = getattr(vars(cls).get("__init__"), "__code__", None)  # the one dataclass wrote
    if code is None or any(not f.init for f in fields):
        return None
    if frozenset(code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]) != names:
        return None
    return names, hasattr(cls, "__post_init__")


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes`` (as ``dataclasses.replace``)."""
    cls: type = type(obj)
    plain = _plain_fields(cls)
    if plain is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    names, post_init = plain
    if not names.issuperset(changes):
        name = next(n for n in changes if n not in names)
        raise TypeError(f"{cls.__name__} has no field {name!r}")
    values = obj.__dict__.copy()
    values.update(changes)
    made: T = _NEW(cls)
    _SET(made, "__dict__", values)
    if post_init:
        made.__post_init__()  # type: ignore[attr-defined]  # its checks, as __init__ runs them
    return made
