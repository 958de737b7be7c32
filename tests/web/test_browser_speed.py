"""The board reads no layout while it answers a player (Playwright, Chromium).

A script that reads a size (``getBBox``, ``getBoundingClientRect``, ``clientWidth``...) right
after it wrote to the map makes the browser lay the whole map out again before it can answer:
40-60 ms a time on the ASL village map on a loaded machine, several times per click
(benchmarks/bench_board.py, docs/benchmarks.md). These tests count such reads made by the
page's own scripts (Playwright's run in a world of their own and are not counted) while a
counter is chosen, a hex previewed, and a page of a tab that has shown the map is set up.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.test_browser import (  # noqa: F401 (the launch args are a fixture)
    act,
    browser_type_launch_args,
    choose_unit,
    create,
    tap,
)

pytestmark = pytest.mark.clause("SYS.odds")

# Installed before the page's scripts: every read of layout the page makes is listed in
# window.layoutReads while window.countReads is true (from the start: each page load counts).
COUNT_READS = """
window.layoutReads = [];
window.countReads = true;
(() => {
  const note = (name) => { if (window.countReads) { window.layoutReads.push(name); } };
  const methods = [[SVGGraphicsElement.prototype, ["getBBox", "getScreenCTM", "getCTM"]],
    [Element.prototype, ["getBoundingClientRect", "getClientRects"]]];
  for (const [proto, names] of methods) {
    for (const name of names) {
      const real = proto[name];
      proto[name] = function (...args) { note(name); return real.apply(this, args); };
    }
  }
  const getters = [[Element.prototype, ["clientWidth", "clientHeight", "clientLeft", "clientTop"]],
    [HTMLElement.prototype, ["offsetWidth", "offsetHeight", "offsetLeft", "offsetTop"]]];
  for (const [proto, names] of getters) {
    for (const name of names) {
      const real = Object.getOwnPropertyDescriptor(proto, name);
      Object.defineProperty(proto, name, { configurable: true,
        get() { note(name); return real.get.call(this); } });
    }
  }
})();
"""
FRAME = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def reads(page: Page) -> list[str]:
    page.evaluate(FRAME)
    found: list[str] = page.evaluate("window.layoutReads")
    page.evaluate("window.layoutReads = []")
    return found


def village(browser: Browser, server: str) -> Page:
    """The American side of the D13 demo (the village map) in its Prep Fire Phase."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    _, links, _ = create(page, server, "asl-d13-demo")
    page.add_init_script(COUNT_READS)
    page.goto(links["american"])
    expect(page.locator("figure.map")).to_have_attribute("data-zoom", re.compile(r"\d"))
    act(page, "phase next")
    return page


def test_choosing_a_counter_and_a_hex_reads_no_layout(browser: Browser, live_server) -> None:
    page = village(browser, live_server.url)
    reads(page)
    choose_unit(page, "m24")
    marked = page.locator("figure.map svg .hex[data-action]")
    expect(marked.first).to_be_attached()
    assert reads(page) == []  # the marks and their notes placed from the hexes' points
    target = page.locator("figure.map svg .hex[data-action]:not([data-action='move'])").first
    tap(target)
    expect(page.locator("#preview-box [data-preview] table")).to_be_visible()
    assert reads(page) == []  # the line of sight drawn from the points too
    page.context.close()


def test_a_reloaded_page_sets_its_map_up_without_reading_layout(
    browser: Browser, live_server
) -> None:
    page = village(browser, live_server.url)
    shown = page.locator("figure.map svg").get_attribute("viewBox")
    page.reload()
    expect(page.locator("figure.map")).to_have_attribute("data-zoom", re.compile(r"\d"))
    assert reads(page) == []  # the frame's size as this tab last saw it
    assert page.locator("figure.map svg").get_attribute("viewBox") == shown
    # A size remembered wrong (another window size): the ResizeObserver's first report puts
    # the same view back before the page is painted.
    page.evaluate("sessionStorage.setItem('ordnance-frame', JSON.stringify({w: 333, h: 222}))")
    page.reload()
    expect(page.locator("figure.map")).to_have_attribute("data-zoom", re.compile(r"\d"))
    page.evaluate(FRAME)
    assert page.locator("figure.map svg").get_attribute("viewBox") == shown
    page.context.close()
