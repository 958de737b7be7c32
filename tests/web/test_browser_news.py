"""What happened, in a real browser: the lobby's scenario cards, the sentences a push brings,
the last action marked on the map, the AI's turn without the player's clicks where the player
has no choice, and no serious axe violation on any page at 1280x800 and 390x844.

Screenshots go to $ORDNANCE_ARTIFACTS/web/ (see test_browser.py).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import act, browser_type_launch_args, serious_violations, settled, shoot

__all__ = ["browser_type_launch_args"]  # the fixture that points Playwright at Chromium

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def start(page: Page, server: str, example: str, ai: str = "") -> tuple[str, dict[str, str], str]:
    """Start a bundled scenario from its card in the lobby; the game, side links, spectator."""
    page.goto(server + "/")
    card = page.locator(f"#scenario-{example}")
    if ai:
        card.get_by_label("AI side").select_option(ai)
    card.get_by_role("button", name=re.compile("^Start ")).click()
    spectator = page.locator("a.spectator-link").get_attribute("href")
    assert spectator is not None
    links = {
        link.get_attribute("data-side") or "": link.get_attribute("href") or ""
        for link in page.locator("a.side-link").all()
    }
    return spectator.rsplit("/", 1)[1], links, spectator


def legal(page: Page, server: str, game: str, side: str) -> list[str]:
    """What the side may do now (the API's list; the page offers the same by pointing)."""
    body = page.request.get(f"{server}/api/games/{game}", params={"side": side}).json()
    return list(body["legal_actions"].get(side, []))


@pytest.mark.clause("SYS.record")
def test_the_lobby_shows_each_bundled_scenario_as_a_card(browser: Browser, live_server) -> None:
    for name, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(live_server.url + "/")
        cards = page.locator("li.card")
        assert cards.count() >= 5
        hedgerow = page.locator("#scenario-vv-hedgerow-ambush")
        expect(hedgerow.locator("h3")).to_have_text("Hedgerow ambush (V&V AP fire demo)")
        expect(hedgerow).to_contain_text("american vs german")
        expect(hedgerow).to_contain_text("can play american or german")
        # Every thumbnail loaded (an image that failed has no natural width).
        for image in page.locator("img.thumb").all():
            image.scroll_into_view_if_needed()
            expect(image).to_have_js_property("complete", True)
            assert image.evaluate("i => i.naturalWidth") > 0
        expect(page.locator("#scenario-asl-c8-demo")).to_contain_text("none: two players")
        shoot(page, f"lobby-cards-{name}")
        context.close()


@pytest.mark.clause("SYS.record")
def test_a_push_says_what_happened_and_the_map_marks_it(browser: Browser, live_server) -> None:
    server = live_server.url
    one = browser.new_context(viewport={"width": 1280, "height": 800})
    two = browser.new_context(viewport={"width": 390, "height": 844})
    a, b = one.new_page(), two.new_page()
    game, links, _ = start(a, server, "vv-meeting-engagement", "none")
    a.goto(links["american"])
    b.goto(links["german"])
    b.evaluate("window.notReloaded = true")
    act(a, "phase next")
    act(a, "phase next")
    mover = next(v for v in legal(a, server, game, "american") if v.startswith("move "))
    act(a, mover)
    unit, hex = re.match(r"move (\S+) --to (\S+)", mover).groups()  # type: ignore[union-attr]
    # Mine: the notice and the log's newest item say the same sentence.
    mine = a.locator("#notice p.news").last
    names = unit.split(",")
    movers = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    expect(mine).to_contain_text(f"american {movers} moved to {hex}")
    expect(a.locator("ol.entries li").first).to_have_text(mine.inner_text())
    # The other page: the push brings the sentences, newest last, without a reload.
    expect(b.locator("#notice p.news").last).to_have_text(mine.inner_text())
    assert b.evaluate("window.notReloaded") is True
    # Both maps mark the last action: its hex and its counters.
    for page in (a, b):
        expect(page.locator(f"#hex-{hex}")).to_have_class(re.compile(r"\blast-action\b"))
        first = unit.split(",")[0]
        expect(page.locator(f'svg g.counter[data-unit="{first}"]')).to_have_class(
            re.compile(r"\blast-action\b")
        )
    shoot(a, "news-mine-desktop")
    shoot(b, "news-pushed-phone")
    one.close()
    two.close()


@pytest.mark.clause("SYS.record")
def test_the_ai_plays_its_turn_without_the_players_clicks(browser: Browser, live_server) -> None:
    """V&V against the AI: the player ends its own phases; in the AI's Player Turn it is only
    asked what is a choice (Opportunity Fire or not, its casualties)."""
    server = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    game, links, _ = start(page, server, "vv-hedgerow-ambush", "german")
    page.goto(links["american"])
    clicks: dict[int, list[list[str]]] = {}
    for _ in range(120):
        state = settled(page, server, game)["state"]  # the AI plays in the background
        if page.locator("text=the game is over").count():
            break
        actions = legal(page, server, game, "american")
        if not actions:
            break
        if state.get("player") == "german":
            clicks.setdefault(state["turn"], []).append(actions)
        choice = next((a for a in actions if a in ("phase next", "pass")), actions[0])
        act(page, choice)
        if state.get("player") == "german":
            shoot(page, f"ai-turn-{state['turn']}-{len(clicks[state['turn']])}")
    assert clicks, "the AI's turns never came"
    for turn, asked in clicks.items():
        # Each time the page asked, it was a real choice: more than one thing to do, or the
        # casualties of the AI's fire, which the player allocates (V&V r. 4).
        lone = [a for a in asked if len(a) == 1 and a != ["assign-cp --auto"]]
        assert not lone, (turn, lone)
    context.close()


PAGES = ("lobby", "created", "side", "spectator", "clauses", "verify", "message", "no-link")


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("size", list(SIZES))
def test_no_serious_axe_violation_on_any_page(browser: Browser, live_server, size: str) -> None:
    width, height = SIZES[size]
    server = live_server.url
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        page.wait_for_load_state("load")
        found[name] = serious_violations(page)
        shoot(page, f"axe-{name}-{size}")

    page.goto(server + "/")
    check("lobby")
    game, links, spectator = start(page, server, "vv-hedgerow-ambush", "german")
    check("created")
    page.goto(links["american"])
    act(page, "phase next")
    check("side")
    page.goto(spectator + "?seen=0")
    check("spectator")
    page.goto(server + "/clauses")
    check("clauses")
    page.goto(server + "/verify")
    check("verify")
    page.goto(server + "/games/000000000000")
    check("message")
    page.goto(f"{server}/join/{game}/american/not-the-token")
    check("no-link")
    context.close()
    assert set(found) == set(PAGES)
    assert found == {name: [] for name in found}, json.dumps(found, indent=1)
