"""No game gets stuck (issue 26): every bundled scenario, played with fair and with physical
dice, each side by a person (random legal actions) or, where the ruleset has one, by the AI
(its dice entered when they are physical): in no state reached is the game not over while
nobody can act, and every game ends.

A seeded random walk through GameService, as the faces use it: a person's action comes from the
ruleset's ``legal_actions`` and goes through :meth:`GameService.do`; the AI's through
:func:`ordnance.game.autoplay.play`, which stops at a command that needs physical dice until
they are given (:mod:`ordnance.game.rolls` names them). A state is a dead end when the side to
act has no legal action, or every one it has is refused, and no other side has one either.
The fair dice come from fresh server seeds, so a failure prints the commands that led to it.
"""

from __future__ import annotations

import itertools
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from ordnance.core.dice import DR, DieRoll
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.maps import MapFiles
from ordnance.game import autoplay
from ordnance.game.fold import Game
from ordnance.game.rolls import NeededRoll, needed_rolls
from ordnance.game.scenario import scenario_from_mapping
from ordnance.game.service import GameService

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Commands a game may take: the bundled ones end in 30 to 170 (random moves included).
STEPS = 400
SEEDS = (1,)  # one game per case (the fair dice differ on every run anyway): ~50 s in all


def _cases() -> list[Any]:
    cases = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        sides = list(data["sides"])
        # Only V&V has an AI: each side by a person or by it.
        ais = [(), *([s] for s in sides), tuple(sides)] if data["ruleset"] == "vv" else [()]
        for dice, ai, seed in itertools.product(("fair", "physical"), ais, SEEDS):
            name = f"{path.stem}-{dice}-ai:{'+'.join(ai) or 'none'}-{seed}"
            cases.append(pytest.param(path, dice, tuple(ai), seed, id=name))
    return cases


def _scenario(path: Path, dice: str, ai: tuple[str, ...]) -> Any:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["dice"] = dice
    if data["ruleset"] == "vv":
        for side, sheet in data["sides"].items():
            sheet["ai"] = side in ai
    return scenario_from_mapping(data, MapFiles.folder(path.parent))


def _face(rng: random.Random, roll: NeededRoll) -> str:
    if roll.dice == 2:
        return f"{rng.randint(1, 6)},{rng.randint(1, 6)}"
    return str(rng.randint(1, 6))


def _parse(text: str) -> DR | DieRoll:
    return DR.parse(text) if "," in text else DieRoll.parse(text)


def _dice_for(game: Game, side: str, text: str, rng: random.Random) -> list[str]:
    """Random physical dice for a command, asked for as the faces ask: the rolls named, then
    the ones that follow from their faces, until the command needs no more."""
    command = game.rules.parse_command(side, shlex.split(text))
    given: list[str] = []
    for _ in range(50):
        needed = needed_rolls(game.rules, game.state, command, [_parse(d) for d in given])
        if not needed.rolls:
            return given
        given += [_face(rng, roll) for roll in needed.rolls]
    raise AssertionError(f"{text}: the rolls never end")


def _ai_turn(service: GameService, game: Game, side: str, token: str, rng: random.Random) -> str:
    """One command of the AI, with its dice entered when they are physical."""
    given: list[str] = []
    while (waits := autoplay.waiting_for(game, side, given)) is not None:
        assert waits.side == side and waits.version == game.version
        given += [_face(rng, roll) for roll in waits.rolls]
        assert len(given) < 50, "the AI's rolls never end"
    run = autoplay.play(service, game.id, {side: token}, dice=given, limit=1)
    assert run.waiting is None and len(run.moves) == 1, "the AI did not act on its decision"
    return f"{side} (AI): {run.moves[0].text} {given or ''}"


def _person_turn(
    service: GameService, game: Game, side: str, token: str, rng: random.Random
) -> str | list[str]:
    """One random legal action of ``side``; the refusals when every one is refused."""
    actions = list(game.rules.legal_actions(game.state, side))
    rng.shuffle(actions)
    refusals = []
    for text in actions:
        dice = _dice_for(game, side, text, rng) if game.dice.mode == "physical" else []
        words = shlex.split(text) + [w for d in dice for w in ("--dice", d)]
        try:
            service.do(game.id, side, token, words, expect_version=game.version)
        except (IllegalAction, BadInput) as refusal:
            refusals.append(f"{text}: {refusal}")
            continue
        return f"{side}: {text} {dice or ''}"
    return refusals


@pytest.mark.clause("SYS.record", "SYS.dice", "VV.AP-phases")
@pytest.mark.parametrize(("path", "dice", "ai", "seed"), _cases())
def test_no_reachable_state_leaves_nobody_able_to_act(
    tmp_path: Path, path: Path, dice: str, ai: tuple[str, ...], seed: int
) -> None:
    rng = random.Random(f"{path.stem} {dice} {ai} {seed}")
    service = GameService(f"sqlite:///{tmp_path / 'games.db'}", keys=tmp_path / "keys")
    try:
        made = service.create(_scenario(path, dice, ai))
        history: list[str] = []
        for _ in range(STEPS + 1):
            game = service.game(made.game)
            if game.rules.is_over(game.state):
                break
            assert len(history) < STEPS, f"not over after {STEPS} commands: {history[-8:]}"
            side = game.rules.to_move(game.state)
            where = f"after {history[-8:]}"
            assert side is not None, f"not over, and no side to act, {where}"
            token = made.tokens[side]
            if side in ai:
                history.append(_ai_turn(service, game, side, token, rng))
                continue
            done = _person_turn(service, game, side, token, rng)
            if isinstance(done, str):
                history.append(done)
                continue
            others = {s: game.rules.legal_actions(game.state, s) for s in game.sides if s != side}
            pytest.fail(
                f"dead end at version {game.version}: {side} to act, every legal action"
                f" refused ({done or 'none offered'}), others {others}, {where}"
            )
    finally:
        service.close()


CHOICES = """
import hashlib, random, sys, tempfile, pathlib
sys.path.insert(0, sys.argv[1])
import test_no_dead_ends as t
from ordnance.game.service import GameService
folder = pathlib.Path(tempfile.mkdtemp())
service = GameService(f"sqlite:///{folder / 'g.db'}", keys=folder / "keys")
sides = ("american", "german")
made = service.create(t._scenario(t.EXAMPLES / "vv-hedgerow-ambush.yaml", "physical", sides))
rng, sent = random.Random(5), []
for _ in range(40):
    game = service.game(made.game)
    if game.rules.is_over(game.state):
        break
    side = game.rules.to_move(game.state)
    sent.append(t._ai_turn(service, game, side, made.tokens[side], rng))
service.close()
print(len(sent), hashlib.sha256("\\n".join(sent).encode()).hexdigest())
"""


@pytest.mark.clause("VV.AP-phases", "SYS.dice")
def test_the_ais_choices_are_the_same_in_every_process() -> None:
    """The page that asks for the AI's dice and the process that plays them may differ: the
    AI's choice must not depend on anything but the state (here: not on string hashing)."""
    found = set()
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", CHOICES, str(Path(__file__).parent)],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        found.add(done.stdout.strip())
    assert len(found) == 1 and int(next(iter(found)).split()[0]) == 40
