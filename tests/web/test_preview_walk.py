"""Every preview of every bundled scenario, opened along whole games (issue 27).

Each bundled scenario is played to its end by random legal actions with fair dice (the
service's own, as the faces use it). At each state, for the side to move, every unit that may
act is chosen, and for each of its offers (every hex, every pick at a hex) the board's preview
is built in process (:func:`ordnance.web.preview.build`), as are the previews of the actions
that belong to no unit (End phase, Pass, CP allocation...). The preview must agree with the
engine: where the composed command rolls (resolved here with counting dice, not with the
preview's probe) it shows the odds, one row per outcome, whose exact fractions sum to 1; where
it does not roll it says so; where it is refused it says why, naming the clause when the
ruleset gives one. A field the table asks for (the To Hit number) is filled in with values of
its range and the odds must then tell a hit from a miss.
"""

from __future__ import annotations

import os
import random
import shlex
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from ordnance.core.dice import DR, DieRoll, SeededDice
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.maps import MapFiles
from ordnance.core.offers import Offer
from ordnance.core.ruleset import ChanceOutcomes
from ordnance.game.fold import Game
from ordnance.game.scenario import scenario_from_mapping
from ordnance.game.service import GameService
from ordnance.web import preview

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BUNDLED = sorted(p.stem for p in EXAMPLES.glob("*.yaml"))
STEPS = 400  # no bundled game takes more (tests/game/test_no_dead_ends.py)
# A preview costs ~10 ms of CPU and a state of the ASL demo offers hundreds: by default each
# state opens those of one unit (a few per verb) so the walk stays near 30 s in all;
# ORDNANCE_PREVIEW_WALK=all opens every offer of every unit at every state (minutes).
EVERY = os.environ.get("ORDNANCE_PREVIEW_WALK") == "all"
PER_VERB = 3
SEEDS = tuple(range(1, 1 + int(os.environ.get("ORDNANCE_PREVIEW_WALK_GAMES", "1"))))


class CountingDice:
    """Seeded dice that count their rolls: whether a command rolls, seen from the engine."""

    def __init__(self, seed: int) -> None:
        self._dice = SeededDice(seed)
        self.rolled = 0

    def roll_dr(self, purpose: str) -> DR:
        self.rolled += 1
        return self._dice.roll_dr(purpose)

    def roll_die(self, purpose: str) -> DieRoll:
        self.rolled += 1
        return self._dice.roll_die(purpose)


def engine_rolls(game: Game, side: str, text: str) -> bool | OrdnanceError:
    """Whether ``text`` rolls when the engine resolves it, or the engine's refusal."""
    try:
        command = game.rules.parse_command(side, shlex.split(text))
        dice = CountingDice(1)
        game.rules.resolve(game.state, command, dice)
    except OrdnanceError as refusal:
        return refusal
    return dice.rolled > 0


def check_odds(game: Game, side: str, board: preview.Board, where: str) -> None:
    """A rolling preview's table: one row per outcome of the engine's distribution, exact
    fractions that sum to 1."""
    assert board.odds_rows, f"{where}: rolls, and the preview shows no odds ({board.odds_note})"
    labels = [row[0] for row in board.odds_rows]
    assert len(labels) == len(set(labels)), f"{where}: an outcome has two rows: {labels}"
    total = sum((Fraction(row[1]) for row in board.odds_rows), Fraction(0))
    assert total == 1, f"{where}: the odds sum to {total}"
    assert isinstance(game.rules, ChanceOutcomes)
    command = game.rules.parse_command(side, shlex.split(board.command))
    outcomes = game.rules.chance_outcomes(game.state, command)
    assert sorted(labels) == sorted(str(o) for o in outcomes), f"{where}: rows {labels}"
    assert board.odds_svg, f"{where}: no chart beside the table"


def check_board(game: Game, side: str, board: preview.Board, where: str) -> str:
    """One preview against the engine; what it showed (odds, no roll, refusal, waiting)."""
    assert board.problem is None, f"{where}: {board.problem}"
    assert board.command, f"{where}: the preview composes no command"
    if board.refusal is not None:
        assert board.refusal.strip(), f"{where}: a refusal with no words"
        refused = engine_rolls(game, side, board.command)
        assert isinstance(refused, OrdnanceError), f"{where}: refused, the engine takes it"
        if isinstance(refused, IllegalAction):  # a rule refuses: the preview names its clause
            assert board.refusal_clause == refused.clause, f"{where}: {board.refusal_clause}"
        return "refused"
    rolled = engine_rolls(game, side, board.command)
    if board.missing:
        # A field is still empty: the odds of the action without it (Confirm waits for it).
        assert board.rolls == (rolled is True), f"{where}: rolls={board.rolls}, engine {rolled}"
        if board.rolls:
            check_odds(game, side, board, where)
        return "waiting"
    assert not isinstance(rolled, OrdnanceError), f"{where}: Confirm offered, refused: {rolled}"
    assert board.rolls == rolled, f"{where}: the preview says rolls={board.rolls}"
    if rolled:
        check_odds(game, side, board, where)
        return "odds"
    assert "does not roll" in board.odds_note, f"{where}: says {board.odds_note!r}"
    assert not board.odds_rows
    return "no roll"


def filled(game: Game, side: str, board: preview.Board, where: str, seen: dict[str, int]) -> bool:
    """The asked number fields filled with values of their range: the odds then say whether
    the shot hits or misses, and they differ between an easy and a hard number."""
    numbers = [f for f in board.fields if f.kind == "number" and f.low is not None]
    if not numbers:
        return False
    tables = []
    for pick in (lambda f: f.high, lambda f: f.low):
        given = {f.name: str(pick(f)) for f in numbers}
        again = preview.build(
            game, side, unit=board.unit, hex=board.hex, pick=board.pick, given=given
        )
        shown = check_board(game, side, again, f"{where} {given}")
        seen[shown] = seen.get(shown, 0) + 1
        if shown == "odds":
            words = " ".join(row[0] for row in again.odds_rows).lower()
            assert "hit" in words or "miss" in words, f"{where}: odds {again.odds_rows}"
            tables.append(again.odds_rows)
    if len(tables) == 2:
        seen["to-hit checked"] = seen.get("to-hit checked", 0) + 1
        assert tables[0] != tables[1], f"{where}: the To Hit number does not change the odds"
    return True


def sample(offers: tuple[Offer, ...], rng: random.Random | None) -> list[tuple[Offer, int]]:
    """The offers to open: all of them, or (``rng``) a few of each verb, every verb kept."""
    placed = preview.places(offers)
    if rng is None:
        return placed
    by_verb: dict[str, list[tuple[Offer, int]]] = {}
    for item in placed:
        by_verb.setdefault(item[0].verb, []).append(item)
    return [x for group in by_verb.values() for x in rng.sample(group, min(PER_VERB, len(group)))]


def walk_state(
    game: Game, side: str, seen: dict[str, int], rng: random.Random | None = None
) -> None:
    """The previews the side's page can open in this state: every one, or (``rng``) those
    of one unit that may act, a few of each of its verbs, and every side action."""
    units, alone = preview.unit_actions(game, side)
    checked_numbers = False
    for unit in units if rng is None or not units else [rng.choice(units)]:
        _, offers = preview.unit_offers(game, side, unit)
        for offer, pick in sample(offers, rng):
            where = f"v{game.version} {side} {unit} at {offer.hex} #{pick} ({offer.command})"
            board = preview.build(
                game, side, unit=unit, hex=offer.hex, pick=pick, offers=(None, offers)
            )
            shown = check_board(game, side, board, where)
            seen[shown] = seen.get(shown, 0) + 1
            if rng is None or not checked_numbers:
                checked_numbers = filled(game, side, board, where, seen)
    for text in alone:
        where = f"v{game.version} {side} side action {text!r}"
        board = preview.build(game, side, unit=None, hex=None, action=text)
        shown = check_board(game, side, board, where)
        seen[shown] = seen.get(shown, 0) + 1
        assert board.rolls == preview.rolls(game, side, text), where


def scenario(example: str) -> Any:
    path = EXAMPLES / f"{example}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["dice"] = "fair"
    if data["ruleset"] == "vv":
        for sheet in data["sides"].values():
            sheet["ai"] = False
    return scenario_from_mapping(data, MapFiles.folder(path.parent))


def play(service: GameService, made: Any, rng: random.Random, seen: dict[str, int]) -> int:
    """One whole game of random legal actions, every preview opened at every state."""
    for step in range(STEPS + 1):
        game = service.game(made.game)
        if game.rules.is_over(game.state):
            return step
        side = game.rules.to_move(game.state)
        assert side is not None, f"not over and nobody to act at version {game.version}"
        walk_state(game, side, seen, None if EVERY else rng)
        actions = list(game.rules.legal_actions(game.state, side))
        rng.shuffle(actions)
        # End phases less often than acting, so the units' offers are seen in many states.
        actions.sort(key=lambda a: a in ("phase next", "pass", "end") and rng.random() < 0.7)
        for text in actions:
            try:
                service.do(game.id, side, made.tokens[side], shlex.split(text))
            except (IllegalAction, BadInput):
                continue
            break
        else:
            pytest.fail(f"every legal action of {side} refused at version {game.version}")
    pytest.fail(f"not over after {STEPS} commands")


@pytest.mark.clause("SYS.odds", "SYS.dice", "SYS.cite")
@pytest.mark.parametrize("example", BUNDLED)
def test_every_preview_of_every_state_shows_its_odds_or_why_not(
    tmp_path: Path, example: str
) -> None:
    seen: dict[str, int] = {}
    started = time.process_time()
    service = GameService(f"sqlite:///{tmp_path / 'games.db'}", keys=tmp_path / "keys")
    try:
        for seed in SEEDS:
            made = service.create(scenario(example))
            play(service, made, random.Random(f"{example} {seed}"), seen)
    finally:
        service.close()
    print(f"{example}: {seen} in {time.process_time() - started:.1f} s of CPU")
    # The walk saw what each game has: rolling actions (every bundled game has some) and
    # actions that do not roll.
    assert seen.get("odds", 0) > 0, seen
    assert seen.get("no roll", 0) > 0, seen
