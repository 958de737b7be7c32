"""A computed attribute kept on its instance after its first read, taking no lock.

``functools.cached_property`` in Python 3.11 holds one lock per attribute, shared by every
instance of the class, while it computes (Python 3.12 dropped it): the web table's threads,
each reading its own game's board, waited for one another there (bench_web, 100 games: a third
of the server's threads, in stack dumps, were waiting at that lock). What the project caches
this way is a pure function of an instance that does not change, so two threads computing one
value at once get equal values, and either may be kept.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Square:
...     side: int
...     @cached_property
...     def area(self) -> int:
...         print("computed")
...         return self.side * self.side
>>> square = Square(3)
>>> square.area
computed
9
>>> square.area
9
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Self, TypeVar, overload

T = TypeVar("T")


class cached_property(Generic[T]):  # noqa: N801 (named as the standard library's)
    """Like :func:`functools.cached_property` (the value is stored in the instance's
    ``__dict__``, where later reads find it first), without the lock."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> Self: ...

    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type[Any] | None = None) -> T | Self:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.name] = value
        return value
