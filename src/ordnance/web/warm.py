"""What a page will ask for, worked out before it asks: once per process, and at each version.

A cache by version helps only the second click; the first answer at a new version is the one
a player waits for. So:

* :func:`warm_process` (once per process, in a thread, when an app starts): the modules the
  board imports on use (numpy, the lines of sight), the page templates compiled. A fresh
  server's first offers were ~250-400 ms of CPU, ~210 of them importing numpy (bench_first.py,
  "cold process").
* :class:`Warmer` (after a game moves on, while a page of it listens): in one background
  thread, outside the table's lock, the drawn map of the new version (:mod:`.pictures`; the
  pages that follow the push find it drawn, or wait for this drawing instead of starting
  their own), then the offers of each unit the side to move may act with
  (:data:`.preview.CACHE`), so the click on a counter is answered from the cache.

The work is bounded: one thread per app, the newest version of at most :data:`PENDING` games
waiting (an older one is dropped), at most :data:`UNITS` units a version, and a version
already passed is not warmed on. It is done only while no request is being answered
(:class:`.middleware.InFlight`): on a busy server the pages ask sooner than a guess could
help, and a guess then only slows them (bench_web, 100 games: 13% of the server's CPU went to
warming, most of it for units no one clicked). Nothing here decides anything: each piece is
what the page would have worked out itself, under the same keys, and a failure is left to the
page's own request to meet and report.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from ordnance.core.errors import OrdnanceError

if TYPE_CHECKING:
    from ordnance.web.table import Table

log = logging.getLogger("ordnance.web")
PENDING = 32  # games whose newest version waits to be warmed
UNITS = 12  # units of the side to move whose offers are worked out, at most
# Pauses after a version is noted (the threads share one interpreter): before its picture,
# so the action that made it answers first (bench_first.py, the action's answer: wall p50
# 26 ms without warming, 46 ms warming at once, 23 ms after the pause); before its offers, so
# the pages the push brings (drawn by then) are not slowed by them, while a player's click
# comes later than that.
DELAY = 0.02
OFFERS_DELAY = 0.15
IDLE_WAIT = 0.5  # seconds a step waits for the server to be idle before the job is dropped
IDLE_POLL = 0.01
STOP_WAIT = 5.0  # seconds a closing table waits for the version being warmed (a few ms each)
_PROCESS = threading.Lock()
_PROCESS_STARTED = threading.Event()


def warm_process() -> None:
    """Import and compile, once per process, what the first page and click would (see the
    module docstring); later calls return at once."""
    with _PROCESS:
        if _PROCESS_STARTED.is_set():
            return
        _PROCESS_STARTED.set()
    try:
        from ordnance.core.maps import visibility  # noqa: F401, PLC0415 (numpy: on use)
        from ordnance.web import pages  # noqa: PLC0415 (pages import this module's users)

        for name in ("table.html", "preview.html", "message.html"):
            pages.ENV.get_template(name)
    except OSError as error:
        # An optimisation: out of file descriptors (slow clients holding them all), the first
        # request loads what it needs and says what failed; no traceback in the log.
        log.warning("warming the process skipped: %s", error)


def start_process_warm() -> None:
    """:func:`warm_process` in a background thread (a no-op once it ran)."""
    if not _PROCESS_STARTED.is_set():
        threading.Thread(target=warm_process, name="ordnance-warm-process", daemon=True).start()


class Warmer:
    """One background thread warming the newest version of the games noted to it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._pending: OrderedDict[str, int] = OrderedDict()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopped = False

    def note(self, game: str, version: int) -> None:
        """``game`` moved on to ``version`` and a page of it listens: warm it (never blocks)."""
        with self._wake:
            if self._stopped:
                return
            self._pending[game] = version
            self._pending.move_to_end(game)
            while len(self._pending) > PENDING:
                self._pending.popitem(last=False)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="ordnance-warm", daemon=True)
                self._thread.start()
            self._wake.notify()

    def stop(self, timeout: float = STOP_WAIT) -> None:
        """Take no more versions, drop those waiting, and wait (at most ``timeout`` s) for
        the one being warmed: the table closes its service next, and a warm still reading a
        game then would open the database again (a test's folder was being removed as it
        did)."""
        with self._wake:
            self._stopped = True
            self._pending.clear()
            self._wake.notify()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _next(self) -> tuple[str, int] | None:
        with self._wake:
            while not self._pending and not self._stopped:
                self._wake.wait()
            if self._stopped:
                return None
            return self._pending.popitem(last=False)

    def _idle(self) -> bool:
        """Whether the server is answering no request now, or within :data:`IDLE_WAIT`."""
        deadline = time.monotonic() + IDLE_WAIT
        while self.table.in_flight.count > 0:
            if time.monotonic() > deadline or self._stopped:
                return False
            time.sleep(IDLE_POLL)
        return True

    def _passed(self, game: str, version: int) -> bool:
        """Whether a newer version of ``game`` waits (this one's work is then wasted)."""
        with self._wake:
            return self._stopped or self._pending.get(game, version) > version

    def _run(self) -> None:
        while (job := self._next()) is not None:
            time.sleep(DELAY)  # the bound on a job's pauses: the next waits for these
            if self._stopped:
                return
            try:
                self.warm(*job)
            except Exception:  # an optimisation: the page's own request meets and says it
                log.debug("warming %s at version %s failed", *job, exc_info=True)

    def warm(self, game: str, version: int) -> None:
        """The picture of ``game`` as it stands, then its side to move's offers."""
        from ordnance.web import preview, views  # noqa: PLC0415 (they import the table)

        table = self.table
        try:
            with table.locks.hold(game):  # the fold is kept by the service: a stored read
                folded = table.service.game(game)
        except OrdnanceError:
            return
        if folded.version != version or self._passed(game, version) or not self._idle():
            return
        views.map_svg(folded, None)
        side = folded.rules.to_move(folded.state)
        if side is None or side in table.ai.sides(game):  # the AI asks for no offers
            return
        time.sleep(OFFERS_DELAY - DELAY)
        if self._passed(game, version) or not self._idle():
            return
        acting, _ = preview.unit_actions(folded, side)
        for unit in acting[:UNITS]:
            if self._passed(game, version) or not self._idle():
                return
            preview.CACHE.get(folded, side, unit)
