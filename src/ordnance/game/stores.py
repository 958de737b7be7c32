"""The store of a database URL: the SQLAlchemy :class:`~ordnance.game.storage.Store`, or for a
command-line process the light SQLite path of :mod:`.sqlite_file` (each imported on use)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ordnance.game.keystore import KeyStore

if TYPE_CHECKING:
    from ordnance.game.storage import Store


def open_store(url: str | None, keys: KeyStore, *, light: bool) -> Store:
    """``light``: an existing SQLite file with a current schema through sqlite3 alone (the
    CLI, one game per process: SQLAlchemy would cost it more than its work, see
    :mod:`.sqlite_file`); else, or for any other database, the SQLAlchemy store."""
    if light:
        from ordnance.game.sqlite_file import open_file  # noqa: PLC0415

        found = open_file(url)
        if found is not None:
            # The methods the service and snapshots use of a Store (it has no engine: the web,
            # which asks for one, never opens a light store).
            return cast("Store", found)
    from ordnance.game.storage import Store, database_url  # noqa: PLC0415

    return Store(database_url(url), keys)
