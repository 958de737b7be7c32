"""A side's legal actions in a folded game, worked out once per version.

A page, the JSON status, a preview and the AI's look for a step with no choice all ask for the
same list at the same version. On V&V it costs about 7 ms (each Opportunity Fire line of
sight is checked), so it is kept by (game, version, head, side): the head is the hash of the
game's newest entry, so a key names one exact state and a kept list is never a stale one.
Bounded (:data:`KEPT` lists, the least recently used out first) and safe to share between
the web's threads.

>>> from types import SimpleNamespace
>>> class Rules:
...     asked = 0
...     def legal_actions(self, state, side):
...         Rules.asked += 1
...         return [f"fire {side}"]
>>> game = SimpleNamespace(id="g1", version=4, head="h4", rules=Rules(), state=None)
>>> legal_actions(game, "german"), legal_actions(game, "german"), Rules.asked
(('fire german',), ('fire german',), 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ordnance.core.maps.cache import BoundedCache

if TYPE_CHECKING:
    from ordnance.game.fold import Game

# Both sides of 500 games at two versions each, with room to spare (a list is a few KB).
KEPT = 4096

_KEPT = BoundedCache[tuple[str, int, str, str], tuple[str, ...]](KEPT)


def legal_actions(game: Game, side: str) -> tuple[str, ...]:
    """What ``side`` may do in ``game`` now."""
    key = (game.id, game.version, game.head, side)
    return _KEPT.get(key, lambda: tuple(game.rules.legal_actions(game.state, side)))
