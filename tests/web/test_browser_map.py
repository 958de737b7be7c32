"""The map as a board in a real browser: zoom, pan, stacks, the events, phones, axe.

The map script (static/map.js) moves the SVG's viewBox; ``figure.map[data-zoom]`` is the CSS px
per drawing unit. The events it fires on ``document`` (``ordnance:unit``, ``ordnance:hex``) are
recorded into ``window.seen`` by a listener each test installs.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.test_browser import (  # noqa: F401 (the launch args are a fixture)
    browser_type_launch_args,
    create,
    serious_violations,
    shoot,
    version,
)

pytestmark = pytest.mark.clause("SYS.record")

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
RECORD = """() => { window.seen = [];
  for (const name of ["ordnance:unit", "ordnance:hex"]) {
    document.addEventListener(name, (e) => window.seen.push([name, e.detail])); } }"""


def open_side(browser: Browser, server: str, example: str, side: str, viewport=DESK) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    _, links, _ = create(page, server, example)
    page.goto(links[side])
    expect(page.locator("figure.map")).to_have_attribute("data-zoom", re.compile(r"\d"))
    page.evaluate(RECORD)
    return page


def settle(page: Page) -> None:
    """Wait for the map's next drawn frame (it draws a view change at animation frames)."""
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def zoom(page: Page) -> float:
    return float(page.locator("figure.map").get_attribute("data-zoom") or "0")


def view_box(page: Page) -> list[float]:
    text = page.locator("figure.map svg").get_attribute("viewBox") or ""
    return [float(n) for n in text.split()]


def seen(page: Page) -> list:
    return page.evaluate("window.seen")


def face_box(page: Page, unit: str) -> dict:
    return page.evaluate(
        "(u) => { const r = document.querySelector(`g.counter[data-unit='${u}'] .counter-face`)"
        ".getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }",
        unit,
    )


def test_zoom_buttons_wheel_and_keys_change_the_view(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "asl-d13-demo", "american")
    start = zoom(page)
    page.get_by_role("button", name="Zoom in", exact=True).click()
    expect(page.locator("figure.map")).not_to_have_attribute("data-zoom", f"{start:.3f}")
    assert zoom(page) == pytest.approx(start * 1.25, rel=0.01)
    page.get_by_role("button", name="Zoom out", exact=True).click()
    page.get_by_role("button", name="Zoom out", exact=True).click()
    settle(page)
    assert zoom(page) == pytest.approx(start / 1.25, rel=0.01)
    # The wheel zooms about the pointer: the counter under it stays under it.
    page.get_by_role("button", name="Zoom in", exact=True).click()
    settle(page)
    before, at = zoom(page), face_box(page, "m24")
    page.mouse.move(at["x"] + at["w"] / 2, at["y"] + at["h"] / 2)
    page.mouse.wheel(0, -240)
    expect(page.locator("figure.map")).not_to_have_attribute("data-zoom", f"{before:.3f}")
    settle(page)
    after = face_box(page, "m24")
    assert zoom(page) > before * 1.2
    assert after["w"] > at["w"] * 1.2
    assert abs(after["x"] + after["w"] / 2 - (at["x"] + at["w"] / 2)) < 2
    # Keys when the map has focus: arrows pan, + and - zoom, 0 fits the whole drawing.
    page.locator("figure.map").focus()
    x0 = view_box(page)[0]
    page.keyboard.press("ArrowRight")
    settle(page)
    assert view_box(page)[0] == pytest.approx(x0 + 80 / zoom(page), abs=0.5)
    k = zoom(page)
    page.keyboard.press("-")
    settle(page)
    assert zoom(page) == pytest.approx(k / 1.25, rel=0.01)
    page.keyboard.press("0")
    page.get_by_role("button", name="Fit map").click()
    box = view_box(page)
    assert (
        box[2]
        >= float(page.evaluate("document.querySelector('figure.map svg').viewBox.baseVal.width"))
        - 1
    )
    assert seen(page) == []
    page.context.close()


def test_zoom_is_clamped(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "asl-d13-demo", "american")
    for _ in range(30):
        page.locator("figure.map").focus()
        page.keyboard.press("+")
    settle(page)
    high = zoom(page)
    assert face_box(page, "m24")["w"] < 260  # not zoomed without end
    for _ in range(40):
        page.keyboard.press("-")
    settle(page)
    assert zoom(page) < high / 5
    vb = view_box(page)
    whole = page.evaluate(
        "(() => { const s = document.querySelector('figure.map svg');"
        " return s.viewBox.baseVal.width; })()"
    )
    assert vb[2] < whole * 1.5  # the map never shrinks to a dot
    page.context.close()


def test_a_drag_pans_and_is_never_a_click(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "asl-d13-demo", "american")
    url, box, at = page.url, view_box(page), face_box(page, "m24")
    x, y = at["x"] + at["w"] / 2, at["y"] + at["h"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 30, y + 10, steps=3)
    page.mouse.move(x + 90, y + 40, steps=3)
    page.mouse.up()
    page.wait_for_timeout(300)
    moved = view_box(page)
    k = zoom(page)
    assert moved[0] == pytest.approx(box[0] - 90 / k, abs=1)
    assert moved[1] == pytest.approx(box[1] - 40 / k, abs=1)
    assert seen(page) == [] and page.url == url  # no unit chosen, no page loaded
    # A short press on the same counter (moved by the drag) is a click: the unit is chosen.
    after = face_box(page, "m24")
    page.mouse.click(after["x"] + after["w"] / 2 + 2, after["y"] + after["h"] / 2)
    assert seen(page)[0] == ["ordnance:unit", {"unit": "m24"}]
    page.context.close()


def test_two_pointers_pinch_zoom(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "lnl-smoke-wp", "german", PHONE)
    start = zoom(page)
    page.evaluate("""() => {
      const f = document.querySelector('figure.map'); const r = f.getBoundingClientRect();
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      const ev = (type, id, x) => f.dispatchEvent(new PointerEvent(type, {pointerId: id,
        pointerType: 'touch', clientX: x, clientY: cy, bubbles: true, isPrimary: id === 1}));
      ev('pointerdown', 1, cx - 40); ev('pointerdown', 2, cx + 40);
      for (let d = 40; d <= 100; d += 10) {
        ev('pointermove', 1, cx - d); ev('pointermove', 2, cx + d);
      }
      ev('pointerup', 1, cx - 100); ev('pointerup', 2, cx + 100);
    }""")
    settle(page)
    assert zoom(page) == pytest.approx(start * 2.5, rel=0.05)
    assert seen(page) == []
    page.context.close()


def test_default_zoom_makes_the_village_counters_readable(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "asl-d13-demo", "american")
    frame = page.locator("figure.map").bounding_box()
    assert frame is not None
    # The map fills the left column below the header, the whole window's height.
    assert frame["height"] > 600 and frame["width"] > 700
    faces = page.evaluate(
        "Array.from(document.querySelectorAll('g.counter')).map(g => { const r ="
        " g.querySelector('.counter-face').getBoundingClientRect(); const t ="
        " g.querySelector('text').getBoundingClientRect();"
        " return {unit: g.dataset.unit, side: g.dataset.side, w: r.width, x: r.x, y: r.y,"
        " text: t.height}; })"
    )
    assert faces and min(f["w"] for f in faces) >= 36, faces
    assert min(f["text"] for f in faces) >= 9  # the unit id's line, in CSS px
    # Centred on the side's own units: each is in view.
    for f in faces:
        if f["side"] == "american":
            assert frame["x"] <= f["x"] and f["x"] + f["w"] <= frame["x"] + frame["width"]
            assert frame["y"] <= f["y"] and f["y"] + f["w"] <= frame["y"] + frame["height"]
    shoot(page, "map-asl-village-default")
    page.context.close()


def stacked_hex(page: Page) -> tuple[str, list[str]]:
    counters = page.evaluate(
        "Array.from(document.querySelectorAll('g.counter'))"
        ".map(g => [g.dataset.hex, g.dataset.unit])"
    )
    count = Counter(hex for hex, _ in counters)
    hex = max(count, key=lambda h: count[h])
    assert count[hex] > 1, "the example stacks no units"
    return hex, [unit for h, unit in counters if h == hex]


def test_a_stack_opens_and_lists_every_counter(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "lnl-smoke-wp", "german")
    hex, units = stacked_hex(page)
    first = page.locator(f'g.counter[data-unit="{units[0]}"]')
    first.focus()  # brings it into view
    first.click()
    card = page.locator("#map-stack")
    expect(card).to_be_visible()
    expect(card.locator("h3")).to_contain_text(f"Hex {hex}")
    items = card.locator("li")
    expect(items).to_have_count(len(units))
    texts = items.all_inner_texts()
    for unit, text in zip(units, texts, strict=True):
        assert unit in text
    # Each is drawn at a readable size in the card, and reads its name and state.
    assert all(box["width"] >= 40 for box in [s.bounding_box() for s in card.locator("svg").all()])
    shoot(page, "map-lnl-stack")
    assert seen(page) == []  # someone else's stack: read only, nothing chosen
    page.keyboard.press("Escape")
    expect(card).to_have_count(0)
    page.context.close()


def test_own_counter_click_fires_ordnance_unit(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "lnl-smoke-wp", "german")
    at = face_box(page, "pz4")
    page.mouse.click(at["x"] + at["w"] / 2, at["y"] + at["h"] / 2)
    assert seen(page)[:1] == [["ordnance:unit", {"unit": "pz4"}]]
    page.context.close()


def test_a_hex_with_data_action_fires_ordnance_hex_even_under_enemy_counters(
    browser: Browser, live_server
) -> None:
    page = open_side(browser, live_server.url, "lnl-smoke-wp", "german")
    hex, _ = stacked_hex(page)  # american units: enemies to the german player
    page.evaluate(f"document.getElementById('hex-{hex}').setAttribute('data-action', 'fire')")
    enemy = page.locator(f'g.counter[data-hex="{hex}"]').first
    enemy.focus()
    settle(page)
    box = enemy.locator(".counter-face").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert seen(page) == [["ordnance:hex", {"hex": hex}]]
    expect(page.locator("#map-stack")).to_have_count(0)
    # The keyboard: the marked hex is in the tab order, Enter fires the same.
    target = page.locator(f"#hex-{hex}")
    expect(target).to_have_attribute("tabindex", "0")
    target.focus()
    page.keyboard.press("Enter")
    assert seen(page)[-1] == ["ordnance:hex", {"hex": hex}]
    page.context.close()


def test_keyboard_reaches_a_counter_and_chooses_it(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "lnl-smoke-wp", "german")
    page.locator("figure.map").focus()
    for _ in range(10):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.unit || ''")
        side = page.evaluate("document.activeElement.dataset.side || ''")
        if focused and side == "german":
            break
    else:
        pytest.fail("Tab from the map never reached one of the player's counters")
    page.keyboard.press("Enter")
    assert seen(page)[0] == ["ordnance:unit", {"unit": focused}]
    page.context.close()


def test_the_view_is_kept_across_a_swap(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "lnl-smoke-wp", "german")
    page.get_by_role("button", name="Zoom in", exact=True).click()
    page.locator("figure.map").focus()
    page.keyboard.press("ArrowDown")
    settle(page)
    kept, before = view_box(page), version(page)
    page.evaluate(
        "() => { const i = document.getElementById('command'); i.value = 'phase next';"
        " i.form.requestSubmit(); }"
    )
    expect(page.locator("#main")).not_to_have_attribute("data-version", str(before))
    settle(page)
    assert view_box(page) == pytest.approx(kept, abs=0.05)
    page.context.close()


def test_phone_layout_map_full_width_panels_fold_below(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "vv-hedgerow-ambush", "american", PHONE)
    frame = page.locator("figure.map").bounding_box()
    assert frame is not None
    assert frame["x"] == pytest.approx(0, abs=1) and frame["width"] == pytest.approx(390, abs=1)
    assert 300 <= frame["height"] <= 844 * 0.7
    sections = page.locator(".panel > section")
    for section in sections.all():
        box = section.bounding_box()
        assert box is not None and box["y"] >= frame["y"] + frame["height"]
    # The side record folds under its heading; its heading opens it.
    heading = page.locator(".units h2 button")
    expect(heading).to_have_attribute("aria-expanded", "false")
    expect(page.locator(".units table")).to_be_hidden()
    heading.click()
    expect(heading).to_have_attribute("aria-expanded", "true")
    expect(page.locator(".units table")).to_be_visible()
    shoot(page, "map-vv-phone")
    page.context.close()


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone"])
def test_no_serious_accessibility_violation_on_the_table(
    browser: Browser, live_server, viewport
) -> None:
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    page = context.new_page()
    _, links, _ = create(page, live_server.url, "lnl-smoke-wp")
    page.goto(links["german"])
    expect(page.locator("figure.map")).to_have_attribute("data-zoom", re.compile(r"\d"))
    found = {"table": serious_violations(page)}
    hex_units = stacked_hex(page)[1]
    counter = page.locator(f'g.counter[data-unit="{hex_units[0]}"]')
    counter.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#map-stack")).to_be_visible()
    found["stack"] = serious_violations(page)
    context.close()
    assert found == {"table": [], "stack": []}, json.dumps(found, indent=1)


def test_an_own_stack_lists_each_counter_to_choose(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "lnl-smoke-wp", "american")
    # As a board script would: the choices are taken before table.js's fallback loads a page.
    page.evaluate(
        """() => { window.chosen = [];
        window.addEventListener("ordnance:unit", (e) => {
          window.chosen.push(e.detail.unit); e.stopImmediatePropagation(); }, true); }"""
    )
    _, units = stacked_hex(page)
    first = page.locator(f'g.counter[data-unit="{units[0]}"]')
    first.focus()
    page.keyboard.press("Enter")
    card = page.locator("#map-stack")
    expect(card).to_be_visible()
    assert page.evaluate("window.chosen") == [units[0]]  # the one pressed is chosen at once
    for unit in units:
        expect(card.get_by_role("button", name=f"Choose {unit}", exact=True)).to_be_visible()
    card.get_by_role("button", name=f"Choose {units[-1]}", exact=True).click()
    assert page.evaluate("window.chosen") == [units[0], units[-1]]
    expect(card).to_have_count(0)
    page.context.close()


def test_marks_out_of_view_are_brought_into_view(browser: Browser, live_server) -> None:
    page = open_side(browser, live_server.url, "asl-d13-demo", "american")
    kept = view_box(page)
    # A mark in view: the map stays where the player put it.
    at = page.evaluate("document.querySelector('g.counter[data-unit=m24]').dataset.hex")
    page.evaluate(f"document.getElementById('hex-{at}').setAttribute('data-action', 'move')")
    settle(page)
    assert view_box(page) == pytest.approx(kept, abs=0.05)
    page.evaluate(f"document.getElementById('hex-{at}').removeAttribute('data-action')")
    # Marks all out of view (the map's far corner): the view moves to them, same zoom.
    far = page.evaluate("Array.from(document.querySelectorAll('.hex')).pop().dataset.hex")
    page.evaluate(f"document.getElementById('hex-{far}').setAttribute('data-action', 'fire')")
    settle(page)
    box = page.locator(f"#hex-{far}").bounding_box()
    frame = page.locator("figure.map").bounding_box()
    assert box is not None and frame is not None
    assert frame["x"] < box["x"] + box["width"] / 2 < frame["x"] + frame["width"]
    assert frame["y"] < box["y"] + box["height"] / 2 < frame["y"] + frame["height"]
    assert view_box(page)[2] == pytest.approx(kept[2], abs=0.05)
    page.context.close()
