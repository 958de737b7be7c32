"""The server's first answer at a new version of a game: page, offers, preview, in process.

A click that matters is the first one after the game moved on: a cache by version helps only
the second. This plays the D13 demo (``examples/asl-d13-demo.yaml``, the ASL village map)
through the web app in this process (Starlette's TestClient, a fresh SQLite file) and, at
every version, takes the requests in the order the pages and a player make them:

- ``page``: the first table page at the version (the first draws the map): the other side's,
  asked at once after the action, as its event makes it;
- ``offers``: ``GET .../offers?unit=U`` for each of the side's units;
- ``preview``: ``GET .../preview?unit=U&hex=H&pick=P`` for one hex of each kind of offer (a
  shot per ammunition, a move, a dispenser target...);
- ``action``: the command that makes the next version (a move through the JSON API while a
  unit in its Movement Phase has not moved, else "phase next");
- ``push``: the action and then, at once, the other side's page at the new version (what its
  event makes it fetch): whether warming slows what the push brings.

Each request is sent twice: the first answer is the step, the same request again is the
baseline "cached answer". Times are CPU milliseconds of this process (``time.process_time``:
what an idle core would take; the machine's other load does not count) beside the wall time.
The targets (issue 27, the server's share of the board's steps) are for the first answer's
CPU: page 25 ms, offers 40 ms, preview 60 ms. The first game's first answers in a fresh
process (imports, templates, the map's lines of sight) are printed apart ("cold process").

``--warm``: the app warms each new version (:mod:`ordnance.web.warm`; a page's event stream
listens to each game), and the bench waits ``--think`` ms (a player's pause before a click,
300 by default) after the pages before the offers, so the steps show what a player meets.
Without it, warming is off and every first answer is worked out on the request.

Run: .venv/bin/python benchmarks/bench_first.py [--versions 30] [--warm [--think 300]]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from inspect import signature
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_harness as harness

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SCENARIO = harness.ROOT / "examples" / "asl-d13-demo.yaml"
UNITS = {"american": ("m24", "m10", "baz"), "german": ("pz4", "jgdpz")}
TARGETS = {"page": 25.0, "offers": 40.0, "preview": 60.0, "action": 0.0, "push": 0.0}


@dataclass
class Step:
    """One step's first answers and cached answers: (CPU ms, wall ms) each."""

    name: str
    first: list[tuple[float, float]] = field(default_factory=list)
    cached: list[tuple[float, float]] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)  # each first answer's request

    def row(self) -> str:
        """One line of the table, at most 80 characters.

        >>> Step("offers", [(10.0, 12.0), (30.0, 31.0)], [(2.0, 2.5)]).row()
        'offers          2    30.0    30.0    31.0     2.0   15.0x      <40  pass'
        """
        if not self.first:
            return f"{self.name:<12} {0:>4}   n/a"
        cpu = [c / 1000 for c, _ in self.first]
        wall = [w / 1000 for _, w in self.first]
        p50, p95 = harness.pct(cpu, 0.5), harness.pct(cpu, 0.95)
        base = harness.pct([c / 1000 for c, _ in self.cached], 0.5)
        ratio = f"{p50 / base:6.1f}x" if self.cached and base > 0 else "      -"
        target = TARGETS[self.name]
        verdict = "" if not target else "pass" if p95 <= target else "FAIL"
        aim = f"<{target:.0f}" if target else "-"
        return (
            f"{self.name:<12} {len(self.first):>4} {p50:7.1f} {p95:7.1f}"
            f" {harness.pct(wall, 0.5):7.1f} {base:7.1f} {ratio} {aim:>8}  {verdict}"
        ).rstrip()


HEADER = (
    f"{'step':<12} {'n':>4} {'cpu p50':>7} {'cpu p95':>7} {'wall50':>7} {'cached':>7}"
    f" {'x cache':>7} {'target':>8}  ok"
)


def timed(call: Callable[[], httpx.Response]) -> tuple[httpx.Response, tuple[float, float]]:
    wall, cpu = time.perf_counter(), time.process_time()
    answer = call()
    spent = ((time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000)
    if answer.status_code >= 400 and answer.status_code != 422:
        raise RuntimeError(f"{answer.request.url}: {answer.status_code} {answer.text[:300]}")
    return answer, spent


class Steps:
    """The steps, and the cold process's: the first answer of each kind in the process (an
    offer's: the first with a hex) is the cold one."""

    def __init__(self) -> None:
        self.steps = {name: Step(name) for name in TARGETS}
        self.cold = {name: Step(name) for name in TARGETS}

    def twice(
        self, name: str, call: Callable[[], httpx.Response], counts: Callable[[Any], bool]
    ) -> httpx.Response:
        """The first answer and the same again (the cached answer); ``counts(answer)``: the
        answer is one to count as cold."""
        answer, spent = timed(call)
        again = timed(call)[1]
        cold = not self.cold[name].first and counts(answer)
        step = self.cold[name] if cold else self.steps[name]
        step.first.append(spent)
        step.cached.append(again)
        step.asked.append(f"{answer.request.url.path[-8:]}?{answer.request.url.query.decode()}")
        return answer


class Game:
    """One game of the demo, its sides joined in one client (both cookies)."""

    def __init__(self, client: TestClient, *, listen: bool) -> None:
        self.client = client
        made = client.post("/api/games", json={"scenario": SCENARIO.read_text("utf-8")})
        made.raise_for_status()
        self.id, self.tokens = made.json()["game"], made.json()["tokens"]
        for side, token in self.tokens.items():
            client.get(f"/join/{self.id}/{side}/{token}", follow_redirects=False)
        self.moved: set[tuple[int, str]] = set()
        if listen:
            # A page's event stream: the app warms the versions of games a page watches.
            threading.Thread(target=self._listen, daemon=True).start()
            time.sleep(0.2)

    def _listen(self) -> None:
        # The stream ends with the app, at the end of the run.
        with (
            contextlib.suppress(Exception),
            self.client.stream("GET", f"/games/{self.id}/events") as events,
        ):
            for _ in events.iter_lines():
                pass

    def status(self) -> dict[str, Any]:
        found: dict[str, Any] = self.client.get(f"/api/games/{self.id}").json()
        return found

    def do(self, side: str, words: list[str]) -> httpx.Response:
        answer: httpx.Response = self.client.post(
            f"/api/games/{self.id}/do",
            json={"side": side, "words": words},
            headers={"Authorization": f"Bearer {self.tokens[side]}"},
        )
        return answer


def kinds(offers: dict[str, Any]) -> list[tuple[str, int]]:
    """One (hex, pick) per kind of offer: its verb and the note's first word (AP, SMOKE,
    sM...; every move is one kind)."""
    seen: dict[tuple[str, str], tuple[str, int]] = {}
    for place in offers["hexes"]:
        notes = place["notes"] or [""] * len(place["actions"])
        for pick, note in enumerate(notes):
            verb = place["actions"][min(pick, len(place["actions"]) - 1)]
            kind = "move" if "MP" in note or "hex" in note else note.split(",")[0]
            seen.setdefault((verb, kind), (place["hex"], pick))
    return list(seen.values())


def version_steps(game: Game, steps: Steps, think: float) -> bool:
    """The requests of one version, then the action that makes the next; False at the end."""
    status = game.status()
    side = status["to_move"]
    if status["over"] or side is None:
        return False
    if think:
        time.sleep(think / 1000)
    base = f"/games/{game.id}/{side}"
    get = game.client.get
    if not steps.cold["page"].first:  # a game's first page (later ones: after the action)
        steps.twice("page", lambda: get(base), lambda _: True)
    mover = None
    for unit in UNITS[side]:
        asked = functools.partial(get, f"{base}/offers", params={"unit": unit})
        offers = steps.twice("offers", asked, lambda a: bool(a.json()["hexes"]))
        body = offers.json()
        for hex, pick in kinds(body):
            query = {"unit": unit, "hex": hex, "pick": str(pick)}
            steps.twice("preview", functools.partial(get, f"{base}/preview", params=query), bool)
        moves = [p["hex"] for p in body["hexes"] if "move" in p["actions"]]
        if moves and mover is None and (status["version"], unit) not in game.moved:
            mover = (unit, moves[len(moves) // 2])
    words = ["phase", "next"]
    if mover is not None and not any(u == mover[0] for _, u in game.moved):
        words = ["move", mover[0], "--dest", mover[1]]
        game.moved.add((status["version"], mover[0]))
    answer, spent = timed(lambda: game.do(side, words))
    if answer.status_code != 200:
        answer, spent = timed(lambda: game.do(side, ["phase", "next"]))
    steps.steps["action"].first.append(spent)
    # The push: the other side's page at the new version, asked at once (its event makes it
    # fetch it), the first page at that version; then the acting side's (its redirect).
    other = next(s for s in UNITS if s != side)
    page = steps.steps["page"]
    steps.twice("page", lambda: get(f"/games/{game.id}/{other}"), lambda _: False)
    steps.steps["push"].first.append((spent[0] + page.first[-1][0], spent[1] + page.first[-1][1]))
    get(base)
    if "phase" in words or answer.status_code != 200:
        game.moved.clear()
    return True


def run(versions: int, *, warm: bool, think: float) -> tuple[dict[str, Step], dict[str, Step]]:
    """The cold process's first version, then ``versions`` versions (new games as needed)."""
    from ordnance.web.app import create_app  # noqa: PLC0415 (timed as part of the cold start)

    steps = Steps()
    with tempfile.TemporaryDirectory(prefix="ordnance-bench-first-") as folder:
        # The option is passed only where the app has it: the bench runs on code from before.
        options: dict[str, Any] = (
            {"warm": warm} if "warm" in signature(create_app).parameters else {}
        )
        app = create_app(str(Path(folder) / "games.db"), ai_keys=Path(folder) / "ai", **options)
        with TestClient(app) as client:
            game = Game(client, listen=warm)
            done = 0
            while done < versions:
                if not version_steps(game, steps, think):
                    game = Game(client, listen=warm)
                    continue
                done += 1
    return steps.cold, steps.steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", type=int, default=30, help="versions to take")
    parser.add_argument("--warm", action="store_true", help="the app warms each new version")
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest firsts")
    parser.add_argument("--think", type=float, default=300.0, help="ms before asking (--warm)")
    args = parser.parse_args(argv)
    versions = max(1, min(args.versions, 500))
    think = max(0.0, min(args.think, 5000.0)) if args.warm else 0.0
    one, five, _ = os.getloadavg()
    print(
        f"first answers: {SCENARIO.name}, {versions} versions, warm {'on' if args.warm else 'off'}"
    )
    print(f"load average before {one:.2f} (1 min), {five:.2f} (5 min); times: CPU ms")
    cold, steps = run(versions, warm=args.warm, think=think)
    print(HEADER)
    for step in steps.values():
        print(step.row())
    print("cold process (the first answer of each kind in a fresh process):")
    for step in list(cold.values())[:3]:
        print(step.row())
    for step in steps.values():
        worst = sorted(zip(step.first, step.asked, strict=False), reverse=True)[: args.slowest]
        for (cpu, _), asked in worst:
            print(f"  {step.name} {cpu:6.1f} ms: {asked}"[:80])
    one, five, _ = os.getloadavg()
    print(f"load average after {one:.2f} (1 min), {five:.2f} (5 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
