"""What a table page says happened, and what its map marks as the last action.

The sentences come from :mod:`ordnance.game.news` (one per log entry). A page drawn with
``?seen=V`` (the version the browser showed before a push or before its own action) says
what happened since V in its notice, newest last. The map marks the last command still
standing: the hexes it named or changed and the units it moved, fired or hit, until the next
command. The marks travel as data attributes on the page's ``<main>``; ``static/news.js`` puts
the ``last-action`` class on those hexes and counters of the map SVG.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ordnance.game.entries import Entry
from ordnance.game.fold import Game
from ordnance.game.news import NEWS_SHOWN, entry_sentence, news_since
from ordnance.game.state_view import state_view

# The keys of a command's arguments and its events' data that name hexes, and units.
_HEX_KEYS = ("at", "target", "to", "dest", "hex")
_UNIT_KEYS = ("unit", "units", "movers")
_LABEL = re.compile(r"^[0-9]*[A-Z]{1,2}[0-9]+$")


@dataclass(frozen=True)
class LastAction:
    """The last command still standing: its entry, and what the map marks for it."""

    seq: int
    hexes: tuple[str, ...]
    units: tuple[str, ...]

    @property
    def hexes_attr(self) -> str:
        return " ".join(self.hexes)

    @property
    def units_attr(self) -> str:
        return " ".join(self.units)


def page_news(game: Game, log: Sequence[Entry], seen: int | None) -> list[str]:
    """The sentences of the entries a page at version ``seen`` has not shown (none when
    ``seen`` is None or not before the game's version), at most :data:`NEWS_SHOWN`, newest
    last."""
    if seen is None or seen >= game.version or seen < 0:
        return []
    return news_since(log, seen, game.rules, NEWS_SHOWN)


def log_sentences(game: Game, log: Sequence[Entry], shown: int) -> list[tuple[int, str]]:
    """The newest ``shown`` entries as sentences, newest first (the page's log list): only
    those are told (a V&V game of 138 entries: 4.6 ms a version when every entry was), each
    with the whole log to name the command an undo took back."""
    return [(e.seq, entry_sentence(e, game.rules, log)) for e in log[-shown:]][::-1]


def last_action(game: Game, log: Sequence[Entry]) -> LastAction | None:
    """What the map marks: the newest command not undone, the hexes its words and events name
    and the hexes of the units they name (where they stand now)."""
    undone = {int(e.body["undone"]) for e in log if e.type == "undo"}
    entry = next(
        (e for e in reversed(log) if e.type == "command" and e.seq not in undone),
        None,
    )
    if entry is None:
        return None
    places = [entry.body["command"].get("args") or {}]
    places += [e.get("data") or {} for e in entry.body.get("events", ())]
    hexes: list[str] = []
    units: list[str] = []
    for data in places:
        for key in _HEX_KEYS:
            hexes += _labels(data.get(key))
        for key in _UNIT_KEYS:
            units += _names(data.get(key))
    where = _unit_hexes(game)
    hexes += [where[u] for u in units if u in where]
    return LastAction(entry.seq, tuple(dict.fromkeys(hexes)), tuple(dict.fromkeys(units)))


def _labels(value: object) -> list[str]:
    values = value if isinstance(value, list | tuple) else [value]
    return [v for v in values if isinstance(v, str) and _LABEL.match(v)]


def _names(value: object) -> list[str]:
    values = value if isinstance(value, list | tuple) else [value]
    return [v for v in values if isinstance(v, str) and v]


def _unit_hexes(game: Game) -> Mapping[str, str]:
    units: Any = state_view(game).get("units")
    if not isinstance(units, Mapping):
        return {}
    return {
        str(u): str(v["hex"])
        for u, v in units.items()
        if isinstance(v, Mapping) and isinstance(v.get("hex"), str)
    }
