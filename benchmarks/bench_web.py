"""The web table under load: N games at once, two simulated sides each, over HTTP (httpx).

For N = 10, 50, 100 games, every game's two sides alternate 'phase next' commands through the
JSON API, each side listening to the game's server-sent events on its own connection, in two
set-ups measured in the same run:

- ``sqlite``: one `ordnance serve` process on a SQLite file (the default table);
- ``pg x2``: two `ordnance serve` processes on one PostgreSQL server (durable: fsync on) that
  the harness starts; one side acts and listens through each process, so every push crosses
  processes (PostgreSQL NOTIFY).

Reported: p50/p95 action latency (request to answer) and p50/p95 push delay (request to the
other side's event: the action's own latency plus the time to reach the other page; the event
may come before the acting side has read its answer), and beside them the baseline measured in
the same run: the same command through the game service in process (SQLite). Target (issue
12): p95 under 100 ms and push under 250 ms at 100 games. The servers run with rate limits off
(one client sends everything).

Load model: a side thinks before it acts (``--think`` seconds, 3.0 by default, each game
starting at a random offset), as people at a table do; ``--think 0`` hammers the servers with
every game's commands back to back. Traffic goes to 127.0.0.1 only (benchmarks/web_harness.py).

Run: .venv/bin/python benchmarks/bench_web.py [--games 10,50,100] [--actions 6] [--think 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_harness as harness
from ordnance.game.service import GameService

SCENARIO = Path(__file__).resolve().parents[1] / "examples" / "asl-c8-demo.yaml"


pct = harness.pct


def baseline(folder: Path, games: int, actions: int) -> list[float]:
    service = GameService(str(folder / "baseline.db"))
    made = [service.new_game(SCENARIO) for _ in range(games)]
    times: list[float] = []
    for _ in range(actions):
        for game in made:
            side = service.status(game.game)["to_move"]
            start = time.perf_counter()
            service.do(game.game, side, game.tokens[side], ["phase", "next"])
            times.append(time.perf_counter() - start)
    service.close()
    return times


async def listen(
    client: httpx.AsyncClient, url: str, seen: dict[int, float], ready: asyncio.Event
) -> None:
    async with client.stream("GET", url) as stream:
        async for line in stream.aiter_lines():
            if line.startswith("event: hello"):
                ready.set()
            if line.startswith("data: ") and ready.is_set():
                seen.setdefault(int(line[6:]), time.perf_counter())


async def play(
    bases: list[str], games: int, actions: int, think: float
) -> tuple[list[float], list[float]]:
    """Side k of every game acts and listens through ``bases[k % len(bases)]``."""
    text = SCENARIO.read_text(encoding="utf-8")
    limits = httpx.Limits(max_connections=games * 4 + 10, keepalive_expiry=1.0)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        made = [
            (
                await client.post(f"{bases[i % len(bases)]}/api/games", json={"scenario": text})
            ).json()
            for i in range(games)
        ]
        sides = list(made[0]["tokens"])
        where = {side: bases[k % len(bases)] for k, side in enumerate(sides)}
        # seen[game][side]: when that side's stream announced each version
        seen: list[dict[str, dict[int, float]]] = [{s: {} for s in sides} for _ in made]
        ready = [asyncio.Event() for _ in made for _ in sides]
        listeners = [
            asyncio.create_task(
                listen(client, f"{where[s]}/games/{m['game']}/events?seen=1", seen[i][s], r)
            )
            for i, m in enumerate(made)
            for s, r in zip(sides, ready[i * len(sides) : (i + 1) * len(sides)], strict=True)
        ]
        await asyncio.gather(*(r.wait() for r in ready))
        latency: list[float] = []
        push: list[float] = []

        async def one_game(index: int) -> None:
            game = made[index]
            version = 1
            await asyncio.sleep(random.uniform(0, think))
            side = (await client.get(f"{where[sides[0]]}/api/games/{game['game']}")).json()[
                "to_move"
            ]
            for _ in range(actions):
                start = time.perf_counter()
                answer = await client.post(
                    f"{where[side]}/api/games/{game['game']}/do",
                    json={"side": side, "words": ["phase", "next"], "expect_version": version},
                    headers={"Authorization": f"Bearer {game['tokens'][side]}"},
                )
                latency.append(time.perf_counter() - start)
                body = answer.json()
                other = next(s for s in sides if s != side)
                version, side = body["version"], body["to_move"]
                while version not in seen[index][other]:
                    await asyncio.sleep(0.005)
                push.append(seen[index][other][version] - start)
                await asyncio.sleep(think)

        await asyncio.gather(*(one_game(i) for i in range(games)))
        for task in listeners:
            task.cancel()
        return latency, push


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="10,50,100")
    parser.add_argument("--actions", type=int, default=6)
    parser.add_argument("--think", type=float, default=3.0)
    args = parser.parse_args()
    counts = [min(int(n), harness.MAX_GAMES) for n in args.games.split(",")]
    print(
        f"web table: {args.actions} 'phase next' per game, a side thinks {args.think} s"
        " before each; baseline: the same command through GameService in process"
    )
    print(
        f"{'games':>5} {'setup':>7} {'p50 ms':>8} {'p95 ms':>8} {'push p50':>9}"
        f" {'push p95':>9} {'base p50':>9} {'p50/base':>9}"
    )
    postgres = harness.Postgres()
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            for games in counts:
                base = baseline(folder, games, args.actions)
                for label in ("sqlite", "pg x2"):
                    latency, push = measure(label, folder, postgres, games, args)
                    ratio = statistics.median(latency) / statistics.median(base)
                    print(
                        f"{games:>5} {label:>7} {pct(latency, 0.5):8.1f}"
                        f" {pct(latency, 0.95):8.1f} {pct(push, 0.5):9.1f}"
                        f" {pct(push, 0.95):9.1f} {pct(base, 0.5):9.2f} {ratio:8.1f}x"
                    )
    finally:
        postgres.stop()


def measure(
    label: str, folder: Path, postgres: harness.Postgres, games: int, args: argparse.Namespace
) -> tuple[list[float], list[float]]:
    """Latency and push delay of one set-up: one SQLite process, or two on PostgreSQL."""
    keys = folder / "ai.json"
    if label == "sqlite":
        db = str(folder / f"web{games}.db")
        servers = [harness.ServeProcess(db, keys, *harness.NO_LIMITS)]
    else:
        db = postgres.create_database()
        servers = [harness.ServeProcess(db, keys, *harness.NO_LIMITS) for _ in range(2)]
    try:
        for server in servers:
            server.wait()
        return asyncio.run(play([s.url for s in servers], games, args.actions, args.think))
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
