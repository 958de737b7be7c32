"""The drawn map of a game as it stands, kept for the next page that shows the same.

Drawing the ASL village map (about 6,700 hexes of terrain, labels and counters) is the
largest part of a table page: 18 ms of the page's 45 ms on an idle machine, and the hexes a
chosen unit can see (its shading) another 90 ms (benchmarks/bench_board.py). Both sides'
pages and every spectator show the same picture of the same version, and many versions show
the picture of the one before (a phase ended, a shot missed), so each is drawn once.

A picture is kept under what it is drawn from (:data:`PictureKey`): the game, its live map and
counters compared as values, its terrain table by name, and the unit whose sight is shaded
(None: none), so a kept picture can never be a stale one. Pictures with a previewed line of
sight are drawn each time (one page sees each). The store is bounded (``SIZE`` pictures,
the least recently used goes first) and safe to use from the app's worker threads.

>>> store = Pictures(size=2)
>>> store.put(("g", 1, "h1", None), "<svg>1</svg>")
>>> store.put(("g", 2, "h2", None), "<svg>2</svg>")
>>> store.get(("g", 1, "h1", None))
'<svg>1</svg>'
>>> store.put(("g", 3, "h3", None), "<svg>3</svg>")  # the least recently used goes
>>> store.get(("g", 2, "h2", None)) is None, len(store)
(True, 2)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from ordnance.core.maps import CounterView, GameMap
from ordnance.core.maps.cache import BoundedCache

# Every version's picture until both sides' pages have drawn it: at 300 games on one process
# (about 90 versions a second) a page waits up to a second behind the commands (:mod:`.work`),
# and 32 pictures were gone by then, so one version's map was drawn twice (bench_web, eighth
# round). A picture is 40-150 KB (V&V, ASL village), so the store holds at most ~40 MB.
SIZE = 256

# What a map picture is drawn from (:func:`.views.picture_key`): the game, its live map,
# its terrain table's name, the counters, and the unit and hex whose sight is shaded.
PictureKey = tuple[
    str, GameMap, tuple[str, str], tuple[CounterView, ...], tuple[str | None, str] | None
]
K = TypeVar("K", bound=Hashable)


class Pictures(Generic[K]):
    """A bounded store of drawn maps (or any SVG text), least recently used out first."""

    def __init__(self, size: int = SIZE) -> None:
        self._kept = BoundedCache[K, str](size)
        self._lock = threading.Lock()
        self._drawing: dict[K, threading.Lock] = {}

    def get(self, key: K) -> str | None:
        return self._kept.peek(key)

    def put(self, key: K, svg: str) -> None:
        self._kept.put(key, svg)

    def get_or_draw(self, key: K, draw: Callable[[], str | None]) -> str | None:
        """The kept picture of ``key``, else ``draw()``'s (kept when it is one). Pages that
        ask for the same key at once wait for one drawing: after a push both sides' pages ask
        for the new version together, and two drawings would only share the cores.

        >>> store = Pictures()
        >>> store.get_or_draw(("g", 1, "h", None), lambda: "<svg/>")
        '<svg/>'
        >>> store.get_or_draw(("g", 1, "h", None), lambda: "drawn again")
        '<svg/>'
        """
        svg = self.get(key)
        if svg is not None:
            return svg
        with self._lock:
            drawing = self._drawing.setdefault(key, threading.Lock())
        try:
            with drawing:
                svg = self.get(key)
                if svg is None:
                    svg = draw()
                    if svg is not None:
                        self.put(key, svg)
                return svg
        finally:
            with self._lock:
                self._drawing.pop(key, None)

    def __len__(self) -> int:
        return len(self._kept)


# One store for the process: a key names one exact state of one game, whichever app asks.
PICTURES: Pictures[PictureKey] = Pictures()
