"""Two tables (as two server processes) on one database and one AI key file; a database away."""

from __future__ import annotations

import asyncio
import contextlib
import html
import importlib
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from tests.web.conftest import EXAMPLES, run_apart

from ordnance.game.service import GameService
from ordnance.game.storage import StorageError
from ordnance.web.notify import believe, conninfo, listen
from ordnance.web.pages import _scenario
from ordnance.web.table import Table, new_game_scenario

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
harness: Any = importlib.import_module("web_harness")

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_a_process_plays_the_ai_side_of_a_game_another_process_started(tmp_path: Path) -> None:
    scenario, ai_sides = _scenario(
        (EXAMPLES / "vv-hedgerow-ambush.yaml").read_text(encoding="utf-8"), "", "american"
    )
    # Both exist before the game does: the second learns of its AI side from the shared file.
    one = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    two = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    try:
        made = one.create(scenario, ai_sides)
        assert one.settle(made.game)  # the AI's first turn, played by the first table
        # German acts through the second table until the AI's side is to move there.
        for _ in range(30):
            status = two.call(lambda s: s.status(made.game))
            if status["to_move"] != "german" or two.ai_moves.peek(made.game) is not None:
                break
            action = status["legal_actions"]["german"][0].split()
            two.do(made.game, "german", made.tokens["german"], action, expect=None)
            assert two.settle(made.game)  # the AI answers in the background
        moves = two.ai_moves.peek(made.game) or ()
        assert moves and {m.side for m in moves} == {"american"}
        assert two.call(lambda s: s.status(made.game))["version"] == moves[-1].version
    finally:
        one.close()
        two.close()


def test_an_event_stream_opened_while_the_database_is_away_asks_the_browser_to_retry(
    client, monkeypatch
):
    def away(_action: object) -> object:
        raise StorageError("postgresql://db/ordnance", "connection refused")

    monkeypatch.setattr(client.app.state.table, "call", away)
    answer = client.get("/games/0123abcd/events")
    # 200 and a retry interval: EventSource reconnects (it gives up for good on a 4xx/5xx).
    assert answer.status_code == 200 and answer.text == "retry: 2000\n\n"


# --- no decision from a stale cache, no rolled-back log served, no forged news believed -----


def _demo() -> str:
    from tests.game.conftest import DEMO  # noqa: PLC0415

    return yaml.safe_dump({**DEMO, "dice": "fair"})


@pytest.mark.clause("SYS.record")
def test_a_table_decides_on_the_game_another_process_moved_on(tmp_path: Path) -> None:
    one = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    two = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    try:
        made = one.create(new_game_scenario(_demo())[0])
        german = made.tokens["german"]
        assert one.call(lambda s: s.status(made.game))["state"]["phase"] == "RPh"
        for _ in range(2):
            two.do(made.game, "german", german, ["phase", "next"], expect=None)
        # Legal in the MPh only: the first table's fold of the game is still at the RPh.
        assert one.do(made.game, "german", german, ["move", "pz4"], expect=None).version == 4
    finally:
        one.close()
        two.close()


@pytest.mark.clause("SYS.record")
def test_a_rolled_back_log_is_409_on_the_api_and_a_sentence_on_the_page(client, tmp_path):
    made = client.post("/api/games", json={"scenario": _demo()}).json()
    game, token = made["game"], made["tokens"]["german"]
    auth = {"Authorization": f"Bearer {token}"}
    for words in (["phase", "next"], ["fire", "pak", "--ammo", "AP", "--to-hit", "7"]):
        done = client.post(f"/api/games/{game}/do", json={"side": "german", "words": words},
                           headers=auth)  # fmt: skip
        assert done.status_code == 200, done.text
    version = done.json()["version"]
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'games.db'}")
    with engine.begin() as connection:
        connection.execute(sa.text(f"DELETE FROM entries WHERE seq = {version - 1}"))
        connection.execute(sa.text(f"UPDATE games SET version = {version - 1}"))
    engine.dispose()
    sentence = f"this game's log was rolled back or forked at entry {version - 1}"
    # The shot sent again (another entropy, other faces): refused, nothing rolled.
    again = client.post(f"/api/games/{game}/do", headers=auth, json={"side": "german",
                        "words": ["fire", "pak", "--ammo", "AP", "--to-hit", "7"]})  # fmt: skip
    assert again.status_code == 409
    assert again.json()["error"] == "rolled-back" and sentence in again.json()["message"]
    answer = client.get(f"/api/games/{game}")
    assert answer.status_code == 409 and sentence in answer.json()["message"]
    page = client.get(f"/games/{game}")
    assert page.status_code == 409
    text = html.unescape(page.text)
    assert sentence in text and "restore the database from a backup" in text


@pytest.mark.clause("SYS.record")
def test_a_notification_is_believed_only_as_far_as_the_store_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    try:
        made = table.create(new_game_scenario(_demo())[0])
        run_apart(believe(table, f"{made.game}:999999"))
        assert table.news.version(made.game) == 1
        run_apart(believe(table, "0badc0ffee00:7"))  # no such game: let go
        assert table.news.version("0badc0ffee00") is None
        table.service.do(made.game, "german", made.tokens["german"], ["phase", "next"])
        run_apart(believe(table, f"{made.game}:2"))
        assert table.news.version(made.game) == 2
        # A version already noted (this process's own write, heard back) is not read again.
        reads: list[str] = []
        real = table.service.store.version
        monkeypatch.setattr(table.service.store, "version", lambda g: reads.append(g) or real(g))
        run_apart(believe(table, f"{made.game}:2"))
        run_apart(believe(table, f"{made.game}:1"))
        assert reads == []
        run_apart(believe(table, f"{made.game}:3"))  # ahead of what it knows: read, not noted
        assert reads == [made.game] and table.news.version(made.game) == 2
    finally:
        table.close()


@pytest.mark.clause("SYS.record")
def test_a_forged_notify_does_not_stop_the_pushes_of_a_game(tmp_path: Path) -> None:
    server = harness.Postgres()
    try:
        url = server.create_database()
        table = Table(url, tmp_path / "ai.json")
        other = GameService(url)
        try:
            made = table.create(new_game_scenario(_demo())[0])
            seen = run_apart(_forged_then_real(table, other, made, url))
        finally:
            table.close()
            other.close()
    finally:
        server.stop()
    # The real write (version 2) reached the pages; the forged version did not.
    assert seen == 2


async def _forged_then_real(table: Table, other: GameService, made: Any, url: str) -> int | None:
    ready = asyncio.Event()
    task = asyncio.create_task(listen(table, conninfo(table) or url, on_ready=ready.set))
    try:
        await asyncio.wait_for(ready.wait(), 30)

        def forge_then_write() -> None:
            engine = sa.create_engine(url)
            with engine.begin() as connection:
                connection.execute(sa.text(f"NOTIFY ordnance_games, '{made.game}:999999'"))
            engine.dispose()
            # Another server process moves the game on (its NOTIFY says version 2).
            other.do(made.game, "german", made.tokens["german"], ["phase", "next"])

        await asyncio.to_thread(forge_then_write)
        for _ in range(200):
            if table.news.version(made.game) not in (None, 1):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # anything later would show too
        return table.news.version(made.game)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
