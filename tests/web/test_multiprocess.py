"""Several `ordnance serve` processes on one PostgreSQL (SYS.record): pushes cross processes,
races for the last round spend it once, killed processes and a restarted database lose nothing
acknowledged.

The database is a server of the module's own with durability on (fsync, synchronous commit),
started by benchmarks/web_harness.py, as are the two server processes (limits off: one client
sends everything). ``$ORDNANCE_RACE_REPETITIONS`` and ``$ORDNANCE_WEB_KILLS`` shrink the loops.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import sqlalchemy as sa
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
harness: Any = importlib.import_module("web_harness")

RACES = int(os.environ.get("ORDNANCE_RACE_REPETITIONS", "1000"))
KILLS = int(os.environ.get("ORDNANCE_WEB_KILLS", "100"))
PUSH_LIMIT = 1.0  # seconds from the acting process's answer to the other process's event
# The Gun's one APCR round goes with a DR equal to its Depletion Number (C8.9-eq).
SHOT = ["fire", "pak", "--ammo", "APCR", "--dice", "2,3"]
LAST_ROUND = {
    "ruleset": "asl",
    "name": "the last round",
    "date": "1944-09",
    "dice": "physical",
    "sides": {
        "german": {"units": {"pak": {"notation": "A5", "size": "75L"}}},
        "russian": {"units": {"t34": {"kind": "vehicle", "notation": "A5(4)/6(5)"}}},
    },
}

pytestmark = pytest.mark.clause("SYS.record")
T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on a loop of its own thread: the browser tests' Playwright keeps an
    event loop running in the main thread for the whole session."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture(scope="module")
def database(postgres: Any) -> str:
    url: str = postgres.create_database()
    return url


@pytest.fixture(scope="module")
def servers(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Any]]:
    with harness.two_servers(database, tmp_path_factory.mktemp("serve")) as both:
        yield both


async def sse(client: httpx.AsyncClient, url: str) -> AsyncIterator[tuple[str, str]]:
    """(event, data) pairs of a server-sent event stream."""
    async with client.stream("GET", url) as stream:
        name = ""
        async for line in stream.aiter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                yield name, line[6:]


async def open_side_page(base: str, game: Any, side: str) -> tuple[httpx.AsyncClient, str, int]:
    """A browser of ``side`` (its own cookies) on ``base``: its page's event URL and version."""
    limits = httpx.Limits(keepalive_expiry=1.0)
    browser = httpx.AsyncClient(base_url=base, timeout=30, follow_redirects=True, limits=limits)
    page = await browser.get(f"/join/{game.id}/{side}/{game.tokens[side]}")
    assert page.status_code == 200 and str(page.url).endswith(f"/games/{game.id}/{side}")
    events = re.search(r'data-events="([^"]+)"', page.text)
    version = re.search(r'data-version="(\d+)"', page.text)
    assert events is not None and version is not None
    return browser, events.group(1), int(version.group(1))


async def push_delay(acting: str, watching: str, game: Any) -> float:
    """Act through ``acting`` for the side to move; seconds until the other side's page on
    ``watching`` hears of it (and then shows it)."""
    watcher = "russian" if game.to_move == "german" else "german"
    browser, events, seen = await open_side_page(watching, game, watcher)
    try:
        stream = sse(browser, f"{events}?seen={seen}")
        assert (await anext(stream))[0] == "hello"
        async with harness.new_client() as client:
            answer = await harness.act(client, acting, game, ["phase", "next"])
        done = time.perf_counter()
        assert answer.status_code == 200, answer.text
        event = await asyncio.wait_for(anext(stream), 10)
        delay = time.perf_counter() - done
        await stream.aclose()
        assert event == ("version", str(game.version))
        page = await browser.get(f"/games/{game.id}/{watcher}")
        assert f'data-version="{game.version}"' in page.text
    finally:
        await browser.aclose()
    return delay


def test_a_page_on_one_process_sees_an_action_through_the_other_within_a_second(
    servers: list[Any],
) -> None:
    a, b = servers

    async def run() -> list[float]:
        async with harness.new_client() as client:
            game = await harness.new_game(client, a.url)
        return [
            await push_delay(a.url, b.url, game),
            await push_delay(b.url, a.url, game),
            await push_delay(a.url, b.url, game),
        ]

    delays = run_apart(run())
    assert max(delays) < PUSH_LIMIT, delays


@pytest.mark.clause("SYS.record", "C8.9-eq")
def test_races_for_the_last_round_through_two_processes_spend_it_once(
    servers: list[Any], database: str
) -> None:
    a, b = servers
    text = yaml.safe_dump(LAST_ROUND)

    async def race(client: httpx.AsyncClient, index: int) -> tuple[int, ...]:
        game = await harness.new_game(client, (a, b)[index % 2].url, text)
        moved = await harness.act(client, a.url, game, ["phase", "next"])  # to the fire phase
        assert moved.status_code == 200, moved.text
        # Half the races name the version both shots were decided on, half do not.
        answers = await asyncio.gather(
            *(harness.act(client, s.url, game, SHOT, expect=index % 4 < 2) for s in (a, b))
        )
        outcomes = sorted(
            r.json().get("error", "stored") if r.status_code != 200 else "stored" for r in answers
        )
        assert outcomes in (["stale", "stored"], ["refused", "stored"]), outcomes
        if outcomes[0] == "refused":  # it read the state after the winner had stored it
            assert any("C8.9-eq" in r.text for r in answers), [r.text for r in answers]
        games.append(game.id)
        return tuple(r.status_code for r in answers)

    async def run() -> list[tuple[int, ...]]:
        gate = asyncio.Semaphore(24)
        async with harness.new_client(64) as client:

            async def one(index: int) -> tuple[int, ...]:
                async with gate:
                    return await race(client, index)

            return await asyncio.gather(*(one(i) for i in range(RACES)))

    games: list[str] = []
    results = run_apart(run())
    assert len(results) == RACES
    # The stored logs, read from the database itself: one shot and version 3 in every game.
    engine = sa.create_engine(database.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as connection:
        stored = connection.execute(
            sa.text(
                "SELECT g.id, g.version, count(e.seq) FROM games g LEFT JOIN entries e"
                " ON e.game_id = g.id AND e.type = 'command' AND e.body LIKE :fire"
                " WHERE g.id = ANY(:ids) GROUP BY g.id, g.version"
            ),
            {"ids": games, "fire": '%"verb":"fire"%'},
        ).all()
    engine.dispose()
    assert len(stored) == RACES
    assert {(version, shots) for _, version, shots in stored} == {(3, 1)}
    # Both processes stored winning shots: the races really crossed processes.
    assert {r.index(200) for r in results} == {0, 1}


def test_sigkill_of_one_process_mid_burst_loses_no_acknowledged_action(
    servers: list[Any], database: str
) -> None:
    survivor = servers[1]
    # The forked servers share the survivor's key store and AI key file, as a deployment must.
    acked, lost = run_apart(harness.kill_loop(database, survivor.url, survivor.folder, 6, KILLS))
    assert acked > KILLS and lost == 0, (acked, lost)


def test_a_postgresql_restart_mid_game_is_survived(postgres: Any, servers: list[Any]) -> None:
    a, b = servers

    async def run() -> tuple[int, int, float]:
        async with harness.new_client() as client:
            games = [await harness.new_game(client, a.url) for _ in range(4)]
            play = asyncio.create_task(harness.burst([a.url, b.url], games, 4.0, client))
            await asyncio.sleep(0.5)
            await asyncio.to_thread(postgres.restart)
            await play
            # The database is back: every process serves again, and pages resync.
            deadline = time.monotonic() + 30
            while True:
                try:
                    fresh = await harness.new_game(client, b.url)
                    break
                except httpx.HTTPStatusError:
                    assert time.monotonic() < deadline, "no new game 30 s after the restart"
                    await asyncio.sleep(0.2)
            for game in [*games, fresh]:
                await harness.resync(client, b.url, game)
                if game.to_move is not None:
                    answer = await harness.act(client, a.url, game, ["phase", "next"])
                    assert answer.status_code == 200, answer.text
        acked, lost = await harness.check_acked(b.url, games)
        delay = await push_delay(a.url, b.url, fresh)
        return acked, lost, delay

    acked, lost, delay = run_apart(run())
    assert acked > 0 and lost == 0, (acked, lost)
    assert delay < PUSH_LIMIT
