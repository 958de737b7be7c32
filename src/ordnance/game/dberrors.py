"""Every database failure as one line, with any password masked: the one place that maps them.

The storage layer wraps each use of the database in :func:`storage_errors`; whatever the
driver, SQLAlchemy or Alembic raises there (a file that is not a database, a driver that is not
installed, a server that cannot be reached, a lock held too long, a schema revision this
version does not know) leaves it as a :class:`StorageError` naming the database and the fault.
Rows whose text the game cannot read (an entry body that is not JSON)
are :func:`damaged` rows, reported the same way.

>>> mask("postgresql://ann:s3cret@db.example/games")
'postgresql://ann:***@db.example/games'
>>> mask("database mysql://u:p@ss@h/db: refused")
'database mysql://u:***@h/db: refused'
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ordnance.core.errors import BadInput, OrdnanceError
from ordnance.core.errors import mask_passwords as mask
from ordnance.core.extras import MissingExtra, extra_of
from ordnance.core.limits import DB_TIMEOUT_ENV

# Drivers SQLAlchemy may ask for, and the package that provides each.
_DRIVERS = {
    "MySQLdb": "mysqlclient",
    "pymysql": "pymysql",
    "oracledb": "oracledb",
    "cx_Oracle": "cx-oracle",
    "pyodbc": "pyodbc",
    "psycopg2": "psycopg2",
    "asyncpg": "asyncpg",
}


class StorageError(OrdnanceError):
    """The database cannot be reached or used; says which (password hidden) and why.

    >>> str(StorageError("postgresql://u:pw@h/db", "connection refused"))
    'database postgresql://u:***@h/db: connection refused'
    """

    def __init__(self, url: str, problem: str) -> None:
        super().__init__(url, problem)
        self.url, self.problem = mask(url), mask(problem)

    def __str__(self) -> str:
        return f"database {self.url}: {self.problem}"


def damaged(url: str, game: str, what: str) -> StorageError:
    """A row of ``game`` the program cannot read (to raise)."""
    return StorageError(url, f"game {game} is damaged: {what} (restore it from an export)")


def driver_failure(url: str, error: BaseException) -> StorageError:
    """A failure the database driver raised itself (the store's fast path), as one line."""
    return StorageError(url, _driver_reason(error))


def bad_url(url: str, problem: str) -> BadInput:
    """A ``--db`` value that is not a database URL (to raise), password masked."""
    return BadInput("database URL", mask(url), mask(problem))


@contextmanager
def storage_errors(url: str) -> Iterator[None]:
    """Database failures inside become one :class:`StorageError` line.

    An IntegrityError passes through: the store turns it into a stale state or a duplicate.
    """
    # Imported here so that merely naming this module costs no SQLAlchemy import.
    from sqlalchemy import exc  # noqa: PLC0415

    try:
        yield
    except exc.IntegrityError:
        raise
    except exc.DBAPIError as error:
        raise StorageError(url, _driver_reason(error)) from None
    except (exc.NoSuchModuleError, exc.ArgumentError) as error:
        raise bad_url(url, _first_line(error)) from None
    except ImportError as error:
        raise StorageError(url, _missing_driver(error)) from None
    except exc.SQLAlchemyError as error:
        raise StorageError(url, _first_line(error)) from None
    except Exception as error:
        if type(error).__module__.startswith("alembic"):
            raise StorageError(url, _schema_reason(error)) from None
        raise


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _driver_reason(error: BaseException) -> str:
    orig = getattr(error, "orig", None)
    reason = _first_line(orig if orig is not None else error)
    lowered = reason.lower()
    if "locked" in lowered or "lock timeout" in lowered or "timeout expired" in lowered:
        return (
            f"{reason}: another program held it longer than ${DB_TIMEOUT_ENV} allows"
            " (seconds, default 5); try again, or raise it"
        )
    if "not a database" in lowered or "malformed" in lowered:
        return f"{reason} (the file is damaged or is not an ordnance database)"
    return reason


def _missing_driver(error: ImportError) -> str:
    """What to install for a driver SQLAlchemy could not import.

    >>> _missing_driver(ModuleNotFoundError("no psycopg", name="psycopg"))
    "PostgreSQL needs the 'postgres' extra (no module 'psycopg'): pip install 'ordnance[postgres]'"
    """
    name = (error.name or "").split(".")[0]
    if extra_of(name) == "postgres":
        return str(MissingExtra("postgres", "PostgreSQL", name))
    package = _DRIVERS.get(name, name or "its driver")
    return (
        f"its driver is not installed (no module {name!r}); ordnance supports SQLite and"
        f" PostgreSQL (the 'postgres' extra); for this one: pip install {package}"
    )


def _schema_reason(error: BaseException) -> str:
    text = _first_line(error)
    if "Can't locate revision" in text:
        return (
            f"its tables are at an unknown schema revision ({text.rsplit(' ', 1)[-1]}):"
            " written by a newer ordnance? Use that version, or a database of this one"
        )
    return f"its schema cannot be set up ({text})"
