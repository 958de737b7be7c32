"""Games of one process go on at once: a lock per game, pages drawn outside it and kept per
(game, version, side), never served once the game moved on."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ordnance.game.registry import ruleset
from ordnance.web import views
from ordnance.web.app import create_app
from ordnance.web.locks import GameLocks
from ordnance.web.table import Table

from .conftest import TestClient, create_game, csrf_of, version_of

SLOW = 10.0  # seconds a blocked call waits at most (a test that fails does not hang)


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "games.db"), ai_keys=tmp_path / "ai.json")
    with TestClient(app) as test_client:
        yield test_client


def _join(client: TestClient, link: str) -> str:
    """Open a private link; the side page's path."""
    joined = client.get(link, follow_redirects=False)
    assert joined.status_code == 303
    return str(joined.headers["location"])


def _phase_next(client: TestClient, page: str) -> None:
    html = client.get(page).text
    done = client.post(
        f"{page}/do",
        data={"csrf": csrf_of(html), "action": "phase next", "version": str(version_of(html))},
        follow_redirects=False,
    )
    assert done.status_code == 303, done.text


@pytest.mark.clause("SYS.record")
def test_one_game_slow_to_draw_does_not_hold_up_another_games_command(app_client, monkeypatch):
    """A V&V page whose legal actions take long (a big position) is drawn while an ASL
    game's command is stored: the command does not wait for the other game's page."""
    vv_game, vv_links, _ = create_game(app_client, "vv-meeting-engagement", ai="none")
    asl_game, asl_links, _ = create_game(app_client, "asl-c8-demo")
    vv_page = _join(app_client, vv_links["american"])
    asl_page = _join(app_client, asl_links["german"])
    drawing, release = threading.Event(), threading.Event()
    rules = type(ruleset("vv"))
    plain = rules.legal_actions

    def slow(self, state, side):  # type: ignore[no-untyped-def]
        drawing.set()
        release.wait(SLOW)
        return plain(self, state, side)

    monkeypatch.setattr(rules, "legal_actions", slow)
    page = threading.Thread(target=lambda: app_client.get(vv_page))
    page.start()
    try:
        assert drawing.wait(SLOW), "the V&V page never started drawing"
        started = time.monotonic()
        done = threading.Thread(target=_phase_next, args=(app_client, asl_page))
        done.start()
        done.join(SLOW / 2)
        assert not done.is_alive(), "the ASL game's command waited for the V&V game's page"
        assert time.monotonic() - started < SLOW / 2
    finally:
        release.set()
        page.join(SLOW)
    assert vv_game != asl_game


@pytest.mark.clause("SYS.record")
def test_a_game_whose_lock_is_held_holds_up_no_other_game(tmp_path):
    table = Table(str(tmp_path / "games.db"), tmp_path / "ai.json", warm=False)
    try:
        scenario = Path(__file__).resolve().parents[2] / "examples" / "asl-c8-demo.yaml"
        from ordnance.game.scenario import load_scenario_file  # noqa: PLC0415

        one = table.create(load_scenario_file(scenario))
        two = table.create(load_scenario_file(scenario))
        held, release = threading.Event(), threading.Event()

        def hold_one() -> None:
            with table.locks.hold(one.game):
                held.set()
                release.wait(SLOW)

        holder = threading.Thread(target=hold_one)
        holder.start()
        assert held.wait(SLOW)
        side = table.call(lambda s: s.status(two.game), two.game)["to_move"]
        applied: list[int] = []
        command = threading.Thread(
            target=lambda: applied.append(
                table.do(two.game, side, two.tokens[side], ["phase", "next"], expect=1).version
            )
        )
        command.start()
        command.join(SLOW / 2)
        assert applied == [2], "game two's command waited for game one's lock"
        # Game one's own command waits for its lock, and goes on once it is given back.
        waiting = threading.Thread(
            target=lambda: table.do(one.game, side, one.tokens[side], ["phase", "next"], expect=1)
        )
        waiting.start()
        waiting.join(0.3)
        assert waiting.is_alive()
        release.set()
        waiting.join(SLOW)
        assert not waiting.is_alive()
        assert table.call(lambda s: s.store.version(one.game)) == 2
        holder.join(SLOW)
        assert table.locks.in_use() == []  # the lock table keeps no lock nobody uses
    finally:
        table.close()


@pytest.mark.clause("SYS.record")
def test_the_lock_table_stays_small_however_many_games_pass():
    locks = GameLocks()
    for n in range(10_000):
        with locks.hold(f"g{n}"):
            pass
    assert locks.in_use() == []
    # Threads waiting for one game share its lock: one at a time.
    inside: list[int] = []
    most = [0]

    def one(n: int) -> None:
        with locks.hold("busy"):
            inside.append(n)
            most[0] = max(most[0], len(inside))
            time.sleep(0.01)
            inside.remove(n)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SLOW)
    assert most[0] == 1 and locks.in_use() == []


@pytest.mark.clause("SYS.record")
def test_a_page_is_drawn_once_per_version_and_never_served_after_the_game_moved(
    app_client, monkeypatch
):
    game, links, spectator = create_game(app_client, "asl-c8-demo")
    german = _join(app_client, links["german"])
    drawn: list[int] = []
    plain = views.map_svg

    def counted(folded, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(folded.version)
        return plain(folded, *args, **kwargs)

    monkeypatch.setattr(views, "map_svg", counted)
    first = app_client.get(german).text
    again = app_client.get(german).text
    assert version_of(first) == version_of(again) == 1
    assert drawn == [1]  # the second look is the kept page
    app_client.get(spectator)
    assert drawn == [1, 1]  # a spectator's page is another page
    # Moved on by another process sharing the database (this app never heard of it).
    other = Table(app_client.app.state.table.service.store.url, warm=False)
    try:
        token = app_client.cookies.get(
            next(n for n in app_client.cookies if n.endswith(b"german".hex()))
        )
        assert token is not None
        other.do(game, "german", token, ["phase", "next"], expect=1)
    finally:
        other.close()
    moved = app_client.get(german).text
    assert version_of(moved) == 2 and drawn[-1] == 2
    assert 'name="version" value="1"' not in moved


@pytest.mark.clause("SYS.record")
def test_a_kept_page_carries_each_browsers_own_csrf_token(app_client):
    _game, links, _spectator = create_game(app_client, "asl-c8-demo")
    page = _join(app_client, links["german"])
    mine = app_client.get(page).text
    with TestClient(app_client.app) as browser:
        assert _join(browser, links["german"]) == page
        theirs = browser.get(page).text  # the same page, kept: with this browser's token
    assert csrf_of(mine) != csrf_of(theirs)
    assert csrf_of(mine) == app_client.cookies.get("csrf") or csrf_of(mine)
    assert "csrf-of-this-browser" not in mine + theirs
    assert mine.replace(csrf_of(mine), "") == theirs.replace(csrf_of(theirs), "")
