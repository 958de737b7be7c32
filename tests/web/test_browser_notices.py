"""The table in a real browser says every refusal in its notice, never drops one silently.

Each answer comes from a real server: a side whose cookie holds a wrong token (403), a command
over the size limit (413), actions over the rate (429), a PostgreSQL server stopped under the
table (503), and a server that cannot be reached at all (the network fails). The page keeps
its board and says what failed and what to do in its live region. Screenshots go to
the test's temporary folder (tests/web/test_browser.py drives the same Chromium).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import EXAMPLES
from tests.web.test_browser import browser_type_launch_args  # noqa: F401

from ordnance.web import security
from ordnance.web.app import create_app
from ordnance.web.limits import Limits

DEMO = (EXAMPLES / "asl-c8-demo.yaml").read_text(encoding="utf-8")
pytestmark = pytest.mark.clause("SYS.cite")


class Served:
    """The app on ``db`` with ``limits``, served by uvicorn on a free port in a thread."""

    def __init__(self, db: str, keys: Path, limits: Limits) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        config = uvicorn.Config(
            create_app(db, ai_keys=keys, limits=limits),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the test server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def side_page(browser: Browser, server: str) -> tuple[Page, str, dict[str, str]]:
    """A german player's page of a new C8 demo game (made through the API)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    made = page.request.post(f"{server}/api/games", data={"scenario": DEMO}).json()
    page.goto(f"{server}/join/{made['game']}/german/{made['tokens']['german']}")
    expect(page.locator("#main")).to_have_attribute("data-side", "german")
    return page, made["game"], made["tokens"]


def preview(page: Page) -> None:
    """The page is drawn with its End phase button (the action the tests take)."""
    expect(page.get_by_role("button", name="End phase")).to_be_visible()


def confirm(page: Page) -> None:
    page.get_by_role("button", name="End phase").click()


def typed(page: Page, text: str) -> None:
    """Type a command in the expert box (folded under its summary)."""
    box = page.locator("details.expert")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    page.locator("#command").fill(text)


def shoot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def notice(page: Page) -> Any:
    return page.locator("#notice[aria-live] p.notice.failed")


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Served]:
    # Three actions a minute (from this address: both contexts): the fourth is refused (429).
    with Served(str(tmp_path / "g.db"), tmp_path / "ai.json", Limits(3, 10, 10)) as served:
        yield served


def test_403_413_429_and_a_network_failure_are_said_in_the_notice(browser, limited, tmp_path):
    page, game, _ = side_page(browser, limited.url)
    # 403: a cookie of the right name whose token is not the side's (the page was drawn with
    # the right one; the cookie changed since, as when the game was restored elsewhere).
    preview(page)
    page.context.add_cookies(
        [{"name": security.side_cookie(game, "german"), "value": "x" * 43, "url": limited.url}]
    )
    confirm(page)
    expect(notice(page)).to_contain_text("Your session for side german")
    expect(notice(page)).to_contain_text("open your private link again")
    expect(page.locator("#main")).to_have_attribute("data-version", "1")  # the board stays
    shoot(page, tmp_path, "notice-403")
    page, game, _ = side_page(browser, limited.url)
    # 413: a command over the size limit (the server reads no more of it).
    typed(page, "phase " + "x" * 70_000)
    page.get_by_role("button", name="Send").click()
    expect(notice(page)).to_contain_text("Not sent, it is too large")
    expect(notice(page)).to_contain_text("64 KB")
    # 429: the rate of actions (the 403 and the 413 counted; this third goes; a fourth is over).
    confirm(page)
    expect(page.locator("#main")).to_have_attribute("data-version", "2")
    confirm(page)
    expect(notice(page)).to_contain_text("The server is busy: too many actions")
    expect(notice(page)).to_contain_text("try again in")
    shoot(page, tmp_path, "notice-429")
    # The network fails: the request never gets an answer.
    page.route("**/do", lambda route: route.abort())
    typed(page, "phase next")
    page.get_by_role("button", name="Send").click()
    expect(notice(page)).to_contain_text("The server could not be reached")


def test_a_database_away_is_said_in_the_notice_and_the_board_stays(browser, postgres, tmp_path):
    with Served(postgres.create_database(), tmp_path / "ai.json", Limits(0, 0, 0)) as served:
        page, _, _ = side_page(browser, served.url)
        preview(page)
        postgres._ctl("-m", "fast", "stop")
        try:
            confirm(page)
            expect(notice(page)).to_contain_text("The game database cannot be reached just now")
            expect(notice(page)).to_contain_text("nothing was changed; try again in 5 s")
            expect(page.locator("#main")).to_have_attribute("data-version", "1")
            shoot(page, tmp_path, "notice-503")
        finally:
            postgres._ctl("start")
        # Back: the same button goes through.
        confirm(page)
        expect(page.locator("#main")).to_have_attribute("data-version", "2")
