"""The game service: scenarios, commands from sides, an append-only hash-chained log, storage
(SQLite or PostgreSQL), fair dice, export and verification.

It knows the rulesets only through :class:`ordnance.core.ruleset.Ruleset` and
:mod:`ordnance.game.registry`. Start at :class:`ordnance.game.service.GameService`.
"""
