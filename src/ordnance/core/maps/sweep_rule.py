"""What a ruleset offers for judging many lines of sight at once (:mod:`.visibility`).

Its own module, free of numpy, so that a ruleset can name its rule without importing the
all-pairs machinery: a single LOS query (the CLI's ``map los``) never loads it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ordnance.core.hexgrid import SightRule, Terrain
from ordnance.core.maps.levels import Ends
from ordnance.core.maps.model import GameMap


@dataclass(frozen=True)
class SweepRule:
    """What a ruleset offers for judging many lines at once (see :mod:`.visibility`).

    ``terrain`` makes the game's own :class:`~ordnance.core.hexgrid.Terrain` for a map and the
    two ends' levels; ``rule`` is the game's sight rule; ``limit`` the accumulated hindrance
    that blocks a line, or None when the game has no such limit.
    """

    terrain: Callable[[GameMap, Ends], Terrain]
    rule: SightRule
    limit: Callable[[], int | None] = lambda: None
