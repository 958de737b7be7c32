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
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

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
    for _ in range(2):
        try:
            return page.request.get(f"{server}/api/games/{game}").json()
        except PlaywrightError as error:
            # A kept-alive connection the server closed as it was reused (its idle timeout):
            # a GET is asked again, as any HTTP client does.
            if "ECONNRESET" not in str(error):
                raise
    return page.request.get(f"{server}/api/games/{game}").json()


def settled(page: Page, server: str, game: str) -> dict:
    """The game's status once the server's AI is not to play (it plays in the background,
    each command a version pushed to the pages), with ``page`` showing that version."""
    for _ in range(400):
        status = state_of(page, server, game)
        if not status.get("ai_to_play"):  # the key is there when the server's AI plays
            page.wait_for_function(
                "seen => +document.getElementById('main').dataset.version >= seen",
                arg=status["version"],
                timeout=30_000,
            )
            # The page's own look at that version may have started the AI on the player's
            # step that is no choice (Table.ai_state): settled only when nothing moved since.
            again = state_of(page, server, game)
            if not again.get("ai_to_play") and again["version"] == version(page):
                return again
            continue
        page.wait_for_function(
            "seen => +document.getElementById('main').dataset.version > seen",
            arg=status["version"],
            timeout=30_000,
        )
    raise AssertionError("the AI played on and on")


# Where a player's pointer may land on an element: its middle first, then a grid over its box.
SPOTS = [(0.5, 0.5)] + [(x, y) for y in (0.3, 0.7, 0.15, 0.85) for x in (0.3, 0.7, 0.15, 0.85)]
# Which of the points (client px) reach the element: it, or one of its children, is on top there.
# elementFromPoint only: a read of layout here would count against test_browser_speed.py.
REACHES = """(el, points) => points.map(([x, y]) => {
  const hit = document.elementFromPoint(x, y);
  return !!hit && (hit === el || el.contains(hit)); })"""
# The page's last pointer, touch and click events and the board's events (a context's init
# script): the message of a missed click says what the browser delivered.
RECORD_INPUT = """(() => { const log = []; window.inputLog = log;
  const names = ["pointerdown", "pointerup", "pointercancel", "touchstart", "touchend", "click",
    "ordnance:unit", "ordnance:hex", "ordnance:swapped", "ordnance:marked"];
  for (const name of names) {
    document.addEventListener(name, (e) => {
      const t = e.target instanceof Element ? e.target : null;
      const at = t && t.closest ? t.closest("[data-unit], [data-hex], [id], button") : null;
      log.push(Math.round(performance.now()) + " " + name
        + (e.pointerType ? "/" + e.pointerType : "")
        + (at ? " " + (at.dataset.unit || at.dataset.hex || at.id || at.textContent.slice(0, 20))
        : "") + (e.detail && typeof e.detail === "object" ? " " + JSON.stringify(e.detail)
        .slice(0, 60) : "") + (e.defaultPrevented ? " (prevented)" : ""));
      if (log.length > 24) { log.shift(); }
    }, true);
  } })();"""
# What the page shows, for the message of a click that missed.
PAGE_WORDS = """() => {
  const text = (sel) => { const el = document.querySelector(sel);
    return el ? el.textContent.replace(/\\s+/g, " ").trim().slice(0, 160) : "(none)"; };
  return "chosen: " + (document.documentElement.dataset.boardUnit || "(none)")
    + "; marked: " + Array.from(document.querySelectorAll("figure.map svg .hex[data-action]"),
      (h) => h.dataset.hex + "=" + h.dataset.action).join(" ")
    + "; stack card: " + text("#map-stack h3") + "; preview: " + text("#preview-h")
    + "; hex info: " + text("#hex-info") + "; notice: " + text("#notice")
    + "; version " + (document.getElementById("main") || {dataset: {}}).dataset.version
    + (window.inputLog ? "; events: " + window.inputLog.join(", ") : ""); }"""


def page_words(page: Page) -> str:
    """What the page shows now (the chosen unit, the marks, the card, preview and notices)."""
    return str(page.evaluate(PAGE_WORDS))


def _box(locator: Locator) -> dict | None:
    box = locator.bounding_box()
    return box if box and box["width"] > 0 and box["height"] > 0 else None


def _frame(page: Page) -> dict:
    """The map's frame on screen (a player's pointer reaches the map only there)."""
    box = _box(page.locator("figure.map"))
    assert box is not None, "the map's frame is not on the page"
    size = page.viewport_size or {"width": 1280, "height": 800}
    top, bottom = max(box["y"], 0), min(box["y"] + box["height"], size["height"])
    return {"x": box["x"], "y": top, "width": box["width"], "height": bottom - top}


def _spots(locator: Locator, within: dict | None) -> list[tuple[float, float]]:
    """The points of the element's box (inside ``within``) where a click reaches it."""
    box = _box(locator)
    if box is None:
        return []
    page = locator.page
    size = page.viewport_size or {"width": 1280, "height": 800}
    area = within or {"x": 0, "y": 0, **size}
    left, top = max(box["x"], area["x"], 0), max(box["y"], area["y"], 0)
    right = min(box["x"] + box["width"], area["x"] + area["width"], size["width"])
    bottom = min(box["y"] + box["height"], area["y"] + area["height"], size["height"])
    if right - left < 2 or bottom - top < 2:
        return []
    points = [(left + (right - left) * fx, top + (bottom - top) * fy) for fx, fy in SPOTS]
    reach = locator.evaluate(REACHES, [list(p) for p in points])
    return [p for p, ok in zip(points, reach, strict=True) if ok]


def _drag(page: Page, frame: dict, dx: float, dy: float) -> None:
    """Drag the map by (dx, dy) CSS px (at most most of the frame), as a player pans it."""
    dx = max(-frame["width"] * 0.4, min(frame["width"] * 0.4, dx))
    dy = max(-frame["height"] * 0.4, min(frame["height"] * 0.4, dy))
    x, y = frame["x"] + frame["width"] / 2 - dx / 2, frame["y"] + frame["height"] / 2 - dy / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=4)
    page.mouse.up()
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def reach(locator: Locator) -> list[tuple[float, float]]:
    """Bring an element into sight as a player would (the page scrolled to the map, the map
    dragged until the element is in it) and say where a pointer reaches it (none: covered)."""
    page = locator.page
    if not locator.evaluate("el => !!el.closest('figure.map')"):
        locator.scroll_into_view_if_needed()
        return _spots(locator, None)
    page.locator("figure.map").scroll_into_view_if_needed()
    for _ in range(8):
        frame = _frame(page)
        spots = _spots(locator, frame)
        box = _box(locator)
        if box is None:
            return []
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        fx, fy = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
        inside = abs(cx - fx) < frame["width"] / 2 - 8 and abs(cy - fy) < frame["height"] / 2 - 8
        if (spots and (inside or len(spots) > 1)) or (abs(fx - cx) < 8 and abs(fy - cy) < 8):
            return spots  # in sight (or in the middle of the map, and still covered)
        _drag(page, frame, fx - cx, fy - cy)
    return _spots(locator, _frame(page))


def tap(locator: Locator) -> None:
    """Point at an element and click it (tap it on a touch screen) as a player would: where
    it is on top, the page scrolled and the map dragged to bring it into sight first. No
    event is ever sent to an element directly: an element no pointer can reach fails."""
    page = locator.page
    spots = reach(locator)
    if not spots:
        box = _box(locator)
        above = (
            page.evaluate(
                "([x, y]) => { const t = document.elementFromPoint(x, y);"
                " return t ? t.outerHTML.slice(0, 120) : 'nothing'; }",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
            )
            if box
            else "nothing (not drawn)"
        )
        raise AssertionError(
            f"no pointer can reach {locator}: at its middle is {above}; {page_words(page)}"
        )
    _click(page, *spots[0])


def _click(page: Page, x: float, y: float) -> None:
    """A click at (x, y) in CSS px, or a tap on a touch screen."""
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def _through(hex: Locator, counters: Locator) -> tuple[float, float] | None:
    """Where the marked ``hex`` itself takes the pointer at the middle of one of the
    ``counters`` on it (counters on a marked hex that are not the player's let clicks through
    to it, as a target is picked under enemies); None where none does."""
    for counter in counters.all():
        reach(counter)  # in sight, though the hex is on top there
        box = _box(counter)
        if box is None:
            continue
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if hex.evaluate("(el, [x, y]) => document.elementFromPoint(x, y) === el", [x, y]):
            return x, y
    return None


def _expect(page: Page, what: str, check: Callable[[], None]) -> None:
    """``check`` (an expect), failing with what was clicked and what the page shows."""
    try:
        check()
    except (AssertionError, PlaywrightError) as error:
        raise AssertionError(f"{what}: {error}; the page: {page_words(page)}") from None


def choose_unit(page: Page, unit: str) -> None:
    """Click one of the player's counters on the map (its button in the panel when the map
    has none); where the click opens the stack's card instead (the counter stands on a hex
    marked for the unit chosen before), the card's "Choose" button."""
    counter = page.locator(f'figure.map svg g.counter[data-unit="{unit}"]')
    chosen = page.locator("html")
    if not counter.count():
        page.locator(f'[data-choose-unit="{unit}"]').click()
        expect(chosen).to_have_attribute("data-board-unit", unit)
        return
    pick = page.locator("#map-stack").get_by_role("button", name=f"Choose {unit}", exact=True)
    if pick.count():
        tap(pick)  # a card lists it already
    else:
        if page.locator("#map-stack").count() and not reach(counter.first):
            tap(page.locator("#map-stack").get_by_role("button", name="Close", exact=True))
        tap(counter.first)
    _expect(
        page,
        f"a click on the counter {unit} chose it",
        lambda: page.wait_for_function(
            "u => document.documentElement.dataset.boardUnit === u"
            " || !!document.querySelector('#map-stack .stack-act')",
            arg=unit,
            timeout=15_000,
        ),
    )
    if chosen.get_attribute("data-board-unit") != unit and pick.count():
        tap(pick)
    _expect(
        page,
        f"a click on the counter {unit} chose it",
        lambda: expect(chosen).to_have_attribute("data-board-unit", unit),
    )


def point(page: Page, unit: str, hex: str, command: str | None = None) -> Locator:
    """Choose ``unit`` (unless it is chosen), click the marked ``hex``; pick the offer whose
    words are ``command``."""
    if page.locator("html").get_attribute("data-board-unit") != unit:
        choose_unit(page, unit)
    target = page.locator(f"figure.map svg #hex-{hex}")
    shown = page.locator("#preview-box [data-preview]")
    if target.count():
        _expect(
            page,
            f"{hex} is marked for {unit}",
            lambda: expect(target).to_have_attribute("data-action", re.compile(r"\S")),
        )
        card = page.locator("#map-stack")
        act = card.locator(".stack-act", has_text=f"Act on {hex} ")
        if card.count() and act.count():
            tap(act.first)  # the card of that hex is open: its button acts there
        else:
            if card.count():
                # The card of another hex: closed first, as it moves with the map and may
                # come over the hex while the map is dragged to bring the hex into sight.
                tap(card.get_by_role("button", name="Close", exact=True))
                expect(card).to_have_count(0)
            spots = reach(target)
            here = page.locator(f'figure.map svg g.counter[data-hex="{hex}"]')
            through = None if spots else _through(target, here)
            if spots or not here.count():
                tap(target)
                # A tap beside an own counter may be taken by the counter (Chromium moves a
                # touch onto the nearest clickable element): its card opens, and a player
                # taps its button to act there.
                _expect(
                    page,
                    f"a click on {hex} (for {unit}) opened its preview or its card",
                    lambda: page.wait_for_function(
                        "h => { const p = document.querySelector('#preview-box [data-preview]');"
                        " return (p && p.dataset.hex === h)"
                        " || !!document.querySelector('#map-stack .stack-act'); }",
                        arg=hex,
                        timeout=15_000,
                    ),
                )
                there = shown.count() and shown.first.get_attribute("data-hex") == hex
                if act.count() and not there:
                    tap(act.first)
            elif through is not None:  # counters there let the click through (enemies)
                _click(page, *through)
            else:  # own counters cover the hex: a click on one opens the card, acting there
                tap(here.first)
                _expect(page, f"the card of {hex} offers to act there", act.first.wait_for)
                tap(act.first)
    else:  # no map (or the hex is not on it): the panel lists the same places
        page.locator(f'a[data-place="{hex}"]').first.click()
    _expect(
        page,
        f"a click on {hex} (for {unit}) opened its preview",
        lambda: expect(shown).to_have_attribute("data-hex", hex),
    )
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
