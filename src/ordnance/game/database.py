"""The database under the game tables: its URL, its engine, its schema (SYS.record).

``--db`` (or ``$ORDNANCE_DB``) names a SQLite file or a database URL (:func:`database_url`);
:func:`make_engine` sets SQLite up for the game log (WAL, ``synchronous=FULL``, writes take
the lock up front with ``BEGIN IMMEDIATE``) and bounds PostgreSQL's waits, and
:func:`ensure_schema` creates or upgrades the tables (Alembic, ``migrations/``) on first use.
:class:`~ordnance.game.storage.Store` reads and writes the tables declared here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from ordnance.core.limits import db_timeout
from ordnance.game.dberrors import StorageError, bad_url, storage_errors
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


def shown(url: sa.URL) -> str:
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
    with transaction(engine, write=True) as connection:
        if connection.dialect.name == "postgresql":
            # Two processes opening a fresh database: the second waits, then finds it done.
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(481516)"))
        config.attributes["connection"] = connection
        config.attributes["keystore"] = keys if keys is not None else KeyStore()
        command.upgrade(config, "head")


@contextmanager
def transaction(engine: Engine, *, write: bool) -> Iterator[Connection]:
    with engine.connect() as connection:
        if write:
            connection.execution_options(**{_WRITE: True})
        with connection.begin():
            yield connection


def notify(connection: Connection, game: str, version: int) -> None:
    """Tell every listening process that ``game`` is at ``version`` once this commits."""
    if connection.dialect.name == "postgresql":
        connection.execute(
            sa.text("SELECT pg_notify(:channel, :payload)"),
            {"channel": NOTIFY_CHANNEL, "payload": f"{game}:{version}"},
        )


def parameter_mark(engine: Engine) -> str:
    """The driver's placeholder for a parameter of plain SQL: ``?`` (SQLite) or ``%s``."""
    return "?" if engine.dialect.paramstyle == "qmark" else "%s"
