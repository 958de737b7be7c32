"""The table in a real browser: Playwright driving Debian's chromium-headless-shell.

Two browser contexts (two players, or a player and a spectator against the AI) play each
bundled example through the pages only; each sees the other's action arrive without a reload.
Screenshots go to $ORDNANCE_ARTIFACTS/web/ (default: ordnance-test-artifacts/web/ in the system's
temporary folder, never inside the checkout). scripts/ensure_chromium.sh installs the browser.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from ordnance.game.logfile import verify

CHROMIUM = os.environ.get("ORDNANCE_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")
ARTIFACTS = (
    Path(
        os.environ.get("ORDNANCE_ARTIFACTS")
        or Path(tempfile.gettempdir()) / "ordnance-test-artifacts"
    )
    / "web"
)
SERIOUS = ("serious", "critical")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"no Chromium at {CHROMIUM}: run scripts/ensure_chromium.sh (make test does)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def serious_violations(page: Page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # noqa: PLC0415

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


def version(page: Page) -> int:
    return int(page.locator("#main").get_attribute("data-version") or "0")


def state_of(page: Page, server: str, game: str) -> dict:
    return page.request.get(f"{server}/api/games/{game}").json()


def act(page: Page, action: str, dice: str | None = None) -> None:
    """Choose an action, preview it, confirm it: the way a player does."""
    page.get_by_label(action, exact=True).check()
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview-h")).to_contain_text(action)
    if dice is not None:
        page.locator("#dice-entry").fill(dice)
    before = version(page)
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("#main")).not_to_have_attribute("data-version", str(before))


def create(page: Page, server: str, example: str, ai: str = "") -> tuple[str, dict[str, str], str]:
    page.goto(server + "/")
    page.get_by_label("Bundled example").select_option(example)
    if ai:
        page.get_by_label(re.compile("The AI plays")).fill(ai)
    page.get_by_role("button", name="Create the game").click()
    # The spectator link waits for the new page (`.all()` below would not: read too early, a
    # loaded machine saw no side links yet); the side links are in the same page.
    spectator = page.locator("a.spectator-link").get_attribute("href")
    assert spectator is not None
    links = {
        link.get_attribute("data-side"): link.get_attribute("href")
        for link in page.locator("a.side-link").all()
    }
    return spectator.rsplit("/", 1)[1], links, spectator


def choose(page: Page, fired: set[tuple[str, str]], side: str, phase: str) -> str:
    """Shoot once a phase where the ruleset offers it (an action with a target), else move on."""
    actions = [
        a.get_attribute("value") or "" for a in page.locator("input[name=action][type=radio]").all()
    ]
    shots = [a for a in actions if " --at " in a or a.startswith("fire ")]
    if shots and (side, phase) not in fired:
        fired.add((side, phase))
        return shots[0]
    return next((a for a in actions if a in ("phase next", "pass")), actions[0])


EXAMPLES = [
    ("asl-c8-demo", ""),
    ("lnl-smoke-wp", ""),
    ("vv-hedgerow-ambush", "german"),
]


@pytest.mark.parametrize(("example", "ai"), EXAMPLES)
def test_two_contexts_play_an_example_through_the_pages(
    browser: Browser, live_server, example: str, ai: str, tmp_path: Path
) -> None:
    server = live_server.url
    one = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    two = browser.new_context(viewport={"width": 390, "height": 844})
    a, b = one.new_page(), two.new_page()
    game, links, spectator = create(a, server, example, ai)
    sides = list(links)
    pages = {sides[0]: a}
    a.goto(links[sides[0]])
    if len(sides) > 1:
        b.goto(links[sides[1]])
        pages[sides[1]] = b
    else:
        b.goto(spectator)  # against the AI: the second context watches
    expect(a).to_have_url(re.compile(rf"/games/{game}/{sides[0]}$"))  # the token left the URL
    b.evaluate("window.notReloaded = true")
    first_turn = state_of(a, server, game)["state"].get("turn")
    fired: set[tuple[str, str]] = set()
    undone = stale = rolled = False
    for _ in range(80):
        status = state_of(a, server, game)
        state = status["state"]
        if status["over"] or (example != "asl-c8-demo" and state.get("turn") != first_turn):
            break
        side = status["to_move"]
        page = pages[side]
        other = b if page is a else a
        text = choose(page, fired, side, str(state.get("phase")))
        shot = " --at " in text or text.startswith("fire ")
        dice = "3,4" if status["dice"]["mode"] == "physical" and shot else None
        before = version(other)
        if not stale and text in ("phase next", "pass"):
            # Stale: a second tab of the same side, deaf to pushes, confirms an old view.
            deaf = page.context.new_page()
            deaf.route("**/events*", lambda route: route.abort())
            deaf.goto(f"{server}/games/{game}/{side}")
            deaf.get_by_label(text, exact=True).check()
            deaf.get_by_role("button", name="Preview").click()
            expect(deaf.locator("#preview-h")).to_contain_text(text)
            act(page, text, dice)
            deaf.get_by_role("button", name="Confirm").click()
            expect(deaf.locator("#notice")).to_contain_text("Not applied. stale state")
            deaf.close()
            stale = True
        else:
            act(page, text, dice)
        # The other context sees the action arrive by itself.
        expect(other.locator("#main")).not_to_have_attribute("data-version", str(before))
        if not undone and text in ("phase next", "pass"):
            expect(
                page.get_by_role("button", name=re.compile("Undo my last command"))
            ).to_be_visible()
            at = version(page)
            page.get_by_role("button", name=re.compile("Undo my last command")).click()
            said = re.compile(r"undo: \w+ took back entry")
            expect(page.locator("#notice")).to_contain_text(said)
            assert version(page) == at + 1
            undone = True
            act(page, text, dice)
        mine = page.locator(".one-ruling").filter(has=page.locator("h3", has_text=text)).first
        if shot and mine.locator("svg.die").count():
            # Undo stops at the dice.
            expect(page.get_by_role("button", name=re.compile("Undo my last"))).to_have_count(0)
            rolled = True
    else:
        pytest.fail("the game did not reach the end of a Player Turn in 80 actions")
    assert undone and stale and rolled
    assert b.evaluate("window.notReloaded") is True
    shoot(a, f"{example}-{sides[0]}")
    shoot(b, f"{example}-{'spectator' if len(sides) == 1 else sides[1]}-phone")
    if ai:
        expect(b.locator(".ai")).to_be_visible()
        chosen = b.locator(".ai li").all_inner_texts()
        assert all("expected" in line for line in chosen if ": fire " in line)
    # Export, then verify the file on the verify page.
    a.goto(f"{server}/games/{game}/{sides[0]}")
    with a.expect_download() as download:
        a.get_by_role("link", name="Export the log").click()
    log = tmp_path / "log.json"
    download.value.save_as(log)
    assert verify(log.read_bytes()).ok
    a.goto(server + "/verify")
    a.get_by_label("Log file").set_input_files(str(log))
    a.get_by_role("button", name="Verify").click()
    expect(a.locator("#report-h")).to_have_text("The log verifies")
    one.close()
    two.close()


def test_no_serious_accessibility_violations(browser: Browser, live_server) -> None:
    server = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    page.goto(server + "/")
    found = {"lobby": serious_violations(page)}
    for example, ai in EXAMPLES:
        game, links, _ = create(page, server, example, ai)
        side = next(iter(links))
        page.goto(links[side])
        action = page.locator("input[name=action][type=radio]").first.get_attribute("value")
        page.goto(f"{server}/games/{game}/{side}?action={action}")
        found[example] = serious_violations(page)
        shoot(page, f"{example}-preview")
    page.goto(server + "/verify")
    found["verify"] = serious_violations(page)
    context.close()
    assert found == {name: [] for name in found}, json.dumps(found, indent=1)


def test_keyboard_alone_reaches_a_unit_and_confirms(browser: Browser, live_server) -> None:
    server = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    _, links, _ = create(page, server, "vv-hedgerow-ambush", "german")
    page.goto(links["american"])
    act(page, "phase next")
    page.get_by_role("button", name="Fit map").click()  # the whole map in view: A1 too
    corner = page.locator("svg .hex").first
    corner.hover()  # the hovered hex's label and terrain, also as text
    label = corner.get_attribute("data-hex")
    expect(page.locator("#hex-info")).to_contain_text(f"Hex {label}: ")
    unit = page.locator("a.unit", has_text="a1")
    unit.focus()
    expect(page.locator("#hex-info")).to_contain_text(f"Hex {unit.get_attribute('data-hex')}: ")
    page.keyboard.press("Enter")
    expect(page.locator("legend")).to_contain_text("What a1 may do now")
    radio = page.locator("input[name=action][type=radio]").first
    radio.focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")  # to the Preview button
    page.keyboard.press("Enter")
    confirm = page.get_by_role("button", name="Confirm")
    expect(page.locator("#preview-h")).to_contain_text("a1")
    shoot(page, "vv-preview-fire")
    confirm.focus()
    before = version(page)
    page.keyboard.press("Enter")
    expect(page.locator("#main")).not_to_have_attribute("data-version", str(before))
    shoot(page, "vv-keyboard")
    context.close()


def test_the_event_stream_reconnects_after_a_dropped_connection(
    browser: Browser, live_server
) -> None:
    server = live_server.url
    one, two = browser.new_context(), browser.new_context()
    a, b = one.new_page(), two.new_page()
    _, links, _ = create(a, server, "asl-c8-demo")
    a.goto(links["german"])
    dropped: list[str] = []

    def drop_first(route) -> None:
        if not dropped:
            dropped.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    b.route("**/events*", drop_first)
    b.goto(links["russian"])
    expect(b.locator("#live")).to_have_text("live", timeout=15_000)  # connected again
    before = version(b)
    act(a, "phase next")
    expect(b.locator("#main")).not_to_have_attribute("data-version", str(before))
    assert dropped
    one.close()
    two.close()


def test_a_click_on_a_counter_shows_what_that_unit_may_do(browser: Browser, live_server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    _, links, _ = create(page, live_server.url, "vv-hedgerow-ambush", "german")
    page.goto(links["american"])
    act(page, "phase next")
    page.locator('figure.map svg [data-unit="a3"]').first.click()
    expect(page.locator("legend")).to_contain_text("What a3 may do now")
    expect(page).to_have_url(re.compile(r"\?unit=a3$"))
    context.close()
