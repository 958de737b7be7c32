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
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import platformdirs
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ordnance.core.errors import BadInput
from ordnance.core.limits import db_timeout
from ordnance.game.dberrors import (
    StorageError,
    bad_url,
    damaged,
    driver_failure,
    storage_errors,
)
from ordnance.game.entries import Entry, canonical, entry_of
from ordnance.game.errors import StaleState
from ordnance.game.keystore import KeyStore
from ordnance.game.migrations import __file__ as _migrations_init

HEAD = "0004"  # the newest migration; tests check it against the migrations folder
MIGRATIONS = Path(_migrations_init).parent
_WRITE = "ordnance_write"  # execution option: this transaction writes (SQLite: BEGIN IMMEDIATE)
# PostgreSQL: every write notifies this channel with "GAME:VERSION" (delivered at commit), so
# every server process on the database learns of it (``ordnance.web.notify`` listens).
NOTIFY_CHANNEL = "ordnance_games"

metadata = sa.MetaData()
games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("ruleset", sa.String(32), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
)
entries = sa.Table(
    "entries",
    metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("type", sa.String(16), nullable=False),
    sa.Column("side", sa.String(32), nullable=True),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("prev", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("sig", sa.String(128), nullable=True),
    sa.Column("mac", sa.String(64), nullable=True),
)
tokens = sa.Table(
    "tokens",
    metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("side", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
)


def default_database() -> Path:
    """The per-user SQLite file used when neither ``--db`` nor ``$ORDNANCE_DB`` is given."""
    return Path(platformdirs.user_data_dir("ordnance", appauthor=False)) / "games.sqlite3"


def database_url(given: str | None = None) -> str:
    """The SQLAlchemy URL for ``--db`` (a URL, or a path to a SQLite file), ``$ORDNANCE_DB``,
    or the default file. ``postgresql://`` means psycopg 3.

    >>> database_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> database_url("/tmp/g.db")
    'sqlite:////tmp/g.db'
    """
    text = given or os.environ.get("ORDNANCE_DB") or str(default_database())
    if "://" not in text:
        return f"sqlite:///{Path(text).expanduser().resolve()}"
    for plain in ("postgresql://", "postgres://"):
        if text.startswith(plain):
            return "postgresql+psycopg://" + text.removeprefix(plain)
    return text


def _shown(url: sa.URL) -> str:
    return url.render_as_string(hide_password=True)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file is created on first use (its folder too when it
    is the default database, :func:`default_database`; any other folder must exist)."""
    authority = url.partition("://")[2].partition("/")[0]
    if authority.count("@") > 1:
        # Else the driver reads part of the password as the host, and says so in its error.
        raise bad_url(url, "more than one '@' before the host (write an '@' of a password %40)")
    try:
        parsed = sa.make_url(url)
        is_sqlite = parsed.get_backend_name() == "sqlite"
    except (sa.exc.ArgumentError, ValueError) as error:
        raise bad_url(url, str(error).splitlines()[0]) from None
    wait = db_timeout()
    options: dict[str, Any] = {}
    if is_sqlite:
        options["connect_args"] = {"timeout": wait}
    elif parsed.get_backend_name() == "postgresql":
        # Connecting and waiting for a row lock give up after the same bound.
        options["connect_args"] = {
            "connect_timeout": max(1, round(wait)),
            "options": f"-c lock_timeout={round(wait * 1000)}",
        }
        # A pooled connection may have died with a server restart: test it before use.
        options["pool_pre_ping"] = True
    try:
        with storage_errors(url):
            if is_sqlite and parsed.database not in (None, "", ":memory:"):
                _sqlite_folder(url, Path(parsed.database))
            engine = sa.create_engine(parsed, **options)
    except OSError as error:
        raise StorageError(url, f"cannot create its folder ({error.strerror})") from None
    if is_sqlite:
        _sqlite_setup(engine)
    return engine


def _sqlite_folder(url: str, path: Path) -> None:
    """Create the default database's folder; any other file's folder must exist already (a
    mistyped ``--db`` would else start an empty database where nobody looks)."""
    folder = path.parent
    if folder.is_dir():
        return
    if folder.absolute() != default_database().parent.absolute():
        raise bad_url(url, f"its folder {folder} does not exist (create it first)")
    folder.mkdir(parents=True, exist_ok=True)


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling is off; the "begin" hook below says BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        writes = connection.get_execution_options().get(_WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


def current_revision(engine: Engine) -> str | None:
    """The schema revision the database is at (None: no tables yet)."""
    with engine.connect() as connection:
        if not sa.inspect(connection).has_table("alembic_version"):
            return None
        found = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        connection.rollback()
    return None if found is None else str(found)


def ensure_schema(engine: Engine, keys: KeyStore | None = None) -> None:
    """Create or upgrade the tables (first use); one cheap query when they are current.

    ``keys`` is the key store migration 0002 moves old dice seeds into (default: the user's).
    """
    if current_revision(engine) == HEAD:
        return
    # Alembic is imported only here: most runs find the schema current and never need it.
    from alembic import command  # noqa: PLC0415
    from alembic.config import Config  # noqa: PLC0415

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with _transaction(engine, write=True) as connection:
        if connection.dialect.name == "postgresql":
            # Two processes opening a fresh database: the second waits, then finds it done.
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(481516)"))
        config.attributes["connection"] = connection
        config.attributes["keystore"] = keys if keys is not None else KeyStore()
        command.upgrade(config, "head")


@contextmanager
def _transaction(engine: Engine, *, write: bool) -> Iterator[Connection]:
    with engine.connect() as connection:
        if write:
            connection.execution_options(**{_WRITE: True})
        with connection.begin():
            yield connection


def _notify(connection: Connection, game: str, version: int) -> None:
    """Tell every listening process that ``game`` is at ``version`` once this commits."""
    if connection.dialect.name == "postgresql":
        connection.execute(
            sa.text("SELECT pg_notify(:channel, :payload)"),
            {"channel": NOTIFY_CHANNEL, "payload": f"{game}:{version}"},
        )


def parameter_mark(engine: Engine) -> str:
    """The driver's placeholder for a parameter of plain SQL: ``?`` (SQLite) or ``%s``."""
    return "?" if engine.dialect.paramstyle == "qmark" else "%s"


class Store:
    """The game tables of one database."""

    def __init__(self, url: str, keys: KeyStore | None = None) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._appender: _Appender | None = None
        # Threads of one process share the store (a web table locks per game, not per
        # process): one appender is made, and its kept connection is not made twice.
        self._appender_made = threading.Lock()
        self._shown = _shown(self.engine.url)
        # The driver's parameter mark, for the statements run as plain SQL.
        self.mark = parameter_mark(self.engine)
        with self._errors():
            ensure_schema(self.engine, keys)

    def _errors(self) -> contextlib.AbstractContextManager[None]:
        """Database failures become one StorageError line (no traceback, no password)."""
        return storage_errors(self._shown)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self._errors(), _transaction(self.engine, write=False) as connection:
            yield connection

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        with self._errors(), _transaction(self.engine, write=True) as connection:
            yield connection

    def close(self) -> None:
        if self._appender is not None:
            self._appender.close()
        self._appender = None
        self.engine.dispose()

    # --- reads -------------------------------------------------------------------------------

    def _sqlite_appender(self) -> _Appender | None:
        """The appender's kept connection on a SQLite file (made on first use), else None."""
        if self._appender is None and self.engine.dialect.name == "sqlite":
            with self._appender_made:
                if self._appender is None:
                    self._appender = _Appender(self.engine)
        return self._appender

    def version(self, game: str) -> int:
        """The number of entries of ``game``; BadInput when there is no such game."""
        # Asked at every command, open and read of a game: on a SQLite file on the appender's
        # kept connection; else plain SQL on the driver (a fresh process would otherwise
        # compile the statement first).
        appender = self._sqlite_appender()
        found = appender.version(game) if appender is not None else _UNREAD
        if found is _UNREAD:
            with self.reading() as connection:
                found = connection.exec_driver_sql(
                    f"SELECT version FROM games WHERE id = {self.mark}", (game,)
                ).scalar_one_or_none()
        if found is None:
            raise BadInput("game", game, f"no such game in {self._shown}")
        return int(found)

    def tip(self, game: str) -> tuple[int, str | None]:
        """The number of entries of ``game`` and the hash of its last one (None when that
        entry is missing); BadInput when there is no such game. Asked before every command:
        a log can be cut and written again to the same length, so the number alone does
        not tell a log this process folded from another one."""
        appender = self._sqlite_appender()
        found = appender.tip(game) if appender is not None else _UNREAD
        if found is _UNREAD:
            with self.reading() as connection:
                found = connection.exec_driver_sql(_TIP.format(mark=self.mark), (game,)).first()
        if found is None:
            raise BadInput("game", game, f"no such game in {self._shown}")
        return int(found[0]), None if found[1] is None else str(found[1])

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
        with self.reading() as connection:
            rows = connection.exec_driver_sql(f"{query} ORDER BY seq", values).all()
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
        query = sa.select(tokens.c.token_hash).where(
            tokens.c.game_id == game, tokens.c.side == side
        )
        with self.reading() as connection:
            found = connection.execute(query).scalar_one_or_none()
        return None if found is None else str(found)

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
                _notify(connection, game, len(log))
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

        One transaction: the version moves from ``based_on`` only if nobody moved it, and the
        entries' unique (game, seq) key refuses a second entry at the same place. Every command
        passes here, so it speaks to the database driver directly (:class:`_Appender`).
        """
        appender = self._appender
        if appender is None:
            with self._appender_made:
                if self._appender is None:
                    self._appender = _Appender(self.engine)
                appender = self._appender
        if appender.append(game, based_on, new):
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
            raise BadInput("game", game, f"no such game in {self._shown}")
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


_UNREAD: Any = object()  # the appender's fast read did not run
# A game's version and the hash of its last entry, in one indexed look-up.
_TIP = (
    "SELECT g.version, e.hash FROM games g LEFT JOIN entries e"
    " ON e.game_id = g.id AND e.seq = g.version - 1 WHERE g.id = {mark}"
)


class _Appender:
    """The append of :meth:`Store.append` on the driver's own connection.

    SQLAlchemy Core costs several times the database's own work for these few statements;
    here they are prepared once as plain SQL in the driver's parameter style and run on a
    connection from the engine's pool (so with the pool's setup: SQLite's pragmas, busy timeout
    and explicit transactions).

    On a SQLite file the appender keeps one such connection between appends (taking it from the
    pool and giving it back costs more than the append itself): every append on it ends in
    COMMIT or ROLLBACK, so no transaction stays open between commands; a thread that finds it in
    use takes its own from the pool; any failure gives it back to the pool (which resets or
    drops it); a forked child never uses its parent's. PostgreSQL connections always come from
    the pool, which tests them before use (a server restart leaves dead ones behind).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        self.dbapi: Any = engine.dialect.dbapi
        self.shown = _shown(engine.url)
        # The kept connection (SQLite files only: a :memory: database is one per thread).
        self.keeps = self.sqlite and isinstance(engine.pool, sa.pool.QueuePool)
        self._kept: Any = None
        self._kept_cursor: Any = None
        self._kept_by = 0  # the process that took it
        self._busy = threading.Lock()
        mark = parameter_mark(engine)
        self.move = f"UPDATE games SET version = {mark} WHERE id = {mark} AND version = {mark}"
        self.insert = (
            "INSERT INTO entries (game_id, seq, type, side, body, prev, hash, sig, mac)"
            f" VALUES ({', '.join([mark] * 9)})"
        )
        self.notify = f"SELECT pg_notify({mark}, {mark})"
        self.read = f"SELECT version FROM games WHERE id = {mark}"
        self.read_tip = _TIP.format(mark=mark)

    def append(self, game: str, based_on: int, new: list[Entry]) -> bool:
        """Store the entries if the game stands at ``based_on``; False if it does not."""
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
        raw = self._connect()
        try:
            return self._append(raw, game, based_on, rows)
        finally:
            raw.close()  # back to the pool

    def version(self, game: str) -> Any:
        """The stored version of ``game`` (None: no such game) read on the kept connection,
        or ``_UNREAD`` when there is none to use (another thread holds it; not a file)."""
        rows = self._read(self.read, game)
        if rows is _UNREAD:
            return _UNREAD
        return rows[0][0] if rows else None

    def tip(self, game: str) -> Any:
        """(version, hash of the last entry) of ``game`` (None: no such game), as
        :meth:`version` reads."""
        rows = self._read(self.read_tip, game)
        if rows is _UNREAD:
            return _UNREAD
        return rows[0] if rows else None

    def _read(self, query: str, game: str) -> Any:
        if not (self.keeps and self._busy.acquire(blocking=False)):
            return _UNREAD
        try:
            raw = self._kept_connection()
            try:
                # A statement of its own (no BEGIN): it reads the newest commit.
                # fetchall: the statement runs to its end, so it holds no read snapshot after.
                return self._kept_cursor.execute(query, (game,)).fetchall()
            except self.dbapi.Error as error:
                self._kept = self._kept_cursor = None
                raw.close()  # back to the pool, which resets it (or drops it when it is broken)
                raise driver_failure(self.shown, error) from None
        finally:
            self._busy.release()

    def _kept_connection(self) -> Any:
        raw = self._kept
        if raw is None or self._kept_by != os.getpid():
            raw = self._connect()
            # Its driver cursor too, used for every append on it (made and closed once).
            driver: Any = raw.driver_connection
            self._kept_cursor = driver.cursor()
            self._kept, self._kept_by = raw, os.getpid()
        return raw

    def _append_kept(self, game: str, based_on: int, rows: list[tuple[Any, ...]]) -> bool:
        raw = self._kept_connection()
        try:
            return self._append(raw, game, based_on, rows, self._kept_cursor)
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
        """Give the kept connection back to the pool."""
        with self._busy:
            raw, self._kept, self._kept_cursor = self._kept, None, None
            if raw is not None and self._kept_by == os.getpid():
                raw.close()

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
            cursor.execute(self.move, (based_on + len(rows), game, based_on))
            moved = bool(cursor.rowcount == 1)
            if moved:
                if len(rows) == 1:
                    cursor.execute(self.insert, rows[0])
                else:
                    cursor.executemany(self.insert, rows)
                if not self.sqlite:  # every listening server process hears of it at commit
                    cursor.execute(self.notify, (NOTIFY_CHANNEL, f"{game}:{based_on + len(rows)}"))
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
