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
import shlex
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

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
EXAMPLE_FILES = Path(__file__).resolve().parents[2] / "examples"


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


def settled(page: Page, server: str, game: str) -> dict:
    """The game's status once the server's AI is not to play (it plays in the background,
    each command a version pushed to the pages), with ``page`` showing that version."""
    for _ in range(400):
        status = state_of(page, server, game)
        if not status.get("ai_to_play"):  # the key is there when the server's AI plays
            expect(page.locator("#main")).to_have_attribute(
                "data-version", str(status["version"]), timeout=30_000
            )
            return status
        page.wait_for_function(
            "seen => +document.getElementById('main').dataset.version > seen",
            arg=status["version"],
            timeout=30_000,
        )
    raise AssertionError("the AI played on and on")


def tap(locator: Locator) -> None:
    """Click an element as a player would where it is on top; where another element covers
    its middle (a counter on a hex, a stack), the click is sent to it directly."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    on_top = box is not None and locator.evaluate(
        "(el, p) => { const t = document.elementFromPoint(p.x, p.y);"
        " return !!t && (el === t || el.contains(t)); }",
        {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2},
    )
    if on_top:
        locator.click()
    else:
        locator.dispatch_event("click")


def choose_unit(page: Page, unit: str) -> None:
    """Click one of the player's counters (its button in the panel when the map has none)."""
    counter = page.locator(f'figure.map svg g.counter[data-unit="{unit}"]')
    if counter.count():
        tap(counter.first)
    else:
        page.locator(f'[data-choose-unit="{unit}"]').click()
    expect(page.locator("html")).to_have_attribute("data-board-unit", unit)


def point(page: Page, unit: str, hex: str, command: str | None = None) -> Locator:
    """Choose ``unit``, click the marked ``hex``; pick the offer whose words are ``command``."""
    choose_unit(page, unit)
    target = page.locator(f"figure.map svg #hex-{hex}")
    if target.count():
        expect(target).to_have_attribute("data-action", re.compile(r"\S"))
        tap(target)
    else:  # no map (or the hex is not on it): the panel lists the same places
        page.locator(f'a[data-place="{hex}"]').first.click()
    shown = page.locator("#preview-box [data-preview]")
    expect(shown).to_have_attribute("data-hex", hex)
    if command is not None:
        count = shown.locator("input[name=pick]").count()
        for index in range(1, count):
            if shown.locator(".command code").first.text_content() == command:
                break
            old = shown.element_handle()
            shown.locator("input[name=pick]").nth(index).check()
            page.wait_for_function("el => !el.isConnected", arg=old)  # the preview redrawn
        expect(shown.locator(".command code")).to_have_text(command)
    return shown


def odds_sum(shown: Locator) -> Fraction:
    return sum(
        (
            Fraction(f.get_attribute("data-fraction") or "0")
            for f in shown.locator("td[data-fraction]").all()
        ),
        Fraction(0),
    )


def confirm(page: Page, shown: Locator, dice: str | None = None) -> None:
    """Enter each physical roll in its field (``dice``, else a fair-looking face), Confirm."""
    for field in shown.locator("input[name=dice]").all():
        two = (field.get_attribute("placeholder") or "").count(",") == 1
        field.fill(dice if dice is not None and two == ("," in dice) else ("3,4" if two else "4"))
    before = version(page)
    shown.get_by_role("button", name="Confirm").click()
    expect(page.locator("#main")).not_to_have_attribute("data-version", str(before))


def side_button(page: Page, action: str) -> Locator:
    return page.locator(
        f'.side-actions button[title="{action}"], .side-actions a[data-side-action="{action}"]'
    )


def act(page: Page, action: str, dice: str | None = None) -> None:
    """Take one legal action by pointing: a side action's button, else the unit's counter,
    the hex it acts on (the one its words name, else its own), the preview, Confirm."""
    button = side_button(page, action)
    if button.count():
        if button.first.evaluate("el => el.tagName") == "BUTTON":
            before = version(page)
            button.first.click()
            expect(page.locator("#main")).not_to_have_attribute("data-version", str(before))
            return
        button.first.click()
        confirm(page, page.locator("#preview-box [data-preview]"), dice)
        return
    words = shlex.split(action)
    unit = words[1].split(",")[0]
    named = [
        words[i + 1]
        for i, w in enumerate(words[:-1])
        if w in ("--at", "--to", "--target") and re.fullmatch(r"\d*[A-Z]+\d+", words[i + 1])
    ]
    hex = (
        named[0] if named else page.locator(f'[data-unit="{unit}"]').first.get_attribute("data-hex")
    )
    if hex is None:  # a unit on no hex (the C8 demo's, until it is placed): the expert box
        page.locator("details.expert summary").click()
        page.locator("#command").fill(action)
        if dice is not None:
            page.locator("#dice-other").fill(dice)
        before = version(page)
        page.get_by_role("button", name="Send").click()
        expect(page.locator("#main")).not_to_have_attribute("data-version", str(before))
        return
    confirm(page, point(page, unit, hex, action), dice)


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


def choose(actions: list[str], fired: set[tuple[str, str]], side: str, phase: str) -> str:
    """Shoot once a phase where the ruleset offers it (an action with a target), else move on."""
    # A shot whose words name its hex (LnL, V&V); ASL's legal actions leave the target to the
    # board's offers, which test_browser_play.py points at.
    shots = [a for a in actions if " --at " in a]
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
        status = settled(a, server, game)  # against the AI: once it has played
        state = status["state"]
        if status["over"] or (example != "asl-c8-demo" and state.get("turn") != first_turn):
            break
        side = status["to_move"]
        page = pages[side]
        other = b if page is a else a
        text = choose(status["legal_actions"][side], fired, side, str(state.get("phase")))
        shot = " --at " in text or text.startswith("fire ")
        dice = "3,4" if status["dice"]["mode"] == "physical" and shot else None
        before = version(other)
        if not stale and text in ("phase next", "pass"):
            # Stale: a second tab of the same side, deaf to pushes, confirms an old view.
            deaf = page.context.new_page()
            deaf.route("**/events*", lambda route: route.abort())
            deaf.goto(f"{server}/games/{game}/{side}")
            act(page, text, dice)
            side_button(deaf, text).click()
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
    # ASL's shots are pointed at in test_browser_play.py (their targets come from the offers).
    assert undone and stale and (rolled or example.startswith("asl-"))
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
        action = state_of(page, server, game)["legal_actions"][side][0]
        page.goto(f"{server}/games/{game}/{side}?action={action}")
        expect(page.locator("[data-preview]")).to_be_visible()
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
    page.locator('[data-choose-unit="a1"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("data-board-unit", "a1")
    marked = page.locator("figure.map svg [data-action]").first
    marked.focus()
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


def test_a_click_on_a_counter_marks_the_hexes_where_it_may_act(
    browser: Browser, live_server
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    _, links, _ = create(page, live_server.url, "vv-hedgerow-ambush", "german")
    page.goto(links["american"])
    act(page, "phase next")
    choose_unit(page, "a3")
    marked = page.locator("figure.map svg [data-action]")
    expect(marked.first).to_be_visible()
    assert page.locator('figure.map svg g.counter.chosen[data-unit="a3"]').count() == 1
    expect(page.locator("#hex-info")).to_contain_text("a3 in ")
    shoot(page, "vv-a3-chosen")
    assert serious_violations(page) == []  # the marked hexes are buttons with names
    tap(marked.first)
    expect(page.locator("#preview-box [data-preview] table")).to_be_visible()
    assert serious_violations(page) == []
    page.keyboard.press("Escape")
    expect(marked).to_have_count(0)
    context.close()
