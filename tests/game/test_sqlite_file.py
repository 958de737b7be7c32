"""The CLI's light store (game/sqlite_file.py) reads and writes what storage.Store does, on a
SQLite file whose schema is current, and is not used for anything else."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from ordnance.game import storage
from ordnance.game.errors import StaleState
from ordnance.game.scenario import load_scenario_file
from ordnance.game.service import GameService
from ordnance.game.sqlite_file import SqliteFile, newest_migration, open_file

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "asl-c8-demo.yaml"


@pytest.fixture
def made(tmp_path: Path) -> tuple[Path, str, dict[str, str]]:
    """A game with a few commands, stored through SQLAlchemy (storage.Store)."""
    path = tmp_path / "games.sqlite3"
    service = GameService(str(path), keys=tmp_path / "keys")
    try:
        new = service.create(load_scenario_file(EXAMPLE))
        for _ in range(3):
            service.do(new.game, "german", new.tokens["german"], ["phase", "next"])
    finally:
        service.close()
    return path, new.game, new.tokens


def test_the_newest_migration_is_the_stores_head():
    assert newest_migration() == storage.HEAD


@pytest.mark.clause("SYS.record")
def test_it_reads_what_the_store_wrote(made):
    path, game, _ = made
    light = open_file(str(path))
    assert isinstance(light, SqliteFile)
    store = storage.Store(storage.database_url(str(path)))
    try:
        assert light.entries(game) == store.entries(game)
        assert [e.mac for e in light.entries(game, 1, 3)] == [
            e.mac for e in store.entries(game, 1, 3)
        ]
        assert light.tip(game) == store.tip(game)
        assert light.version(game) == store.version(game) == 4
        assert light.game_ids() == store.game_ids()
        assert light.token_hash(game, "german") == store.token_hash(game, "german")
        assert light.has_game(game) and not light.has_game("nothing")
    finally:
        light.close()
        store.close()


@pytest.mark.clause("SYS.record")
def test_a_light_service_plays_on_and_a_stale_append_is_refused(made, tmp_path):
    path, game, tokens = made
    service = GameService(str(path), keys=tmp_path / "keys", light=True)
    try:
        assert isinstance(service.store, SqliteFile)
        folded = service.game(game)
        side = folded.rules.to_move(folded.state)
        assert side is not None
        done = service.do(game, side, tokens[side], ["phase", "next"])
        assert done.version == 5
        entries = service.store.entries(game)
        with pytest.raises(StaleState):
            service.store.append(game, 4, entries[-1:])
        assert service.store.version(game) == 5  # nothing half-written
    finally:
        service.close()
    # What the light store wrote reads back through SQLAlchemy, chain and all.
    again = GameService(str(path), keys=tmp_path / "keys")
    try:
        assert again.game(game).version == 5
    finally:
        again.close()


def test_other_databases_and_older_schemas_go_through_sqlalchemy(made, tmp_path):
    path, _, _ = made
    assert open_file("postgresql://u@h/db") is None
    assert open_file("sqlite:///:memory:") is None
    assert open_file(str(tmp_path / "missing.sqlite3")) is None
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0003'")
    connection.close()
    assert open_file(str(path)) is None


@pytest.mark.clause("SYS.record")
def test_the_light_append_is_guarded_by_the_last_entry_too(made):
    path, game, _tokens = made
    store = open_file(str(path))
    assert store is not None
    try:
        version, tip = store.tip(game)
        last = store.entries(game)[-1]
        stranger = replace(last, seq=version, prev="f" * 64, body_text=None)
        with pytest.raises(StaleState):
            store.append(game, version, [stranger])
        assert store.tip(game) == (version, tip)
    finally:
        store.close()
