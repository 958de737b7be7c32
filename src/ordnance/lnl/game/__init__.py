"""LnLT Smoke and WP shells as a game: scenario, state, commands, resolution.

The game service (``ordnance.game``) drives it through :class:`LnlRuleset`; nothing here knows
the service, its storage or its dice.
"""

from ordnance.lnl.game.ruleset import LnlRuleset

__all__ = ["LnlRuleset"]
