"""evolve (core/records.py) makes the same value as dataclasses.replace, only faster."""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field, replace
from functools import cached_property

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.records import evolve


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()
    c: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


@dataclass(frozen=True)
class Derived:
    a: int
    twice: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "twice", 2 * self.a)


@dataclass(frozen=True)
class WithInitVar:
    a: int
    scale: InitVar[int] = 1
    scaled: int = field(init=False, default=0)

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, "scaled", self.a * scale)


@dataclass(frozen=True)
class Cached:
    a: int

    @cached_property
    def double(self) -> int:
        return 2 * self.a


@given(st.integers(), st.integers(), st.lists(st.integers(), max_size=3))
def test_evolve_equals_replace(a, new_a, b):
    before = Plain(a, tuple(b))
    assert evolve(before, a=new_a) == replace(before, a=new_a)
    assert evolve(before, b=()) == replace(before, b=())
    assert before == Plain(a, tuple(b))  # the original is untouched


def test_checks_and_cached_values_are_not_skipped():
    with pytest.raises(ValueError, match="negative"):
        evolve(Checked(1), a=-1)
    first = Cached(2)
    assert first.double == 4
    assert evolve(first, a=5).double == 10
    with pytest.raises(TypeError, match="no field"):
        evolve(Plain(1), d=2)


def test_post_init_runs_on_the_copy_as_init_runs_it():
    # A derived field is worked out again from the changed fields, as replace() does.
    assert evolve(Derived(2), a=5) == replace(Derived(2), a=5) == Derived(5)
    assert evolve(Derived(2), a=5).twice == 10
    # An InitVar or a field left out of __init__: dataclasses.replace itself, with its rules.
    assert evolve(WithInitVar(2, 3), a=4, scale=3).scaled == 12
    assert evolve(WithInitVar(2, 3), a=4) == replace(WithInitVar(2, 3), a=4)
