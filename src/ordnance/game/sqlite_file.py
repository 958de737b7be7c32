"""A game database in a SQLite file, through the ``sqlite3`` module alone.

A CLI command opens one game and ends: SQLAlchemy (its engine, pool, SQL compiler and dialects)
costs ``ordnance game status`` more than the rest of its work (benchmarks/bench_cli.py: about
3.7 times a bare ``import typer`` for ``import sqlalchemy`` alone, against the goal of 5 for the
whole command). So the CLI's service reads and writes an existing SQLite file whose schema is
current through this class: the same tables, the same statements as
:class:`~ordnance.game.storage.Store` runs on its driver's fast path, the same pragmas (WAL,
``synchronous=FULL``, foreign keys, the ``$ORDNANCE_DB_TIMEOUT`` wait), ``BEGIN IMMEDIATE`` for
writes, and the same version guard. A new file, a schema to create or upgrade (Alembic),
PostgreSQL, or any other URL go through :class:`~ordnance.game.storage.Store` (:func:`open_file`
answers None for them).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import orjson

from ordnance.core.errors import BadInput, NoSuchGame
from ordnance.core.limits import db_timeout
from ordnance.game.dberrors import damaged, driver_failure
from ordnance.game.entries import Entry, canonical, entry_of
from ordnance.game.errors import StaleState
from ordnance.game.migrations import __file__ as _migrations_init
from ordnance.game.statements import MOVE, TIP, move_parameters

_TIP = TIP.format(mark="?")
_MOVE = MOVE.format(mark="?")
_ENTRIES = (
    "SELECT seq, type, side, body, prev, hash, sig, mac FROM entries WHERE game_id = ? AND seq >= ?"
)
_INSERT = (
    "INSERT INTO entries (game_id, seq, type, side, body, prev, hash, sig, mac)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def sqlite_path(given: str | None) -> Path | None:
    """The SQLite file ``--db`` (else ``$ORDNANCE_DB``, else the default file) names, or None
    for another database (a URL of another kind, an in-memory one, one with options).

    >>> sqlite_path("sqlite:////tmp/g.db"), sqlite_path("postgresql://u@h/db")
    (PosixPath('/tmp/g.db'), None)
    """
    text = given or os.environ.get("ORDNANCE_DB")
    if not text:
        import platformdirs  # noqa: PLC0415  (only when no database is named)

        # storage.default_database(), without importing the storage stack.
        return Path(platformdirs.user_data_dir("ordnance", appauthor=False)) / "games.sqlite3"
    if "://" not in text:
        return Path(text).expanduser().resolve()
    if not text.startswith("sqlite:///") or "?" in text:
        return None
    path = text.removeprefix("sqlite:///")
    return None if path in ("", ":memory:") else Path(path)


def newest_migration() -> str:
    """The schema revision this program writes: the newest file of ``migrations/versions``
    (``r0004_entry_macs.py`` is revision ``0004``; ``storage.HEAD`` names the same)."""
    versions = Path(_migrations_init).parent / "versions"
    names = [p.name for p in versions.glob("r[0-9][0-9][0-9][0-9]_*.py")]
    return max(names)[1:5]


def open_file(given: str | None) -> SqliteFile | None:
    """The store of the SQLite file ``given`` names, if it exists with a current schema; else
    None (the caller opens it through ``storage.Store``, which creates or upgrades it)."""
    path = sqlite_path(given)
    if path is None or not path.is_file():
        return None
    store = SqliteFile(path)
    try:
        found = store.connection.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.Error:
        found = []
    if found != [(newest_migration(),)]:
        store.close()
        return None
    return store


class _Result:
    """The rows of one statement, read as :class:`~ordnance.game.snapshots` reads them."""

    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows

    def first(self) -> Any:
        return self.rows[0] if self.rows else None

    def all(self) -> list[Any]:
        return self.rows


class _Connection:
    """The connection inside :meth:`SqliteFile.reading` / :meth:`SqliteFile.writing`: plain
    SQL with ``?`` marks, as SQLAlchemy's ``exec_driver_sql``."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def exec_driver_sql(self, query: str, values: Sequence[Any] = ()) -> _Result:
        return _Result(self.connection.execute(query, tuple(values)).fetchall())


class SqliteFile:
    """The game tables of one SQLite file (see the module docstring); the methods the service
    and :mod:`~ordnance.game.snapshots` use of :class:`~ordnance.game.storage.Store`."""

    mark = "?"  # the parameter mark of plain SQL

    def __init__(self, path: Path) -> None:
        self.url = f"sqlite:///{path}"
        self._shown = self.url
        try:
            # Autocommit (isolation_level None): the transactions below say BEGIN themselves.
            self.connection = sqlite3.connect(path, timeout=db_timeout(), isolation_level=None)
            for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
                self.connection.execute(f"PRAGMA {pragma}")
        except sqlite3.Error as error:
            raise driver_failure(self._shown, error) from None

    def close(self) -> None:
        self.connection.close()

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[_Connection]:
        connection = self.connection
        try:
            connection.execute(begin)
            try:
                yield _Connection(connection)
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
        except sqlite3.IntegrityError:
            raise  # the caller says what it means (a duplicate, a racing writer)
        except sqlite3.Error as error:
            raise driver_failure(self._shown, error) from None

    def reading(self) -> AbstractContextManager[_Connection]:
        return self._transaction("BEGIN")

    def writing(self) -> AbstractContextManager[_Connection]:
        return self._transaction("BEGIN IMMEDIATE")

    def _one(self, query: str, values: tuple[Any, ...]) -> Any:
        with self.reading() as connection:
            return connection.exec_driver_sql(query, values).first()

    # --- reads -------------------------------------------------------------------------------

    def version(self, game: str) -> int:
        """The number of entries of ``game``; BadInput when there is no such game."""
        found = self._one("SELECT version FROM games WHERE id = ?", (game,))
        if found is None:
            raise NoSuchGame("game", game, f"no such game in {self._shown}")
        return int(found[0])

    def tip(self, game: str) -> tuple[int, str | None]:
        """The number of entries of ``game`` and the hash of its last one (as Store.tip)."""
        found = self._one(_TIP, (game,))
        if found is None:
            raise NoSuchGame("game", game, f"no such game in {self._shown}")
        return int(found[0]), None if found[1] is None else str(found[1])

    def has_game(self, game: str) -> bool:
        return self._one("SELECT id FROM games WHERE id = ?", (game,)) is not None

    def entries(self, game: str, start: int = 0, stop: int | None = None) -> list[Entry]:
        """The entries from ``start`` on (before ``stop``, if given), in order."""
        query, values = _ENTRIES, [game, start]
        if stop is not None:
            query, values = f"{query} AND seq < ?", [game, start, stop]
        with self.reading() as connection:
            rows = connection.exec_driver_sql(f"{query} ORDER BY seq", tuple(values)).all()
        # orjson reads JSON as the json module does, faster; what it does not read is read by
        # json, or named as a damaged entry (as Store.entries).
        made = []
        for seq, kind, side, body, prev, hashed, sig, mac in rows:
            try:
                try:
                    data = orjson.loads(body)
                except orjson.JSONDecodeError:
                    data = json.loads(body)
            except (ValueError, RecursionError):
                raise damaged(self._shown, game, f"the body of entry {seq} is not JSON") from None
            made.append(
                entry_of(
                    seq, kind, side, data, prev, hashed=hashed, sig=sig, body_text=body, mac=mac
                )
            )
        return made

    def token_hash(self, game: str, side: str) -> str | None:
        found = self._one(
            "SELECT token_hash FROM tokens WHERE game_id = ? AND side = ?", (game, side)
        )
        return None if found is None else str(found[0])

    def game_ids(self) -> list[tuple[str, str, int]]:
        """Every game: id, ruleset, version."""
        with self.reading() as connection:
            rows = connection.exec_driver_sql(
                "SELECT id, ruleset, version FROM games ORDER BY id"
            ).all()
        return [(str(g), str(r), int(v)) for g, r, v in rows]

    # --- writes ------------------------------------------------------------------------------

    def create(
        self, game: str, ruleset: str, log: list[Entry], token_hashes: Mapping[str, str]
    ) -> None:
        """Store a new game with its first entries and token MACs, all or nothing."""
        try:
            with self.writing() as connection:
                connection.exec_driver_sql(
                    "INSERT INTO games (id, ruleset, version) VALUES (?, ?, ?)",
                    (game, ruleset, len(log)),
                )
                for row in _rows(game, log):
                    connection.exec_driver_sql(_INSERT, row)
                for side, hashed in token_hashes.items():
                    connection.exec_driver_sql(
                        "INSERT INTO tokens (game_id, side, token_hash) VALUES (?, ?, ?)",
                        (game, side, hashed),
                    )
        except sqlite3.IntegrityError:
            raise BadInput("game", game, f"already exists in {self._shown}") from None

    def append(self, game: str, based_on: int, new: list[Entry]) -> None:
        """Append entries decided at version ``based_on``; StaleState if the game moved (as
        Store.append: the same guarded move)."""
        try:
            with self.writing() as connection:
                cursor = connection.connection.execute(
                    _MOVE,
                    move_parameters(game, based_on, len(new), new[0].prev),
                )
                if cursor.rowcount == 1:
                    connection.connection.executemany(_INSERT, _rows(game, new))
                    return
        except sqlite3.IntegrityError:
            # Only a racing writer gets here (the version check should have caught it).
            raise StaleState(game, based_on, based_on + 1) from None
        current = self._one("SELECT version FROM games WHERE id = ?", (game,))
        if current is None:
            raise NoSuchGame("game", game, f"no such game in {self._shown}")
        raise StaleState(game, based_on, int(current[0]))

    def add_signature(self, game: str, seq: int, sig: str) -> None:
        """Keep the signature of a head signed after it was stored (as Store.add_signature)."""
        with self.writing() as connection:
            connection.exec_driver_sql(
                "UPDATE entries SET sig = ? WHERE game_id = ? AND seq = ? AND sig IS NULL",
                (sig, game, seq),
            )


def _rows(game: str, log: list[Entry]) -> list[tuple[Any, ...]]:
    return [
        (
            game,
            e.seq,
            e.type,
            e.side,
            e.body_text or canonical(e.body),
            e.prev,
            e.hash,
            e.sig,
            e.mac,
        )
        for e in log
    ]
