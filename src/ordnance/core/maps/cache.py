"""Maps read from a scenario's text, kept by the text's digest: one parse per map, bounded.

A game carries its map's whole text in the scenario JSON (the log alone replays), so every
fold of every game reads that text again. A map is immutable, so each ruleset reads it once
here: the cache keys it by the reading game, the SHA-256 of the text and the file name (the
name is part of the map's value), keeps at most :data:`MAX_MAPS` of them (least recently used
goes first) and may be read from several threads at once (the web serves many games from
threads).

>>> from ordnance.core.maps.terrain import Feature
>>> def chart() -> TerrainChart:
...     return TerrainChart("test", "a test", {"open": Feature("open", "hex")}, {}, {})
>>> text = "version: 1\\nname: tiny\\ngame: test\\ngrid: {columns: 2, rows: 2}\\ndefault: open\\n"
>>> first = cached_map(text, "tiny.yaml", chart)
>>> cached_map(text, "tiny.yaml", chart) is first
True
>>> first.name, map_digest(text) == map_digest(text + " ")
('tiny', False)
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from ordnance.core.maps.loader import load_map_text
from ordnance.core.maps.model import GameMap
from ordnance.core.maps.terrain import TerrainChart, Vocabulary

# Maps kept at once: the bundled maps and the uploads of the games being played now. A game
# whose map fell out is read again on its next fold (a parse, not an error).
MAX_MAPS = 32

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``size`` values by key, the least recently used dropped first; safe to share
    between threads. A value is made outside the lock (one slow make holds up no other
    reader); when two threads make the same key at once, both get the one kept first.

    >>> squares = BoundedCache[int, int](2)
    >>> [squares.get(n, lambda: n * n) for n in (2, 3, 2, 4)], len(squares)
    ([4, 9, 4, 16], 2)
    >>> squares.get(3, lambda: -1)  # 3 was the least recently used: it went for 4
    -1
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for ``key``, or ``make()``'s, kept (an exception keeps nothing)."""
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        made = make()
        with self._lock:
            kept = self._kept.setdefault(key, made)
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return kept

    def peek(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None.

        >>> kept = BoundedCache[str, int](2)
        >>> kept.put("a", 1); kept.peek("a"), kept.peek("b")
        (1, None)
        """
        with self._lock:
            if key not in self._kept:
                return None
            self._kept.move_to_end(key)
            return self._kept[key]

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``, in place of any value kept for it."""
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def discard(self, key: K) -> None:
        """Keep nothing for ``key`` (whether or not anything was kept)."""
        with self._lock:
            self._kept.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


_MAPS = BoundedCache[tuple[str, str, str], GameMap](MAX_MAPS)


def map_digest(text: str) -> str:
    """The SHA-256 of a map's text, as a scenario's ``map.sha256`` records it."""
    return hashlib.sha256(text.encode()).hexdigest()


def cached_map(text: str, file: str, chart: Callable[[], TerrainChart]) -> GameMap:
    """The map ``text`` as a ruleset reads it (the names its terrain ``chart`` knows, for a
    map of its own game; another game's map reads with no names and fails or is refused by
    its ``game``), parsed once while it stays among the last :data:`MAX_MAPS` read.

    The digest is always taken of the text itself, never of what a scenario says it is: a log
    whose ``sha256`` lies gets its own text's map. A bad map raises
    :class:`~ordnance.core.errors.BadInput` each time and is never kept.
    """
    game = chart().game

    def vocabulary(declared: str) -> Vocabulary | None:
        return chart().vocabulary if declared == game else None

    return _MAPS.get((game, map_digest(text), file), lambda: load_map_text(text, file, vocabulary))


def clear() -> None:
    """Forget every map (tests that count parses)."""
    _MAPS.clear()
