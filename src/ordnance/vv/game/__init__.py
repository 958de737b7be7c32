"""Valor & Victory in play: scenario, state and fold, commands, resolution, the AI as a player."""

from ordnance.vv.game.ruleset import VvRuleset

__all__ = ["VvRuleset"]
