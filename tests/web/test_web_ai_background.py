"""The server's AI plays in the background (issue 27): a player's request answers once the
player's command is stored, the AI's commands follow one version each, pushed to the pages; a
failure is one sentence on the page; two tables on one store never store a move twice; the
game's end says who won."""

from __future__ import annotations

import logging
import re
import shlex
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from tests.game.conftest import postgres_server, postgres_url
from tests.web.conftest import EXAMPLES, create_game, csrf_of, version_of

from ordnance.cli.status_text import stage_line
from ordnance.core.errors import IllegalAction
from ordnance.game import autoplay
from ordnance.game.fold import Game
from ordnance.game.logfile import verify
from ordnance.web.pages import _scenario
from ordnance.web.table import Table

__all__ = ["postgres_server", "postgres_url"]  # the fixtures, for the PostgreSQL case

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HEDGEROWS = (EXAMPLES / "vv-hedgerow-ambush.yaml").read_text(encoding="utf-8")
MEETING = (EXAMPLES / "vv-meeting-engagement.yaml").read_text(encoding="utf-8")
THINKING = re.compile(r'<p id="ai-status" class="ai-status thinking" data-ai="thinking"')


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The AI chooses nothing until the gate opens (a slow AI, as on a loaded machine); it
    fails after a few seconds, so a server that makes the player wait for it fails fast."""
    opened = threading.Event()
    choose = autoplay._choice

    def slow(game: Game, side: str) -> str | None:
        if not opened.wait(4):
            raise RuntimeError("the AI was made to wait and the player's request with it")
        return choose(game, side)

    monkeypatch.setattr(autoplay, "_choice", slow)
    yield opened
    opened.set()


def _log_after(table: Table, game: str, version: int) -> list[tuple[int, str | None, str]]:
    """The commands stored after ``version``: (the version each made, side, text)."""
    return [
        (e.seq + 1, e.side, e.body["command"]["text"])  # entry N makes version N + 1
        for e in table.call(lambda s: s.log(game))
        if e.seq + 1 > version and e.type == "command"
    ]


@pytest.mark.clause("SYS.record", "VV.AP-phases")
def test_the_players_post_answers_before_the_ai_stores_its_first_command(client, gate):
    game, links, spectator = create_game(client, "vv-hedgerow-ambush", ai="german")
    table: Table = client.app.state.table
    page = client.get(links["american"])
    base = f"/games/{game}/american"
    for _ in range(12):
        before = version_of(page.text)
        page = client.post(
            f"{base}/do",
            data={"csrf": csrf_of(page.text), "version": before, "action": "phase next"},
        )
        assert page.status_code == 200, page.text[-300:]
        # The answer shows the player's own action, at once.
        assert '<p class="notice news">american ended the phase' in page.text
        if table.call(lambda s: s.status(game))["to_move"] == "german":
            break
    else:
        pytest.fail("the German Player Turn never came")
    # The AI is to play and has stored nothing yet: the page says it is thinking.
    asked = version_of(page.text)
    assert table.call(lambda s: s.store.version(game)) == asked
    assert THINKING.search(page.text) and "The AI (german) is thinking" in page.text
    assert "End phase" not in page.text  # nothing to click while it plays
    assert THINKING.search(client.get(spectator).text)
    answer = client.get(f"/api/games/{game}").json()
    assert answer["ai_to_play"] is True and answer["version"] == asked
    with client.stream("GET", f"/games/{game}/events", params={"seen": asked}) as stream:
        gate.set()
        lines = iter(stream.iter_lines())
        assert next(line for line in lines if line.startswith("event: ")) == "event: hello"
        assert next(line for line in lines if line.startswith("event: ")) == "event: version"
        pushed = next(lines)
    assert int(pushed.removeprefix("data: ")) > asked  # pushed as it was stored
    assert table.settle(game)
    # Each of the AI's commands is its own entry and version, in order.
    played = _log_after(table, game, asked)
    german = [p for p in played if p[1] == "german"]
    assert german and [seq for seq, *_ in played] == list(range(asked + 1, asked + 1 + len(played)))
    shown = table.ai_moves.peek(game)
    assert [(m.version, m.text) for m in shown] == [(seq, text) for seq, _, text in german]
    # The page after the AI's turn says what it did, and it is the player's move again (or the
    # player's decision within the AI's turn).
    after = client.get(base, params={"seen": asked})
    assert after.text.count('<p class="notice news">german ') == min(len(german), 12)
    assert not THINKING.search(after.text)
    assert verify(client.get(f"/games/{game}/export").content).ok


@pytest.mark.clause("SYS.record", "VV.AP-phases")
def test_an_ai_that_moves_first_plays_at_once_and_leaves_no_click_without_choice(client):
    """The meeting engagement with the AI as the Americans, who move first: the game is made,
    the AI plays its turn by itself, and the German player's steps that are no choice (ending
    a phase of the Americans' turn) are taken, so the player is asked only real decisions."""
    made = client.post("/api/games", json={"scenario": MEETING, "ai_sides": ["american"]})
    assert made.status_code == 200, made.text
    game = made.json()["game"]
    table: Table = client.app.state.table
    assert table.settle(game)
    folded = table.call(lambda s: s.game(game))
    to_move = folded.rules.to_move(folded.state)
    assert to_move == "german" and folded.version > 1
    # On main the game stopped here with 'phase next' as the German's only action.
    assert autoplay.forced_choice(folded, "german") is None, folded.rules.legal_actions(
        folded.state, "german"
    )
    page = client.get(f"/join/{game}/german/{made.json()['tokens']['german']}")
    assert page.status_code == 200 and not THINKING.search(page.text)


@pytest.mark.clause("SYS.record")
def test_a_refused_ai_command_is_one_sentence_on_the_page_and_logged_once(
    client, monkeypatch, caplog
):
    def refused(game: Game, side: str) -> str | None:
        raise IllegalAction("V&V r. 5", "the AI's test double refuses to move")

    monkeypatch.setattr(autoplay, "_choice", refused)
    game, links, spectator = create_game(client, "vv-hedgerow-ambush", ai="american")
    table: Table = client.app.state.table
    with caplog.at_level(logging.WARNING, logger="ordnance.web"):
        assert table.settle(game)
        page = client.get(links["german"])
        watched = client.get(spectator)
        assert table.settle(game)
        api = client.get(f"/api/games/{game}").json()
    sentence = (
        "The AI (american) could not play: refused by V&amp;V r. 5: the AI&#39;s test double"
        " refuses to move. The game waits here"
    )
    for shown in (page.text, watched.text):
        assert 'data-ai="failed"' in shown and sentence in shown
        assert shown.count('class="ai-status') == 1
    assert api["ai_to_play"] is False and "refuses to move" in api["ai_trouble"]
    # Logged once, though two pages were drawn (and would have started it again).
    said = [r for r in caplog.records if "stopped at version 1" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert table.call(lambda s: s.store.version(game)) == 1  # nothing stored


@pytest.mark.clause("SYS.record")
def test_a_failed_run_is_pushed_to_the_pages(client, monkeypatch):
    fail = threading.Event()

    def broken(game: Game, side: str) -> str | None:
        assert fail.wait(60)  # a loaded machine may take seconds to open the stream
        raise ValueError("a bug in the AI")

    monkeypatch.setattr(autoplay, "_choice", broken)
    made = client.post("/api/games", json={"scenario": HEDGEROWS, "ai_sides": ["american"]})
    game = made.json()["game"]
    table: Table = client.app.state.table
    with client.stream("GET", f"/games/{game}/events", params={"seen": 1}) as stream:
        lines = iter(stream.iter_lines())
        assert next(line for line in lines if line.startswith("event: ")) == "event: hello"
        fail.set()  # the run fails now: the page hears of it, at the same version
        assert next(line for line in lines if line.startswith("event: ")) == "event: ai"
    assert table.settle(game)
    page = client.get(f"/join/{game}/german/{made.json()['tokens']['german']}")
    assert 'data-ai="failed"' in page.text and "it failed (ValueError)" in page.text


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_tables_on_one_store_never_store_the_ais_move_twice(
    tmp_path: Path, request, gate, caplog, backend: str
):
    """Two server processes (two tables) both run the AI of one game at once: every command is
    stored once, the slower table is refused as stale and says nothing."""
    url = (
        f"sqlite:///{tmp_path / 'games.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    scenario, ai_sides = _scenario(HEDGEROWS, "", "american")
    one = Table(url, tmp_path / "ai.json")
    two = Table(url, tmp_path / "ai.json")
    try:
        with caplog.at_level(logging.INFO, logger="ordnance.web"):
            made = one.create(scenario, ai_sides)  # one's run waits at the gate
            assert two.run_ai(made.game)  # and two's, learning of its AI side from the file
            gate.set()
            assert one.settle(made.game) and two.settle(made.game)
        log = one.call(lambda s: s.log(made.game))
        american = [e.seq + 1 for e in log if e.type == "command" and e.side == "american"]
        by_one = {m.version for m in one.ai_moves.peek(made.game) or ()}
        by_two = {m.version for m in two.ai_moves.peek(made.game) or ()}
        assert american and not by_one & by_two and by_one | by_two == set(american)
        assert [e.seq for e in log] == list(range(len(log)))
        assert (
            one.call(lambda s: s.game(made.game)).rules.to_move(
                one.call(lambda s: s.game(made.game)).state
            )
            == "german"
        )
        assert verify(one.call(lambda s: s.export(made.game)).encode()).ok
        assert [r.getMessage() for r in caplog.records] == []  # the loser is quiet
    finally:
        one.close()
        two.close()


@pytest.mark.clause("SYS.record")
def test_shutdown_waits_for_the_run_stores_nothing_half_and_a_restart_resumes(tmp_path: Path, gate):
    scenario, ai_sides = _scenario(HEDGEROWS, "", "american")
    table = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    made = table.create(scenario, ai_sides)
    assert table.runner.running(made.game)  # choosing its first command, at the gate
    threading.Timer(0.3, gate.set).start()
    table.close(timeout=30)  # waits for the choice; what it chose is not stored
    assert not table.runner.running(made.game)
    assert not table.runner.start(made.game)  # and no run starts any more
    again = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    try:
        assert again.call(lambda s: s.store.version(made.game)) == 1
        # A page opened after the restart finds the AI to play and starts it.
        folded = again.call(lambda s: s.game(made.game))
        state = again.ai_state(folded, "german", made.tokens["german"])
        assert state is not None and state.kind == "thinking"
        assert again.settle(made.game)
        log = again.call(lambda s: s.log(made.game))
        assert any(e.type == "command" and e.side == "american" for e in log)
        assert verify(again.call(lambda s: s.export(made.game)).encode()).ok
    finally:
        again.close()


def _play_to_the_end(table: Table, game: str, side: str, token: str) -> None:
    for _ in range(400):
        assert table.settle(game)
        status = table.call(lambda s: s.status(game, side))
        if status["over"]:
            return
        action = status["legal_actions"][side][0]
        table.do(game, side, token, shlex.split(action), expect=None)
    pytest.fail("the game never ended")


@pytest.mark.clause("SYS.record", "SYS.cite")
def test_the_game_over_banner_says_who_won_and_why_as_game_status_does(client):
    scenario_text = yaml.safe_dump({**yaml.safe_load(HEDGEROWS), "turns": 1})
    made = client.post("/api/games", json={"scenario": scenario_text, "ai_sides": ["german"]})
    game, token = made.json()["game"], made.json()["tokens"]["american"]
    table: Table = client.app.state.table
    _play_to_the_end(table, game, "american", token)
    status = table.call(lambda s: s.status(game))
    result = status["state"]["result"]
    winner = result["winner"]
    page = client.get(f"/join/{game}/american/{token}")
    banner = re.search(r'<section id="game-over".*?</section>', page.text, re.S)
    assert banner is not None and '<h2 id="over-h">Game over</h2>' in banner.group(0)
    said = re.search(r'<p class="result">(.*?)</p>', banner.group(0))
    assert said is not None
    points = result["points"]
    if winner is None:
        assert said.group(1).startswith("A draw: victory points")
    else:
        assert said.group(1).startswith(f"{winner} wins")
        assert f"{points[winner]} victory points" in said.group(1) or "level" in said.group(1)
    assert "(V&amp;V r. 2)" in said.group(1) and "the last turn (1 of 1) has ended" in said.group(1)
    assert f'href="/games/{game}/export" download>Export the verified log' in banner.group(0)
    # The CLI's status says the same words.
    line = stage_line(status).replace("&", "&amp;")
    assert line.endswith(said.group(1)) and "the game is over." in line


def test_the_asl_and_lnl_ends_name_no_winner_they_do_not_keep() -> None:
    from ordnance.game.result import over_sentence  # noqa: PLC0415

    said = over_sentence({"over": True, "turn": 1, "turns": 1, "phase": "CCPh"})
    assert said is not None and "no winner is named" in said and "(1 of 1)" in said
    tie: Callable[[dict[str, int]], str | None] = lambda points: over_sentence(  # noqa: E731
        {"over": True, "result": {"points": points, "winner": "german", "clause": "V&V r. 2"}}
    )
    assert "level, 3 each, and the scenario gives a tie to german" in str(
        tie({"a": 3, "german": 3})
    )


@pytest.mark.clause("SYS.record")
def test_an_actions_answer_reads_the_stored_game_once(client, gate, monkeypatch):
    """The answer to a command (whose move, the version now, what the AI does) is worked out
    on one read of the stored game: each of the AI's three answers read it again."""
    from ordnance.game.service import GameService  # noqa: PLC0415
    from ordnance.game.storage import Store  # noqa: PLC0415

    made = client.post("/api/games", json={"scenario": HEDGEROWS, "ai_sides": ["german"]}).json()
    game, token = made["game"], made["tokens"]["american"]
    reads: list[str] = []
    real_game, real_version = GameService.game, Store.version

    def game_read(self: GameService, game_id: str) -> Game:
        reads.append("game")
        return real_game(self, game_id)

    def version_read(self: Store, game_id: str) -> int:
        reads.append("version")
        return real_version(self, game_id)

    real_do = Table.do

    def command(self: Table, *args: object, **kwargs: object) -> object:
        applied = real_do(self, *args, **kwargs)  # type: ignore[arg-type]
        reads.clear()  # the command's own reads (and its AI's start) are not the answer's
        return applied

    monkeypatch.setattr(GameService, "game", game_read)
    monkeypatch.setattr(Store, "version", version_read)
    monkeypatch.setattr(Table, "do", command)
    answer = client.post(
        f"/api/games/{game}/do",
        json={"side": "american", "words": ["phase", "next"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["version_now"] == made["version"] + 1 and body["ai_trouble"] is None
    assert {"ai_to_play", "ai_waiting", "to_move"} <= body.keys()
    assert reads == ["game"]
