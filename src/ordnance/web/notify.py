"""How a server process learns of writes made by others: PostgreSQL LISTEN/NOTIFY, or polling.

On PostgreSQL every stored write sends ``NOTIFY ordnance_games, 'GAME:VERSION'`` in its own
transaction (:mod:`ordnance.game.storage`), delivered to every listening session once it
commits. Each app keeps one listening connection (psycopg 3, autocommit) in a task: a
notification names a game whose stored version is then read (never the payload's, which anyone
with the credentials can send) and noted in :class:`~ordnance.web.versions.News`, which wakes the
event streams of that game's pages on this process. When the connection is lost (a database
restart, a network fault) the task reconnects with back-off, then reads every game's version
once, so pages resync with whatever was written while nobody listened. Nothing else is shared
between processes: the games themselves are read from the database on every request (the fold
cache is checked against the stored version each time).

SQLite is the one-process default: there the task polls every game's version once a second
(one query), which also catches a CLI writing to the same file.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ordnance.core.errors import OrdnanceError
from ordnance.game.storage import NOTIFY_CHANNEL
from ordnance.web.answers import database_failure
from ordnance.web.table import Table
from ordnance.web.work import Workers

log = logging.getLogger("ordnance.web")
DB_POLL = 1.0  # seconds between looks at a SQLite database
LIVENESS = 5.0  # seconds without a notification before the listener checks its connection
BACKOFF = (0.2, 0.5, 1.0, 2.0)  # waits between reconnection attempts (then the last, again)


def parse_payload(payload: str) -> tuple[str, int] | None:
    """(game, version) of a notification's payload, None for anything else.

    >>> parse_payload("0a1b:7"), parse_payload("junk"), parse_payload("g:x")
    (('0a1b', 7), None, None)
    """
    game, _, version = payload.rpartition(":")
    if not game or not version.isdigit():
        return None
    return game, int(version)


def conninfo(table: Table) -> str | None:
    """The libpq URL of the table's database, None when it is not PostgreSQL."""
    url = table.service.store.engine.url
    if url.get_backend_name() != "postgresql":
        return None
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def resync(table: Table) -> bool:
    """Note every game's stored version (after a reconnection, or a poll of SQLite); False
    when the database could not be read (a driver's own error included)."""
    try:
        games = await table.workers.run(table.service.store.game_ids)
    except OrdnanceError:
        return False
    except Exception as error:
        if database_failure(error) is None:
            raise
        return False
    for game, _ruleset, version in games:
        table.news.note(game, version)
    return True


async def believe(table: Table, payload: str, reader: Workers | None = None) -> None:
    """Note the version the store holds for the game a notification names.

    Anyone with the database's credentials can send a notification; one naming a version far
    ahead would make every real one look old. So the payload only says which game to look at:
    its version is read from the store (an unknown game, or a store that cannot answer now, is
    let go: the next resync catches up). A version this process already noted is not read
    again: each process hears its own writes too, and a payload can only make it read, never
    note (bench_web, two processes over PostgreSQL: 3% of a server's busy time went to reading
    the versions notifications name, half of them its own). ``reader``: the threads that may
    read it (None: the routes' own).
    """
    found = parse_payload(payload)
    if found is None:
        return
    game, named = found
    known = table.news.version(game)
    if known is not None and named <= known:
        return
    try:
        version = await (reader or table.workers).run(table.service.store.version, game)
    except OrdnanceError:
        return
    table.news.note(game, version)


async def listen(table: Table, url: str, *, on_ready: Callable[[], None] | None = None) -> None:
    """Follow ``NOTIFY ordnance_games`` forever, reconnecting and resyncing after a fault."""
    # Imported here: psycopg is the postgres extra, and a table on SQLite never needs it.
    import psycopg  # noqa: PLC0415

    failures = 0
    # A thread of its own reads the versions notifications name: behind the routes' work
    # (ordnance serve --threads: two by default on PostgreSQL), every push between two processes
    # waited for the pages in the queue (bench_web, pg x2).
    reader = Workers(1)
    try:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    url, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    failures = 0
                    await resync(table)
                    if on_ready is not None:
                        on_ready()
                    while True:
                        got = False
                        async for note in connection.notifies(timeout=LIVENESS):
                            got = True
                            await believe(table, note.payload, reader)
                        if not got:
                            # Quiet for a while: make sure the server is still there.
                            await connection.execute("SELECT 1")
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError) as error:
                wait = BACKOFF[min(failures, len(BACKOFF) - 1)]
                if failures == 0:
                    reason = str(error).strip().splitlines()[0] if str(error).strip() else error
                    log.warning("database notifications lost (%s); reconnecting", reason)
                failures += 1
                await asyncio.sleep(wait)
    finally:
        reader.close()


async def poll(table: Table) -> None:
    """Note every game's stored version each DB_POLL seconds (SQLite: one process); a
    database that cannot be read is logged once when it goes and once when it is back."""
    away = False
    while True:
        await asyncio.sleep(DB_POLL)
        read = await resync(table)
        if read == away:
            away = not read
            log.warning("database %s", "unreadable; polling on" if away else "readable again")


def start(table: Table) -> asyncio.Task[None]:
    """The task that keeps ``table.news`` current with writes made by other processes."""
    url = conninfo(table)
    loop = asyncio.get_running_loop()
    return loop.create_task(listen(table, url) if url is not None else poll(table))
