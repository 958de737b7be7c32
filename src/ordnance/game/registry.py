"""Ruleset name -> ruleset: the one place the service meets the games by name.

What every face needs of each game beyond its ruleset lives here too, so that neither face
imports the other (DESIGN.md): the map's line-of-sight judge and the victory words.

>>> sorted(JUDGES)
['asl', 'lnl', 'vv']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ordnance.asl.game import AslRuleset
from ordnance.asl.los import JUDGE as ASL_LOS
from ordnance.core.errors import BadInput
from ordnance.core.maps import GameMap, LosJudge
from ordnance.core.ruleset import Ruleset
from ordnance.lnl.game import LnlRuleset
from ordnance.lnl.los import JUDGE as LNL_LOS
from ordnance.vv.game import VvRuleset
from ordnance.vv.game.victory import victory_words
from ordnance.vv.los import JUDGE as VV_LOS

_RULESETS: dict[str, Callable[[], Ruleset[Any]]] = {"asl": AslRuleset}
_RULESETS["lnl"] = LnlRuleset
_RULESETS["vv"] = VvRuleset
JUDGES: Mapping[str, LosJudge] = {judge.game: judge for judge in (ASL_LOS, LNL_LOS, VV_LOS)}


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


def judge_for(game_map: GameMap) -> LosJudge:
    """The line-of-sight judge of the game ``game_map`` belongs to (its ``game`` field)."""
    return JUDGES[game_map.game]


def victory_of(state: Mapping[str, Any]) -> str | None:
    """The scenario's victory conditions in words, where the ruleset's view states them (V&V),
    with who holds each objective now; None for a game without them (``game status`` and the
    web table print the same words).

    >>> victory_of({"victory": {"objectives": {"H2": 4}}, "control": {"H2": "german"}})
    'Victory: objectives H2 4 VP (german).'
    >>> victory_of({"turn": 1}) is None
    True
    """
    victory = state.get("victory")
    if not isinstance(victory, Mapping) or not victory:
        return None
    control = state.get("control")
    return victory_words(
        victory, control if isinstance(control, Mapping) else {}, state.get("result")
    )
