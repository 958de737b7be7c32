"""Load and fault harness for the web table: real servers on this machine, bounded clients.

What it starts: a PostgreSQL server of its own (:class:`Postgres`: Debian's binaries, a
temporary data folder, durability ON: fsync, synchronous commit, full page writes), `ordnance
serve` processes (:class:`ServeProcess`) and, for the kill loops, server processes forked from
the caller (:class:`ForkedServer`: the same app, started in milliseconds rather than seconds, so
a hundred SIGKILLs fit in a test). What it sends: JSON API calls and server-sent event streams
through httpx/asyncio, to 127.0.0.1 only (:func:`loopback_only` refuses any other address), in
a bounded number (``MAX_GAMES`` games, ``MAX_SECONDS`` per run).

The tests (tests/web/test_multiprocess.py) and benchmarks/bench_web.py use it; run alone it
plays a burst of games through two processes on PostgreSQL while killing one of them:

    .venv/bin/python benchmarks/web_harness.py --games 20 --kills 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pwd
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "asl-c8-demo.yaml"
MAX_GAMES = 2000
MAX_SECONDS = 900.0
READY_SECONDS = 60.0
PG_USER = "postgres"


def loopback_only(url: str) -> str:
    """``url`` when it points at this machine; the harness sends nothing anywhere else.

    >>> loopback_only("http://127.0.0.1:8000")
    'http://127.0.0.1:8000'
    >>> loopback_only("http://example.org")
    Traceback (most recent call last):
    ...
    ValueError: the harness talks to 127.0.0.1 only, not example.org
    """
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost"):
        raise ValueError(f"the harness talks to 127.0.0.1 only, not {host}")
    return url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in milliseconds (nan when there are none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


# --- PostgreSQL ----------------------------------------------------------------------------------


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_server_user(args: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root.
    return ["runuser", "-u", PG_USER, "--", *args] if os.geteuid() == 0 else args


class Postgres:
    """A PostgreSQL server of our own on a free local port, durable (fsync on)."""

    def __init__(self) -> None:
        bindir = _pg_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL binaries not found: run scripts/ensure_postgres.sh")
        self.root = Path(tempfile.mkdtemp(prefix="ordnance-pgh-"))
        if os.geteuid() == 0:
            user = pwd.getpwnam(PG_USER)
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self.data, self.port = self.root / "data", free_port()
        self.pg_ctl = [str(bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log")]
        subprocess.run(
            _as_server_user(
                [str(bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust"]
            ),
            check=True,
            capture_output=True,
        )
        self.options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=on"
            " -c synchronous_commit=on -c full_page_writes=on -c max_connections=300"
        )
        self._ctl("start")

    def _ctl(self, *args: str) -> None:
        command = _as_server_user([*self.pg_ctl, "-w", "-o", self.options, *args])
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A fresh, empty database; its URL."""
        name = f"h_{os.urandom(6).hex()}"
        admin = sa.create_engine(self.url().replace("postgresql://", "postgresql+psycopg://"))
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(sa.text(f"CREATE DATABASE {name}"))
        admin.dispose()
        return self.url(name)

    def restart(self) -> None:
        """Stop (fast: sessions are cut) and start again on the same port and data."""
        self._ctl("-m", "fast", "restart")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._ctl("-m", "fast", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


# --- server processes ----------------------------------------------------------------------------

NO_LIMITS = ["--limit-actions", "0", "--limit-games", "0", "--limit-uploads", "0"]


def key_store(folder: Path) -> Path:
    """The key store every server process started with files in ``folder`` shares."""
    return folder / "keys"


def wait_ready(url: str, process_alive: Any = None, timeout: float = READY_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process_alive is not None and not process_alive():
            raise RuntimeError(f"the server for {url} exited before it was ready")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/static/table.css", timeout=2).status_code == 200:
                return
        time.sleep(0.05)
    raise RuntimeError(f"the server at {url} did not start within {timeout} s")


class ServeProcess:
    """``ordnance serve --db DB`` on a free local port, as its own process."""

    def __init__(self, db: str, ai_keys: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = loopback_only(f"http://127.0.0.1:{self.port}")
        command = [str(Path(sys.executable).parent / "ordnance"), "serve", "--db", db]
        command += ["--port", str(self.port), "--ai-keys", str(ai_keys), *extra]
        # Its warnings and errors go to a file (a pipe nobody reads could fill and stall it).
        self.folder = ai_keys.parent
        self.log = self.folder / f"serve-{self.port}.log"
        # Every process of one database shares the key store (signing key, dice seeds).
        env = {**os.environ, "ORDNANCE_KEYS": str(key_store(self.folder))}
        with self.log.open("wb") as errors:
            self.process = subprocess.Popen(
                command,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                start_new_session=True,
                env=env,
            )

    def wait(self) -> ServeProcess:
        wait_ready(self.url, lambda: self.process.poll() is None)
        return self

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class ForkedServer:
    """The app on a fresh local port in a child forked from this process (fast to restart).

    Fork only from a process with no other threads running: the child starts a new event loop.
    """

    def __init__(self, db: str, ai_keys: Path) -> None:
        self.db, self.ai_keys = db, ai_keys
        self.pid = 0
        self.url = ""

    def start(self) -> ForkedServer:
        import uvicorn  # noqa: PLC0415

        from ordnance.web.app import create_app  # noqa: PLC0415
        from ordnance.web.limits import Limits  # noqa: PLC0415

        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        self.url = loopback_only(f"http://127.0.0.1:{listener.getsockname()[1]}")
        pid = os.fork()
        if pid == 0:  # the child: serve until killed
            code = 0
            try:
                os.environ["ORDNANCE_KEYS"] = str(key_store(self.ai_keys.parent))
                app = create_app(self.db, ai_keys=self.ai_keys, limits=Limits(0, 0, 0))
                config = uvicorn.Config(app, log_level="error", timeout_keep_alive=30)
                uvicorn.Server(config).run(sockets=[listener])
            except BaseException:  # the child must never return into its parent's code
                code = 1
            os._exit(code)
        listener.close()
        self.pid = pid
        wait_ready(self.url, self.alive)
        return self

    def alive(self) -> bool:
        try:
            done, _ = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return False
        return done == 0

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, whatever it was doing."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


@contextlib.contextmanager
def two_servers(db: str, folder: Path, *extra: str) -> Iterator[list[ServeProcess]]:
    """Two `ordnance serve` processes on ``db`` sharing one AI key file (started together)."""
    servers = [ServeProcess(db, folder / "ai.json", *NO_LIMITS, *extra) for _ in range(2)]
    try:
        for server in servers:
            server.wait()
        yield servers
    finally:
        for server in servers:
            server.stop()


# --- clients -------------------------------------------------------------------------------------


def new_client(connections: int = 100) -> httpx.AsyncClient:
    """An HTTP client that opens a connection per request: a kept-alive connection that the
    server closes as the next request goes out (its 5 s idle timeout, under load) would lose
    that request's answer, which says nothing about the table."""
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=0)
    return httpx.AsyncClient(timeout=60, limits=limits)


@dataclass
class Game:
    """A game made through the API: id, side tokens, version, whose move it is."""

    id: str
    tokens: dict[str, str]
    version: int
    to_move: str
    acked: list[tuple[int, str]] = field(default_factory=list)  # (seq, hash) acknowledged


def long_demo() -> str:
    """The C8 demo scenario, lasting 50 Game Turns instead of 1 (bursts never run out)."""
    text = DEMO.read_text(encoding="utf-8")
    return re.sub(r"(?m)^turns: 1\b", "turns: 50", text, count=1)


async def new_game(client: httpx.AsyncClient, base: str, text: str | None = None) -> Game:
    scenario = text if text is not None else long_demo()
    answer = await client.post(f"{base}/api/games", json={"scenario": scenario})
    answer.raise_for_status()
    made = answer.json()
    status = (await client.get(f"{base}/api/games/{made['game']}")).json()
    return Game(made["game"], made["tokens"], made["version"], status["to_move"])


async def act(
    client: httpx.AsyncClient, base: str, game: Game, words: list[str], *, expect: bool = True
) -> httpx.Response:
    """Send one command for the side to move; on success note what was acknowledged."""
    side = game.to_move
    answer = await client.post(
        f"{base}/api/games/{game.id}/do",
        json={"side": side, "words": words, "expect_version": game.version if expect else None},
        headers={"Authorization": f"Bearer {game.tokens[side]}"},
    )
    if answer.status_code == 200:
        body = answer.json()
        game.acked += [(e["seq"], e["hash"]) for e in body["entries"]]
        game.version, game.to_move = body["version_now"], body["to_move"]
    return answer


async def resync(client: httpx.AsyncClient, base: str, game: Game) -> None:
    """Catch up with the stored game (after a refusal, or a lost answer)."""
    answer = await client.get(f"{base}/api/games/{game.id}")
    if answer.status_code == 200:  # else (the database restarting) the next try tells
        status = answer.json()
        game.version, game.to_move = status["version"], status["to_move"]


async def stored_hashes(client: httpx.AsyncClient, base: str, game: Game) -> dict[int, str]:
    """seq -> hash of the game's stored log."""
    answer = await client.get(f"{base}/api/games/{game.id}/export")
    answer.raise_for_status()
    return {int(e["seq"]): str(e["hash"]) for e in json.loads(answer.text)["entries"]}


async def burst(
    bases: list[str], games: list[Game], seconds: float, client: httpx.AsyncClient
) -> int:
    """Every game sends 'phase next' through a random server for ``seconds`` (bounded); a
    failed or lost request is followed by a resync through a server that answers."""
    deadline = time.monotonic() + min(seconds, MAX_SECONDS)
    sent = 0

    async def one(game: Game) -> None:
        nonlocal sent
        while time.monotonic() < deadline and game.to_move is not None:  # None: over
            base = random.choice(bases)
            sent += 1
            try:
                answer = await act(client, base, game, ["phase", "next"])
                if answer.status_code != 200:
                    await resync(client, base, game)
            except httpx.HTTPError:
                return  # this server is gone: the caller resyncs through another

    await asyncio.gather(*(one(g) for g in games[:MAX_GAMES]))
    return sent


async def kill_loop(
    db: str, survivor: str, folder: Path, games: int, kills: int
) -> tuple[int, int]:
    """``kills`` times: fork a server, play through it and ``survivor``, SIGKILL it mid-burst.
    Returns (acknowledged entries, acknowledged entries not in the stored logs)."""
    async with new_client() as client:
        made = [await new_game(client, survivor) for _ in range(min(games, MAX_GAMES))]
    for _ in range(kills):
        forked = ForkedServer(db, folder / "ai.json").start()
        async with new_client() as client:
            play = asyncio.create_task(burst([forked.url, survivor], made, 0.3, client))
            await asyncio.sleep(random.uniform(0.05, 0.25))
            forked.kill()
            await play
            await asyncio.gather(*(resync(client, survivor, game) for game in made))
    return await check_acked(survivor, made)


async def check_acked(base: str, games: list[Game]) -> tuple[int, int]:
    """(acknowledged entries, how many of them the stored logs do not hold)."""
    lost = 0
    async with new_client() as client:
        for game in games:
            stored = await stored_hashes(client, base, game)
            lost += sum(1 for seq, digest in game.acked if stored.get(seq) != digest)
    return sum(len(g.acked) for g in games), lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--kills", type=int, default=10)
    args = parser.parse_args()
    postgres = Postgres()
    try:
        db = postgres.create_database()
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            survivor = ServeProcess(db, folder / "ai.json", *NO_LIMITS).wait()
            try:
                acked, lost = asyncio.run(
                    kill_loop(db, survivor.url, folder, args.games, args.kills)
                )
                print(f"{args.kills} kills: {acked} acknowledged entries, {lost} lost")
            finally:
                survivor.stop()
    finally:
        postgres.stop()


if __name__ == "__main__":
    main()
