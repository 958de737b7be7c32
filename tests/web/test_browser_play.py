"""Each bundled scenario played to its end in a real browser by pointing only (see
test_browser.py for the browser, the fixtures and the screenshots' folder).

Split from test_browser.py so that pytest-xdist's workers share the long games.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import (
    ARTIFACTS,
    EXAMPLE_FILES,
    RECORD_INPUT,
    browser_type_launch_args,
    choose_unit,
    confirm,
    create,
    odds_sum,
    point,
    settled,
    state_of,
    version,
)

__all__ = ["browser_type_launch_args"]  # the fixture that points Playwright at Chromium

# Steps each scenario is played by pointing (both sides); 0 (the default): to its end.
BOARD_STEPS = int(os.environ.get("ORDNANCE_BOARD_STEPS", "0"))
MOST_STEPS = 400  # no bundled game takes more actions (tests/game/test_no_dead_ends.py)
SHOTS = ("fire", "smoke-shell", "wp-shell", "mg", "canister", "dispense", "opfire")
BUNDLED = sorted(p.stem for p in EXAMPLE_FILES.glob("*.yaml"))
DESK = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def marked_hexes(page: Page) -> dict[str, str]:
    """The hexes marked for the chosen unit, with their verbs (the map, else the panel)."""
    found = {
        h.get_attribute("data-hex") or "": h.get_attribute("data-action") or ""
        for h in page.locator("figure.map svg [data-action][data-hex]").all()
    }
    if not found:  # no map: the panel's list of places
        for link in page.locator("a[data-place]").all():
            found.setdefault(link.get_attribute("data-place") or "", link.inner_text().split()[0])
    return found


def unit_action(
    page: Page, rng: random.Random, shoot_now: bool, shot: Path, every: bool
) -> str | None:
    """One action of a unit by pointing: a shot where ``shoot_now`` and one is offered, else a
    move; None when no unit has one (``every``: try each unit, else only one)."""
    units = [
        u.get_attribute("data-choose-unit") or "" for u in page.locator("[data-choose-unit]").all()
    ]
    rng.shuffle(units)
    for unit in units if every else units[:1]:
        if page.locator(f'[data-unit="{unit}"]').first.get_attribute("data-hex") is None:
            continue  # a unit on no hex cannot be pointed at
        choose_unit(page, unit)  # a miss fails: the map must answer its clicks
        hexes = marked_hexes(page)
        places = page.locator("details.places")
        if places.count():  # a long list of places keeps the preview below it in sight
            height = (places.first.bounding_box() or {"height": 0})["height"]
            assert height <= page.viewport_size["height"] / 2, f"{unit}: places {height} px"
        shots = [h for h, verbs in hexes.items() if set(verbs.split()) & set(SHOTS)]
        others = [h for h in hexes if h not in shots]
        if shots and shoot_now:
            hex = rng.choice(shots)
        elif others:
            hex = rng.choice(others)
        else:
            page.keyboard.press("Escape")
            continue
        shown = point(page, unit, hex)
        if (
            shown.locator(".refusal").count()
            or not shown.get_by_role("button", name="Confirm").count()
        ):
            page.keyboard.press("Escape")
            continue
        for field in shown.locator(".field input[type=number]").all():
            low, high = field.get_attribute("min") or "2", field.get_attribute("max") or "12"
            field.fill(str((int(low) + int(high)) // 2))
            field.dispatch_event("change")
        for select in shown.locator(".field select").all():
            select.select_option(index=1)
        shown = page.locator("#preview-box [data-preview]")
        if shown.locator("td[data-fraction]").count():
            assert odds_sum(shown) == 1
        text = shown.locator(".command code").first.text_content()
        page.screenshot(path=str(shot))  # the preview, before Confirm
        confirm(page, shown)
        return text
    return None


def play_one(page: Page, rng: random.Random, acted: set[str], key: str, shot: Path) -> str | None:
    """One action by pointing only. Quick, as a player who wants the game over: once a phase
    (``key``) a unit acts (a shot where one is offered, else a move); then the panel's
    buttons (End action, Pass, End phase...), a unit's action only where there is none.
    Returns what was done, None when nothing could be."""
    if key not in acted:
        acted.add(key)
        if (text := unit_action(page, rng, True, shot, every=False)) is not None:
            return text
    buttons = page.locator(".side-actions button, .side-actions a[data-side-action]")
    if not buttons.count():
        return unit_action(page, rng, True, shot, every=True)
    names = [b.inner_text() for b in buttons.all()]
    order = ["End action", "Pass", "End phase"]
    index = min(range(len(names)), key=lambda i: order.index(names[i]) if names[i] in order else -1)
    chosen = buttons.nth(index)
    before = version(page)
    if chosen.evaluate("el => el.tagName") == "A":
        chosen.click()
        confirm(page, page.locator("#preview-box [data-preview]"))
    else:
        chosen.click()
        moved_on(page, before, names[index])
    return names[index]


def moved_on(page: Page, before: int, what: str) -> None:
    """The page shows a newer version after ``what`` (an action may wait for the AI's)."""
    try:
        expect(page.locator("#main")).not_to_have_attribute(
            "data-version", str(before), timeout=20_000
        )
    except AssertionError:
        notice = page.locator("#notice").inner_text()
        pytest.fail(f"{what}: the page stayed at version {before}; notice: {notice!r}")


def play_to_the_end(
    server: str, game: str, pages: dict[str, Page], folder: Path, seed: str
) -> list[str]:
    """Each side acts by pointing on its page (the AI's sides, not in ``pages``, play by
    themselves: their actions arrive by push) until the game is over (or BOARD_STEPS)."""
    # A preview of an ASL shot costs the server its odds and two resolutions: on a loaded
    # 2-core machine it took more than the default 5 s (then restored for the other tests).
    expect.set_options(timeout=15_000)
    try:
        return _play_to_the_end(server, game, pages, folder, seed)
    finally:
        expect.set_options(timeout=5_000)


def _play_to_the_end(
    server: str, game: str, pages: dict[str, Page], folder: Path, seed: str
) -> list[str]:
    rng = random.Random(seed)
    acted: set[str] = set()
    done: list[str] = []
    look = next(iter(pages.values()))
    for step in range(MOST_STEPS):
        if BOARD_STEPS and step >= BOARD_STEPS:
            return done
        status = settled(look, server, game)  # the AI's turn: it plays without a click
        if status["over"]:
            break
        side = status["to_move"]
        if side not in pages:  # the AI's turn: it plays without a click; wait for the push
            expect(look.locator("#main")).not_to_have_attribute(
                "data-version", str(version(look)), timeout=20_000
            )
            look.screenshot(path=str(folder / f"{step:03d}-ai.png"))
            continue
        page = pages[side]
        # Act on the newest version only (the AI's last action may still be on its way).
        expect(page.locator("#main")).to_have_attribute(
            "data-version", str(status["version"]), timeout=20_000
        )
        others = [p for p in pages.values() if p is not page]
        state = status["state"]
        key = f"{state.get('turn')}-{side}-{state.get('phase')}"
        before = [version(p) for p in others]
        try:
            text = play_one(page, rng, acted, key, folder / f"{step:03d}-{side}-preview.png")
        except AssertionError as error:
            failed = folder / f"{step:03d}-{side}-failed.png"
            page.screenshot(path=str(failed), full_page=True)
            raise AssertionError(f"{side} at step {step}: {error}\nscreenshot: {failed}") from None
        assert text is not None, f"{side} could do nothing by pointing at version {version(page)}"
        done.append(f"{side}: {text}")
        for other, at in zip(others, before, strict=True):
            expect(other.locator("#main")).not_to_have_attribute("data-version", str(at))
        page.screenshot(path=str(folder / f"{step:03d}-{side}.png"))
    else:
        pytest.fail(f"not over after {MOST_STEPS} actions by pointing: {done[-8:]}")
    for side, page in pages.items():
        expect(page.locator("#main")).to_have_attribute(
            "data-version", str(state_of(look, server, game)["version"])
        )
        page.screenshot(path=str(folder / f"end-{side}.png"), full_page=True)
    return done


@pytest.mark.clause("SYS.odds")
@pytest.mark.parametrize("example", BUNDLED)
def test_each_scenario_is_played_by_pointing_only(
    browser: Browser, live_server, example: str
) -> None:
    """Both sides, two contexts (desktop and phone, which side gets the phone alternating
    between scenarios), no typed command: counters, marked hexes, previews (their odds sum to
    1), Confirm and the panel's buttons, until the game is over."""
    started = time.monotonic()
    server = live_server.url
    sizes = [DESK, PHONE] if BUNDLED.index(example) % 2 == 0 else [PHONE, DESK]
    contexts = [browser.new_context(**size) for size in sizes]
    for context in contexts:
        context.add_init_script(RECORD_INPUT)
    a, b = (c.new_page() for c in contexts)
    game, links, _ = create(a, server, example, "none")
    sides = list(links)
    pages = {sides[0]: a, sides[1]: b}
    for side, page in pages.items():
        page.goto(links[side])
    folder = ARTIFACTS / "board" / example
    folder.mkdir(parents=True, exist_ok=True)
    done = play_to_the_end(server, game, pages, folder, example)
    assert done and all(": " in line for line in done)
    assert BOARD_STEPS or state_of(a, server, game)["over"]
    print(f"{example}: {len(done)} actions by pointing in {time.monotonic() - started:.0f} s")
    for context in contexts:
        context.close()
