"""The board read as a player reads it on a phone (see test_browser.py for the browser, the
fixtures and the screenshots' folder): the longest preview of each game fits a 390 px
window, and the notes of marked hexes do not run into each other."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import browser_type_launch_args, create, serious_violations

__all__ = ["browser_type_launch_args"]  # the fixture that points Playwright at Chromium

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
# The previews with the most outcomes of each game, and the "phase next"s before them: an
# ASL canister shot (nine outcomes), an LnLT WP shell into a stacked hex (names of 70
# characters and more), a V&V fire (eight).
LONGEST = [
    ("asl-c8-demo", 3, "russian", "at45", "canister"),
    ("lnl-smoke-wp", 1, "german", "pz4", "wp-shell"),
    ("vv-hedgerow-ambush", 1, "american", "a1", "fire"),
]


def phases_on(page: Page, server: str, game: str, tokens: dict[str, str], count: int) -> None:
    for _ in range(count):
        status = page.request.get(f"{server}/api/games/{game}").json()
        side = status["to_move"]
        done = page.request.post(
            f"{server}/api/games/{game}/do",
            headers={"Authorization": f"Bearer {tokens[side]}"},
            data={"side": side, "words": ["phase", "next"], "expect_version": status["version"]},
        )
        assert done.ok, done.text()


def longest_preview(page: Page, base: str, unit: str, verb: str) -> str:
    """The query of the unit's ``verb`` preview with the most outcomes (``base``: the side
    page's address)."""
    offers = page.request.get(f"{base}/offers?unit={unit}").json()
    found = []
    for place in offers["hexes"]:
        for pick, named in enumerate(place["actions"]):
            if named == verb:
                query = f"unit={unit}&hex={place['hex']}&pick={pick}"
                html = page.request.get(f"{base}/preview?{query}").text()
                found.append((html.count("data-fraction="), len(html), query))
    assert found, f"{unit} offers no {verb}"
    return max(found)[2]


@pytest.mark.clause("SYS.odds")
@pytest.mark.parametrize("longest", LONGEST, ids=[f"{x[0]}-{x[4]}" for x in LONGEST])
def test_the_longest_preview_of_each_game_fits_a_phone(
    browser: Browser, live_server, longest: tuple[str, int, str, str, str]
) -> None:
    example, phases, side, unit, verb = longest
    server = live_server.url
    context = browser.new_context(**PHONE)
    page = context.new_page()
    game, links, _ = create(page, server, example, "none")
    tokens = {s: link.rsplit("/", 1)[1] for s, link in links.items()}
    page.goto(links[side])
    phases_on(page, server, game, tokens, phases)
    query = longest_preview(page, f"{server}/games/{game}/{side}", unit, verb)
    page.goto(f"{server}/games/{game}/{side}?{query}")
    shown = page.locator("#preview-box [data-preview]")
    expect(shown.locator("figure.odds svg.odds")).to_be_visible()
    assert shown.locator("td[data-fraction]").count() >= 7
    sizes = shown.evaluate(
        """preview => {
          const figure = preview.querySelector("figure.odds");
          const chart = figure.querySelector("svg.odds").getBoundingClientRect();
          const table = figure.querySelector("table").getBoundingClientRect();
          const inner = figure.getBoundingClientRect();
          return {scroll: figure.scrollWidth, client: figure.clientWidth,
                  chart: [chart.left, chart.right], table: [table.left, table.right],
                  box: [inner.left, inner.right], page: document.documentElement.scrollWidth};
        }"""
    )
    shown.scroll_into_view_if_needed()
    figure = shown.locator("figure.odds")
    figure.screenshot(path=str(shoot_path(f"fit-{example}-{verb}-phone")))
    assert sizes["scroll"] <= sizes["client"], sizes  # nothing to scroll sideways
    for part in ("chart", "table"):
        left, right = sizes[part]
        assert sizes["box"][0] - 0.5 <= left and right <= sizes["box"][1] + 0.5, (part, sizes)
    assert sizes["page"] <= 390, sizes
    # Chart text no smaller than 9 CSS px: drawn at 11 px, scaled to the panel's width.
    scale = shown.locator("svg.odds").evaluate(
        "svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width"
    )
    assert scale * 11 >= 9, scale
    assert serious_violations(page) == []
    context.close()


def shoot_path(name: str):  # type: ignore[no-untyped-def]
    from .test_browser import ARTIFACTS  # noqa: PLC0415

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}.png"


# A counter whose marked hexes offer several verbs: the LnLT Panzer IV (smoke, WP, MG into
# one hex), the ASL M24 (move and dispense), the ASL PaK (four ammunitions, one verb).
CROWDED = [("lnl-smoke-wp", "pz4"), ("asl-d13-demo", "m24"), ("asl-c8-demo", "pak")]


def crowded_unit(page: Page, server: str, game: str, tokens: dict[str, str], unit: str) -> str:
    """Phases on until ``unit`` offers a hex several things (its side's page address)."""
    for _ in range(8):
        side = page.request.get(f"{server}/api/games/{game}").json()["to_move"]
        offers = page.request.get(f"{server}/games/{game}/{side}/offers?unit={unit}")
        if offers.ok and any(
            len(h["actions"]) + len(h["notes"]) > 2 for h in offers.json()["hexes"]
        ):
            return f"{server}/games/{game}/{side}"
        phases_on(page, server, game, tokens, 1)
    raise AssertionError(f"{unit} never offered a hex several things")


@pytest.mark.parametrize("crowded", CROWDED, ids=[f"{x[0]}-{x[1]}" for x in CROWDED])
@pytest.mark.parametrize("size", ["desk", "phone"])
def test_the_notes_of_marked_hexes_are_one_short_line_each_and_never_overlap(
    browser: Browser, live_server, crowded: tuple[str, str], size: str
) -> None:
    example, unit = crowded
    server = live_server.url
    viewport = {"width": 1280, "height": 800} if size == "desk" else PHONE["viewport"]
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    game, links, _ = create(page, server, example, "none")
    tokens = {s: link.rsplit("/", 1)[1] for s, link in links.items()}
    for link in links.values():
        page.goto(link)
    page.goto(crowded_unit(page, server, game, tokens, unit))
    offers = page.request.get(f"{page.url}/offers?unit={unit}").json()["hexes"]
    page.locator(f'[data-choose-unit="{unit}"]').click()
    expect(page.locator("html")).to_have_attribute("data-board-unit", unit)
    notes = page.evaluate(
        """() => [...document.querySelectorAll("figure.map svg .board-note")].map(n => {
          const r = n.getBoundingClientRect();
          return {text: n.textContent, box: [r.left, r.top, r.right, r.bottom]};
        })"""
    )
    assert len(notes) == len(offers)
    shoot_path_and(page, f"notes-{example}-{unit}-{size}")
    for note in notes:
        assert len(note["text"]) <= 12, note  # one short line
    for i, a in enumerate(notes):
        for b in notes[i + 1 :]:
            apart = (
                a["box"][2] <= b["box"][0] + 0.5
                or b["box"][2] <= a["box"][0] + 0.5
                or a["box"][3] <= b["box"][1] + 0.5
                or b["box"][3] <= a["box"][1] + 0.5
            )
            assert apart, (a, b)
    for place in offers:
        hex = page.locator(f"figure.map svg #hex-{place['hex']}")
        # The documented markup, exactly: the verbs, space-separated.
        expect(hex).to_have_attribute("data-action", " ".join(place["actions"]))
        label = hex.get_attribute("aria-label") or ""
        assert all(word in label for word in [*place["actions"], *place["notes"]]), label
    places = page.locator("#places").inner_text()
    assert all(note in places for place in offers for note in place["notes"])
    context.close()


def shoot_path_and(page: Page, name: str) -> None:
    page.screenshot(path=str(shoot_path(name)))


def test_no_page_scrolls_sideways_on_a_phone(browser: Browser, live_server) -> None:
    """The lobby, the page of a new game's links, a side's table and the verify page fit
    390 px (a private link is one long word: it wraps)."""
    server = live_server.url
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server + "/")
    widths = {"lobby": page.evaluate("document.documentElement.scrollWidth")}
    _, links, _ = create(page, server, "asl-c8-demo", "none")
    widths["links"] = page.evaluate("document.documentElement.scrollWidth")
    shoot_path_and(page, "links-phone")
    page.goto(links["german"])
    widths["table"] = page.evaluate("document.documentElement.scrollWidth")
    page.goto(server + "/verify")
    widths["verify"] = page.evaluate("document.documentElement.scrollWidth")
    assert widths == dict.fromkeys(widths, 390)
    context.close()
