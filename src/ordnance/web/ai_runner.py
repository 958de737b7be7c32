"""The server's AI plays in the background: one run per game at a time in a process.

A player's request stores the player's command and answers at once; the AI's turn is then
played by a thread of its own (:meth:`AiRunner.start`), one command at a time, each stored as
its own version and pushed to the pages as it is stored. What it does is up to the ``play``
function it is given (:meth:`~ordnance.web.table.Table.play_ai`): the runner only keeps one run
per game, starts it again when it was asked to while it ran (the game may have moved on
meanwhile), remembers a failure, and ends its runs cleanly when the server stops.

A run that fails (the AI's command refused, a bug in the AI, the database away) is logged once
and kept as one sentence with the version it failed at; the pages of that game are told at
once (:meth:`~ordnance.web.versions.News.poke`) and say it. The same version is not tried again
in this process (the same state gives the same choice, and the same failure); any new version
is. A database that was away is tried again on the next request that asks.

Two processes on one database may both start a run for the same game: each command is stored
only at the version it was chosen at, so the slower one is refused as stale, which ends its
run quietly (:func:`ordnance.game.autoplay.play`); nothing is stored twice.

>>> import threading
>>> played = []
>>> runner = AiRunner(lambda game, forced, stop: played.append((game, dict(forced))))
>>> runner.start("g1", {"american": "token"})
True
>>> runner.settle("g1", 5.0), played
(True, [('g1', {'american': 'token'})])
>>> runner.close(5.0); runner.start("g1")
False
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ordnance.core.errors import OrdnanceError
from ordnance.game.dberrors import StorageError

log = logging.getLogger("ordnance.web")

# play(game, forced tokens, stop) plays the AI's turn of ``game`` until it is not the AI's
# decision; ``stop()`` is true once the server shuts down (checked between commands).
Play = Callable[[str, Mapping[str, str], Callable[[], bool]], object]


@dataclass(frozen=True)
class AiTrouble:
    """Why the AI's run of a game stopped at ``version`` (``again``: worth another try, as a
    database that was away)."""

    version: int
    sentence: str
    again: bool = False


def trouble_sentence(side: str | None, error: BaseException) -> str:
    """What a player reads when the AI could not play, in one sentence.

    >>> from ordnance.core.errors import IllegalAction
    >>> print(trouble_sentence("german", IllegalAction("V&V r. 5", "not your phase")))
    The AI (german) could not play: refused by V&V r. 5: not your phase. The game waits here: \
undo your last command, or ask the server's operator (its log has the details).
    """
    who = f"The AI ({side})" if side else "The AI"
    if isinstance(error, StorageError):
        return f"{who} could not play: the game database could not be reached; it tries again."
    what = str(error) if isinstance(error, OrdnanceError) else f"it failed ({type(error).__name__})"
    return (
        f"{who} could not play: {what.rstrip('.')}. The game waits here: undo your last command,"
        " or ask the server's operator (its log has the details)."
    )


class AiRunner:
    """Background runs of the AI, at most one per game; ``play`` does the playing."""

    def __init__(
        self,
        play: Play,
        *,
        version: Callable[[str], int] | None = None,
        to_move: Callable[[str], str | None] | None = None,
        told: Callable[[str], None] | None = None,
    ) -> None:
        self._play = play
        self._version = version  # the game's stored version, for a failure's record
        self._to_move = to_move  # the side whose decision it is (named in a failure)
        self._told = told  # tells the game's pages that a run failed
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._threads: dict[str, threading.Thread] = {}
        self._again: set[str] = set()
        self._forced: dict[str, dict[str, str]] = {}
        self._trouble: dict[str, AiTrouble] = {}
        self._closing = False

    def start(self, game: str, forced: Mapping[str, str] | None = None) -> bool:
        """Play the AI's turn of ``game`` in the background (if a run is under way, it looks
        again when done). ``forced``: tokens of human sides whose steps with no choice it may
        take (:func:`~ordnance.game.autoplay.forced_choice`), kept only while it runs. False
        once the server is shutting down."""
        with self._lock:
            if self._closing:
                return False
            if forced:
                self._forced.setdefault(game, {}).update(forced)
            if game in self._threads:
                self._again.add(game)
                return True
            thread = threading.Thread(target=self._run, args=(game,), name=f"ai-{game}")
            thread.daemon = True  # close() joins it; a daemon never holds up an exit
            self._threads[game] = thread
        thread.start()
        return True

    def running(self, game: str) -> bool:
        with self._lock:
            return game in self._threads

    def trouble(self, game: str, version: int) -> AiTrouble | None:
        """The failure of the AI's run at ``version`` of ``game``, if it failed there."""
        with self._lock:
            found = self._trouble.get(game)
        return found if found is not None and found.version == version else None

    def settle(self, game: str, timeout: float) -> bool:
        """Wait until no run of ``game`` is under way here; False after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while game in self._threads:
                left = deadline - time.monotonic()
                if left <= 0 or not self._idle.wait(left):
                    return game not in self._threads
        return True

    def close(self, timeout: float) -> None:
        """Start no run, and let each run end, waiting up to ``timeout`` seconds: a command
        being stored is stored whole (one transaction), a command being chosen is not stored."""
        with self._lock:
            self._closing = True
            threads = list(self._threads.values())
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        if any(t.is_alive() for t in threads):
            log.warning(
                "the AI was still choosing a command in %d game(s) at shutdown", len(threads)
            )

    def _stopping(self) -> bool:
        return self._closing

    def _run(self, game: str) -> None:
        while True:
            with self._lock:
                self._again.discard(game)
                forced = dict(self._forced.get(game, {}))
            failed = False
            try:
                self._play(game, forced, self._stopping)
            except Exception as error:  # every failure is said, never lost
                failed = True
                self._fail(game, error)
            with self._idle:
                if failed or self._closing or game not in self._again:
                    del self._threads[game]
                    self._forced.pop(game, None)
                    self._again.discard(game)
                    self._idle.notify_all()
                    return

    def _fail(self, game: str, error: BaseException) -> None:
        version, side = -1, None
        try:
            if self._version is not None:
                version = self._version(game)
            if self._to_move is not None:
                side = self._to_move(game)
        except Exception:  # the database itself may be what failed
            pass
        trouble = AiTrouble(version, trouble_sentence(side, error), isinstance(error, StorageError))
        with self._lock:
            known = self._trouble.get(game)
            self._trouble[game] = trouble
        if known is None or (known.version, known.sentence) != (version, trouble.sentence):
            # Logged once per failure (a traceback only for what is no refusal: a bug).
            if isinstance(error, OrdnanceError):
                log.warning("AI of game %s stopped at version %d: %s", game, version, error)
            else:
                log.error("AI of game %s failed at version %d", game, version, exc_info=error)
        if self._told is not None:
            self._told(game)

    def retry_due(self, game: str, version: int) -> bool:
        """Whether a run may be started for ``version``: not one that failed there already
        (unless the failure is worth another try)."""
        found = self.trouble(game, version)
        return found is None or found.again
