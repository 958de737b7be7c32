"""The ruleset's view of a folded game (``Ruleset.view``), worked out once per version.

A table page asks for it four times (the status, the units that may act, the last action's
hexes, a chosen unit's hex) and the JSON status once more: on the ASL C8 demo it costs about
0.4 ms each time (bench_web: 2-3% of the server's CPU). Kept like the legal actions
(:mod:`.legal`) by (game, version, head): the head is the hash of the game's newest entry, so a
key names one exact state. The view is shared by every caller: read it, never change it.

>>> from types import SimpleNamespace
>>> class Rules:
...     asked = 0
...     def view(self, state):
...         Rules.asked += 1
...         return {"units": {}}
>>> game = SimpleNamespace(id="g1", version=4, head="h4", rules=Rules(), state=None)
>>> state_view(game) is state_view(game), Rules.asked
(True, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ordnance.core.maps.cache import BoundedCache
from ordnance.core.ruleset import JsonObject

if TYPE_CHECKING:
    from ordnance.game.fold import Game

KEPT = 1024  # the newest version of 500 games and then some (a view is a few KB)

_KEPT = BoundedCache[tuple[str, int, str], JsonObject](KEPT)


def state_view(game: Game) -> JsonObject:
    """``game.rules.view(game.state)``, once per state."""
    return _KEPT.get((game.id, game.version, game.head), lambda: game.rules.view(game.state))
