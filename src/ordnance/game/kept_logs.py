"""The logs of the games being shown, kept so that a new version reads only its new entries.

A side's page tells the newest entries of the log, the latest rulings and what changed since
the version the browser showed (:mod:`ordnance.web.table_page`): it needs the log up to the
version it draws. Read whole at every version, that is a game's every entry again at each of
its versions, which grows with the game (bench_web: 2.7-2.9 ms a version at 140-160
entries). Entries once stored never change, and each names the hash of the one before: the
log kept for a game is extended by the entries stored after it when the first of them chains
on to its last, and read whole otherwise (a log cut and written again, a game not kept). The
service hands over the entries it has just read or stored (:meth:`KeptLogs.add`), so a
version's new entries are read from the database once, not again for its page (bench_web,
two processes on PostgreSQL: that second read was 10% of a process's busy time).

>>> import tempfile
>>> from pathlib import Path
>>> from ordnance.game.service import GameService
>>> from ordnance.game.scenario import load_scenario_file
>>> folder = tempfile.TemporaryDirectory()
>>> service = GameService(f"sqlite:///{folder.name}/games.db", keys=Path(folder.name) / "keys")
>>> made = service.create(load_scenario_file(Path("examples/asl-c8-demo.yaml")))
>>> logs = KeptLogs(service.store)
>>> [entry.type for entry in logs.upto(service.game(made.game))]
['start']
>>> _ = service.do(made.game, "german", made.tokens["german"], ["phase", "next"])
>>> [entry.type for entry in logs.upto(service.game(made.game))]
['start', 'command']
>>> service.close(); folder.cleanup()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ordnance.core.maps.cache import BoundedCache
from ordnance.game.entries import Entry

if TYPE_CHECKING:
    from ordnance.game.fold import Game
    from ordnance.game.storage import Store

GAMES_KEPT = 512  # logs kept at once: more than the games a server shows at once


class KeptLogs:
    """The logs of up to :data:`GAMES_KEPT` games (the least recently shown dropped first),
    read from ``store``; safe to share between threads."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept = BoundedCache[str, tuple[Entry, ...]](GAMES_KEPT)

    def upto(self, game: Game) -> tuple[Entry, ...]:
        """The entries of ``game``'s log before its version (as the database holds them).

        Kept only when they end at ``game``'s head: a fold the database no longer holds (a
        log cut and written again) is told as read, and not kept.
        """
        count = game.version
        kept = self._kept.peek(game.id) or ()
        if count <= len(kept):
            if count == 0 or kept[count - 1].hash == game.head:
                return kept[:count]
        elif kept:
            more = self.store.entries(game.id, len(kept), count)
            if len(more) == count - len(kept) and more[0].prev == kept[-1].hash:
                return self._keep(game, kept + tuple(more))
        return self._keep(game, tuple(self.store.entries(game.id, 0, count)))

    def add(self, game: Game, entries: Sequence[Entry]) -> None:
        """``entries``, just read or stored, bring the log to ``game``'s version: kept when
        they follow the log kept for it (else nothing changes: :meth:`upto` reads)."""
        kept = self._kept.peek(game.id)
        if not entries or not kept or len(kept) + len(entries) != game.version:
            return
        if entries[0].prev == kept[-1].hash:
            self._keep(game, kept + tuple(entries))

    def _keep(self, game: Game, log: tuple[Entry, ...]) -> tuple[Entry, ...]:
        if len(log) == game.version and (not log or log[-1].hash == game.head):
            self._kept.put(game.id, log)
        return log
