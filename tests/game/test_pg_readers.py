"""PostgreSQL reads on kept autocommit connections (game/appender.py): each sees the newest
commit of any process, and a server restart costs no read (SYS.record)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ordnance.game import appender as appender_module
from ordnance.game.dberrors import StorageError
from ordnance.game.entries import make_entry
from ordnance.game.scenario import load_scenario_file
from ordnance.game.service import GameService

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "asl-c8-demo.yaml"


def playing(service: GameService) -> tuple[str, str, str]:
    """A new game of the example: its id, the side to move and that side's token."""
    made = service.create(load_scenario_file(EXAMPLE))
    folded = service.game(made.game)
    side = folded.rules.to_move(folded.state)
    assert side is not None
    return made.game, side, made.tokens[side]


class AnswerLost:
    """A kept connection that loses the answer to every statement sent through it: the first
    statement sent through any of them (``sends`` empty) is stored first, later ones are not
    (the database is gone by then)."""

    def __init__(self, connection: Any, sends: list[str]) -> None:
        self.connection, self.sends = connection, sends

    def cursor(self) -> AnswerLost:
        return self

    def execute(self, query: str, parameters: Any) -> None:
        import psycopg  # noqa: PLC0415 (the postgres extra)

        if not self.sends:
            with self.connection.cursor() as cursor:
                cursor.execute(query, parameters)
        self.sends.append(query)
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    def close(self) -> None:
        self.connection.close()


@pytest.mark.clause("SYS.record")
def test_reads_see_every_writer_and_survive_a_restart(postgres: Any, tmp_path: Path) -> None:
    url = postgres.create_database()
    one = GameService(url, keys=tmp_path / "keys")
    two = GameService(url, keys=tmp_path / "keys")  # another server process, in effect
    appender = None
    try:
        made = one.create(load_scenario_file(EXAMPLE))
        game, side = made.game, one.game(made.game).rules.to_move(one.game(made.game).state)
        assert side is not None
        assert two.store.tip(game)[0] == made.version
        one.do(game, side, made.tokens[side], ["phase", "next"])
        # Each read is a statement of its own: the other process's commit is seen at once.
        assert two.store.tip(game)[0] == made.version + 1
        assert two.game(game).version == made.version + 1
        appender = two.store._the_appender()
        assert len(appender._readers) == 1  # one connection, kept and reused
        postgres.restart()  # every connection the server had is cut
        assert two.store.tip(game)[0] == made.version + 1  # the first read after it is served
        assert two.store.version(game) == made.version + 1
    finally:
        one.close()
        two.close()
    assert appender._readers == []  # closed with the store


@pytest.mark.clause("SYS.record")
def test_an_append_is_one_statement_that_stores_and_tells_only_when_the_game_moved(
    postgres: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The append's one statement (game/statements.py APPEND_POSTGRES): the entry stored, the
    version moved and the listeners told together; decided at a version the game left, or
    chained to another entry, nothing is stored and nobody is told."""
    import psycopg  # noqa: PLC0415 (the postgres extra)

    from ordnance.game.database import NOTIFY_CHANNEL  # noqa: PLC0415

    url = postgres.create_database()
    service = GameService(url, keys=tmp_path / "keys")
    listener = psycopg.connect(
        url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True
    )
    try:
        game, side, token = playing(service)
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")  # after the new game's own notice
        appender = service.store._the_appender()
        sent: list[int] = []
        real = appender_module.append_postgres

        def counted(count: int) -> str:
            sent.append(count)
            return real(count)

        monkeypatch.setattr(appender_module, "append_postgres", counted)
        monkeypatch.setattr(appender, "_append", None)  # the statements one by one: never
        stored = service.store.entries(game)
        done = service.do(game, side, token, ["phase", "next"])
        assert sent == [1]  # one statement of one entry
        told = [n.payload for n in listener.notifies(timeout=2, stop_after=1)]
        assert told == [f"{game}:{done.version}"]
        assert service.store.tip(game)[0] == done.version
        # Decided at the version before (a stale fold) or chained to another entry: refused.
        again = service.store.entries(game)[-1:]
        assert not appender.append(game, done.version - 1, again)
        forked = [replace(again[0], seq=done.version, prev="0" * 64)]
        assert not appender.append(game, done.version, forked)
        assert service.store.tip(game)[0] == done.version
        assert len(service.store.entries(game)) == len(stored) + 1
        assert list(listener.notifies(timeout=0.5, stop_after=1)) == []
        # Two entries at once (a command and the reveal that ends a game): both or neither.
        first = make_entry(done.version, "seed", None, {"n": 1}, done.head)
        second = make_entry(done.version + 1, "seed", None, {"n": 2}, first.hash)
        assert appender.append(game, done.version, [first, second])
        assert service.store.tip(game) == (done.version + 2, second.hash)
        told = [n.payload for n in listener.notifies(timeout=2, stop_after=1)]
        assert told == [f"{game}:{done.version + 2}"]
        assert sent[-1] == 2
    finally:
        listener.close()
        service.close()


@pytest.mark.clause("SYS.record")
def test_an_append_cut_by_a_restart_is_sent_again_and_stored_once(
    postgres: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command on a connection a server restart cut is sent once more on a fresh one; one
    whose first send was stored, its answer lost with the connection, is not stored twice."""
    url = postgres.create_database()
    service = GameService(url, keys=tmp_path / "keys")
    try:
        game, side, token = playing(service)
        done = service.do(game, side, token, ["phase", "next"])  # a kept connection now
        postgres.restart()  # every connection the server had is cut
        again = service.do(game, side, token, ["phase", "next"])
        assert again.version == done.version + 1

        appender = service.store._the_appender()
        take = appender._take_reader
        lost: list[str] = []

        def taking() -> Any:  # the first send stored, its answer lost; then a good connection
            return take() if lost else AnswerLost(take(), lost)

        monkeypatch.setattr(appender, "_take_reader", taking)
        third = service.do(game, side, token, ["phase", "next"])
        assert lost and third.version == again.version + 1
        log = service.store.entries(game)
        assert len(log) == third.version and log[-1].hash == third.entries[-1].hash
        assert service.store.tip(game)[0] == third.version
    finally:
        service.close()


@pytest.mark.clause("SYS.record")
def test_a_command_whose_append_failed_unknown_is_not_decided_again(
    postgres: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the database fails under an append (stored or not, nobody knows), the command is
    refused as the database's failure, not decided again on the stored game: decided again
    after a send that was stored, it would be stored twice."""
    url = postgres.create_database()
    service = GameService(url, keys=tmp_path / "keys")
    try:
        game, side, token = playing(service)
        before = service.do(game, side, token, ["phase", "next"])
        appender = service.store._the_appender()
        take = appender._take_reader
        sends: list[str] = []
        # The first send is stored and its answer lost; the second finds no database.
        monkeypatch.setattr(appender, "_take_reader", lambda: AnswerLost(take(), sends))
        with pytest.raises(StorageError):
            service.do(game, side, token, ["phase", "next"])
        assert len(sends) == 2
        monkeypatch.undo()
        assert len(service.store.entries(game)) == before.version + 1  # stored once
    finally:
        service.close()
