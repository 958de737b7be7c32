"""A new version of a watched game is worked out before its pages ask (web/warm.py).

While a page listens to a game's events, each new version's picture and the side to move's
offers are made in the background: the page and the first click are then answered from the
caches. A game nobody watches is left alone, and only the newest version of a game is warmed.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ordnance.game.picture import game_picture
from ordnance.web import preview, views, warm
from ordnance.web.app import create_app
from ordnance.web.pictures import PICTURES, PictureKey
from ordnance.web.table import Table

D13 = Path(__file__).resolve().parents[2] / "examples" / "asl-d13-demo.yaml"


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "games.db"), ai_keys=tmp_path / "ai.json", warm=True)
    with TestClient(app) as client:
        yield client


def new_game(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post("/api/games", json={"scenario": D13.read_text("utf-8")})
    assert made.status_code == 200, made.text
    game, tokens = made.json()["game"], made.json()["tokens"]
    for side, token in tokens.items():
        client.get(f"/join/{game}/{side}/{token}", follow_redirects=False)
    return game, tokens


def listen(client: TestClient, game: str) -> None:
    """A page's event stream on ``game`` for the rest of the test (ends with the app)."""

    def stream() -> None:
        with contextlib.suppress(Exception), client.stream("GET", f"/games/{game}/events") as got:
            for _ in got.iter_lines():
                pass

    threading.Thread(target=stream, daemon=True).start()
    table: Table = client.app.state.table  # type: ignore[attr-defined]
    for _ in range(200):  # until the stream is registered with the table's news
        if table.news._waiting.get(game):
            return
        time.sleep(0.05)
    raise AssertionError("the event stream never started")


def phase_next(client: TestClient, game: str, tokens: dict[str, str]) -> int:
    done = client.post(
        f"/api/games/{game}/do",
        json={"side": "american", "words": ["phase", "next"]},
        headers={"Authorization": f"Bearer {tokens['american']}"},
    )
    assert done.status_code == 200, done.text
    version: int = done.json()["version"]
    return version


def offers_kept(key: tuple[str, int], unit: str) -> bool:
    return preview.CACHE._kept.peek((key[0], key[1], "american", unit)) is not None


def keys(client: TestClient, game: str) -> tuple[PictureKey, tuple[str, int]]:
    """The key of the game's plain picture as it stands, and (game, version) for its offers."""
    table: Table = client.app.state.table  # type: ignore[attr-defined]
    with table.locks.hold(game):
        folded = table.service.game(game)
    picture = game_picture(folded.rules, folded.state)
    assert picture is not None
    return views.picture_key(folded, picture), (game, folded.version)


@pytest.mark.clause("SYS.record")
def test_a_watched_game_s_new_version_is_drawn_and_offered_before_a_page_asks(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, tokens = new_game(app_client)
    listen(app_client, game)
    worked: list[str] = []
    real = preview.unit_offers

    def counting(*args: Any) -> Any:
        worked.append(args[2])
        return real(*args)

    monkeypatch.setattr(preview, "unit_offers", counting)
    phase_next(app_client, game, tokens)  # the American Prep Fire Phase
    key, version = keys(app_client, game)
    for _ in range(400):
        # (m24's offers stored, not only started: the click must not race the warming)
        if PICTURES.get(key) is not None and "m24" in worked and offers_kept(version, "m24"):
            break
        time.sleep(0.05)
    assert PICTURES.get(key) is not None  # drawn with no page asking
    assert "m24" in worked
    before = len(worked)
    offers = app_client.get(f"/games/{game}/american/offers", params={"unit": "m24"})
    assert offers.status_code == 200 and offers.json()["hexes"]
    assert len(worked) == before  # the click is answered from what was worked out


@pytest.mark.clause("SYS.record")
def test_a_game_nobody_watches_is_not_warmed(app_client: TestClient) -> None:
    game, tokens = new_game(app_client)
    phase_next(app_client, game, tokens)
    table: Table = app_client.app.state.table  # type: ignore[attr-defined]
    assert table.warmer is not None and table.warmer._thread is None
    assert PICTURES.get(keys(app_client, game)[0]) is None


@pytest.mark.clause("SYS.record")
def test_only_the_newest_version_of_a_game_is_warmed(monkeypatch: pytest.MonkeyPatch) -> None:
    warmed: list[tuple[str, int]] = []
    busy, release = threading.Event(), threading.Event()

    def recording(self: warm.Warmer, game: str, version: int) -> None:
        warmed.append((game, version))
        busy.set()
        release.wait(10)

    monkeypatch.setattr(warm.Warmer, "warm", recording)
    monkeypatch.setattr(warm, "DELAY", 0.0)
    warmer = warm.Warmer(None)  # type: ignore[arg-type]
    warmer.note("g1", 1)
    assert busy.wait(10)  # the thread is warming g1 at version 1
    for game, version in (("g2", 5), ("g2", 6), ("g3", 2)):
        warmer.note(game, version)
    release.set()
    for _ in range(200):
        if len(warmed) == 3:
            break
        time.sleep(0.05)
    warmer.stop()
    assert warmed == [("g1", 1), ("g2", 6), ("g3", 2)]


@pytest.mark.clause("SYS.record")
def test_stopping_waits_for_the_version_being_warmed(monkeypatch: pytest.MonkeyPatch) -> None:
    # The table closes its service once the warmer has stopped: a warm still reading a game
    # would open the database again, under a folder being removed (bench_first in CI).
    started, finished = threading.Event(), threading.Event()

    def slow(self: warm.Warmer, game: str, version: int) -> None:
        started.set()
        time.sleep(0.3)
        finished.set()

    monkeypatch.setattr(warm.Warmer, "warm", slow)
    monkeypatch.setattr(warm, "DELAY", 0.0)
    warmer = warm.Warmer(None)  # type: ignore[arg-type]
    warmer.note("g1", 1)
    assert started.wait(10)
    warmer.stop()
    assert finished.is_set()
    warmer.note("g1", 2)  # a stopped warmer takes no more
    assert warmer._thread is not None and not warmer._thread.is_alive()


@pytest.mark.clause("SYS.record")
def test_a_busy_server_warms_nothing(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a request is being answered the warmer waits, and drops the job after IDLE_WAIT:
    the pages then ask for themselves, sooner than a guess would help."""
    game, tokens = new_game(app_client)
    listen(app_client, game)
    table: Table = app_client.app.state.table  # type: ignore[attr-defined]
    monkeypatch.setattr(warm, "IDLE_WAIT", 0.3)
    table.in_flight.count += 1  # a request that stays in flight for the whole test
    try:
        phase_next(app_client, game, tokens)
        key, version = keys(app_client, game)
        time.sleep(warm.DELAY + warm.IDLE_WAIT + 0.5)  # the job has been dropped by now
        assert PICTURES.get(key) is None
        assert not offers_kept(version, "m24")
    finally:
        table.in_flight.count -= 1
    assert table.in_flight.count == 0  # the test's own requests all ended
