"""The append of every command, and the reads asked before it, on the driver's own
connection (:class:`Appender`): :meth:`~ordnance.game.storage.Store.append` and the version
checks go through it. Its SQL is the same as the Store's; only the path to the database is
shorter.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ordnance.game.checkpoints import FALLBACK, Checkpoints
from ordnance.game.database import NOTIFY_CHANNEL, parameter_mark, shown
from ordnance.game.dberrors import driver_failure, storage_errors
from ordnance.game.entries import Entry, canonical
from ordnance.game.errors import StaleState
from ordnance.game.statements import MOVE, append_postgres, move_parameters

UNREAD: Any = object()  # the appender's fast read did not run
# PostgreSQL readers kept between reads: about the threads that read at once (a web table's
# worker threads); one more at a time is made, used and closed.
READERS_KEPT = 16


class Appender:
    """The append of :meth:`Store.append` on the driver's own connection.

    SQLAlchemy Core costs several times the database's own work for these few statements;
    here they are prepared once as plain SQL in the driver's parameter style and run on a
    connection from the engine's pool (so with the pool's setup: SQLite's pragmas, busy timeout
    and explicit transactions).

    On a SQLite file the appender keeps one such connection between appends (taking it from the
    pool and giving it back costs more than the append itself): every append on it ends in
    COMMIT or ROLLBACK, so no transaction stays open between commands; a thread that finds it in
    use takes its own from the pool; any failure gives it back to the pool (which resets or
    drops it); a forked child never uses its parent's. A PostgreSQL append is one statement
    (:func:`.statements.append_postgres`) on a kept reader connection (below), in autocommit.

    On PostgreSQL the reads asked before every command and every read of a game (:meth:`rows`)
    run on connections of their own, kept between reads in autocommit: one
    round trip each, where a pooled connection's test, BEGIN and end of transaction made it
    four (bench: 0.48 ms of the client's CPU a read against 0.09, besides the server's). A
    read on a connection the server dropped (a restart) is made once more on a fresh one.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        self.dbapi: Any = engine.dialect.dbapi
        self.shown = shown(engine.url)
        # The kept connection (SQLite files only: a :memory: database is one per thread).
        self.keeps = self.sqlite and isinstance(engine.pool, sa.pool.QueuePool)
        self._kept: Any = None
        self._kept_cursor: Any = None
        self._kept_by = 0  # the process that took it
        self._busy = threading.Lock()
        # PostgreSQL: the readers' kept connections not in use, and the process they are of.
        self.postgres = engine.dialect.name == "postgresql"
        self._readers: list[Any] = []
        self._readers_by = os.getpid()
        self._inherited: list[Any] = []  # a forked child's: its parent's readers
        self._readers_lock = threading.Lock()
        # Its commits make no checkpoint: a thread of their own does (:mod:`.checkpoints`).
        path = engine.url.database
        self.checkpoints = Checkpoints(path) if self.keeps and path else None
        mark = parameter_mark(engine)
        self.move = MOVE.format(mark=mark)
        self.insert = (
            "INSERT INTO entries (game_id, seq, type, side, body, prev, hash, sig, mac)"
            f" VALUES ({', '.join([mark] * 9)})"
        )

    def append(self, game: str, based_on: int, new: list[Entry]) -> bool:
        """Store the entries if the game stands at ``based_on`` and its last entry is the one
        the first of them chains to; False if it does not."""
        text = canonical
        rows = [
            (game, e.seq, e.type, e.side, e.body_text or text(e.body), e.prev, e.hash, e.sig, e.mac)
            for e in new
        ]
        if self.keeps and self._busy.acquire(blocking=False):
            try:
                return self._append_kept(game, based_on, rows)
            finally:
                self._busy.release()
        if self.postgres:
            return self._append_postgres(game, based_on, rows)
        raw = self._connect()
        try:
            return self._append(raw, game, based_on, rows)
        finally:
            raw.close()  # back to the pool

    def rows(self, query: str, parameters: tuple[Any, ...], *, on_file: bool = False) -> Any:
        """The rows of ``query`` (plain SQL in the driver's parameter style), read on a kept
        connection: a PostgreSQL reader; with ``on_file``, on a SQLite file the appends' own
        connection when no other thread uses it (for the short reads asked before every
        command only: a longer one would send appends to the pool); else ``UNREAD``."""
        if self.postgres:
            return self._read_kept(query, parameters)
        if not (on_file and self.keeps and self._busy.acquire(blocking=False)):
            return UNREAD
        try:
            raw = self._kept_connection()
            try:
                # A statement of its own (no BEGIN): it reads the newest commit.
                # fetchall: the statement runs to its end, so it holds no read snapshot after.
                return self._kept_cursor.execute(query, parameters).fetchall()
            except self.dbapi.Error as error:
                self._kept = self._kept_cursor = None
                raw.close()  # back to the pool, which resets it (or drops it when it is broken)
                raise driver_failure(self.shown, error) from None
        finally:
            self._busy.release()

    def _read_kept(self, query: str, parameters: tuple[Any, ...]) -> Any:
        """``query``'s rows on a kept PostgreSQL reader (each statement its own transaction)."""
        for attempt in (1, 2):
            reader = self._take_reader()
            try:
                cursor = reader.cursor()
                try:
                    cursor.execute(query, parameters)
                    rows = cursor.fetchall()
                finally:
                    cursor.close()
            except self.dbapi.Error as error:
                with contextlib.suppress(self.dbapi.Error):
                    reader.close()
                dropped = isinstance(error, self.dbapi.OperationalError | self.dbapi.InterfaceError)
                if attempt == 1 and dropped:
                    self._drop_readers()  # kept from before the server dropped them all
                    continue
                raise driver_failure(self.shown, error) from None
            self._give_reader(reader)
            return rows
        raise AssertionError("unreachable")  # pragma: no cover

    def _append_postgres(self, game: str, based_on: int, rows: list[tuple[Any, ...]]) -> bool:
        """The append as one statement (:func:`.statements.append_postgres`) on a kept
        connection in autocommit: one round trip, where a pooled connection's test, BEGIN,
        the three statements and COMMIT took six, each a wait for the database's turn on a
        busy machine (bench_web, two processes at 500 games).

        On a connection the server dropped (a restart) it is sent once more, on a fresh one.
        That is safe: it stores only where the game still stands at ``based_on``, so a first
        send that was stored (its answer lost with the connection) stores nothing again, and
        is recognised by its last entry's hash, stored at its seq."""
        after = based_on + len(rows)
        for attempt in (1, 2):
            connection = self._take_reader()
            try:
                parameters = (
                    *move_parameters(game, based_on, len(rows), rows[0][5]),
                    *(value for row in rows for value in row),
                    NOTIFY_CHANNEL,
                    f"{game}:{after}",
                )
                cursor = connection.cursor()
                try:
                    cursor.execute(append_postgres(len(rows)), parameters)
                    moved = bool(cursor.fetchone()[0])
                finally:
                    cursor.close()
            except self.dbapi.Error as error:
                with contextlib.suppress(self.dbapi.Error):
                    connection.close()
                if isinstance(error, self.dbapi.IntegrityError):
                    # Only a racing writer gets here (the version check should have caught it).
                    raise StaleState(game, based_on, after) from None
                dropped = isinstance(error, self.dbapi.OperationalError | self.dbapi.InterfaceError)
                if attempt == 1 and dropped:
                    self._drop_readers()  # kept from before the server dropped them all
                    continue
                if dropped:
                    raise driver_failure(self.shown, error) from None  # the database is away
                raise
            self._give_reader(connection)
            if not moved and attempt == 2:
                moved = self._stored(game, rows[-1])
            return moved
        raise AssertionError("unreachable")  # pragma: no cover

    def _stored(self, game: str, row: tuple[Any, ...]) -> bool:
        """Whether the entry of ``row`` (its seq and hash) is the one stored at its seq."""
        found = self._read_kept(
            "SELECT hash FROM entries WHERE game_id = %s AND seq = %s", (game, row[1])
        )
        return bool(found) and found[0][0] == row[6]

    def _take_reader(self) -> Any:
        with self._readers_lock:
            self._forked()
            if self._readers:
                return self._readers.pop()
        # Made as the pool makes them (the engine's connect arguments), then its own.
        pooled = self._connect()
        reader = pooled.driver_connection
        pooled.detach()  # the pool forgets it: it is closed here, not given back
        try:
            reader.rollback()  # the pool's test ran in a transaction
            reader.autocommit = True
        except self.dbapi.Error as error:
            with contextlib.suppress(self.dbapi.Error):
                reader.close()
            raise driver_failure(self.shown, error) from None
        return reader

    def _give_reader(self, reader: Any) -> None:
        with self._readers_lock:
            self._forked()
            if len(self._readers) < READERS_KEPT:
                self._readers.append(reader)
                return
        with contextlib.suppress(self.dbapi.Error):
            reader.close()

    def _kept_connection(self) -> Any:
        raw = self._kept
        if raw is None or self._kept_by != os.getpid():
            raw = self._connect()
            # Its driver cursor too, used for every append on it (made and closed once).
            driver: Any = raw.driver_connection
            self._kept_cursor = driver.cursor()
            if self.checkpoints is not None:
                self._kept_cursor.execute(f"PRAGMA wal_autocheckpoint={FALLBACK}")
                synchronous = self._kept_cursor.execute("PRAGMA synchronous").fetchone()
                self.checkpoints.synchronous = int(synchronous[0])
            self._kept, self._kept_by = raw, os.getpid()
        return raw

    def _append_kept(self, game: str, based_on: int, rows: list[tuple[Any, ...]]) -> bool:
        raw = self._kept_connection()
        try:
            moved = self._append(raw, game, based_on, rows, self._kept_cursor)
            if moved and self.checkpoints is not None:
                self.checkpoints.appended()
            return moved
        except BaseException:
            self._kept = self._kept_cursor = None
            raw.close()  # back to the pool, which resets it (or drops it when it is broken)
            raise

    def _connect(self) -> Any:
        """A connection from the pool; one that cannot be made is a StorageError (the pool
        raises the driver's own error, which SQLAlchemy does not wrap here)."""
        try:
            with storage_errors(self.shown):
                return self.engine.raw_connection()
        except self.dbapi.Error as error:
            raise driver_failure(self.shown, error) from None

    def close(self) -> None:
        """Give the kept connection back to the pool, and close the kept readers."""
        with self._busy:
            raw, self._kept, self._kept_cursor = self._kept, None, None
            if raw is not None and self._kept_by == os.getpid():
                raw.close()
        self._drop_readers()
        if self.checkpoints is not None:
            self.checkpoints.close()

    def _drop_readers(self) -> None:
        with self._readers_lock:
            self._forked()
            readers, self._readers = self._readers, []
        for reader in readers:
            with contextlib.suppress(self.dbapi.Error):
                reader.close()

    def _forked(self) -> None:
        """In a forked child, set the parent's readers aside, never closed here: closing one
        would end the parent's session on the socket they share."""
        if self._readers_by != os.getpid():
            self._inherited += self._readers
            self._readers, self._readers_by = [], os.getpid()

    def _append(
        self,
        raw: Any,
        game: str,
        based_on: int,
        rows: list[tuple[Any, ...]],
        kept_cursor: Any = None,
    ) -> bool:
        # SQLite: the driver's own cursor (not the pool's proxy of it); one row (one command)
        # is one execute, not an executemany. ``kept_cursor``: the kept connection's own.
        if kept_cursor is not None:
            cursor = kept_cursor
        else:
            cursor = raw.driver_connection.cursor() if self.sqlite else raw.cursor()
        try:
            if self.sqlite:
                cursor.execute("BEGIN IMMEDIATE")
            cursor.execute(self.move, move_parameters(game, based_on, len(rows), rows[0][5]))
            moved = bool(cursor.rowcount == 1)
            if moved:
                if len(rows) == 1:
                    cursor.execute(self.insert, rows[0])
                else:
                    cursor.executemany(self.insert, rows)
            if self.sqlite:
                cursor.execute("COMMIT" if moved else "ROLLBACK")
            elif moved:
                raw.commit()
            else:
                raw.rollback()
            return moved
        except self.dbapi.Error as error:
            self._rollback(raw)
            if isinstance(error, self.dbapi.IntegrityError):
                # Only a racing writer gets here (the version check should have caught it).
                raise StaleState(game, based_on, based_on + 1) from None
            # A restart closes sessions (OperationalError); a connection it closed before is
            # an InterfaceError: both are the database being away, not a fault of the program.
            if isinstance(error, self.dbapi.OperationalError | self.dbapi.InterfaceError):
                raise driver_failure(self.shown, error) from None
            raise
        finally:
            # After a failed BEGIN (a locked file) the rollback closed the connection too.
            if kept_cursor is None:
                with contextlib.suppress(self.dbapi.Error):
                    cursor.close()

    def _rollback(self, raw: Any) -> None:
        try:
            if self.sqlite:
                raw.cursor().execute("ROLLBACK")
            else:
                raw.rollback()
        except self.dbapi.Error:
            # The connection is broken: the pool drops it and hands out a fresh one next time.
            raw.invalidate()
