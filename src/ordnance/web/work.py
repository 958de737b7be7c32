"""The threads that do a table's blocking work, apart from the event loop that answers HTTP.

Every route hands its work here (the service's reads and writes, a page or a preview drawn)
in one hand-off per request: the loop stays free to read other requests and push events while
a game is folded or a command waits on the database.

One pool, sized once (``ordnance serve --threads``; by default 1 on SQLite and 2 on PostgreSQL,
:func:`threads_for`): Python runs one thread at a time, so more threads only wait for each
other, unless they wait on the database.

Two queues in one: a side's command (and the short look at a game's status that comes before
one) goes ahead of every page and preview still waiting (:meth:`Workers.run_first`). A
command is short (under 1 ms of CPU), it is what both players wait for (the answer, then the
other side's push), and the pages it makes stale are drawn just after it; behind a queue of
pages at 300 games on one process it waited 100-250 ms (docs/benchmarks.md, eighth round).
Within each queue work runs in the order it came.

>>> workers = Workers(2)  # in a route: ``await workers.run(draw, game)``
>>> workers.threads
2
>>> workers.close()
"""

from __future__ import annotations

import asyncio
import itertools
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

# Without --threads (an app made in tests or embedded): AnyIO's default, as before.
DEFAULT_THREADS = 40


def threads_for(database: str) -> int:
    """How many threads ``ordnance serve`` gives a process on the database at URL ``database``
    when ``--threads`` does not say.

    One on SQLite: a read or a write there is a call in this process, so a second thread
    would only wait for Python's lock (300 games, bench_web: action p95 9.4 ms with one,
    15.5 with two). Two on PostgreSQL: each read waits on a round trip to the database server,
    and with one thread the pages queued behind those waits (500 games on two processes: page
    p95 230-1080 ms with one, 76-250 with two, actions as fast; docs/benchmarks.md, twelfth
    round).

    >>> threads_for("sqlite:////srv/games.sqlite3"), threads_for("postgresql://db/ordnance")
    (1, 2)
    """
    return 2 if database.startswith("postgresql") else 1


CLOSE_WAIT = 5.0  # seconds a closing pool waits for the work running (a page: a few ms)

FIRST, NEXT, STOP = 0, 1, 2  # the queues' ranks; STOP ends a thread once the rest is done

_Job = tuple[int, int, "Future[object] | None", "Callable[[], object] | None"]


class Workers:
    """A bounded pool of threads for the table's blocking work, commands first."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads if threads is not None else DEFAULT_THREADS
        if self.threads < 1:
            raise ValueError("a table needs at least one thread")
        self._jobs: queue.PriorityQueue[_Job] = queue.PriorityQueue()
        self._order = itertools.count()  # first come, first served within a rank
        self._lock = threading.Lock()
        self._idle = 0
        self._started: list[threading.Thread] = []
        self._closed = False

    async def run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args, **kwargs)`` in one of the threads, after the work already waiting;
        its answer or its exception."""
        return await self._submit(NEXT, lambda: work(*args, **kwargs))

    async def run_first(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """As :meth:`run`, ahead of the pages and previews waiting (a command, a status)."""
        return await self._submit(FIRST, lambda: work(*args, **kwargs))

    def _submit(self, rank: int, work: Callable[[], T]) -> asyncio.Future[T]:
        future: Future[T] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the table's threads are closed")
            self._jobs.put((rank, next(self._order), future, work))  # type: ignore[arg-type]
            if self._idle:
                self._idle -= 1
            elif len(self._started) < self.threads:
                self._start()
        # Cancelled while it waits (the browser went away): it never runs.
        return asyncio.wrap_future(future)

    def _start(self) -> None:
        thread = threading.Thread(
            target=self._work, name=f"ordnance-work_{len(self._started)}", daemon=True
        )
        self._started.append(thread)
        thread.start()

    def _work(self) -> None:
        while True:
            rank, _, future, work = self._jobs.get()
            if rank == STOP or future is None or work is None:
                return
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(work())
                except BaseException as error:  # the route's to answer, as a pool's would be
                    future.set_exception(error)
            del future, work  # not kept alive while this thread waits
            with self._lock:
                self._idle += 1

    def close(self, timeout: float = CLOSE_WAIT) -> None:
        """Take no more work and cancel what waits; what runs ends on its own (a thread is
        never interrupted), then its thread. Waits up to ``timeout`` s for that: the table
        closes its service next, and a read still running then would open the database
        again."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            while True:
                try:
                    _, _, future, _ = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if future is not None:
                    future.cancel()
            for _ in self._started:
                self._jobs.put((STOP, next(self._order), None, None))
            started = list(self._started)
        deadline = time.monotonic() + timeout
        for thread in started:
            if thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))
