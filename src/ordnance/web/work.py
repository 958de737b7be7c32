"""The threads that do a table's blocking work, apart from the event loop that answers HTTP.

Every route hands its work here (the service's reads and writes, a page or a preview drawn)
through :meth:`Workers.run`, in one hand-off per request: the loop stays free to read other
requests and push events while a game is folded or a command waits on the database.

One pool, sized once (``ordnance serve --threads``, 1 by default): Python runs one thread at a
time, so more threads only wait for each other, unless the database is slow to answer. Before
it, plain ``def`` routes ran in AnyIO's threads, the form posts in asyncio's default pool
(outside the bound), and a preview handed off twice. The standard library's pool is used for
the one bound and the one hand-off, not for speed: bench_web at 200 games showed no change its
runs' spread reveals (docs/benchmarks.md, seventh round).

>>> workers = Workers(2)  # in a route: ``await workers.run(draw, game)``
>>> workers.threads
2
>>> workers.close()
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

# Without --threads (an app made in tests or embedded): AnyIO's default, as before.
DEFAULT_THREADS = 40


class Workers:
    """A bounded pool of threads for the table's blocking work."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads if threads is not None else DEFAULT_THREADS
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="ordnance-work")

    async def run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args, **kwargs)`` in one of the threads; its answer or its exception."""
        loop = asyncio.get_running_loop()
        if kwargs:
            return await loop.run_in_executor(self._pool, lambda: work(*args, **kwargs))
        return await loop.run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        """Take no more work; what runs ends on its own (a thread is never interrupted)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
