"""The web table under load: N games at once, played as people (and the server's AI) play them.

For each level N (``--games``, 100,300,500 by default) every game is played over HTTP (aiohttp)
through real ``ordnance serve`` processes, in two set-ups measured in the same run:

- ``sqlite``: one process on a SQLite file (the default table);
- ``pg x2``: two processes on one PostgreSQL server (durable: fsync on) that the harness
  starts; each side of a game acts and listens through its own process, so every push
  crosses processes (PostgreSQL NOTIFY).

The games: four in five are two people, half of them the ASL C8 demo (50 Game Turns: fire with
special ammunition, canister, moves, phases) and half the V&V meeting engagement (moves, AP
fire); one in five is the V&V scenario against the server's AI (its commands follow each of
the person's in the background). Each side holds its private link's cookie and listens to the
game's server-sent events. A turn of a side is what a browser does:

1. the side's legal actions from the JSON API (``GET /api/games/G?side=S``);
2. for an action other than 'phase ...' (three times in four), its preview first
   (``GET /games/G/S/preview?action=...``, the fragment the board asks for);
3. the action (``POST /api/games/G/do`` with the version it saw), dice rolled by the server;
4. on the push, every listening side's page is drawn again (``GET /games/G/S?seen=V``, as
   ``static/table.js`` does on each ``version`` event); against the AI, the person's side
   waits for the AI's turn to end (its pushes, then the status) before it thinks again.

Reported per level and set-up: action p50/p95 (request to answer), push p50/p95 (request to
the other page's event), page p95 and preview p95, errors (5xx, a lost connection or a push
that never came; refusals of a legal action are counted apart), how much CPU the load
generator (this process) and the servers took while the games were played, in cores, and the
servers' CPU per person's action in ms (what the action brings: its pages, preview, pushes and
the AI's answers; one server core serves 1000 / that actions a second). Targets (issue 28):
500 games on ``pg x2`` and 300 on ``sqlite``, think 3 s: action p95 < 100 ms, push p95 < 250
ms, 0 errors. The servers run with rate limits off (one machine sends everything).

The client is aiohttp (its HTTP parser is C), one session per side as one browser per person.
With httpx the generator took 0.58-0.69 of a core at 500 games: its one thread fell behind on
2 shared cores, and its own wait was counted as the servers' (act p95 324 ms with httpx, 31 ms
with aiohttp, same servers, same run of the machine; docs/benchmarks.md, twelfth round).

Run: .venv/bin/python benchmarks/bench_web.py [--games 100,300,500] [--actions 6] [--think 3]
      [--setups sqlite,pg] [--threads N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import shlex
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_harness as harness
from ordnance.web import collector
from ordnance.web.security import CSRF_COOKIE, side_cookie

VV = Path(__file__).resolve().parents[1] / "examples" / "vv-meeting-engagement.yaml"
AI_SIDE = "german"  # the side the server's AI plays in one game in five
PUSH_WAIT = 30.0  # seconds a page waits for a push before it counts as lost
AI_WAIT = 120.0  # seconds a person waits for the AI's turn before it counts as lost

pct = harness.pct


def vv_text() -> str:
    """The V&V meeting engagement, lasting 50 turns (a level never runs out of play)."""
    text = VV.read_text(encoding="utf-8")
    return re.sub(r"(?m)^turns: \d+", "turns: 50", text, count=1)


@dataclass
class Tally:
    """What one level of one set-up measured (seconds)."""

    action: list[float] = field(default_factory=list)
    push: list[float] = field(default_factory=list)
    page: list[float] = field(default_factory=list)
    preview: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refused: int = 0

    def failed(self, what: str) -> None:
        self.errors.append(what)


@dataclass
class Answer:
    """What a request brought back: its status, body and the cookies it set."""

    status_code: int
    content: bytes
    cookies: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.content)


LOST = (aiohttp.ClientError, TimeoutError)  # a connection lost or a request timed out


def browser() -> aiohttp.ClientSession:
    """One browser's connections: at most 6 to a server, as browsers open, each kept alive 1 s
    (less than the server's 5 s, so none is reused as the server closes it; kept 4 s, past the
    think time, a run at 500 games on two processes lost 16 requests' connections, where 1 s
    lost none: more idle connections, likely past a process's bound of 1000, which closes the
    idlest). Its cookies are sent by hand (:meth:`Side.headers`), as a side's browser holds
    them; the jar keeps none."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=6, keepalive_timeout=1.0),
        timeout=aiohttp.ClientTimeout(total=60),
        cookie_jar=aiohttp.DummyCookieJar(),
    )


async def fetch(client: aiohttp.ClientSession, method: str, url: str, **options: Any) -> Answer:
    """``method url`` answered and read to its end (a redirect is an answer, not followed)."""
    async with client.request(method, url, allow_redirects=False, **options) as answer:
        body = await answer.read()
        cookies = {k: m.value for k, m in answer.cookies.items()}
        return Answer(answer.status, body, cookies)


@dataclass
class Side:
    """One person's side of a game: where it plays, its token, the versions pushed to it, and
    its browser's own connections (:func:`browser`). One shared client for every side would
    scan all the bench's connections on each request (httpx's pool did): at 100 games that
    took the generator's whole core and was read as the server's latency."""

    name: str
    base: str
    token: str
    client: aiohttp.ClientSession = field(default_factory=browser)
    seen: dict[int, float] = field(default_factory=dict)
    woken: asyncio.Event = field(default_factory=asyncio.Event)
    csrf: str | None = None  # the CSRF cookie its first page set, sent back as a browser does

    def headers(self, game: str) -> dict[str, str]:
        cookies = f"{side_cookie(game, self.name)}={self.token}"
        if self.csrf is not None:
            cookies += f"; {CSRF_COOKIE}={self.csrf}"
        return {"Cookie": cookies}

    def keep(self, answer: Answer) -> None:
        """The cookies a page sets (its cookies are sent by hand: see :meth:`headers`)."""
        self.csrf = answer.cookies.get(CSRF_COOKIE, self.csrf)


async def timed(tally: list[float], call: Awaitable[Answer], errors: list[str]) -> Answer | None:
    """The answer to ``call``, its time noted in ``tally``; None (an error noted) when the
    connection was lost or timed out."""
    start = time.perf_counter()
    try:
        answer = await call
    except LOST as error:
        errors.append(f"connection: {type(error).__name__}")
        return None
    tally.append(time.perf_counter() - start)
    return answer


async def listen(url: str, side: Side, ready: asyncio.Event) -> None:
    """The page's event stream: when each version was announced to ``side``."""
    client = side.client
    while not client.closed:
        with contextlib.suppress(*LOST):
            async with client.get(url, timeout=aiohttp.ClientTimeout()) as stream:
                async for raw in stream.content:
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("event: hello"):
                        ready.set()
                    if line.startswith("data: ") and ready.is_set():
                        side.seen.setdefault(int(line[6:]), time.perf_counter())
                        side.woken.set()
        await asyncio.sleep(1.0)  # the browser's EventSource comes back (retry: 1000)


async def pushed(side: Side, version: int, timeout: float) -> float | None:
    """When ``side``'s page heard of ``version`` or a later one (None: not within timeout)."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        found = [t for v, t in side.seen.items() if v >= version]
        if found:
            return min(found)
        side.woken.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(side.woken.wait(), 0.5)
    return None


class Player:
    """One game played through the servers as its people's browsers play it."""

    def __init__(self, game: str, sides: list[Side], tally: Tally, ai: bool) -> None:
        self.game, self.sides, self.tally, self.ai = game, sides, tally, ai

    def side(self, name: str) -> Side | None:
        return next((s for s in self.sides if s.name == name), None)

    async def page(self, side: Side, seen: int) -> None:
        url = f"{side.base}/games/{self.game}/{side.name}?seen={seen}"
        got = fetch(side.client, "GET", url, headers=side.headers(self.game))
        answer = await timed(self.tally.page, got, self.tally.errors)
        if answer is not None:
            side.keep(answer)
            if answer.status_code >= 500:
                self.tally.failed(f"page {answer.status_code}")

    async def status(self, side: Side) -> dict[str, object]:
        url = f"{side.base}/api/games/{self.game}?side={side.name}"
        answer = await timed([], fetch(side.client, "GET", url), self.tally.errors)
        if answer is None:
            return {}
        if answer.status_code != 200:
            self.tally.failed(f"status {answer.status_code}")
            return {}
        body: dict[str, object] = answer.json()
        return body

    async def turn(self, side: Side, version: int, rng: random.Random) -> tuple[int, str | None]:
        """One action of ``side``; the version and side to move after it (None: stop)."""
        status = await self.status(side)
        legal = status.get("legal_actions", {}).get(side.name, [])  # type: ignore[union-attr]
        if not legal:
            return version, None
        acts = [a for a in legal if not a.startswith("phase")]
        action = rng.choice(acts) if acts and rng.random() < 0.75 else rng.choice(legal)
        version = int(status["version"])  # type: ignore[call-overload]
        if not action.startswith("phase"):
            url = f"{side.base}/games/{self.game}/{side.name}/preview?action={quote(action)}"
            got = fetch(side.client, "GET", url, headers=side.headers(self.game))
            answer = await timed(self.tally.preview, got, self.tally.errors)
            if answer is not None:
                side.keep(answer)
                if answer.status_code >= 500:
                    self.tally.failed(f"preview {answer.status_code}")
        start = time.perf_counter()
        answer = await timed(
            self.tally.action,
            fetch(
                side.client,
                "POST",
                f"{side.base}/api/games/{self.game}/do",
                json={"side": side.name, "words": shlex.split(action), "expect_version": version},
                headers={"Authorization": f"Bearer {side.token}"},
            ),
            self.tally.errors,
        )
        if answer is None:
            return version, None
        if answer.status_code >= 500:
            self.tally.failed(f"do {answer.status_code}")
            return version, None
        if answer.status_code != 200:
            self.tally.refused += 1
            return version, side.name
        body = answer.json()
        now, to_move = int(body["version_now"]), body["to_move"]
        others = [s for s in self.sides if s is not side]
        for other in others:
            heard = await pushed(other, now, PUSH_WAIT)
            if heard is None:
                self.tally.failed("push lost")
                return now, None
            self.tally.push.append(heard - start)
        # Each page draws itself again on the push (the acting one after its own answer).
        await asyncio.gather(*(self.page(s, version) for s in self.sides))
        return now, to_move

    async def wait_ai(self, person: Side, version: int) -> tuple[int, str | None]:
        """Until the AI's turn has ended: the person's page follows its pushes."""
        deadline = time.perf_counter() + AI_WAIT
        while time.perf_counter() < deadline:
            status = await self.status(person)
            if not status:
                return version, None
            version = int(status["version"])  # type: ignore[call-overload]
            to_move = status.get("to_move")
            if to_move is None or status.get("ai_trouble"):
                return version, None
            if to_move == person.name and not status.get("ai_to_play"):
                await self.page(person, version)
                return version, person.name
            await pushed(person, version + 1, 1.0)
        self.tally.failed("AI turn never ended")
        return version, None

    async def play(self, actions: int, think: float, rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(0, think))
        first = self.sides[0]
        status = await self.status(first)
        version, to_move = int(status.get("version", 0)), status.get("to_move")  # type: ignore[call-overload]
        for _ in range(actions):
            side = self.side(str(to_move))
            if side is None:
                if not self.ai or to_move is None:
                    return
                version, to_move = await self.wait_ai(first, version)
                continue
            version, to_move = await self.turn(side, version, rng)
            if to_move is None:
                return
            await asyncio.sleep(think)


async def make(
    client: aiohttp.ClientSession, bases: list[str], index: int
) -> tuple[str, list[Side], bool]:
    """Game ``index``: its id, its people's sides (each at its own server), whether the AI plays."""
    ai = index % 5 == 4
    text = vv_text() if ai or index % 2 else harness.long_demo()
    body: dict[str, object] = {"scenario": text, "ai_sides": [AI_SIDE] if ai else []}
    answer = await fetch(client, "POST", f"{bases[index % len(bases)]}/api/games", json=body)
    if answer.status_code >= 300:
        raise RuntimeError(f"the game was not made: {answer.status_code} {answer.content!r}")
    made = answer.json()
    sides = [
        Side(name, bases[(index + k) % len(bases)], token)
        for k, (name, token) in enumerate(made["tokens"].items())
    ]
    for side in sides:  # the private link, as a browser opens it (its cookie is sent by hand)
        link = f"{side.base}/join/{made['game']}/{side.name}/{side.token}"
        joined = await fetch(side.client, "GET", link)
        if joined.status_code != 303:
            raise RuntimeError(f"the link of {side.name} was refused: {joined.status_code}")
    return made["game"], sides, ai


@contextlib.contextmanager
def paced_collector() -> Iterator[None]:
    """This process's garbage collector paced as a server's is (``web/collector.py``) while a
    level plays, what the set-up made frozen. With Python's defaults its full collections over
    every side's clients stopped all of them at once, for up to 0.86 s (300 games): that was
    counted as the servers' latency, and the requests held meanwhile then came in one burst."""
    before = gc.get_threshold()
    collector.pace()
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


async def play(
    bases: list[str],
    games: int,
    actions: int,
    think: float,
    seed: int,
    *,
    started: Callable[[], None] = lambda: None,
) -> Tally:
    """Make the games, then play them (``started`` is called in between)."""
    tally = Tally()
    rng = random.Random(seed)
    async with browser() as client:  # the set-up's
        made = [await make(client, bases, i) for i in range(games)]
        ready: list[asyncio.Event] = []
        listeners = []
        for game, sides, _ai in made:
            for side in sides:
                ready.append(asyncio.Event())
                url = f"{side.base}/games/{game}/events?seen=1"
                listeners.append(asyncio.create_task(listen(url, side, ready[-1])))
        await asyncio.gather(*(r.wait() for r in ready))
        players = [Player(g, s, tally, ai) for g, s, ai in made]
        with paced_collector():
            started()
            await asyncio.gather(
                *(p.play(actions, think, random.Random(rng.random())) for p in players)
            )
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        await asyncio.gather(*(side.client.close() for _, sides, _ai in made for side in sides))
    return tally


def cpu_of(pid: int) -> float:
    """Seconds of CPU process ``pid`` used so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(
    label: str,
    folder: Path,
    postgres: harness.Postgres | None,
    games: int,
    args: argparse.Namespace,
) -> tuple[Tally, float, float, float]:
    """One set-up at one level, while its games are played (not made): the tally, the
    generator's and the servers' CPU (cores), and the servers' CPU per person's action (ms,
    the pages, previews, pushes and AI commands it brings included)."""
    keys = folder / f"ai-{label}-{games}.json"
    # A side holds its event stream and up to 6 connections: a host of N games raises the
    # bound of 1000 connections per process (at 500 games on one process it closed the ones
    # waiting longest, which the bench counted as lost connections).
    options = [*harness.NO_LIMITS, "--max-connections", str(max(1000, games * 2 * 7))]
    if args.threads:
        options += ["--threads", str(args.threads)]
    if postgres is None:
        db = str(folder / f"web{games}.db")
        servers = [harness.ServeProcess(db, keys, *options)]
    else:
        db = postgres.create_database()
        servers = [harness.ServeProcess(db, keys, *options) for _ in range(2)]
    try:
        for server in servers:
            server.wait()
        marks: list[tuple[float, float, float]] = []

        def mark() -> None:  # (wall, this process's CPU, the servers' CPU)
            used = resource.getrusage(resource.RUSAGE_SELF)
            served = sum(cpu_of(s.process.pid) for s in servers)
            marks.append((time.perf_counter(), used.ru_utime + used.ru_stime, served))

        urls = [s.url for s in servers]
        tally = asyncio.run(play(urls, games, args.actions, args.think, 28, started=mark))
        mark()
        (start, mine, theirs), (end, mine_end, theirs_end) = marks
        wall = end - start
        served = (theirs_end - theirs) * 1000 / max(1, len(tally.action))
        return tally, (mine_end - mine) / wall, (theirs_end - theirs) / wall, served
    finally:
        for server in servers:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="100,300,500")
    parser.add_argument("--actions", type=int, default=6)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--setups", default="sqlite,pg")
    parser.add_argument("--threads", type=int, default=0, help="serve --threads (0: its default)")
    args = parser.parse_args()
    counts = [min(int(n), harness.MAX_GAMES) for n in args.games.split(",")]
    setups = args.setups.split(",")
    print(
        f"web table: {args.actions} actions per game (ASL C8, V&V; one game in five against"
        f" the server's AI), previews and pages as a browser asks, think {args.think} s"
    )
    print(
        f"{'games':>5} {'setup':>7} {'act p50':>8} {'act p95':>8} {'push p50':>9}"
        f" {'push p95':>9} {'page p95':>9} {'prev p95':>9} {'errors':>6} {'refused':>7}"
        f" {'gen cpu':>7} {'srv cpu':>7} {'srv ms/act':>10}  load"
    )
    postgres = harness.Postgres() if "pg" in setups else None
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            for games in counts:
                for label in setups:
                    tally, mine, theirs, per_action = measure(
                        label, folder, postgres if label == "pg" else None, games, args
                    )
                    shown = "pg x2" if label == "pg" else label
                    load = os.getloadavg()[0]
                    print(
                        f"{games:>5} {shown:>7} {pct(tally.action, 0.5):8.1f}"
                        f" {pct(tally.action, 0.95):8.1f} {pct(tally.push, 0.5):9.1f}"
                        f" {pct(tally.push, 0.95):9.1f} {pct(tally.page, 0.95):9.1f}"
                        f" {pct(tally.preview, 0.95):9.1f} {len(tally.errors):6d}"
                        f" {tally.refused:7d} {mine:7.2f} {theirs:7.2f} {per_action:10.1f}"
                        f"  {load:.1f}",
                        flush=True,
                    )
                    if tally.errors:
                        kinds = sorted(set(tally.errors))
                        print(
                            "      errors:",
                            ", ".join(f"{k} x{tally.errors.count(k)}" for k in kinds),
                        )
    finally:
        if postgres is not None:
            postgres.stop()


if __name__ == "__main__":
    main()
