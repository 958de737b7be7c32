"""The web table under load: N games at once, two simulated sides each, over HTTP (httpx).

For N = 10, 50, 100 games on SQLite, every game's two sides alternate 'phase next' commands
through the JSON API of a real uvicorn server on this machine, while a server-sent events
stream per game listens as the other side would. Reported: p50/p95 action latency (request to
answer) and p50/p95 push delay (answer to the other side's event), and beside them the
baseline measured in the same run: the same command through the game service in process.
Target (issue 12): p95 under 100 ms and push under 250 ms at 100 games.

Load model: a side thinks before it acts (``--think`` seconds, 3.0 by default, each game
starting at a random offset), as people at a table do; ``--think 0`` hammers the server with
every game's commands back to back, which measures the queue behind SQLite's single writer.

Run: .venv/bin/python benchmarks/bench_web.py [--games 10,50,100] [--actions 6]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn

from ordnance.game.service import GameService
from ordnance.web.app import create_app

SCENARIO = Path(__file__).resolve().parents[1] / "examples" / "asl-c8-demo.yaml"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


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
    base: str, games: int, actions: int, think: float
) -> tuple[list[float], list[float]]:
    text = SCENARIO.read_text(encoding="utf-8")
    limits = httpx.Limits(max_connections=games * 2 + 10)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        made = [
            (await client.post("/api/games", json={"scenario": text})).json() for _ in range(games)
        ]
        seen: list[dict[int, float]] = [{} for _ in made]
        ready = [asyncio.Event() for _ in made]
        listeners = [
            asyncio.create_task(listen(client, f"/games/{m['game']}/events?seen=1", s, r))
            for m, s, r in zip(made, seen, ready, strict=True)
        ]
        await asyncio.gather(*(r.wait() for r in ready))
        latency: list[float] = []
        push: list[float] = []

        async def one_game(index: int) -> None:
            game = made[index]
            version = 1
            await asyncio.sleep(random.uniform(0, think))
            side = (await client.get(f"/api/games/{game['game']}")).json()["to_move"]
            for _ in range(actions):
                start = time.perf_counter()
                answer = await client.post(
                    f"/api/games/{game['game']}/do",
                    json={"side": side, "words": ["phase", "next"], "expect_version": version},
                    headers={"Authorization": f"Bearer {game['tokens'][side]}"},
                )
                done = time.perf_counter()
                latency.append(done - start)
                body = answer.json()
                version, side = body["version"], body["to_move"]
                while version not in seen[index]:
                    await asyncio.sleep(0.005)
                push.append(max(0.0, seen[index][version] - done))
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
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(
            f"web table: {args.actions} 'phase next' per game, a side thinks {args.think} s"
            " before each; baseline: the same command through GameService in process"
        )
        print(
            f"{'games':>5} {'p50 ms':>8} {'p95 ms':>8} {'push p50':>9} {'push p95':>9}"
            f" {'base p50':>9} {'p50/base':>9}"
        )
        for games in (int(n) for n in args.games.split(",")):
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            app = create_app(str(folder / f"web{games}.db"), ai_keys=folder / "ai.json")
            server = uvicorn.Server(
                uvicorn.Config(
                    app,
                    port=port,
                    log_level="error",
                    timeout_graceful_shutdown=1,
                    timeout_keep_alive=60,
                )
            )
            thread = threading.Thread(target=server.run, daemon=True)
            thread.start()
            while not server.started:
                time.sleep(0.05)
            latency, push = asyncio.run(
                play(f"http://127.0.0.1:{port}", games, args.actions, args.think)
            )
            server.should_exit = True
            thread.join(timeout=10)
            base = baseline(folder, games, args.actions)
            ratio = statistics.median(latency) / statistics.median(base)
            print(
                f"{games:>5} {pct(latency, 0.5):8.1f} {pct(latency, 0.95):8.1f}"
                f" {pct(push, 0.5):9.1f} {pct(push, 0.95):9.1f} {pct(base, 0.5):9.2f}"
                f" {ratio:8.1f}x"
            )


if __name__ == "__main__":
    main()
