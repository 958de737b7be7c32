"""Crash safety (SYS.record): a process killed (SIGKILL) in a burst of commands loses no
acknowledged command, leaves no partial entry, and the game goes on.

Each backend takes KILLS_PER_BACKEND kills. A writer process sends commands as fast as it can
and, after each commit returns, writes the stored entries' seq and hash to a pipe (its
acknowledgements); the test kills it at a random moment of a later command (deciding, writing
or committing it) and checks the database from a fresh connection:

- every acknowledged entry is stored with the hash acknowledged (0 lost);
- the game's version counts exactly its entries, which chain hash to hash (0 partial);
- the game goes on: its side to move can send a command.

On PostgreSQL the server is one of the test's own with durability on (fsync, synchronous
commit, full-page writes: ``durable_postgres_server``), and every SERVER_KILL_EVERY-th kill
also SIGKILLs the server process serving the writer: PostgreSQL then stops every session and
recovers from its write-ahead log, which must still hold every acknowledged commit.

Every KILLS_PER_GAME kills a fresh game starts (folding a long log would make the later kills
slow without testing more), after the old one's whole log is verified: chain, replay, dice.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
import shlex
import signal
import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from tests.game.conftest import fresh_database

from ordnance.core.errors import OrdnanceError
from ordnance.game.logfile import verify
from ordnance.game.service import GameService

KILLS_PER_BACKEND = int(os.environ.get("ORDNANCE_CRASH_KILLS", "100"))
KILLS_PER_GAME = 20
SERVER_KILL_EVERY = 10


def burst(url: str, game: str, tokens: dict[str, str], write_fd: int) -> None:
    """Send commands as fast as possible; after each commit, acknowledge its entries."""
    service = GameService(url)
    step = 0
    with os.fdopen(write_fd, "w", buffering=1) as acks:
        if service.store.engine.dialect.name == "postgresql":
            with service.store.engine.connect() as connection:
                backend = connection.execute(sa.text("SELECT pg_backend_pid()")).scalar()
            acks.write(f"backend {backend}\n")
        while True:
            state = service.game(game)
            options = [
                (side, text)
                for side in state.sides
                for text in state.rules.legal_actions(state.state, side)
            ]
            side, text = options[(step * 7) % len(options)]
            step += 1
            try:
                applied = service.do(game, side, tokens[side], shlex.split(text))
            except OrdnanceError:
                continue
            for entry in applied.entries:
                acks.write(f"{entry.seq} {entry.hash}\n")


def kill_mid_burst(
    url: str, game: str, tokens: dict[str, str], chooser: random.Random, *, server: bool
) -> list[tuple[int, str]]:
    """Run a burst, kill it (and with ``server`` its server process) after a few commands;
    return the acknowledged entries."""
    context = multiprocessing.get_context("fork")
    read_fd, write_fd = os.pipe()
    child = context.Process(target=burst, args=(url, game, tokens, write_fd), daemon=True)
    child.start()
    os.close(write_fd)
    wanted = chooser.randint(2, 12)
    acked: list[tuple[int, str]] = []
    backend: int | None = None
    with os.fdopen(read_fd) as lines:
        for line in lines:
            first, second = line.split()
            if first == "backend":
                backend = int(second)
                continue
            acked.append((int(first), second))
            if len(acked) >= wanted:
                break
        # Land the kill anywhere in the next command: deciding, writing or committing it.
        time.sleep(chooser.random() * 0.004)
        if server:
            assert backend is not None
            # Frozen first, at that moment: a writer that ran on would see its server die and
            # exit on the error before its own kill (a loaded machine saw exit code 1).
            os.kill(child.pid, signal.SIGSTOP)
            os.kill(backend, signal.SIGKILL)
        os.kill(child.pid, signal.SIGKILL)
        child.join()
    assert child.exitcode == -signal.SIGKILL
    if backend is not None and not server:
        settled(url)
    return acked


def settled(url: str) -> None:
    """Wait until no other PostgreSQL session of this database is running a statement.

    A killed client's server session lives on until it notices the closed socket, and may
    meanwhile finish the COMMIT the client had sent: an entry nobody acknowledged can land
    after the check has read the log. Once no other session is active, none will.
    """
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    query = sa.text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND pid <> pg_backend_pid() AND state NOT IN ('idle', 'idle in transaction (aborted)')"
    )
    deadline = time.monotonic() + 60
    try:
        while True:
            with engine.connect() as connection:  # a new transaction: fresh statistics
                if not connection.execute(query).scalar():
                    return
            assert time.monotonic() < deadline, "a killed client's session never ended"
            time.sleep(0.01)
    finally:
        engine.dispose()


def reopen(url: str) -> GameService:
    """A service on ``url``, waiting while a killed server recovers (it refuses meanwhile)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return GameService(url)
        except OrdnanceError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def check_after_kill(url: str, game: str, tokens: dict[str, str], acked: list[tuple[int, str]]):
    after = reopen(url)
    try:
        log = after.log(game)
        stored = {entry.seq: entry.hash for entry in log}
        lost = [seq for seq, digest in acked if stored.get(seq) != digest]
        assert lost == [], f"acknowledged entries lost: {lost}"
        # No partial entry: the version counts exactly the entries, and they chain.
        assert after.store.version(game) == len(log) == log[-1].seq + 1
        assert all(entry.check_hash() for entry in log)
        assert all(entry.prev == before.hash for before, entry in itertools.pairwise(log))
        # ... and the game goes on from there.
        state = after.game(game)
        owner = state.rules.to_move(state.state)
        applied = after.do(game, owner, tokens[owner], ["phase", "next"])
        assert applied.version == len(log) + 1
    finally:
        after.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def crash_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """A fresh database: a SQLite file, or one on the durable PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'crash.sqlite3'}"
        return
    server: str = request.getfixturevalue("durable_postgres_server")
    with fresh_database(server) as url:
        yield url


@pytest.mark.clause("SYS.record")
def test_a_killed_process_loses_nothing_acknowledged(crash_url, new_game):
    postgres = crash_url.startswith("postgresql")
    chooser = random.Random(11)
    kills = server_kills = acknowledged = 0
    while kills < KILLS_PER_BACKEND:
        service, made = new_game(crash_url, turns=None)
        service.close()
        tokens = dict(made.tokens)
        for _ in range(min(KILLS_PER_GAME, KILLS_PER_BACKEND - kills)):
            kills += 1
            server = postgres and kills % SERVER_KILL_EVERY == 0
            acked = kill_mid_burst(crash_url, made.game, tokens, chooser, server=server)
            server_kills += server
            acknowledged += len(acked)
            check_after_kill(crash_url, made.game, tokens, acked)
        whole = reopen(crash_url)
        try:
            report = verify(whole.export(made.game).encode())
            assert report.ok, report.failure
        finally:
            whole.close()
    assert kills == KILLS_PER_BACKEND
    assert server_kills == (KILLS_PER_BACKEND // SERVER_KILL_EVERY if postgres else 0)
    assert acknowledged >= 2 * KILLS_PER_BACKEND
