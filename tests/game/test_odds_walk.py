"""Every action that rolls has its exact odds, in every bundled scenario (SYS.odds, issue 27).

Each scenario of ``examples/`` is played by random legal actions with seeded fair dice to its
end (a few seeds, each game capped). In every state reached, every legal action of the side to
move is probed (:class:`~ordnance.core.ruleset.ProbeDice`): if it reaches a roll, the ruleset's
``chance_outcomes`` must give its odds, summing to exactly 1, and the outcome of resolving it
with fair dice must be one of the outcomes with a chance above 0. An action that rolls nothing
has no odds (BadInput), and the probe and the odds agree on which is which.
"""

from __future__ import annotations

import random
import shlex
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from ordnance.asl.game.outcomes import outcome_words as asl_words
from ordnance.core.dice import SeededDice
from ordnance.core.errors import BadInput
from ordnance.core.maps import MapFiles
from ordnance.core.ruleset import AiPlayer, ChanceOutcomes, ProbeDice, ProbeRolled, Resolution
from ordnance.game.registry import ruleset
from ordnance.lnl.game.chances import outcome_words as lnl_words
from ordnance.vv.game.outcomes import outcome_words as vv_words

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEEDS = (1, 2)
STEPS = 150  # commands per game: the bundled games end in 30 to 170 with random play
BUDGET = 4.0  # seconds per scenario, all seeds together: the test stays near 20 s

# What a resolution's outcome is, as each ruleset's odds name it.
OUTCOME: dict[str, Callable[[Resolution], Any]] = {
    "asl": asl_words,
    "lnl": lnl_words,
    "vv": lambda done: done.ruling["cp"] if "apfp" in done.ruling else vv_words(done),
}


def _rolls(rules: Any, state: Any, command: Any) -> bool:
    try:
        rules.resolve(state, command, ProbeDice())
    except ProbeRolled:
        return True
    return False


def _check_state(rules: Any, state: Any, side: str, rng: random.Random) -> list[str]:
    """Check the odds of every legal action of ``side``; returns those that roll."""
    rolled: list[str] = []
    for text in rules.legal_actions(state, side):
        command = rules.parse_command(side, shlex.split(text))
        if not _rolls(rules, state, command):
            with pytest.raises(BadInput):  # nothing to give odds for
                rules.chance_outcomes(state, command)
            continue
        rolled.append(text)
        odds = rules.chance_outcomes(state, command)
        chances = odds.fractions()
        assert sum(chances.values(), Fraction(0)) == 1, text
        assert all(p > 0 for p in chances.values()), text
        assert all(str(outcome) for outcome in chances), text
        done = rules.resolve(state, command, SeededDice(rng.randrange(1 << 30)))
        outcome = OUTCOME[rules.name](done)
        assert chances.get(outcome, Fraction(0)) > 0, (text, outcome, sorted(map(str, chances)))
    return rolled


def _play(path: Path, seed: int, deadline: float) -> tuple[int, int, bool]:
    """One random game; returns (states checked, rolling actions checked, reached its end)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if data["ruleset"] == "vv":  # its AI on both sides brings the platoons into each other's LOS
        for sheet in data["sides"].values():
            sheet["ai"] = True
    rules = ruleset(data["ruleset"])
    assert isinstance(rules, ChanceOutcomes)
    state = rules.initial_state(rules.load_scenario(data, MapFiles.folder(path.parent)))
    rng = random.Random(seed)
    states = rolled = 0
    for _ in range(STEPS):
        side = rules.to_move(state)
        if side is None or rules.is_over(state) or time.monotonic() > deadline:
            break
        states += 1
        rolling = _check_state(rules, state, side, rng)
        rolled += len(rolling)
        actions = list(rules.legal_actions(state, side))
        # Rolls first when there are some (the states after them have odds of their own), else
        # half the time end the phase or pass, so that games reach their end.
        ending = [a for a in actions if a in ("phase next", "pass", "end")]
        ai = rules.ai_command(state, side) if isinstance(rules, AiPlayer) else None
        if ai is not None and rng.random() < 0.7:
            actions = [ai]
        elif rolling and rng.random() < 0.5:
            actions = rolling
        elif ending and rng.random() < 0.5:
            actions = ending
        text = rng.choice(actions)
        command = rules.parse_command(side, shlex.split(text))
        for event in rules.resolve(state, command, SeededDice(rng.randrange(1 << 30))).events:
            state = rules.apply(state, event)
    return states, rolled, rules.is_over(state)


@pytest.mark.clause("SYS.odds", "C8.9-lt", "C8.9-eq", "C8.9-gt", "LNL.S-hit", "LNL.W-check")
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_rolling_action_has_exact_odds(path: Path) -> None:
    deadline = time.monotonic() + BUDGET
    states = rolled = ended = 0
    for seed in SEEDS:
        found = _play(path, seed, deadline)
        states, rolled, ended = states + found[0], rolled + found[1], ended + found[2]
    assert states > 0 and rolled > 0, "the walk must reach actions that roll"
    assert ended > 0 or time.monotonic() > deadline, "at least one game reaches its end"
