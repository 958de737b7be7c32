"""A game is its log folded: the ruleset state, the dice state, the version and the chain head.

The service and ``verify`` share this fold, so a stored game and an exported file are read by
the same code. Rules for the service-level entries (SYS.record, SYS.dice):

* ``undo`` takes back the latest command that is still in force, and only while no die has been
  revealed since it: a command that rolled, or a revealed seed, is a wall no undo passes (nobody
  may see a roll and then take the action back). Only the side that sent a command undoes it.
* ``seed``: each side may add its own seed to the current epoch until the epoch's first roll.
* ``consent``/``reveal``: when every side has consented, the epoch's server seed is revealed
  and a new epoch starts with a fresh commitment.
* who signs: every entry names its writer's key through the game (:func:`signing_key`): the
  service's key (declared in ``start``, changed by an import's ``resume``), or in a game played
  by e-mail each side's own key (the inviter's in ``start``, the others' in their ``join``).
* play by e-mail (:mod:`.pbem`): a command that rolls is a ``propose``; the other side's
  ``answer`` gives it entropy; the proposer's ``command`` (or ``refused``) closes it, revealing
  the secret its rolls are keyed with. Nothing else may be written while a proposal is open.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput, OrdnanceError
from ordnance.core.ruleset import Command, Event, RollRecord, Ruleset
from ordnance.game.entries import GENESIS, Entry
from ordnance.game.errors import LogMismatch
from ordnance.game.fairdice import check_entropy, commitment
from ordnance.game.fold_checks import (
    check_consent,
    check_open,
    check_seed,
    check_signed,
    check_undo,
    signing_key,
)
from ordnance.game.registry import ruleset, spec_of
from ordnance.game.scenario import Scenario
from ordnance.game.signing import declared_key

# What may be written next is checked in fold_checks.py; callers read it here, beside the fold.
__all__ = [
    "Game",
    "apply_entry",
    "check_consent",
    "check_open",
    "check_seed",
    "check_signed",
    "check_undo",
    "command_body",
    "resolve_command",
    "signing_key",
    "start",
]


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
class Proposal:
    """Play by e-mail: a command that rolls, waiting for the other side's entropy or for its
    proposer's resolution."""

    seq: int
    side: str
    command: Mapping[str, Any]
    commitment: str
    entropy: str | None = None


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
    # The public key (hex) the service's entries are signed with; None: not known yet.
    custodian: str | None = None
    # Play by e-mail: each joined side's own key, the sides still invited (code SHA-256s) and
    # the open proposal.
    side_keys: Mapping[str, str] = field(default_factory=dict)
    invited: Mapping[str, str] = field(default_factory=dict)
    pending: Proposal | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        return self.scenario.sides

    @property
    def by_email(self) -> bool:
        """Whether each side writes its own entries (play by e-mail)."""
        return bool(self.side_keys) or bool(self.invited)

    def after_command(
        self, state: Any, dice: DiceState, undoable: tuple[Undoable, ...], entry: Entry
    ) -> Game:
        """The game after the command ``entry``: what a command changes, the rest as it is.

        Built by the constructor, every field named, rather than by ``dataclasses.replace``
        (which looks each field up by name first, about twice the cost): the fold makes one
        per command of every log it reads (bench_ledger, "folded from entries in memory").
        """
        return Game(
            self.id,
            self.rules,
            self.scenario,
            state,
            dice,
            entry.seq + 1,
            entry.hash,
            undoable,
            self.custodian,
            self.side_keys,
            self.invited,
            self.pending,
        )

    def check_side(self, side: str) -> None:
        if side not in self.sides:
            raise BadInput("side", side, f"no such side; sides: {', '.join(self.sides)}")


def start(entry: Entry, legacy_key: str | None = None) -> Game:
    """The game its first (``start``) entry opens.

    ``legacy_key`` is the service key of a game started before entries were signed (its start
    declares none): the key that migration 0002 signed it with.
    """
    if entry.type != "start" or entry.seq != 0 or entry.prev != GENESIS:
        raise LogMismatch(entry.seq, "the first entry must be the game's start")
    body = entry.body
    try:
        scenario = Scenario.from_json(body["scenario"])
        rules = ruleset(scenario.ruleset)
        state = rules.initial_state(scenario.body)
        promised = body["commitment"]
        commitments = () if promised is None else (str(promised),)
        custodian = declared_key(body) if "signer" in body else legacy_key
        email = body.get("pbem")
        side_keys: dict[str, str] = {}
        invited: dict[str, str] = {}
        mode = scenario.dice
        if email is not None:
            if custodian is None:
                raise ValueError("a game by e-mail must name its inviter's key")
            side_keys = {str(email["inviter"]): custodian}
            invited = {str(k): str(v) for k, v in dict(email["invited"]).items()}
            if not set(side_keys) | set(invited) == set(scenario.sides) or set(side_keys) & set(
                invited
            ):
                raise ValueError("the inviter and the invited sides must be the scenario's sides")
            mode = "pbem" if scenario.dice == "fair" else scenario.dice
        dice = DiceState(mode=mode, commitments=commitments)
        return Game(
            str(body["game"]),
            rules,
            scenario,
            state,
            dice,
            1,
            entry.hash,
            custodian=custodian,
            side_keys=side_keys,
            invited=invited,
        )
    except (OrdnanceError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, LogMismatch):
            raise
        raise LogMismatch(0, f"the start entry cannot be read ({error})") from None


def apply_entry(game: Game, entry: Entry, *, folded: Any = None) -> Game:
    """The game after one more entry; an entry that does not fit raises LogMismatch.

    ``folded``: for a command entry just made by :func:`resolve_command`, the state its events
    fold into, which it computed already (so they are not folded a second time).
    """
    if entry.seq != game.version:
        raise LogMismatch(entry.seq, f"out of order: expected entry {game.version} here")
    if entry.prev != game.head:
        raise LogMismatch(entry.seq, "its 'prev' is not the hash of the entry before it")
    try:
        if entry.type == "command":
            # The fold's most common entry: it makes the new game with its version and head.
            return _apply_command(game, entry, folded)
        after = _APPLY[entry.type](game, entry)
    except LogMismatch:
        raise
    except (OrdnanceError, KeyError, TypeError, ValueError, IndexError) as error:
        raise LogMismatch(entry.seq, f"does not fit the game ({error})") from None
    return replace(after, version=entry.seq + 1, head=entry.hash)


def _apply_command(game: Game, entry: Entry, folded: Any = None) -> Game:
    """The game after a command entry, at the entry's version and head."""
    body = entry.body
    command = body["command"]
    if type(command) is dict and command.keys() >= _COMMAND_FIELDS and type(command["side"]) is str:
        side: str = command["side"]  # the fold needs no more of it (``verify`` reads it all)
    else:
        side = Command.from_json(command).side  # names what is wrong with it
    if entry.side != side:
        raise LogMismatch(entry.seq, f"written as {entry.side}, but it is {side}'s command")
    if game.side_keys or game.invited:  # by e-mail
        game = _close_proposal(game, entry, rolled=bool(body["rolls"]))
    state = game.state
    if folded is not None:
        state = folded
    else:
        rules = game.rules
        stored = spec_of(rules).stored_fold(rules)  # the ruleset's own fold step, if any
        for raw in body["events"]:
            if stored is not None and type(raw) is dict:
                kind, data = raw.get("kind"), raw.get("data")
                if type(kind) is str and type(data) is dict:
                    state = stored.apply_stored(state, kind, data)
                    continue
            state = rules.apply(state, Event.from_json(raw))  # names what is wrong with it
    rolls = body["rolls"]
    if folded is not None:
        rolled = len(rolls)  # written just now by resolve_command, from the dice's own records
    else:
        rolled = 0 if type(rolls) is list and not rolls else _count_rolls(rolls)
    if not rolled:
        undoable = (*game.undoable, Undoable(entry.seq, side, game.state))
        dice = game.dice
    else:
        undoable = ()  # a revealed roll is a wall: nothing before it may be undone
        dice = replace(
            game.dice,
            next_roll=game.dice.next_roll + rolled,
            rolled=game.dice.rolled or game.dice.mode == "fair",
        )
    return game.after_command(state, dice, undoable, entry)


def _count_rolls(rolls: Any) -> int:
    """How many rolls a command entry stored; each must read as a :class:`RollRecord`."""
    if type(rolls) is not list:
        return len([RollRecord.from_json(r) for r in rolls])  # names what is wrong with it
    for raw in rolls:
        # The common case, as json.loads gives it, checked by exact type; anything else is read
        # by RollRecord.from_json, which accepts it or names what is wrong with it.
        if not (
            type(raw) is dict
            and type(raw.get("index")) is int
            and type(raw.get("purpose")) is str
            and raw.get("kind") in ("DR", "dr")
            and raw.get("source") in ("fair", "physical")
            and type(raw.get("faces")) is list
            and all(type(face) is int for face in raw["faces"])
            and (raw.get("epoch") is None or type(raw.get("epoch")) is int)
        ):
            RollRecord.from_json(raw)
    return len(rolls)


def _close_proposal(game: Game, entry: Entry, *, rolled: bool) -> Game:
    """A PBEM command that rolls must resolve the open proposal; one that does not, find none."""
    pending = game.pending
    if not rolled and game.dice.mode == "pbem":
        check_open(game)
        return game
    if game.dice.mode != "pbem":
        return game
    if pending is None or pending.entropy is None:
        raise LogMismatch(entry.seq, "rolls dice without an answered proposal (play by e-mail)")
    body = entry.body
    if entry.side != pending.side or body.get("proposal") != pending.seq:
        raise LogMismatch(entry.seq, f"does not resolve the open proposal, entry {pending.seq}")
    if commitment(bytes.fromhex(str(body["secret"]))) != pending.commitment:
        raise LogMismatch(entry.seq, f"its secret does not match entry {pending.seq}'s commitment")
    if dict(body["command"]) != dict(pending.command):
        raise LogMismatch(entry.seq, f"is not the command proposed in entry {pending.seq}")
    return replace(game, pending=None)


_COMMAND_FIELDS = frozenset({"side", "verb", "args", "text"})


def _apply_undo(game: Game, entry: Entry) -> Game:
    check_open(game)
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
    if game.by_email:
        raise LogMismatch(entry.seq, "a game by e-mail is continued by import, not resumed")
    # A fair game starts a new seed epoch (the old seed stayed with the exporting service).
    promised = entry.body.get("commitment")
    dice = game.dice if promised is None else _next_epoch(game.dice, str(promised))
    return replace(game, dice=dice, undoable=(), custodian=declared_key(entry.body))


def _apply_join(game: Game, entry: Entry) -> Game:
    side = str(entry.side)
    code = str(entry.body["code"])
    if side not in game.invited:
        raise LogMismatch(entry.seq, f"{side} was not invited (or has joined already)")
    if hashlib.sha256(code.encode("utf-8")).hexdigest() != game.invited[side]:
        raise LogMismatch(entry.seq, f"the invitation code does not match {side}'s invitation")
    invited = {k: v for k, v in game.invited.items() if k != side}
    keys = {**game.side_keys, side: declared_key(entry.body)}
    return replace(game, invited=invited, side_keys=keys)


def _apply_propose(game: Game, entry: Entry) -> Game:
    if game.dice.mode != "pbem":
        raise LogMismatch(entry.seq, "a proposal outside a game with dice rolled by e-mail")
    check_open(game)
    command = Command.from_json(entry.body["command"])
    if command.side != entry.side:
        raise LogMismatch(entry.seq, f"written as {entry.side}, but it is {command.side}'s command")
    promised = str(entry.body["commitment"])
    proposal = Proposal(entry.seq, command.side, command.to_json(), promised)
    return replace(game, pending=proposal)


def _apply_answer(game: Game, entry: Entry) -> Game:
    pending = game.pending
    if pending is None or pending.entropy is not None:
        raise LogMismatch(entry.seq, "an answer with no proposal waiting for one")
    if entry.side == pending.side or entry.body["proposal"] != pending.seq:
        raise LogMismatch(entry.seq, f"is not the other side's answer to entry {pending.seq}")
    entropy = check_entropy(str(entry.body["entropy"]))
    return replace(game, pending=replace(pending, entropy=entropy))


def _apply_refused(game: Game, entry: Entry) -> Game:
    return replace(_close_proposal(game, entry, rolled=True), undoable=())


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
    "join": _apply_join,
    "propose": _apply_propose,
    "answer": _apply_answer,
    "refused": _apply_refused,
}


def command_body(
    game: Game, command: Command, dice: DiceSource, rolls: list[RollRecord]
) -> dict[str, Any]:
    """Resolve a command against the game and return its entry's body.

    ``rolls`` is the list ``dice`` records its rolls in. The events are folded once here, so a
    command whose events would not fold is refused before anything is stored.
    """
    return resolve_command(game, command, dice, rolls)[0]


def resolve_command(
    game: Game, command: Command, dice: DiceSource, rolls: list[RollRecord]
) -> tuple[dict[str, Any], Any]:
    """:func:`command_body` and the state its events fold into (for ``apply_entry(folded=)``).

    The live game and a replay fold the same events (a replay parses them back from the
    entry's JSON): ``tests/game/test_replay.py`` checks that both give equal states.
    """
    game.check_side(command.side)
    resolution = game.rules.resolve(game.state, command, dice)
    state = game.state
    for event in resolution.events:
        state = game.rules.apply(state, event)
    body = {
        "command": command.to_json(),
        "rolls": [r.to_json() for r in rolls],
        "events": [e.to_json() for e in resolution.events],
        "ruling": dict(resolution.ruling),
    }
    return body, state
