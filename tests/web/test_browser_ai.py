"""The server's AI in a real browser (see test_browser.py): the page says the AI is thinking
while it plays, its commands arrive one version at a time by push, and the game's end is a
banner with who won. The server runs in this process, so a test double slows the AI."""

from __future__ import annotations

import shlex
import threading
from collections.abc import Iterator

import pytest
import yaml
from playwright.sync_api import Browser, Page, expect

from ordnance.game import autoplay
from ordnance.game.fold import Game
from ordnance.web.table import Table

from .test_browser import EXAMPLE_FILES, browser_type_launch_args, serious_violations, shoot

__all__ = ["browser_type_launch_args"]  # the fixture that points Playwright at Chromium

DESK = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
HEDGEROWS = (EXAMPLE_FILES / "vv-hedgerow-ambush.yaml").read_text(encoding="utf-8")


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The AI chooses nothing until the gate opens (the server is in this process)."""
    opened = threading.Event()
    choose = autoplay._choice

    def slow(game: Game, side: str) -> str | None:
        opened.wait(30)
        return choose(game, side)

    monkeypatch.setattr(autoplay, "_choice", slow)
    yield opened
    opened.set()


def _new_game(page: Page, server: str, scenario: str, ai: str) -> dict:
    made = page.request.post(f"{server}/api/games", data={"scenario": scenario, "ai_sides": [ai]})
    assert made.ok, made.text()
    answer: dict = made.json()
    return answer


@pytest.mark.clause("SYS.record")
def test_the_page_says_the_ai_is_thinking_and_its_moves_arrive_one_by_one(
    browser: Browser, live_server, gate
) -> None:
    server = live_server.url
    desk, phone = browser.new_context(**DESK), browser.new_context(**PHONE)
    person, watch = phone.new_page(), desk.new_page()
    # The AI (american) moves first: it starts as the game is made, no click.
    made = _new_game(person, server, HEDGEROWS, "american")
    game, token = made["game"], made["tokens"]["german"]
    person.goto(f"{server}/join/{game}/german/{token}")
    watch.goto(f"{server}/games/{game}")
    for page in (person, watch):
        status = page.locator("#ai-status")
        expect(status).to_have_attribute("data-ai", "thinking")
        expect(status).to_have_text("The AI (american) is thinking\u2026")
        expect(status).to_have_attribute("role", "status")
    expect(person.locator(".side-actions")).to_have_count(0)  # nothing to click meanwhile
    shoot(person, "ai-thinking-phone")
    shoot(watch, "ai-thinking-desk")
    assert serious_violations(person) == [] and serious_violations(watch) == []
    seen: list[int] = []
    person.expose_function("seen", lambda v: seen.append(int(v)))
    person.evaluate(
        "() => document.addEventListener('ordnance:swapped', () =>"
        " window.seen(+document.getElementById('main').dataset.version))"
    )
    gate.set()
    table: Table = live_server.server.config.app.state.table
    assert table.settle(game, 60)
    final = table.call(lambda s: s.store.version(game))
    expect(person.locator("#main")).to_have_attribute("data-version", str(final))
    expect(watch.locator("#main")).to_have_attribute("data-version", str(final))
    expect(person.locator("#ai-status")).to_have_count(0)
    # The AI's commands came as pushes, the page following them in order up to the last (each
    # is its own version: test_web_ai_background.py; a page that fetches after several were
    # stored shows them at once, each its sentence in the notice).
    assert seen and seen == sorted(seen) and seen[-1] == final, seen
    assert person.locator("#notice p.news").filter(has_text="american ").count() >= 1
    shoot(person, "ai-played-phone")
    desk.close()
    phone.close()


@pytest.mark.clause("SYS.record", "SYS.cite")
def test_the_game_over_banner_names_the_winner_and_offers_the_export(
    browser: Browser, live_server
) -> None:
    server = live_server.url
    context = browser.new_context(**DESK, accept_downloads=True)
    page = context.new_page()
    one_turn = yaml.safe_dump({**yaml.safe_load(HEDGEROWS), "turns": 1})
    made = _new_game(page, server, one_turn, "german")
    game, token = made["game"], made["tokens"]["american"]
    table: Table = live_server.server.config.app.state.table
    for _ in range(200):
        assert table.settle(game, 60)
        status = table.call(lambda s: s.status(game, "american"))
        if status["over"]:
            break
        action = status["legal_actions"]["american"][0]
        table.do(game, "american", token, shlex.split(action), expect=None)
    page.goto(f"{server}/join/{game}/american/{token}")
    banner = page.locator("#game-over")
    expect(banner.get_by_role("heading", name="Game over")).to_be_visible()
    expect(banner.locator(".result")).to_contain_text("the last turn (1 of 1) has ended")
    expect(banner.locator(".result")).to_contain_text("(V&V r. 2)")
    shoot(page, "game-over-desk")
    assert serious_violations(page) == []
    with page.expect_download() as download:
        banner.get_by_role("link", name="Export the verified log").click()
    assert download.value.suggested_filename == f"ordnance-{game}.json"
    phone = browser.new_context(**PHONE)
    small = phone.new_page()
    small.goto(f"{server}/games/{game}")
    expect(small.locator("#game-over")).to_be_in_viewport()
    shoot(small, "game-over-phone")
    phone.close()
    context.close()
