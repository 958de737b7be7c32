"""The board's speed in a real browser: a game of the D13 demo on the ASL village map.

A real `ordnance serve` process (benchmarks/web_harness.py) holds the games; Playwright drives
Debian's Chromium with two contexts, one per side, and every time is taken inside the browser
with ``performance.now()`` (high-resolution, from the navigation's start), never by Playwright's
own round trips. Four steps, ``--samples`` times each:

- ``page ready``: a side's table page, from the navigation's start to the first animation
  frame after every ``DOMContentLoaded`` listener has run (the deferred scripts have set up
  their listeners; table.js fires ``ordnance:swapped`` there) with the map's hexes in the DOM:
  the moment a player can point at the map and be answered.
- ``counter -> hexes``: a click on one of the side's counters (the click event's own time
  stamp) to the first animation frame with a ``[data-action]`` hex on the map.
- ``hex -> preview``: a click on such a hex (one offering a roll, where there is one) to the
  first frame with ``[data-preview] table`` (the odds) in the page.
- ``push``: side A confirms "phase next" (the click on the button that sends it) to the frame
  in which side B's ``#main`` carries the new ``data-version`` (server-sent event, then B's
  fetch of its fresh table). Both pages' clocks are put on one axis with
  ``performance.timeOrigin``.

Targets (issue 27, on a loaded 2-core machine): page ready p95 < 300 ms, counter -> hexes
p95 < 150 ms, hex -> preview p95 < 250 ms, push p95 < 250 ms. Baseline, measured in the same
run: the server alone, the same request over HTTP without a browser (httpx, one connection):
the side's page, the unit's offers (or, without them, the page with ``?unit=``), the preview
fragment (or the page with ``?action=``), and "phase next" through the JSON API. A step whose
markup is not on the page (the board's script not there yet) is reported "n/a", not failed.

``--load N`` starts N busy processes (a Python loop each) for the whole run, as other work on
the machine would; the machine's load average is printed before and after.

A p95 is the sample at rank int(0.95 n) (web_harness.pct): with 20 samples that is the largest,
one stall of the machine; the default of 40 makes it the second largest.

Run: .venv/bin/python benchmarks/bench_board.py [--samples 40] [--load 2] [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_harness as harness

SCENARIO = harness.ROOT / "examples" / "asl-d13-demo.yaml"
CHROMIUM = os.environ.get("ORDNANCE_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")
# The side that moves first in the demo, its M24 (4F5: moves, fire, smoke) and the phase the
# counter and preview steps are taken in (its Prep Fire Phase: every ammunition on offer).
SIDE, UNIT, OTHER = "american", "m24", "german"
WAIT_MS = 5000  # how long a step may take before it counts as not on the page
TARGETS = {"page ready": 300.0, "counter -> hexes": 150.0, "hex -> preview": 250.0, "push": 250.0}
MAIN = "document.getElementById('main')"
ODDS = "[data-preview] table"
OWN = f"svg g.counter[data-side='{SIDE}']"
LIVE = "() => document.getElementById('live')?.textContent === 'live'"  # events connected
BASELINES = {
    "page ready": "GET the side's page",
    "counter -> hexes": "GET offers?unit= (else ?unit= page)",
    "hex -> preview": "GET preview?unit=&hex= (else ?action=)",
    "push": "POST phase next (JSON API)",
}

# Installed in every document before its own scripts run: the click and ready clocks, and a
# watcher that resolves with the time of the first frame in which a selector matches.
PROBE = """
window.__bench = { ready: null, click: null, clickEpoch: null };
window.addEventListener("click", (event) => {
  window.__bench.click = event.timeStamp;
  window.__bench.clickEpoch = performance.timeOrigin + event.timeStamp;
}, true);
document.addEventListener("DOMContentLoaded", () => {
  // Registered first, so this runs first: the task after it runs once every listener has.
  setTimeout(() => requestAnimationFrame(() => {
    if (document.querySelector("svg [data-hex]")) { window.__bench.ready = performance.now(); }
    else { window.__bench.ready = -1; }
  }), 0);
});
window.__bench.watch = (test, waitMs) => new Promise((resolve) => {
  let done = false;
  const finish = (value) => { if (!done) { done = true; observer.disconnect(); resolve(value); } };
  const look = () => { if (!done && test()) {
    requestAnimationFrame(() => finish(performance.now()));
  } };
  const observer = new MutationObserver(look);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  setTimeout(() => finish(null), waitMs);
  look();
});
"""


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of millisecond ``values`` (nan when there are none).

    >>> pct([5.0, 1.0, 3.0, 2.0, 4.0], 0.5), pct([], 0.95)
    (3.0, nan)
    """
    return harness.pct(values, q) / 1000


@dataclass
class Step:
    """One measured step: browser samples (ms) and baseline samples (ms)."""

    name: str
    times: list[float] = field(default_factory=list)
    base: list[float] = field(default_factory=list)
    missing: str = ""  # why the step could not be measured (its markup is not on the page)
    note: str = ""  # what was measured instead of the step as defined

    def row(self) -> str:
        """One line of the table, at most 80 characters.

        >>> Step("push", [100.0, 120.0], [10.0]).row()
        'push                 2   120.0   120.0   120.0    <250     10.0  12.0x  pass'
        """
        target = TARGETS[self.name]
        if not self.times:
            return f"{self.name:<18} {0:>3}   n/a: {self.missing}"[:80]
        p50, p95 = pct(self.times, 0.5), pct(self.times, 0.95)
        base = pct(self.base, 0.5) if self.base else float("nan")
        ratio = f"{p50 / base:5.1f}x" if self.base and base > 0 else "    - "
        verdict = "pass" if p95 < target else "FAIL"
        return (
            f"{self.name:<18} {len(self.times):>3} {p50:7.1f} {p95:7.1f} {max(self.times):7.1f}"
            f"    <{target:<4.0f} {base:7.1f} {ratio}  {verdict}"
        )


HEADER = (
    f"{'step':<18} {'n':>3} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'target':>8}"
    f" {'base':>7} {'x base':>6}  ok"
)


# --- background load -----------------------------------------------------------------------------


@contextlib.contextmanager
def busy(count: int) -> Iterator[None]:
    """``count`` processes that spin on a core each until the block ends."""
    loop = "import time\nend = time.monotonic() + 3600\nwhile time.monotonic() < end: pass\n"
    spinners = [
        subprocess.Popen([sys.executable, "-c", loop], start_new_session=True) for _ in range(count)
    ]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def load_text() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


# --- the game and the pages ----------------------------------------------------------------------


@dataclass
class Game:
    id: str
    tokens: dict[str, str]


def new_game(client: httpx.Client, base: str, phases: int = 0) -> Game:
    """A fresh game of the D13 demo, moved on ``phases`` times by 'phase next'."""
    made = client.post(f"{base}/api/games", json={"scenario": SCENARIO.read_text("utf-8")})
    made.raise_for_status()
    game = Game(made.json()["game"], made.json()["tokens"])
    for _ in range(phases):
        api_do(client, base, game, ["phase", "next"])
    return game


def api_do(client: httpx.Client, base: str, game: Game, words: list[str]) -> dict[str, Any]:
    side = client.get(f"{base}/api/games/{game.id}").json()["to_move"]
    answer = client.post(
        f"{base}/api/games/{game.id}/do",
        json={"side": side, "words": words},
        headers={"Authorization": f"Bearer {game.tokens[side]}"},
    )
    answer.raise_for_status()
    body: dict[str, Any] = answer.json()
    return body


def open_side(context: BrowserContext, base: str, game: Game, side: str) -> Page:
    """The side's page, through its private link (the cookie set, the token off the URL)."""
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(f"{base}/join/{game.id}/{side}/{game.tokens[side]}")
    page.wait_for_function("() => window.__bench && window.__bench.ready !== null")
    return page


def ready_time(page: Page, url: str) -> float:
    page.goto(url)
    page.wait_for_function("() => window.__bench && window.__bench.ready !== null")
    ready = float(page.evaluate("window.__bench.ready"))
    if ready < 0:
        raise RuntimeError(f"{url}: the page has no map (no svg [data-hex])")
    return ready


def clicked(page: Page, click: Callable[[], None], test: str) -> float | None:
    """Milliseconds from the click that ``click`` makes to the first frame in which the
    JavaScript expression ``test`` is true (None: not within WAIT_MS)."""
    page.evaluate(
        f"window.__bench.click = null; window.__bench.pending ="
        f" window.__bench.watch(() => {test}, {WAIT_MS}); null"  # null: do not wait for it
    )
    click()
    found = page.evaluate("window.__bench.pending")
    start = page.evaluate("window.__bench.click")
    if found is None or start is None:
        return None
    return float(found) - float(start)


def action_hex(page: Page) -> str:
    """A hex the chosen counter may act on: one offering something besides a move (a roll,
    so the preview has odds) where there is one."""
    offered: list[list[str]] = page.evaluate(
        "Array.from(document.querySelectorAll('svg [data-action]'),"
        " (e) => [e.getAttribute('data-hex'), e.getAttribute('data-action')])"
    )
    # Not a hex of the side's own counters: a click there chooses that counter instead.
    own = set(
        page.evaluate(f"Array.from(document.querySelectorAll({OWN!r}), (e) => e.dataset.hex)")
    )
    offered = [[h, verbs] for h, verbs in offered if h not in own] or offered
    rolling = [h for h, verbs in offered if set(verbs.split()) - {"move"}]
    return (rolling or [h for h, _ in offered])[0]


def click_hex(page: Page, label: str) -> None:
    """A click on the hex's own shape, where a player would point: near its top edge when
    one of the side's counters stands there (a click on the counter chooses it), else at its
    centre (an enemy counter there may take the click, as on the table)."""
    shape = page.locator(f"svg [data-hex='{label}'][data-action]:not(g.counter)").first
    box = shape.bounding_box()
    own = page.locator(f"{OWN}[data-hex='{label}']").count()
    if box is None or not own:
        shape.click(force=True)
        return
    shape.click(force=True, position={"x": box["width"] / 2, "y": box["height"] * 0.1})


def study(browser: Browser, client: httpx.Client, base: str, samples: int) -> list[Step]:
    """Page ready, counter -> hexes and hex -> preview, ``samples`` times each, on one game
    in the first side's Prep Fire Phase (the page is loaded afresh for every sample)."""
    game = new_game(client, base, phases=1)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(PROBE)
    page = open_side(context, base, game, SIDE)
    url = page.url
    ready, counter, preview = Step("page ready"), Step("counter -> hexes"), Step("hex -> preview")
    chosen = f"svg g.counter[data-unit='{UNIT}']"
    shown = ODDS
    for _ in range(samples):
        ready.times.append(ready_time(page, url))
        if counter.missing:
            continue
        took = clicked(
            page,
            page.locator(chosen).first.click,
            "document.querySelector('svg [data-action]')",
        )
        if took is None:
            counter.missing = preview.missing = "no [data-action] hex after a counter click"
            continue
        counter.times.append(took)
        if preview.missing:
            continue
        label = action_hex(page)
        took = clicked(
            page, functools.partial(click_hex, page, label), f"document.querySelector({shown!r})"
        )
        if took is None and shown == ODDS:
            # No odds table (the ruleset's previews have none yet): from the next sample on,
            # time the preview itself, and say so under the table.
            shown = "[data-preview]"
            preview.note = f"no odds table in the preview of {label}: timed to [data-preview]"
            if page.locator(shown).count():
                continue
        if took is None:
            preview.missing = f"no [data-preview] after a click on {label}"
            continue
        preview.times.append(took)
    context.close()
    # The baseline: the same requests over HTTP, no browser.
    with httpx.Client(base_url=base, timeout=30) as side:
        side.get(f"/join/{game.id}/{SIDE}/{game.tokens[SIDE]}")  # the side's cookie
        path = f"/games/{game.id}/{SIDE}"
        ready.base = timed(lambda: side.get(path), samples)
        offers = side.get(f"{path}/offers", params={"unit": UNIT})
        if offers.status_code == 200:
            counter.base = timed(lambda: side.get(f"{path}/offers", params={"unit": UNIT}), samples)
            # {"hexes": [{"hex": "4K3", "actions": ["fire"], ...}, ...]} (web/board.py)
            hexes = [(h["hex"], set(h["actions"])) for h in offers.json()["hexes"]]
            rolling = [h for h, verbs in hexes if verbs - {"move"}] or [h for h, _ in hexes]
            there = {"unit": UNIT, "hex": rolling[0]}
            preview.base = timed(lambda: side.get(f"{path}/preview", params=there), samples)
        else:
            counter.base = timed(lambda: side.get(path, params={"unit": UNIT}), samples)
            action = f"fire {UNIT} --ammo AP"
            preview.base = timed(lambda: side.get(path, params={"action": action}), samples)
    return [ready, counter, preview]


def timed(call: Callable[[], httpx.Response], samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        call().raise_for_status()
        times.append((time.perf_counter() - start) * 1000)
    return times


# --- push --------------------------------------------------------------------------------------


def version(page: Page) -> int:
    return int(page.locator("#main").get_attribute("data-version") or "0")


def end_phase(page: Page) -> None:
    """Send 'phase next' as a player does: the "End phase" button where the page has one,
    else the action's radio, Preview, then Confirm (the click measured is the last one)."""
    button = page.get_by_role("button", name="End phase")
    if button.count():
        button.first.click()
        confirm = page.get_by_role("button", name="Confirm")
        if confirm.count() == 0:
            return
        confirm.first.click()
        return
    page.get_by_label("phase next", exact=True).check()
    page.get_by_role("button", name="Preview").click()
    page.locator("#preview-h").wait_for()
    page.get_by_role("button", name="Confirm").click()


def push(browser: Browser, client: httpx.Client, base: str, samples: int) -> Step:
    """Each sample: the side to move ends its phase; the time until the other side's page
    shows the new version (one game, a fresh one when it is over)."""
    step = Step("push")
    contexts = {}
    for side in (SIDE, OTHER):
        contexts[side] = browser.new_context(viewport={"width": 1280, "height": 800})
        contexts[side].add_init_script(PROBE)
    game: Game | None = None
    pages: dict[str, Page] = {}
    while len(step.times) < samples:
        status = client.get(f"{base}/api/games/{game.id}").json() if game else None
        if status is None or status["over"] or status["to_move"] is None:
            game = new_game(client, base)
            pages = {s: open_side(contexts[s], base, game, s) for s in (SIDE, OTHER)}
            for page in pages.values():
                page.wait_for_function(
                    "() => document.getElementById('live')?.textContent === 'live'"
                )
            continue
        acting = pages[status["to_move"]]
        watching = next(p for s, p in pages.items() if s != status["to_move"])
        before = version(watching)
        watching.evaluate(
            "window.__bench.pending = window.__bench.watch(() =>"
            f" document.getElementById('main').dataset.version !== '{before}', {WAIT_MS * 2}); null"
        )
        acting.evaluate("window.__bench.clickEpoch = null")
        end_phase(acting)
        seen = watching.evaluate(
            "window.__bench.pending.then((t) => t === null ? null : performance.timeOrigin + t)"
        )
        sent = acting.evaluate("window.__bench.clickEpoch")
        if seen is None or sent is None:
            raise RuntimeError(
                f"the other side's page never showed the new version ({seen}, {sent})"
            )
        step.times.append(float(seen) - float(sent))
        # The acting page shows its own answer before the next sample.
        acting.wait_for_function(
            f"() => document.getElementById('main').dataset.version !== '{before}'"
        )
    for context in contexts.values():
        context.close()
    baseline = new_game(client, base)
    step.base = timed(lambda: _do_next(client, base, baseline), min(samples, 20))
    return step


def _do_next(client: httpx.Client, base: str, game: Game) -> httpx.Response:
    status = client.get(f"{base}/api/games/{game.id}").json()
    if status["over"]:
        raise RuntimeError("the baseline game ended: fewer samples")
    side = status["to_move"]
    return client.post(
        f"{base}/api/games/{game.id}/do",
        json={"side": side, "words": ["phase", "next"]},
        headers={"Authorization": f"Bearer {game.tokens[side]}"},
    )


# --- main ----------------------------------------------------------------------------------------


def run(samples: int, load: int) -> list[Step]:
    """Every step, ``samples`` times, against a fresh server, with ``load`` busy processes."""
    if not Path(CHROMIUM).is_file():
        raise SystemExit(f"no Chromium at {CHROMIUM}: run scripts/ensure_chromium.sh")
    with tempfile.TemporaryDirectory(prefix="ordnance-bench-board-") as name, busy(load):
        folder = Path(name)
        db = str(folder / "games.db")
        server = harness.ServeProcess(db, folder / "ai.json", *harness.NO_LIMITS)
        try:
            server.wait()
            with (
                httpx.Client(timeout=30) as client,
                sync_playwright() as playwright,
            ):
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                try:
                    steps = study(browser, client, server.url, samples)
                    steps.append(push(browser, client, server.url, samples))
                finally:
                    browser.close()
        finally:
            server.stop()
    return steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=40, help="samples of each step")
    parser.add_argument("--load", type=int, default=2, help="busy processes during the run")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    samples, load = max(1, min(args.samples, 500)), max(0, min(args.load, 64))
    print(f"board: {SCENARIO.name} on its map in Chromium, {samples} samples a step")
    print(f"before: {os.cpu_count()} cores, {load} busy processes, {load_text()}")
    steps = run(samples, load)
    print(HEADER)
    for step in steps:
        print(step.row())
    print(f"after: {load_text()}")
    for step in steps:
        if step.note:
            print(f"  {step.name}: {step.note}")
    for step in steps:
        print(f"  base of {step.name}: {BASELINES[step.name]}")
    missed = [s.name for s in steps if s.times and pct(s.times, 0.95) >= TARGETS[s.name]]
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
