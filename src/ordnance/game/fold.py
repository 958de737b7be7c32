"""A game is its log folded: the ruleset state, the dice state, the version and the chain head.

The service and ``verify`` share this fold, so a stored game and an exported file are read by
the same code. Rules for the service-level entries (SYS.record, SYS.dice):

* ``undo`` takes back the latest command that is still in force, and only while no die has been
  revealed since it: a command that rolled, or a revealed seed, is a wall no undo passes (nobody
  may see a roll and then take the action back). Only the side that sent a command undoes it.
* ``seed``: each side may add its own seed to the current epoch until the epoch's first roll.
* ``consent``/``reveal``: when every side has consented, the epoch's server seed is revealed
  and a new epoch starts with a fresh commitment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError

# replace() as a fold needs it: no __init__ re-run per event (core/records.py).
from ordnance.core.records import evolve as replace
from ordnance.core.ruleset import Command, Event, RollRecord, Ruleset
from ordnance.game.entries import GENESIS, Entry
from ordnance.game.errors import LogMismatch
from ordnance.game.fairdice import commitment
from ordnance.game.registry import ruleset
from ordnance.game.scenario import Scenario


@dataclass(frozen=True)
class DiceState:
    """Where the game's dice stand: mode, epoch, commitments, side seeds, the next roll index."""

    mode: str
    epoch: int = 0
    commitments: tuple[str, ...] = ()
    seeds: Mapping[str, str] = field(default_factory=dict)
    rolled: bool = False
    next_roll: int = 0
    consents: frozenset[str] = frozenset()
    revealed: Mapping[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "epoch": self.epoch,
            "commitment": self.commitments[self.epoch] if self.commitments else None,
            "side_seeds": dict(self.seeds),
            "next_roll": self.next_roll,
            "reveal_consents": sorted(self.consents),
            "revealed_epochs": sorted(self.revealed),
        }


@dataclass(frozen=True)
class Undoable:
    """A roll-free command still in force, with the ruleset state from before it."""

    seq: int
    side: str
    before: Any


@dataclass(frozen=True)
class Game:
    """A game at some version: ``state`` is the ruleset's, the rest the service's."""

    id: str
    rules: Ruleset[Any] = field(compare=False)
    scenario: Scenario
    state: Any
    dice: DiceState
    version: int
    head: str
    undoable: tuple[Undoable, ...] = ()

    @property
    def sides(self) -> tuple[str, ...]:
        return self.scenario.sides

    def check_side(self, side: str) -> None:
        if side not in self.sides:
            raise BadInput("side", side, f"no such side; sides: {', '.join(self.sides)}")


def start(entry: Entry) -> Game:
    """The game its first (``start``) entry opens."""
    if entry.type != "start" or entry.seq != 0 or entry.prev != GENESIS:
        raise LogMismatch(entry.seq, "the first entry must be the game's start")
    body = entry.body
    try:
        scenario = Scenario.from_json(body["scenario"])
        rules = ruleset(scenario.ruleset)
        state = rules.initial_state(scenario.body)
        promised = body["commitment"]
        commitments = () if promised is None else (str(promised),)
        dice = DiceState(mode=scenario.dice, commitments=commitments)
        return Game(str(body["game"]), rules, scenario, state, dice, 1, entry.hash)
    except (OrdnanceError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, LogMismatch):
            raise
        raise LogMismatch(0, f"the start entry cannot be read ({error})") from None


def check_undo(game: Game, side: str) -> Undoable:
    """The command an undo by ``side`` would take back, or the refusal."""
    if not game.undoable:
        raise IllegalAction(
            "SYS.dice",
            "nothing to undo: undo goes back only to the last revealed die roll",
        )
    last = game.undoable[-1]
    if last.side != side:
        raise IllegalAction(
            "SYS.record", f"the last command is {last.side}'s; only {last.side} may undo it"
        )
    return last


def check_seed(game: Game, side: str) -> None:
    """May ``side`` add its seed now? Only before the epoch's first roll."""
    game.check_side(side)
    if game.dice.mode != "fair":
        raise IllegalAction("SYS.dice", "this game uses physical dice; there is no seed to add")
    if game.dice.rolled:
        raise IllegalAction(
            "SYS.dice", "side seeds are fixed once this seed epoch has made its first roll"
        )
    if side in game.dice.seeds:
        raise IllegalAction("SYS.dice", f"{side} has already added its seed to this epoch")


def check_consent(game: Game, side: str) -> None:
    game.check_side(side)
    if game.dice.mode != "fair":
        raise IllegalAction("SYS.dice", "this game uses physical dice; there is no seed to reveal")
    if side in game.dice.consents:
        raise IllegalAction("SYS.dice", f"{side} has already agreed to reveal this epoch's seed")


def apply_entry(game: Game, entry: Entry) -> Game:
    """The game after one more entry; an entry that does not fit raises LogMismatch."""
    if entry.seq != game.version:
        raise LogMismatch(entry.seq, f"out of order: expected entry {game.version} here")
    if entry.prev != game.head:
        raise LogMismatch(entry.seq, "its 'prev' is not the hash of the entry before it")
    try:
        after = _APPLY[entry.type](game, entry)
    except LogMismatch:
        raise
    except (OrdnanceError, KeyError, TypeError, ValueError, IndexError) as error:
        raise LogMismatch(entry.seq, f"does not fit the game ({error})") from None
    if after is game:
        return replace(after, version=entry.seq + 1, head=entry.hash)
    # ``after`` was made just now and nobody holds it yet: finish it in place (no second copy).
    after.__dict__.update(version=entry.seq + 1, head=entry.hash)
    return after


def _apply_command(game: Game, entry: Entry) -> Game:
    body = entry.body
    command = Command.from_json(body["command"])
    state = game.state
    for raw in body["events"]:
        state = game.rules.apply(state, Event.from_json(raw))
    rolls = [RollRecord.from_json(r) for r in body["rolls"]]
    if not rolls:
        undo = Undoable(entry.seq, command.side, game.state)
        return replace(game, state=state, undoable=(*game.undoable, undo))
    dice = replace(
        game.dice,
        next_roll=game.dice.next_roll + len(rolls),
        rolled=game.dice.rolled or game.dice.mode == "fair",
    )
    # A revealed roll is a wall: nothing before it may be undone.
    return replace(game, state=state, dice=dice, undoable=())


def _apply_undo(game: Game, entry: Entry) -> Game:
    last = check_undo(game, str(entry.side))
    if entry.body["undone"] != last.seq:
        raise LogMismatch(entry.seq, f"undoes entry {entry.body['undone']}, not {last.seq}")
    return replace(game, state=last.before, undoable=game.undoable[:-1])


def _apply_seed(game: Game, entry: Entry) -> Game:
    side = str(entry.side)
    check_seed(game, side)
    if entry.body["epoch"] != game.dice.epoch:
        raise LogMismatch(entry.seq, "the seed names another epoch")
    seeds = {**game.dice.seeds, side: str(entry.body["seed"])}
    return replace(game, dice=replace(game.dice, seeds=seeds))


def _apply_consent(game: Game, entry: Entry) -> Game:
    side = str(entry.side)
    check_consent(game, side)
    return replace(game, dice=replace(game.dice, consents=game.dice.consents | {side}))


def _apply_reveal(game: Game, entry: Entry) -> Game:
    body = entry.body
    epoch = int(body["epoch"])
    agreed = game.dice.consents == frozenset(game.sides)
    if not agreed and not game.rules.is_over(game.state):
        raise LogMismatch(entry.seq, "a seed revealed before every side agreed")
    if epoch != game.dice.epoch:
        raise LogMismatch(entry.seq, f"reveals epoch {epoch}, but epoch {game.dice.epoch} runs")
    if commitment(bytes.fromhex(str(body["seed"]))) != game.dice.commitments[epoch]:
        raise LogMismatch(entry.seq, f"the revealed seed does not match epoch {epoch}'s commitment")
    revealed = {**game.dice.revealed, epoch: str(body["seed"])}
    dice = replace(_next_epoch(game.dice, str(body["next_commitment"])), revealed=revealed)
    return replace(game, dice=dice, undoable=())


def _apply_resume(game: Game, entry: Entry) -> Game:
    return replace(game, dice=_next_epoch(game.dice, str(entry.body["commitment"])), undoable=())


def _next_epoch(dice: DiceState, promised: str) -> DiceState:
    return replace(
        dice,
        epoch=dice.epoch + 1,
        commitments=(*dice.commitments, promised),
        seeds={},
        rolled=False,
        consents=frozenset(),
    )


def _apply_start(game: Game, entry: Entry) -> Game:
    raise LogMismatch(entry.seq, "a second start entry")


_APPLY = {
    "start": _apply_start,
    "command": _apply_command,
    "undo": _apply_undo,
    "seed": _apply_seed,
    "consent": _apply_consent,
    "reveal": _apply_reveal,
    "resume": _apply_resume,
}


def command_body(
    game: Game, command: Command, dice: DiceSource, rolls: list[RollRecord]
) -> dict[str, Any]:
    """Resolve a command against the game and return its entry's body.

    ``rolls`` is the list ``dice`` records its rolls in. The events are folded once here, so a
    command whose events would not fold is refused before anything is stored.
    """
    game.check_side(command.side)
    resolution = game.rules.resolve(game.state, command, dice)
    state = game.state
    for event in resolution.events:
        state = game.rules.apply(state, event)
    return {
        "command": command.to_json(),
        "rolls": [r.to_json() for r in rolls],
        "events": [e.to_json() for e in resolution.events],
        "ruling": dict(resolution.ruling),
    }
