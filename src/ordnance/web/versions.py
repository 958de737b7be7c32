"""The latest version of each game this process wrote or saw, and the pages' event streams
waiting for it (:class:`News`).

After every write the table notes the game's new version here; the server-sent events read
it. A page of another process learns of a write from the database (:mod:`.notify`), which
notes it here too, so nothing a page depends on lives only in one process's memory.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable


class News:
    """The latest version of each game this process wrote or saw, and the event streams
    waiting for it (woken from any thread through their event loop)."""

    def __init__(self) -> None:
        self.versions: dict[str, int] = {}
        self.lock = threading.Lock()
        self._waiting: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._pokes: dict[str, int] = {}
        self._moved: dict[str, float] = {}  # when each game last moved on, as seen here
        # Told of each new version some page listens for (:class:`~.warm.Warmer`).
        self.watched: Callable[[str, int], None] | None = None

    def note(self, game: str, version: int) -> None:
        with self.lock:
            if version <= self.versions.get(game, -1):
                return
            if game in self.versions:  # a move seen here, not the first look at a game
                self._moved[game] = time.monotonic()
            self.versions[game] = version
            watched = self.watched if self._waiting.get(game) else None
        if watched is not None:
            watched(game, version)
        self._wake(game)

    def poke(self, game: str) -> None:
        """Tell the game's pages to look again although no version was stored (the AI's run
        failed: the page says so)."""
        with self.lock:
            self._pokes[game] = self._pokes.get(game, 0) + 1
        self._wake(game)

    def pokes(self, game: str) -> int:
        return self._pokes.get(game, 0)

    def still_for(self, game: str) -> float:
        """Seconds since ``game`` last moved on as seen here (infinite: never seen moving)."""
        moved = self._moved.get(game)
        return float("inf") if moved is None else time.monotonic() - moved

    def _wake(self, game: str) -> None:
        with self.lock:
            waiting = list(self._waiting.get(game, ()))
        for loop, event in waiting:
            loop.call_soon_threadsafe(event.set)

    def version(self, game: str) -> int | None:
        return self.versions.get(game)

    def listen(self, game: str) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        """An event set whenever ``game`` moves on (call from the event loop)."""
        key = (asyncio.get_running_loop(), asyncio.Event())
        with self.lock:
            self._waiting.setdefault(game, set()).add(key)
        return key

    def stop(self, game: str, key: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        with self.lock:
            self._waiting.get(game, set()).discard(key)
