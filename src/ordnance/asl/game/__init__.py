"""The ASL C8 side record as a game: scenario, state, commands, resolution (C8.0).

The game service (``ordnance.game``) drives it through :class:`AslRuleset`; nothing here knows
the service, its storage or its dice.
"""

from ordnance.asl.game.ruleset import AslRuleset

__all__ = ["AslRuleset"]
