"""Ruleset name -> ruleset: the one place the service meets the games by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ordnance.asl.game import AslRuleset
from ordnance.core.errors import BadInput
from ordnance.core.ruleset import Ruleset
from ordnance.lnl.game import LnlRuleset
from ordnance.vv.game import VvRuleset

_RULESETS: dict[str, Callable[[], Ruleset[Any]]] = {"asl": AslRuleset}
_RULESETS["lnl"] = LnlRuleset
_RULESETS["vv"] = VvRuleset


def names() -> tuple[str, ...]:
    """The rulesets a scenario may name."""
    return tuple(_RULESETS)


def ruleset(name: str) -> Ruleset[Any]:
    """The ruleset a scenario (or a log) names.

    >>> ruleset("asl").name
    'asl'
    >>> ruleset("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad ruleset 'chess': unknown ruleset; known: asl, ...
    """
    if name not in _RULESETS:
        raise BadInput("ruleset", name, f"unknown ruleset; known: {', '.join(_RULESETS)}")
    return _RULESETS[name]()
