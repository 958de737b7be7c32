"""Storage on SQLite and PostgreSQL: schema on first use, migrations, appends guarded by version."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from ordnance.core.errors import BadInput
from ordnance.game import snapshot_table, storage
from ordnance.game.entries import make_entry
from ordnance.game.errors import StaleState
from ordnance.game.service import GameService
from ordnance.game.storage import HEAD, MIGRATIONS, StorageError, Store, database_url


def test_head_is_the_newest_migration():
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD


@pytest.mark.clause("SYS.record")
def test_first_use_creates_the_schema_and_it_matches_the_model(db_url):
    store = Store(db_url)
    try:
        assert storage.current_revision(store.engine) == HEAD
        with store.engine.connect() as connection:
            context = MigrationContext.configure(connection)
            # The snapshots module puts its table on the same metadata.
            assert snapshot_table.snapshots.metadata is storage.metadata
            assert compare_metadata(context, storage.metadata) == []
        Store(db_url).close()  # a second open finds the schema current
    finally:
        store.close()


@pytest.mark.clause("SYS.record")
def test_an_append_from_a_stale_version_is_refused_and_changes_nothing(db_url, new_game):
    service, made = new_game(db_url)
    store = service.store
    head = store.entries(made.game)[-1]
    first = make_entry(1, "seed", "german", {"seed": "a", "epoch": 0}, head.hash)
    store.append(made.game, 1, [first])
    rival = make_entry(1, "seed", "russian", {"seed": "b", "epoch": 0}, head.hash)
    with pytest.raises(StaleState) as refused:
        store.append(made.game, 1, [rival])
    assert (refused.value.based_on, refused.value.current) == (1, 2)
    assert [e.side for e in store.entries(made.game)] == [None, "german"]
    assert store.version(made.game) == 2


@pytest.mark.clause("SYS.record")
def test_an_append_onto_another_last_entry_at_the_same_version_is_refused(db_url, new_game):
    # A log cut and written again to the same length: the version matches, the last entry
    # is not the one the new entry chains to.
    service, made = new_game(db_url)
    store = service.store
    head = store.entries(made.game)[-1]
    stranger = make_entry(1, "seed", "german", {"seed": "a", "epoch": 0}, "f" * 64)
    with pytest.raises(StaleState):
        store.append(made.game, 1, [stranger])
    assert store.version(made.game) == 1
    chained = make_entry(1, "seed", "german", {"seed": "a", "epoch": 0}, head.hash)
    store.append(made.game, 1, [chained])
    assert [e.hash for e in store.entries(made.game)] == [head.hash, chained.hash]


def test_entries_come_back_exactly_as_hashed(db_url, new_game):
    service, made = new_game(db_url)
    entry = service.store.entries(made.game)[0]
    assert entry.check_hash()
    assert entry.body["scenario"]["body"]["units"]["pak"]["notation"] == "A5(2)/4(3)/3(4) s7 WP6"


def test_unknown_game_is_bad_input(db_url):
    store = Store(db_url)
    try:
        with pytest.raises(BadInput, match="no such game"):
            store.version("nope")
    finally:
        store.close()


def test_the_default_database_is_a_file_in_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("ORDNANCE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = database_url(None)
    assert url == f"sqlite:///{tmp_path / 'ordnance' / 'games.sqlite3'}"
    monkeypatch.setenv("ORDNANCE_DB", "sqlite:///elsewhere.db")
    assert database_url(None) == "sqlite:///elsewhere.db"
    assert database_url("x.db") == f"sqlite:///{Path('x.db').resolve()}"


def test_a_fresh_sqlite_file_is_created_in_an_existing_folder(tmp_path):
    path = tmp_path / "games.db"
    GameService(str(path)).close()
    assert path.is_file()


@pytest.mark.clause("SYS.record", "SYS.cite")
def test_only_the_default_database_folder_is_created(monkeypatch, tmp_path):
    # A mistyped --db would else start an empty database in a new folder nobody looks in.
    missing = tmp_path / "no" / "such" / "games.db"
    with pytest.raises(BadInput, match=r"folder .*no/such does not exist"):
        GameService(f"sqlite:///{missing}")
    assert not (tmp_path / "no").exists()
    monkeypatch.delenv("ORDNANCE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    GameService(None).close()
    assert (tmp_path / "data" / "ordnance" / "games.sqlite3").is_file()


def test_an_unreachable_server_is_one_storage_error():
    with pytest.raises(StorageError) as failed:
        Store("postgresql+psycopg://nobody:secret@127.0.0.1:1/none?connect_timeout=2")
    assert "secret" not in str(failed.value) and "***" in str(failed.value)


def test_a_malformed_url_is_bad_input():
    with pytest.raises(BadInput):
        Store("nosuchdriver://x")


def test_sqlite_runs_in_wal_mode_with_full_sync(sqlite_url):
    store = Store(sqlite_url)
    try:
        with store.engine.connect() as connection:
            mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
            sync = connection.exec_driver_sql("PRAGMA synchronous").scalar()
        assert (mode, sync) == ("wal", 2)
    finally:
        store.close()


def test_postgres_gets_the_psycopg_driver():
    assert sa.make_url(database_url("postgresql://u@h/d")).drivername == "postgresql+psycopg"


@pytest.mark.clause("SYS.record")
def test_threads_appending_through_one_store_each_entry_lands_once(db_url, new_game):
    # One thread at a time uses the appender's kept connection (SQLite); the others take
    # their own from the pool. Every append is still one transaction under the version guard.
    service, made = new_game(db_url)
    store = service.store
    landed: list[int] = []
    failures: list[BaseException] = []

    def writer(name: str) -> None:
        for n in range(15):
            while True:
                head = store.entries(made.game)[-1]
                entry = make_entry(
                    head.seq + 1, "seed", "german", {"seed": f"{name}{n}"}, head.hash
                )
                try:
                    store.append(made.game, head.seq + 1, [entry])
                except StaleState:
                    continue  # another thread moved the game first: read it again
                except BaseException as error:
                    failures.append(error)
                    return
                landed.append(entry.seq)
                break

    threads = [threading.Thread(target=writer, args=(name,)) for name in "abcd"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert sorted(landed) == list(range(1, 61))
    log = store.entries(made.game)
    assert [e.seq for e in log] == list(range(61)) and store.version(made.game) == 61
    assert all(e.prev == before.hash for before, e in itertools.pairwise(log))


def test_a_failed_append_stores_nothing_and_the_next_one_works(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    store = service.store
    head = store.entries(made.game)[-1]
    entry = make_entry(1, "seed", "german", {"seed": "a", "epoch": 0}, head.hash)
    store.append(made.game, 1, [entry])  # the appender now keeps its connection
    appender = store._appender
    assert appender is not None and appender._kept is not None
    second = make_entry(2, "seed", "russian", {"seed": "b", "epoch": 0}, entry.hash)
    good, appender.insert = appender.insert, "INSERT INTO no_such_table VALUES (?)"
    with pytest.raises(StorageError):
        store.append(made.game, 2, [second])
    assert appender._kept is None  # given back to the pool after the failure
    appender.insert = good
    assert store.version(made.game) == 2  # the version update was rolled back with it
    store.append(made.game, 2, [second])
    assert [e.side for e in store.entries(made.game)] == [None, "german", "russian"]
