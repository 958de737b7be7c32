"""The three bundled example scenarios after a few moves, driven through their rulesets with
dice entered by hand (the same commands a player sends with ``ordnance game do``)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from ordnance.core.dice import DR, DieRoll, ManualDice
from ordnance.game.registry import ruleset
from ordnance.game.scenario import load_scenario_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# (side, command, dice...) per example; a die is "N", a DR "W,C".
MOVES: dict[str, tuple[tuple[str, ...], ...]] = {
    "asl-d13-demo": (
        ("american", "phase next"),
        ("american", "phase next"),
        ("american", "move m24 --to 4G5 --mp 1"),  # 1 MP for the hex, 1 in place
        ("american", "dispense m24 --target 4I5", "1,2"),
        ("german", "dispense pz4", "2,2"),
        ("american", "dispense m10", "1,1"),
    ),
    "lnl-smoke-wp": (
        ("german", "phase next"),
        ("german", "wp-shell pz4 --at H3", "2,3", "4,1", "5", "3,2", "6"),
        ("german", "end"),
        ("american", "move sq2 --to L4"),
    ),
    "vv-hedgerow-ambush": (
        ("american", "phase next"),
        ("american", "fire a1,a2,sgt --at E5", "1,2"),
        ("german", "assign-cp --auto"),
        ("american", "phase next"),
        ("american", "move sherman --to G8"),
    ),
}


class Played:
    """A bundled example and its state after :data:`MOVES`."""

    def __init__(self, name: str, moves: int | None = None) -> None:
        self.name = name
        self.scenario = load_scenario_file(EXAMPLES / f"{name}.yaml")
        self.rules: Any = ruleset(self.scenario.ruleset)
        self.state = self.rules.initial_state(self.scenario.body)
        self.rulings: list[dict[str, Any]] = []
        for side, text, *dice in MOVES[name][:moves]:
            self.do(side, text, *dice)

    def do(self, side: str, text: str, *dice: str) -> dict[str, Any]:
        command = self.rules.parse_command(side, shlex.split(text))
        rolls = [DR.parse(d) if "," in d else DieRoll.parse(d) for d in dice]
        done = self.rules.resolve(self.state, command, ManualDice(rolls))
        for event in done.events:
            self.state = self.rules.apply(self.state, event)
        self.rulings.append(dict(done.ruling))
        return dict(done.ruling)
