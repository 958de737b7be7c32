"""How the table answers a failure: one table of error classes to kinds and HTTP statuses.

The JSON API and the pages read the same table, so a failure has the same status on both.
A database that cannot be reached (a restart, a network fault) is ``unavailable``, 503 with
``Retry-After``; the log gets one line for it, never a traceback.

>>> from ordnance.game.dberrors import StorageError
>>> answer_of(StorageError("sqlite:///g.db", "disk I/O error"))
('unavailable', 503)
>>> answer_of(BadInput("side", "x", "no such side")), answer_of(OrdnanceError("?"))
(('bad-input', 422), ('error', 400))
"""

from __future__ import annotations

import logging
import sqlite3

from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.game.dberrors import StorageError
from ordnance.game.errors import NotAuthorized, RolledBack, StaleState

log = logging.getLogger("ordnance.web")

# First match wins: subclasses before their bases.
ANSWERS: tuple[tuple[type[OrdnanceError], str, int], ...] = (
    (IllegalAction, "refused", 409),
    # The stored log conflicts with the head the server kept: nothing is served from it.
    (RolledBack, "rolled-back", 409),
    (StaleState, "stale", 409),
    (NotAuthorized, "not-authorized", 403),
    (StorageError, "unavailable", 503),
    (BadInput, "bad-input", 422),
)
OTHER = ("error", 400)
RETRY_AFTER = 5  # seconds a client waits before asking again while the database is away


def answer_of(error: OrdnanceError) -> tuple[str, int]:
    """The kind (JSON ``error``) and HTTP status of ``error``."""
    for cls, kind, status in ANSWERS:
        if isinstance(error, cls):
            return kind, status
    return OTHER


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
