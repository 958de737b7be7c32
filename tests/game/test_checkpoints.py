"""A server's SQLite file is checkpointed by a thread of its own, not inside a command
(game/checkpoints.py) (SYS.record)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ordnance.game import checkpoints
from ordnance.game.scenario import load_scenario_file
from ordnance.game.service import GameService

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "asl-c8-demo.yaml"


@pytest.mark.clause("SYS.record")
def test_commits_leave_the_checkpoint_to_its_thread_and_lose_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoints, "EVERY", 3)
    service = GameService(f"sqlite:///{tmp_path}/g.db", keys=tmp_path / "keys")
    try:
        made = service.create(load_scenario_file(EXAMPLE))
        appender = service.store._the_appender()
        assert appender is not None and appender.checkpoints is not None
        commits = 0
        while side := service.game(made.game).rules.to_move(service.game(made.game).state):
            service.do(made.game, side, made.tokens[side], ["phase", "next"])
            commits += 1
        assert commits >= 6
        kept = appender._kept_cursor.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        assert kept == checkpoints.FALLBACK  # the commands' own connection makes none
        assert appender.checkpoints.synchronous == 2  # and its checkpoints sync as it does: FULL
        deadline = time.monotonic() + 5
        while appender.checkpoints.done < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert appender.checkpoints.done >= 2  # one asked for every 3 commits
        version = service.game(made.game).version
    finally:
        service.close()
    assert version > commits
    with sqlite3.connect(tmp_path / "g.db") as fresh:
        stored = fresh.execute("SELECT count(*) FROM entries").fetchone()[0]
    assert stored == version


class _CommitAfterFirstPass:
    """A checkpointer's connection after whose first pass a command commits, as one does on
    a busy server while a pass copies."""

    def __init__(self, checkpointer: sqlite3.Connection, commit: Callable[[], None]) -> None:
        self.checkpointer, self.commit, self.passes = checkpointer, commit, 0

    def execute(self, sql: str) -> _Rows:
        cursor = self.checkpointer.execute(sql)
        row = cursor.fetchone()
        self.passes += 1
        if self.passes == 1:
            self.commit()
        return _Rows(row)


class _Rows:
    """The one row a pass answered, as its cursor gives it."""

    def __init__(self, row: tuple[int, int, int]) -> None:
        self.row = row

    def fetchone(self) -> tuple[int, int, int]:
        return self.row


@pytest.mark.clause("SYS.record")
def test_a_checkpoint_catches_up_with_commits_so_the_log_starts_again(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute(f"PRAGMA wal_autocheckpoint={checkpoints.FALLBACK}")
    writer.execute("CREATE TABLE t (x TEXT)")

    def commit() -> None:
        writer.execute("INSERT INTO t VALUES (?)", ("x" * 3000,))

    for _ in range(50):
        commit()
    checkpointer = sqlite3.connect(path, isolation_level=None)
    connection = _CommitAfterFirstPass(checkpointer, commit)
    checkpoints.Checkpoints(path)._checkpoint(connection)  # type: ignore[arg-type]
    assert connection.passes >= 2  # the frames committed during the first were copied too
    commit()  # the log, copied whole, is written from its start again
    frames = writer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    assert frames <= 4, frames  # this commit's pages alone, not the 100-odd before it
    writer.close()
    checkpointer.close()
