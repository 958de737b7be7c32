"""Where game logs live: SQLAlchemy 2 over SQLite (default) or PostgreSQL, Alembic-migrated.

Three tables (``migrations/versions``): ``games`` (id, ruleset, version = number of entries),
``entries`` (game, seq, type, side, body as canonical JSON text, prev, hash, sig: the signature
of a signed head or None, mac: the service's MAC, migration 0004) and ``tokens``
(a MAC of each side's token, keyed by the service's key store). Nothing secret is stored here:
the dice seeds and the signing key live in the key store (:mod:`.keystore`); migration 0002
moves the seeds of older databases there and drops their ``dice_seeds`` table.
A fourth, ``snapshots`` (migration 0003), belongs to :mod:`ordnance.game.snapshots` (a
signed cache of folded games).

Writes are guarded by the version (optimistic concurrency): an append names the version its
command was decided on, and ``UPDATE games SET version = new WHERE version = based_on`` moves it
only when nobody else has; otherwise :class:`~ordnance.game.errors.StaleState`. The entries
commit in the same transaction, so an entry is either wholly stored or not at all.

SQLite runs in WAL mode with ``synchronous=FULL`` (a commit is on disk before it is
acknowledged) and writes take the database lock up front (``BEGIN IMMEDIATE``), waiting for
another writer at most ``$ORDNANCE_DB_TIMEOUT`` seconds (default 5; PostgreSQL: the same bound
on connecting and on waiting for a lock). The schema is created or upgraded on first use.
Every database failure leaves as one :class:`StorageError` line (``game.dberrors``).

The URL, the engine, the tables and the schema's migrations are :mod:`.database`'s; the append
of every command takes the driver's shorter path of :mod:`.appender`.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ordnance.core.errors import BadInput, NoSuchGame
from ordnance.game.appender import UNREAD, Appender
from ordnance.game.database import (
    HEAD,
    MIGRATIONS,
    NOTIFY_CHANNEL,
    current_revision,
    database_url,
    default_database,
    ensure_schema,
    entries,
    games,
    make_engine,
    metadata,
    notify,
    parameter_mark,
    shown,
    tokens,
    transaction,
)
from ordnance.game.dberrors import StorageError, damaged, storage_errors
from ordnance.game.entries import Entry, canonical, entry_of
from ordnance.game.errors import StaleState
from ordnance.game.keystore import KeyStore
from ordnance.game.statements import TIP

# Named here too for the callers that take them from the storage layer as a whole.
__all__ = [
    "HEAD",
    "MIGRATIONS",
    "NOTIFY_CHANNEL",
    "StorageError",
    "Store",
    "current_revision",
    "database_url",
    "default_database",
    "make_engine",
    "metadata",
]


class Store:
    """The game tables of one database."""

    def __init__(self, url: str, keys: KeyStore | None = None) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._appender: Appender | None = None
        # Threads of one process share the store (a web table locks per game, not per
        # process): one appender is made, and its kept connection is not made twice.
        self._appender_made = threading.Lock()
        self._shown = shown(self.engine.url)
        # The driver's parameter mark, for the statements run as plain SQL.
        self.mark = parameter_mark(self.engine)
        with self._errors():
            ensure_schema(self.engine, keys)

    def _errors(self) -> contextlib.AbstractContextManager[None]:
        """Database failures become one StorageError line (no traceback, no password)."""
        return storage_errors(self._shown)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self._errors(), transaction(self.engine, write=False) as connection:
            yield connection

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        with self._errors(), transaction(self.engine, write=True) as connection:
            yield connection

    def close(self) -> None:
        if self._appender is not None:
            self._appender.close()
        self._appender = None
        self.engine.dispose()

    # --- reads -------------------------------------------------------------------------------

    def _the_appender(self) -> Appender:
        """The driver-level appender (made on first use), which also makes the reads asked
        before every command (:meth:`version`, :meth:`tip`)."""
        appender = self._appender
        if appender is None:
            with self._appender_made:
                if self._appender is None:
                    self._appender = Appender(self.engine)
                appender = self._appender
        return appender

    def _rows(self, query: str, values: tuple[Any, ...], *, on_file: bool = False) -> Any:
        """The rows of plain SQL ``query``: on the appender's kept connections
        (:meth:`.Appender.rows`; ``on_file``: a SQLite file's too), else on one from the pool
        (plain SQL on the driver: a fresh process would otherwise compile the statement
        first)."""
        rows = self._the_appender().rows(query, values, on_file=on_file)
        if rows is UNREAD:
            with self.reading() as connection:
                rows = connection.exec_driver_sql(query, values).all()
        return rows

    def version(self, game: str) -> int:
        """The number of entries of ``game``; BadInput when there is no such game."""
        # Asked at every command, open and read of a game.
        query = f"SELECT version FROM games WHERE id = {self.mark}"
        rows = self._rows(query, (game,), on_file=True)
        if not rows:
            raise NoSuchGame("game", game, f"no such game in {self._shown}")
        return int(rows[0][0])

    def tip(self, game: str) -> tuple[int, str | None]:
        """The number of entries of ``game`` and the hash of its last one (None when that
        entry is missing); BadInput when there is no such game. Asked before every command:
        a log can be cut and written again to the same length, so the number alone does
        not tell a log this process folded from another one."""
        rows = self._rows(TIP.format(mark=self.mark), (game,), on_file=True)
        if not rows:
            raise NoSuchGame("game", game, f"no such game in {self._shown}")
        version, last = rows[0]
        return int(version), None if last is None else str(last)

    def has_game(self, game: str) -> bool:
        with self.reading() as connection:
            found = connection.execute(
                sa.select(games.c.id).where(games.c.id == game)
            ).scalar_one_or_none()
        return found is not None

    def entries(self, game: str, start: int = 0, stop: int | None = None) -> list[Entry]:
        """The entries from ``start`` on (before ``stop``, if given), in order."""
        # Replay reads every entry: plain SQL on the driver, rows as bare tuples.
        mark = self.mark
        query = (
            "SELECT seq, type, side, body, prev, hash, sig, mac FROM entries"
            f" WHERE game_id = {mark} AND seq >= {mark}"
        )
        values: tuple[Any, ...] = (game, start)
        if stop is not None:
            query, values = f"{query} AND seq < {mark}", (*values, stop)
        rows = self._rows(f"{query} ORDER BY seq", values)
        # orjson reads JSON as the json module does, faster; what it does not read (integers
        # past 64 bits, NaN, deep nesting, a damaged body) is read by json, or named.
        for loads in (orjson.loads, json.loads):
            try:
                return [
                    entry_of(
                        seq,
                        kind,
                        side,
                        loads(body),
                        prev,
                        hashed=hashed,
                        sig=sig,
                        body_text=body,
                        mac=mac,
                    )
                    for seq, kind, side, body, prev, hashed, sig, mac in rows
                ]
            except (ValueError, RecursionError) as error:
                failure = error
        # Off the fast path: find the damaged entry and name it.
        for seq, _, _, body, *_ in rows:
            self._body(game, seq, body)
        raise damaged(self._shown, game, f"an entry's body cannot be read ({failure})")

    def _body(self, game: str, seq: int, text: str) -> Any:
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            raise damaged(self._shown, game, f"the body of entry {seq} is not JSON") from None

    def token_hash(self, game: str, side: str) -> str | None:
        mark = self.mark
        query = f"SELECT token_hash FROM tokens WHERE game_id = {mark} AND side = {mark}"
        rows = self._rows(query, (game, side))
        return str(rows[0][0]) if rows else None

    def game_ids(self) -> list[tuple[str, str, int]]:
        """Every game: id, ruleset, version."""
        with self.reading() as connection:
            rows = connection.execute(sa.select(games).order_by(games.c.id)).all()
        return [(row.id, row.ruleset, row.version) for row in rows]

    # --- writes ------------------------------------------------------------------------------

    def create(
        self,
        game: str,
        ruleset: str,
        log: list[Entry],
        token_hashes: Mapping[str, str],
    ) -> None:
        """Store a new game with its first entries and token MACs, all or nothing."""
        try:
            with self.writing() as connection:
                connection.execute(
                    games.insert().values(id=game, ruleset=ruleset, version=len(log))
                )
                self._insert(connection, game, log)
                notify(connection, game, len(log))
                if token_hashes:
                    connection.execute(
                        tokens.insert(),
                        [
                            {"game_id": game, "side": s, "token_hash": h}
                            for s, h in token_hashes.items()
                        ],
                    )
        except IntegrityError:
            raise BadInput("game", game, f"already exists in {self._shown}") from None

    def append(self, game: str, based_on: int, new: list[Entry]) -> None:
        """Append entries decided at version ``based_on``; StaleState if the game moved.

        One transaction: the version moves from ``based_on`` only if nobody moved it and the
        last stored entry is the one the first new entry chains to (:mod:`.statements`), and
        the entries' unique (game, seq) key refuses a second entry at the same place. Every command
        passes here, so it speaks to the database driver directly (:class:`Appender`).
        """
        if self._the_appender().append(game, based_on, new):
            return
        # Not appended: say why (no such game, or the version it stands at) the slow way.
        self._append_refused(game, based_on)

    def add_signature(self, game: str, seq: int, sig: str) -> None:
        """Keep the signature of a head signed after it was stored (an export signs the
        head it hands out); one an entry has already is left as it is."""
        with self.writing() as connection:
            connection.execute(
                entries.update()
                .where(entries.c.game_id == game, entries.c.seq == seq, entries.c.sig.is_(None))
                .values(sig=sig)
            )

    def _append_refused(self, game: str, based_on: int) -> None:
        with self.reading() as connection:
            current = connection.execute(
                sa.select(games.c.version).where(games.c.id == game)
            ).scalar_one_or_none()
        if current is None:
            raise NoSuchGame("game", game, f"no such game in {self._shown}")
        raise StaleState(game, based_on, int(current))

    @staticmethod
    def _insert(connection: Connection, game: str, log: list[Entry]) -> None:
        if log:
            connection.execute(
                entries.insert(),
                [
                    {
                        "game_id": game,
                        "seq": e.seq,
                        "type": e.type,
                        "side": e.side,
                        "body": canonical(e.body),
                        "prev": e.prev,
                        "hash": e.hash,
                        "sig": e.sig,
                        "mac": e.mac,
                    }
                    for e in log
                ],
            )
