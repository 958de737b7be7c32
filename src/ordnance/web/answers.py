"""How the table answers a failure, from the one table of error classes to kinds, HTTP statuses
and exit codes (:data:`ordnance.game.errors.ANSWERS`, which the CLI reads too).

The JSON API and the pages read the same table, so a failure has the same status on both.
A database that cannot be reached (a restart, a network fault) is ``unavailable``, 503 with
``Retry-After``; the log gets one line for it, never a traceback.

>>> from ordnance.core.errors import BadInput
>>> answer_of(StorageError("sqlite:///g.db", "disk I/O error"))
('unavailable', 503)
>>> answer_of(BadInput("side", "x", "no such side")), answer_of(OrdnanceError("?"))
(('bad-input', 422), ('error', 400))
"""

from __future__ import annotations

import logging
import sqlite3

from ordnance.core.errors import OrdnanceError
from ordnance.game import errors
from ordnance.game.dberrors import StorageError

log = logging.getLogger("ordnance.web")

RETRY_AFTER = 5  # seconds a client waits before asking again while the database is away


def answer_of(error: OrdnanceError) -> tuple[str, int]:
    """The kind (JSON ``error``) and HTTP status of ``error``."""
    kind, status, _exit = errors.answer_of(error)
    return kind, status


def status_of(error: OrdnanceError) -> int:
    """The HTTP status of ``error`` (:func:`answer_of`'s second half).

    >>> from ordnance.core.errors import NoSuchGame
    >>> status_of(NoSuchGame("game", "g1", "no such game"))
    404
    """
    return answer_of(error)[1]


def retry_headers(status: int) -> dict[str, str]:
    """``Retry-After`` for an answer that asks the client to come back later."""
    return {"Retry-After": str(RETRY_AFTER)} if status == 503 else {}


def unavailable_sentence() -> str:
    """What a player reads while the database is away."""
    return (
        "The game database cannot be reached just now (it may be restarting): nothing was"
        f" changed; try again in {RETRY_AFTER} s."
    )


def database_errors() -> tuple[type[Exception], ...]:
    """The errors a database failure may raise: the storage layer's own, and those of
    SQLAlchemy and the drivers should one pass it (a pool's connection error)."""
    from sqlalchemy import exc  # noqa: PLC0415 (loaded by the storage layer already)

    found: tuple[type[Exception], ...] = (StorageError, exc.SQLAlchemyError, sqlite3.Error)
    try:
        import psycopg  # noqa: PLC0415
    except ImportError:  # the postgres extra is not installed: no such errors
        return found
    return (*found, psycopg.Error)


def database_failure(error: BaseException) -> StorageError | None:
    """``error`` as one StorageError line when it is a database failure, else None."""
    if isinstance(error, StorageError) or not isinstance(error, database_errors()):
        return error if isinstance(error, StorageError) else None
    lines = str(error).strip().splitlines()
    return StorageError("the game database", lines[0] if lines else type(error).__name__)


def note_failure(error: OrdnanceError, where: str) -> None:
    """One log line for a database failure (no traceback: the cause is outside the program)."""
    log.warning("%s: %s (answered 503)", where, error)
