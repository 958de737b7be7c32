"""What a preview's exact odds cost: the walk of a command's dice (core.chances) per game.

Cases from the bundled scenarios, each timed as the best of ``--repeat`` runs:

* ASL: ``fire pak --ammo APCR`` and ``canister at45`` in the C8 demo (one DR: 36 leaves);
* LnLT: ``smoke-shell pz4 --at H3`` (To Hit DR, depletion dr) and ``wp-shell pz4 --at H3`` (To
  Hit DR, three WP checks, depletion dr), in the classes the ruleset walks them in, against the
  baseline "face by face" (every face of every roll) where that stays under the leaf bound;
* V&V: ``fire`` (the combat table's CP, read at once, for scale).

Run: ``.venv/bin/python benchmarks/bench_chances.py [--repeat R]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from ordnance.asl.game.ruleset import AslRuleset
from ordnance.asl.smoke import Phase
from ordnance.core.chances import TooManyOutcomes, chance_outcomes
from ordnance.core.dice import ManualDice
from ordnance.core.maps import MapFiles
from ordnance.lnl.game.chances import outcome_words
from ordnance.lnl.game.resolve import resolve as lnl_resolve
from ordnance.lnl.game.ruleset import LnlRuleset
from ordnance.vv.game.ruleset import VvRuleset

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def best(odds: Callable[[Any, Any], object], state: Any, command: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        odds(state, command)
        times.append(time.perf_counter() - start)
    return min(times)


def loaded(rules: Any, name: str) -> Any:
    path = EXAMPLES / name
    body = rules.load_scenario(yaml.safe_load(path.read_text()), MapFiles.folder(path.parent))
    return rules.initial_state(body)


def started(rules: Any, state: Any, side: str) -> Any:
    done = rules.resolve(state, rules.parse_command(side, ["phase", "next"]), ManualDice([]))
    for event in done.events:
        state = rules.apply(state, event)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    asl = AslRuleset()
    c8 = replace(loaded(asl, "asl-c8-demo.yaml"), phase=Phase.PFPH)
    for side, text in (("german", "fire pak --ammo APCR"), ("russian", "canister at45")):
        state = c8 if side == "german" else replace(c8, phase=Phase.DFPH)
        command = asl.parse_command(side, text.split())
        seconds = best(asl.chance_outcomes, state, command, repeat)
        print(f"asl  {text:32} {seconds * 1000:8.1f} ms")
    lnl = LnlRuleset()
    farm = started(lnl, loaded(lnl, "lnl-smoke-wp.yaml"), "german")
    for text in ("smoke-shell pz4 --at H3", "wp-shell pz4 --at H3"):
        command = lnl.parse_command("german", text.split())
        ours = best(lnl.chance_outcomes, farm, command, repeat)
        line = f"lnl  {text:32} {ours * 1000:8.1f} ms"
        try:
            start = time.perf_counter()
            chance_outcomes(lnl_resolve, farm, command, outcome_words)
            face = time.perf_counter() - start
            line += f"   face by face {face * 1000:8.1f} ms ({face / ours:.1f}x)"
        except TooManyOutcomes as error:
            line += f"   face by face: {error}"
        print(line)
    vv = VvRuleset()
    hedges = started(vv, loaded(vv, "vv-hedgerow-ambush.yaml"), "american")
    command = vv.parse_command("american", ["fire", "a1,a2,sgt", "--at", "E5"])
    seconds = best(vv.chance_outcomes, hedges, command, repeat)
    print(f"vv   {'fire a1,a2,sgt --at E5':32} {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
