"""Conformance: every registered game, on every scenario bundled for it, keeps the promises the
service and the faces rely on (SYS.record, SYS.odds).

Seeded random legal play through the game service (SQLite, fair dice with a fixed server seed
and fixed entropy, so a failure replays): every legal action applies; no state short of the
end leaves the side to move without a legal action; the exact odds of an action that rolls sum
to 1; each command's ruling has the one shape the faces read (command, side, clauses,
explanation); undoing a roll-free command gives back the state before it; and the stored log,
folded from its first entry or read by a fresh service, gives the live state.
"""

from __future__ import annotations

import dataclasses
import random
import shlex
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.ruleset import Command, ProbeDice, ProbeRolled
from ordnance.game import fold
from ordnance.game.registry import names, spec
from ordnance.game.scenario import Scenario, load_scenario_file
from ordnance.game.service import GameService

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
STEPS = 150  # commands per scenario at most (a scenario may end sooner)
ODDS_EVERY = 10  # every this many steps, the odds of every legal action (else the chosen one)


def bundled() -> Iterator[tuple[str, Path]]:
    """Every (game, scenario file) the project ships, for every registered game."""
    for path in sorted(EXAMPLES.glob("*.yaml")):
        ruleset = yaml.safe_load(path.read_text(encoding="utf-8")).get("ruleset")
        if ruleset in names():
            yield ruleset, path


CASES = list(bundled())
SEEDS = (1, 2)  # two random games a scenario
RULING_KEYS = {"command", "side", "clauses", "explanation"}


def test_every_registered_game_has_a_bundled_scenario():
    assert {game for game, _ in CASES} == set(names())


def rolls(rules: Any, state: Any, command: Command) -> bool:
    """Whether ``command`` reaches a roll once its checks pass."""
    try:
        rules.resolve(state, command, ProbeDice())
    except ProbeRolled:
        return True
    return False


def check_odds(rules: Any, state: Any, side: str, text: str) -> None:
    """An action that rolls has exact odds summing to 1; one that rolls nothing has none (or
    one certain outcome)."""
    command = rules.parse_command(side, shlex.split(text))
    if not rolls(rules, state, command):
        try:
            odds = rules.chance_outcomes(state, command)
        except BadInput:
            return
        assert len(odds) == 1, f"{text}: rolls nothing, yet has {len(odds)} outcomes"
    odds = rules.chance_outcomes(state, command)
    chances = [p for _, p in odds.items()]
    assert chances and all(isinstance(p, Fraction) and p > 0 for p in chances), text
    assert sum(chances) == 1, f"{text}: odds sum to {sum(chances)}"


def undo_and_redo(service: GameService, made: Any, side: str, text: str, before: Any) -> None:
    """Undo the roll-free command just done: the state before it comes back; do it again."""
    done = service.game(made.game)
    service.undo(made.game, side, made.tokens[side])
    assert service.game(made.game).state == before, f"undo of {text!r}"
    service.do(made.game, side, made.tokens[side], shlex.split(text), entropy="ab" * 16)
    assert service.game(made.game).state == done.state, f"{text!r} again"


@pytest.mark.clause("SYS.record", "SYS.odds")
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("game", "path"), CASES, ids=[path.stem for _, path in CASES])
def test_random_legal_play_conforms(game: str, path: Path, seed: int, tmp_path: Path) -> None:
    # The server rolls for both sides (a physical-dice scenario too): the rules are under test.
    scenario = dataclasses.replace(load_scenario_file(path), dice="fair")
    assert scenario.ruleset == game
    plays_conforming(scenario, path.stem, seed, tmp_path)


def plays_conforming(scenario: Scenario, name: str, seed: int, tmp_path: Path) -> None:
    """Random legal play of ``scenario`` (``name`` and ``seed`` pick the game) keeps every
    promise above; docs/architecture.md's example game is checked with it too."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    service, fresh = GameService(url), GameService(url)
    chooser = random.Random(f"conformance {name} {seed}")
    try:
        made = service.create(scenario, server_seed=b"conformance %d" % seed * 3)
        odds_of = spec(scenario.ruleset).odds
        steps = 0
        for steps in range(STEPS):
            live = service.game(made.game)
            rules, state = live.rules, live.state
            if rules.is_over(state):
                break
            side = rules.to_move(state)
            assert side is not None, f"step {steps}: not over, yet nobody is to move"
            legal = rules.legal_actions(state, side)
            assert legal, f"step {steps}: dead end, {side} to move has no legal action"
            if odds_of(rules) is not None:
                for text in legal if steps % ODDS_EVERY == 0 else ():
                    check_odds(rules, state, side, text)
            text = chooser.choice(legal)
            if odds_of(rules) is not None:
                check_odds(rules, state, side, text)
            entropy = f"{seed:016x}{steps:016x}"
            try:
                applied = service.do(
                    made.game, side, made.tokens[side], shlex.split(text), entropy=entropy
                )
            except IllegalAction:
                # Legal is checked up to the first roll; a later check may still refuse it
                # (a malfunction, a failed depletion): a rule's refusal, never bad words or
                # a fault. A refusal leaves nothing behind.
                assert service.game(made.game).version == live.version, text
                continue
            # The one ruling shape the faces read (core.rulings.command_ruling).
            ruling = applied.ruling
            assert ruling is not None and ruling.keys() >= RULING_KEYS, text
            assert ruling["side"] == side and ruling["clauses"], text
            after = service.game(made.game)
            last = after.undoable[-1] if after.undoable else None
            if last is not None and last.side == side and last.seq == live.version:
                undo_and_redo(service, made, side, text, state)
        live = service.game(made.game)
        assert steps > 10 or live.rules.is_over(live.state), "the game ended on no move"
        log = service.log(made.game)
        folded = fold.start(log[0])
        for entry in log[1:]:
            folded = fold.apply_entry(folded, entry)
        assert folded.state == live.state == fresh.game(made.game).state
        assert folded.version == live.version == len(log)
    finally:
        service.close()
        fresh.close()
