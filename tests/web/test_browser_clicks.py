"""What a click on the map means, in the cases where it used to mean nothing (a real browser).

Each test is one cause of a click on the map that chose nothing or opened no preview while the
scenarios were played by pointing (tests/web/test_browser_play.py); the clicks are real ones,
where a player would point (``tap``), never events sent to an element.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import (
    RECORD_INPUT,
    _drag,
    _frame,
    act,
    browser_type_launch_args,
    choose_unit,
    create,
    shoot,
    tap,
    version,
)

__all__ = ["browser_type_launch_args"]  # the fixture that points Playwright at Chromium

pytestmark = pytest.mark.clause("SYS.record")

DESK = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def settle(page: Page) -> None:
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])
def test_a_counter_at_the_edge_of_the_view_is_chosen_by_a_click(
    browser: Browser, live_server, size: dict
) -> None:
    """A counter half out of the view, clicked (tapped) where it shows: chosen. Today's main
    moved the view to it on the focus the click gives, between press and release, and the
    click fell on the map's background: nothing chosen."""
    context = browser.new_context(**size)
    context.add_init_script(RECORD_INPUT)
    page = context.new_page()
    _, links, _ = create(page, live_server.url, "vv-hedgerow-ambush", "none")
    page.goto(links["american"])
    page.locator("figure.map").scroll_into_view_if_needed()
    for _ in range(3):  # a view smaller than the map (the desktop's fits it all)
        page.get_by_role("button", name="Zoom in", exact=True).click()
    settle(page)
    counter = page.locator('figure.map svg g.counter[data-unit="a3"]')
    for _ in range(4):  # its middle 12 px inside the frame's left edge
        frame, box = _frame(page), counter.bounding_box()
        assert box is not None
        dx = frame["x"] + 12 - (box["x"] + box["width"] / 2)
        dy = frame["y"] + frame["height"] / 2 - (box["y"] + box["height"] / 2)
        if abs(dx) < 3 and abs(dy) < 30:
            break
        _drag(page, frame, dx, dy)
    box = counter.bounding_box()
    assert box is not None
    kept = page.locator("figure.map svg").get_attribute("viewBox")
    x, y = box["x"] + box["width"] / 2 + 8, box["y"] + box["height"] / 2
    if "has_touch" in size:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    expect(page.locator("html")).to_have_attribute("data-board-unit", "a3")
    settle(page)
    assert page.locator("figure.map svg").get_attribute("viewBox") == kept  # no jump
    # The keyboard still brings a counter it reaches into view.
    page.locator("figure.map").focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.unit || ''")
    assert focused
    settle(page)
    near = page.locator(f'figure.map svg g.counter[data-unit="{focused}"]').bounding_box()
    frame = _frame(page)
    assert near is not None
    assert frame["x"] <= near["x"] and near["x"] + near["width"] <= frame["x"] + frame["width"]
    context.close()


def movement(browser: Browser, server: str, size: dict) -> tuple[Page, str, dict[str, str]]:
    """The American side of the hedgerow ambush in its Movement Phase: a3 (B8) may move into
    A8, where a4 and the jeep, American too, stand."""
    context = browser.new_context(**size)
    context.add_init_script(RECORD_INPUT)
    page = context.new_page()
    game, links, _ = create(page, server, "vv-hedgerow-ambush", "none")
    page.goto(links["american"])
    act(page, "phase next")  # command -> fire
    act(page, "phase next")  # fire -> movement
    return page, game, links


@pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])
def test_an_own_counter_on_a_marked_hex_asks_whether_to_choose_it_or_act_there(
    browser: Browser, live_server, size: dict
) -> None:
    page, _, _ = movement(browser, live_server.url, size)
    choose_unit(page, "a3")
    a8 = page.locator("#hex-A8")
    expect(a8).to_have_attribute("data-action", "move")
    # The player points at a4, its own counter on the hex marked for a3: the card of A8 asks
    # (today's main took it as a3's move there and a4 could not be chosen by its counter).
    tap(page.locator('figure.map svg g.counter[data-unit="a4"]'))
    card = page.locator("#map-stack")
    expect(card).to_be_visible()
    expect(card.locator(".stack-act")).to_have_text("Act on A8 (move) with a3")
    expect(page.locator("#preview-box [data-preview]")).to_have_count(0)  # nothing acted on
    assert page.locator("html").get_attribute("data-board-unit") == "a3"  # a3 still chosen
    shoot(page, f"clicks-own-counter-on-a-marked-hex-{size['viewport']['width']}")
    # Its "Act on" button is a3's move to A8 ...
    tap(card.locator(".stack-act"))
    shown = page.locator("#preview-box [data-preview]")
    expect(shown).to_have_attribute("data-hex", "A8")
    expect(shown.locator(".command code").first).to_have_text("move a3 --to A8")
    # ... and its "Choose a4" chooses a4 (asked again: the card, Choose).
    tap(page.locator('figure.map svg g.counter[data-unit="a4"]'))
    tap(card.get_by_role("button", name="Choose a4", exact=True))
    expect(page.locator("html")).to_have_attribute("data-board-unit", "a4")
    expect(page.locator('figure.map svg g.counter.chosen[data-unit="a4"]')).to_have_count(1)
    page.context.close()


def test_escape_closes_the_card_first_then_the_choice(browser: Browser, live_server) -> None:
    page, _, _ = movement(browser, live_server.url, DESK)
    choose_unit(page, "a3")
    tap(page.locator('figure.map svg g.counter[data-unit="a4"]'))
    expect(page.locator("#map-stack")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#map-stack")).to_have_count(0)
    expect(page.locator("#hex-A8")).to_have_attribute("data-action", "move")  # still chosen
    page.keyboard.press("Escape")
    expect(page.locator("figure.map svg [data-action]")).to_have_count(0)
    expect(page.locator("html")).not_to_have_attribute("data-board-unit", "a3")
    page.context.close()


def test_a_push_while_a_unit_is_chosen_marks_its_hexes_again(browser: Browser, live_server) -> None:
    """The view changes under a chosen unit (here the same side's second tab takes back the
    phase's end: the fire phase again): the page asks the unit's offers again for the new
    version, so hexes are marked and a click on one opens the preview (today's main: no mark
    left, the old unit's name still in html[data-board-unit], a click on a hex did nothing)."""
    page, game, _ = movement(browser, live_server.url, DESK)
    other = page.context.new_page()
    other.goto(f"{live_server.url}/games/{game}/american")
    choose_unit(page, "a3")
    expect(page.locator("#hex-A8")).to_have_attribute("data-action", "move")
    before = version(page)
    other.get_by_role("button", name=re.compile("Undo my last command")).click()
    expect(page.locator("#main")).not_to_have_attribute("data-version", str(before))
    marked = page.locator("figure.map svg .hex[data-action]")
    expect(marked.first).to_have_attribute("data-action", re.compile("fire"))
    expect(page.locator("html")).to_have_attribute("data-board-unit", "a3")
    hex = marked.first.get_attribute("data-hex")
    tap(marked.first)
    shown = page.locator("#preview-box [data-preview]")
    expect(shown).to_have_attribute("data-hex", hex or "")
    expect(shown.locator(".command code").first).to_contain_text("a3")
    page.context.close()


def test_after_ones_own_action_nothing_stays_chosen(browser: Browser, live_server) -> None:
    """Confirm ends the choice: no unit named in html[data-board-unit] whose marks are gone
    (today's main kept the name, and scripts that wait for it went on too early)."""
    page, _, _ = movement(browser, live_server.url, DESK)
    choose_unit(page, "a3")
    tap(page.locator("#hex-A8"))
    shown = page.locator("#preview-box [data-preview]")
    expect(shown).to_have_attribute("data-hex", "A8")
    before = version(page)
    shown.get_by_role("button", name="Confirm").click()
    expect(page.locator("#main")).not_to_have_attribute("data-version", str(before))
    expect(page.locator("html")).not_to_have_attribute("data-board-unit", "a3")
    expect(page.locator("figure.map svg [data-action]")).to_have_count(0)
    page.context.close()
