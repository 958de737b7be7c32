"""The race's spec: what the program needs to know of the game, in one value."""

from __future__ import annotations

from ordnance.core.spec import Feature, GameSpec, on_use

SPEC = GameSpec(
    name="race",
    title="Dice race",
    # module:name, imported when first used: reading the spec loads none of the rules
    ruleset=on_use("tests.fourth_game.rules:RaceRules", make=True),
    package="tests.fourth_game",
    settings=on_use("tests.fourth_game.rules:RaceSettings", make=True),
    # What the ruleset offers beyond the protocol, checked against it at registration:
    # odds of its own, and from RulesetBase event sentences and the stored-event fold step.
    features=frozenset({Feature.ODDS, Feature.EVENT_TEXT, Feature.STORED_FOLD}),
)
