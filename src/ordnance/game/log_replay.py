"""The replay a log's verification runs (:mod:`.logfile`, checks 3 to 5): every signature
checked and every entry covered by a signed head of its writer, every command run again
through the ruleset against the state before it, every fair roll derived again from its
revealed seed (or, by e-mail, the proposal's secret and the answer's entropy).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ordnance.core.dice import DR, DieRoll
from ordnance.core.errors import BadInput, OrdnanceError
from ordnance.core.ruleset import Command, RollKind, RollRecord
from ordnance.game import fold
from ordnance.game.entries import Entry
from ordnance.game.errors import LogMismatch
from ordnance.game.fairdice import commitment, faces
from ordnance.game.fold import Game, apply_entry, command_body
from ordnance.game.pbem import check_secret
from ordnance.game.signing import Coverage, declared_key, fingerprint


@dataclass
class Counts:
    """What a verification looked at."""

    entries: int = 0
    commands: int = 0
    rolls: int = 0
    recomputed: int = 0
    unrevealed: int = 0
    physical: int = 0
    # fingerprint -> number of entries that key wrote (each covered by one of its signed
    # heads), in order of first use
    signers: dict[str, int] = field(default_factory=dict)
    heads: int = 0  # signatures checked
    legacy: bool = False


def replay(game_id: str, log: list[Entry], counts: Counts, opening: str) -> Game:
    """Fold the log checking every signature and that every entry is covered, then replay
    every command against the game before it."""
    first = log[0]
    legacy = "signer" not in first.body
    counts.legacy = legacy
    if not legacy:
        try:
            declared = declared_key(first.body)
        except ValueError as error:
            raise LogMismatch(0, f"the start entry's signer: {error}") from None
        if declared != opening:
            raise LogMismatch(None, "it names another key than the game's start entry")
    coverage = Coverage()
    fold.check_signed(None, first, opening, coverage)
    _count_signer(counts, opening)
    game = fold.start(first, opening if legacy else None)
    if game.id != game_id:
        # Entry 0 passed its hash check, so the header is what was changed.
        raise LogMismatch(None, f"it names game {game_id}, but the log is game {game.id}")
    # First the signatures, over the whole log (the fold tells each entry's writer), so a
    # file changed by someone without the key is reported as that before any replay fails.
    before: list[Game] = []
    for entry in log[1:]:
        key = fold.check_signed(game, entry, coverage=coverage)
        _count_signer(counts, key)
        before.append(game)
        game = apply_entry(game, entry)
    coverage.finish()
    counts.heads = sum(1 for e in log if e.sig is not None)
    seeds = _revealed_seeds(log)
    for entry, state in zip(log[1:], before, strict=True):
        if entry.type == "command":
            _check_command(state, entry, seeds, counts)
        elif entry.type == "refused":
            _check_refused(state, entry, counts)
    return game


def _count_signer(counts: Counts, key: str) -> None:
    name = fingerprint(key)
    counts.signers[name] = counts.signers.get(name, 0) + 1


def _revealed_seeds(log: list[Entry]) -> dict[int, bytes]:
    """Epoch -> revealed server seed, each checked against its epoch's commitment."""
    promised: list[str | None] = [log[0].body.get("commitment")]
    revealed: dict[int, bytes] = {}
    for entry in log[1:]:
        try:
            if entry.type == "reveal":
                epoch = int(entry.body["epoch"])
                seed = bytes.fromhex(str(entry.body["seed"]))
                if epoch >= len(promised) or commitment(seed) != promised[epoch]:
                    raise LogMismatch(entry.seq, "the revealed seed does not match its commitment")
                revealed[epoch] = seed
                promised.append(str(entry.body["next_commitment"]))
            elif entry.type == "resume" and "commitment" in entry.body:
                promised.append(str(entry.body["commitment"]))
        except (KeyError, ValueError) as error:
            raise LogMismatch(entry.seq, f"a malformed seed entry ({error})") from None
    return revealed


def _check_command(game: Game, entry: Entry, seeds: Mapping[int, bytes], counts: Counts) -> None:
    counts.commands += 1
    try:
        command = Command.from_json(entry.body["command"])
        recorded = [RollRecord.from_json(r) for r in entry.body["rolls"]]
    except (KeyError, BadInput) as error:
        raise LogMismatch(entry.seq, f"a malformed command entry ({error})") from None
    dice = _ReplayDice(game, entry, recorded, _key_of(game, entry, seeds), counts)
    try:
        again = command_body(game, command, dice, dice.replayed)
    except LogMismatch:
        raise
    except OrdnanceError as error:
        raise LogMismatch(entry.seq, f"replaying '{command.text}' is refused: {error}") from None
    if len(dice.replayed) != len(recorded):
        raise LogMismatch(entry.seq, "the entry records more rolls than the command makes")
    for part in ("command", "rolls", "events", "ruling"):
        if again[part] != entry.body.get(part):
            raise LogMismatch(entry.seq, f"replaying '{command.text}' gives different {part}")


def _key_of(game: Game, entry: Entry, seeds: Mapping[int, bytes]) -> bytes | None:
    """The key a command's fair rolls derive from: the proposal's revealed secret (by e-mail),
    or the epoch's server seed once revealed (None before)."""
    if game.dice.mode == "pbem" and entry.body.get("rolls"):
        if game.pending is None or game.pending.entropy is None:
            raise LogMismatch(entry.seq, "rolls dice without an answered proposal (play by e-mail)")
        return check_secret(entry.body.get("secret"), entry.seq)
    return seeds.get(game.dice.epoch)


def _check_refused(game: Game, entry: Entry, counts: Counts) -> None:
    """A proposal the rules refused once its dice were known: the rolls must be the ones the
    secret derives, and replaying the command with them must indeed be refused."""
    try:
        command = Command.from_json(entry.body["command"])
        recorded = [RollRecord.from_json(r) for r in entry.body["rolls"]]
    except (KeyError, BadInput) as error:
        raise LogMismatch(entry.seq, f"a malformed refused entry ({error})") from None
    secret = check_secret(entry.body.get("secret"), entry.seq)
    dice = _ReplayDice(game, entry, recorded, secret, counts)
    try:
        command_body(game, command, dice, dice.replayed)
    except LogMismatch:
        raise
    except OrdnanceError:
        return
    raise LogMismatch(entry.seq, f"'{command.text}' is recorded as refused, but the rules allow it")


@dataclass
class _ReplayDice:
    """Hands a replayed command the rolls its entry recorded, checking each one on the way."""

    game: Game
    entry: Entry
    recorded: list[RollRecord]
    seed: bytes | None
    counts: Counts
    replayed: list[RollRecord] = field(default_factory=list)

    @property
    def seq(self) -> int:
        return self.entry.seq

    def _next(self, purpose: str, kind: RollKind) -> tuple[int, ...]:
        position = len(self.replayed)
        if position >= len(self.recorded):
            raise LogMismatch(self.seq, f"the command rolls for {purpose} but no roll is recorded")
        roll = self.recorded[position]
        index = self.game.dice.next_roll + position
        if (roll.index, roll.purpose, roll.kind) != (index, purpose, kind):
            raise LogMismatch(
                self.seq, f"roll {roll.index} is recorded as {roll.purpose!r}, expected {purpose!r}"
            )
        self.counts.rolls += 1
        if self.game.dice.mode == "physical":
            self.counts.physical += 1
            expected_source = "physical"
        else:
            expected_source = "fair"
            self._check_fair(roll, index)
        if roll.source != expected_source or (roll.epoch is None) != (expected_source != "fair"):
            raise LogMismatch(self.seq, f"roll {index} claims to be {roll.source}")
        self.replayed.append(roll)
        return roll.faces

    def _check_fair(self, roll: RollRecord, index: int) -> None:
        dice = self.game.dice
        if roll.epoch != dice.epoch:
            raise LogMismatch(self.seq, f"roll {index} names epoch {roll.epoch}, not {dice.epoch}")
        if self.seed is None:
            self.counts.unrevealed += 1
            return
        by_email = dice.mode == "pbem"
        pending = self.game.pending
        derived = faces(
            self.seed,
            self.game.id,
            dice.epoch,
            {} if by_email else dice.seeds,
            index=index,
            count=len(roll.faces),
            entropy=(pending.entropy if by_email and pending else self.entry.body.get("entropy")),
            proposal=pending.seq if by_email and pending else None,
        )
        if derived != roll.faces:
            source = "proposal's secret" if by_email else "revealed seed"
            raise LogMismatch(
                self.seq,
                f"roll {index} ({roll.purpose}) shows {list(roll.faces)}, but the {source}"
                f" gives {list(derived)}",
            )
        self.counts.recomputed += 1

    def roll_dr(self, purpose: str) -> DR:
        shown = self._next(purpose, "DR")
        if len(shown) != 2:
            raise LogMismatch(self.seq, f"{purpose}: a DR needs two faces")
        return DR(*shown)

    def roll_die(self, purpose: str) -> DieRoll:
        shown = self._next(purpose, "dr")
        if len(shown) != 1:
            raise LogMismatch(self.seq, f"{purpose}: a dr needs one face")
        return DieRoll(*shown)
