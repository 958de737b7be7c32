"""The race's spec: what the program needs to know of the game, in one value."""

from __future__ import annotations

from typing import Any

from ordnance.core.ruleset import Ruleset
from ordnance.core.spec import Feature, GameSpec


def _ruleset() -> Ruleset[Any]:
    from tests.fourth_game.rules import RaceRules  # noqa: PLC0415 (on use: the spec is light)

    return RaceRules()


SPEC = GameSpec(
    name="race",
    title="Dice race",
    ruleset=_ruleset,
    package="tests.fourth_game",
    features=frozenset({Feature.ODDS}),
)
