"""One lock per game in this process, held only while a game is read or a command stored.

The game service keeps each game's fold and checks each command against the version it was
chosen at, so two processes (or two threads) never store two commands at one place; the lock
here only keeps this process's threads from folding and deciding the same game twice at once
(one of them would lose the race and be refused as stale). Different games never wait for
each other: a game's AI turn, or a slow page, holds up nobody else.

The table of locks holds a lock only while some thread holds or waits for it, so it stays as
small as the number of games in use at one moment, however many games the server has seen.

>>> locks = GameLocks()
>>> with locks.hold("g1"), locks.hold("g1"):  # reentrant: a call inside a call
...     with locks.hold("g2"):
...         sorted(locks.in_use())
['g1', 'g2']
>>> locks.in_use()
[]
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class _Slot:
    lock: threading.RLock = field(default_factory=threading.RLock)
    users: int = 0  # threads holding or waiting for it (the slot is dropped at 0)


class GameLocks:
    """The in-process locks of the games, by game id (see the module's note)."""

    def __init__(self) -> None:
        self._slots: dict[str, _Slot] = {}
        self._guard = threading.Lock()

    def acquire(self, game: str) -> None:
        """Take ``game``'s lock, waiting while another thread holds it."""
        with self._guard:
            slot = self._slots.get(game)
            if slot is None:
                slot = self._slots[game] = _Slot()
            slot.users += 1
        slot.lock.acquire()

    def release(self, game: str) -> None:
        """Give back ``game``'s lock (taken by this thread)."""
        with self._guard:
            slot = self._slots[game]
            slot.lock.release()
            slot.users -= 1
            if slot.users == 0:
                del self._slots[game]

    @contextmanager
    def hold(self, game: str) -> Iterator[None]:
        """Hold ``game``'s lock (reentrant in one thread; other games go on meanwhile)."""
        self.acquire(game)
        try:
            yield
        finally:
            self.release(game)

    def of(self, game: str) -> GameLock:
        """``game``'s lock as a reusable context manager (for :func:`.autoplay.play`)."""
        return GameLock(self, game)

    def in_use(self) -> list[str]:
        """The games whose lock some thread holds or waits for now."""
        with self._guard:
            return list(self._slots)


class GameLock:
    """A reusable, reentrant context manager holding one game's lock."""

    def __init__(self, locks: GameLocks, game: str) -> None:
        self._locks, self._game = locks, game

    def __enter__(self) -> None:
        self._locks.acquire(self._game)

    def __exit__(self, *exc: object) -> None:
        self._locks.release(self._game)
