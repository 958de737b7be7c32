"""The V&V scenarios played to their end against the AI in a real browser by pointing only
(see test_browser_play.py)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, expect

from .test_browser import (
    ARTIFACTS,
    RECORD_INPUT,
    browser_type_launch_args,
    create,
    state_of,
    version,
)
from .test_browser_play import BOARD_STEPS, BUNDLED, DESK, PHONE, play_to_the_end

__all__ = ["browser_type_launch_args"]  # the fixture that points Playwright at Chromium


@pytest.mark.clause("SYS.odds", "VV.AP-phases")
@pytest.mark.parametrize("example", [e for e in BUNDLED if e.startswith("vv-")])
def test_each_vv_scenario_is_played_against_the_ai_by_pointing_only(
    browser: Browser, live_server, example: str
) -> None:
    """A person on the phone points and clicks; the AI plays the other side by itself, its
    actions arriving by push, until the game is over; a spectator on a desktop watches."""
    started = time.monotonic()
    server = live_server.url
    desk, phone = browser.new_context(**DESK), browser.new_context(**PHONE)
    phone.add_init_script(RECORD_INPUT)
    watch, person = desk.new_page(), phone.new_page()
    game, links, spectator = create(watch, server, example, "german")
    assert list(links) != ["german"] and len(links) == 1
    ((side, link),) = links.items()
    person.goto(link)
    watch.goto(spectator)
    folder = ARTIFACTS / "board" / f"{example}-ai"
    folder.mkdir(parents=True, exist_ok=True)
    done = play_to_the_end(server, game, {side: person}, folder, example)
    assert BOARD_STEPS or state_of(person, server, game)["over"]
    expect(watch.locator("#main")).to_have_attribute("data-version", str(version(person)))
    watch.screenshot(path=str(folder / "end-spectator.png"), full_page=True)
    print(f"{example} against the AI: {len(done)} actions in {time.monotonic() - started:.0f} s")
    desk.close()
    phone.close()
