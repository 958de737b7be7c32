"""Where ``ordnance map`` finds a map by name or path, and which games have map rules.

The games, their line-of-sight judges and the packages their maps ship in come from the game
registry (the web reads them there too); the rulesets do not know each other. Each ruleset
ships example maps in its package (``data/maps/*.yaml``); a map is named on the command line
by that file's stem (``asl-village``) or by a path to any map file.

>>> "asl-village" in bundled_maps(), vocabulary_for("chess")
(True, None)
"""

from __future__ import annotations

from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path

from ordnance.core.errors import BadInput
from ordnance.core.maps import GameMap, load_map, load_map_text
from ordnance.game.registry import judge_for, maps_of, names, vocabulary_for

__all__ = ["bundled_maps", "judge_for", "open_map", "vocabulary_for"]


@cache
def bundled_maps() -> dict[str, Traversable]:
    """The example maps shipped with every registered game, by short name."""
    found: dict[str, Traversable] = {}
    for game in names():
        found.update(maps_of(game))
    return dict(sorted(found.items()))


def open_map(name: str) -> GameMap:
    """A map from a file path, or a bundled example by its short name."""
    path = Path(name)
    if path.is_file() or path.suffix in (".yaml", ".yml") or "/" in name or "\\" in name:
        return load_map(path, vocabulary_for)
    entry = bundled_maps().get(name)
    if entry is None:
        known = ", ".join(bundled_maps()) or "none"
        raise BadInput("map", name, f"no such file, and not a bundled map ({known})")
    return load_map_text(entry.read_text(encoding="utf-8"), entry.name, vocabulary_for)
