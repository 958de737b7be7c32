"""The routes' blocking work runs in the table's own threads, no more of them at once than
``ordnance serve --threads`` allows (web/work.py) (SYS.record)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import run_apart

from ordnance.web import table_page
from ordnance.web.app import create_app
from ordnance.web.work import Workers

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vv-meeting-engagement.yaml"


def test_a_pool_runs_no_more_work_at_once_than_its_threads() -> None:
    workers = Workers(2)
    lock = threading.Lock()
    running = 0
    most = 0
    names: set[str] = set()

    def job(n: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
            names.add(threading.current_thread().name)
        time.sleep(0.02)
        with lock:
            running -= 1
        return n * n

    async def many() -> list[int]:
        return await asyncio.gather(*(workers.run(job, n) for n in range(8)))

    try:
        assert run_apart(many()) == [n * n for n in range(8)]
    finally:
        workers.close()
    assert most == 2
    assert len(names) == 2
    assert all(name.startswith("ordnance-work") for name in names)


def test_a_failure_in_the_work_reaches_the_route() -> None:
    workers = Workers(1)

    def broken() -> None:
        raise LookupError("no such thing")

    try:
        with pytest.raises(LookupError, match="no such thing"):
            run_apart(workers.run(broken))
    finally:
        workers.close()


def test_a_page_is_drawn_in_the_tables_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    draw = table_page._draw

    def watched(*args: object, **kwargs: object) -> str:
        seen.append(threading.current_thread().name)
        return draw(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(table_page, "_draw", watched)
    app = create_app(str(tmp_path / "g.db"), ai_keys=tmp_path / "ai.json", threads=1)
    with TestClient(app) as client:
        made = client.post("/api/games", json={"scenario": EXAMPLE.read_text()}).json()
        side, token = next(iter(made["tokens"].items()))
        assert client.get(f"/join/{made['game']}/{side}/{token}").status_code == 200
        assert client.get(f"/games/{made['game']}").status_code == 200
    assert len(seen) == 2
    assert all(name.startswith("ordnance-work") for name in seen), seen


class Hold:
    """Work that keeps a pool's one thread busy until :meth:`release`."""

    def __init__(self, workers: Workers) -> None:
        self.workers = workers
        self.busy = threading.Event()
        self.released = threading.Event()

    def _work(self) -> None:
        self.busy.set()
        self.released.wait(5)

    async def start(self) -> asyncio.Future[None]:
        """The held work, once the thread runs it."""
        held = asyncio.ensure_future(self.workers.run(self._work))
        await asyncio.to_thread(self.busy.wait, 5)
        return held

    def release(self) -> None:
        self.released.set()


def test_a_command_goes_ahead_of_the_pages_waiting() -> None:
    """With the one thread busy, pages then a command queued: the command runs next, the
    pages after it in the order they came."""
    workers = Workers(1)
    hold = Hold(workers)
    order: list[str] = []

    async def queued() -> None:
        held = await hold.start()
        pages = [asyncio.ensure_future(workers.run(order.append, f"page {n}")) for n in (1, 2)]
        command = asyncio.ensure_future(workers.run_first(order.append, "command"))
        await asyncio.sleep(0.01)  # all three in the queue before the thread is let go
        hold.release()
        await asyncio.gather(held, *pages, command)

    try:
        run_apart(queued())
    finally:
        workers.close()
    assert order == ["command", "page 1", "page 2"]


def test_work_cancelled_while_it_waits_never_runs() -> None:
    workers = Workers(1)
    hold = Hold(workers)
    ran: list[str] = []

    async def gone() -> None:
        held = await hold.start()
        page = asyncio.ensure_future(workers.run(ran.append, "page"))
        await asyncio.sleep(0.01)
        page.cancel()  # the browser went away
        await asyncio.sleep(0.01)
        hold.release()
        await held
        await workers.run(ran.append, "next")

    try:
        run_apart(gone())
    finally:
        workers.close()
    assert ran == ["next"]


def test_closing_waits_for_the_work_running() -> None:
    # The table closes its service once the pool is closed: a read still running would open
    # the database again (a SQLite poll, as a test's folder was being removed).
    workers = Workers(1)
    started, finished = threading.Event(), threading.Event()

    def slow() -> None:
        started.set()
        time.sleep(0.3)
        finished.set()

    async def begin() -> None:  # returns once the work runs (its waiting task is dropped)
        running = asyncio.get_running_loop().create_task(workers.run(slow))
        for _ in range(1000):
            if started.is_set():
                break
            await asyncio.sleep(0.01)
        running.cancel()  # too late to stop the work: it runs on

    run_apart(begin())
    assert started.is_set()
    workers.close()
    assert finished.is_set()


def test_a_closed_pool_takes_no_more_work_and_its_threads_end() -> None:
    workers = Workers(2)
    run_apart(workers.run(time.sleep, 0))
    threads = [t for t in threading.enumerate() if t.name.startswith("ordnance-work")]
    workers.close()
    with pytest.raises(RuntimeError, match="closed"):
        run_apart(workers.run(time.sleep, 0))
    for thread in threads:
        thread.join(2)
    assert workers.threads == 2
    assert not any(t.is_alive() for t in workers._started)
    with pytest.raises(ValueError, match="at least one thread"):
        Workers(0)
