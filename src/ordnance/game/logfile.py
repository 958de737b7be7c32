"""Export, read and verify a game log file (SYS.record, SYS.dice).

The file is one JSON document laid out one entry per line::

    {"format":"ordnance-log","version":1,"game":"<id>","entries":[
    <entry 0 as canonical JSON>,
    <entry 1>
    ]}

Verification checks, and names the first entry that fails:

1. the layout, byte for byte: every entry line is its entry's canonical JSON, so changing any
   byte (even whitespace) is noticed;
2. the chain: entry ``k`` has ``seq`` k, its hash matches its content, and its ``prev`` is the
   hash of entry ``k-1`` (a reordering breaks both);
3. the replay: every command is run again through the ruleset against the state the entries
   before it fold to, and must give the same rolls, events and ruling; undo, seed and reveal
   entries must be ones the rules allow;
4. the dice: every revealed seed matches its epoch's commitment, and every fair roll of a
   revealed epoch equals the one the seed derives. Rolls of an epoch not yet revealed, and
   physical dice, are counted but cannot be recomputed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ordnance.core.dice import DR, DieRoll
from ordnance.core.errors import BadInput, OrdnanceError
from ordnance.core.ruleset import Command, RollKind, RollRecord
from ordnance.game import fold
from ordnance.game.entries import GENESIS, Entry, canonical
from ordnance.game.errors import LogMismatch
from ordnance.game.fairdice import commitment, faces
from ordnance.game.fold import Game, apply_entry, command_body

FORMAT = "ordnance-log"
FORMAT_VERSION = 1
_HEADER = re.compile(
    r'\{"format":"ordnance-log","version":1,"game":("[0-9A-Za-z_-]{1,40}"),"entries":\['
)
_FOOTER = "]}"


def export_text(game: str, log: list[Entry]) -> str:
    """The file text of a game's entries (see the module docstring)."""
    header = (
        f'{{"format":"{FORMAT}","version":{FORMAT_VERSION},"game":{json.dumps(game)},"entries":['
    )
    lines = [canonical(e.to_json()) for e in log]
    body = ",\n".join(lines)
    return f"{header}\n{body}\n{_FOOTER}\n"


def read_entries(data: bytes) -> tuple[str, list[Entry]]:
    """The game id and entries of a file, with layout, hashes and chain checked."""
    lines = data.split(b"\n")
    if len(lines) < 4 or lines[-1] != b"" or lines[-2] != _FOOTER.encode():
        raise LogMismatch(None, "the file does not end with the line ']}' and a newline")
    header = _decoded(lines[0], None)
    match = _HEADER.fullmatch(header)
    if match is None:
        raise LogMismatch(None, f"not an {FORMAT} version {FORMAT_VERSION} header")
    game = json.loads(match[1])
    entries: list[Entry] = []
    body_lines = lines[1:-2]
    for index, raw in enumerate(body_lines):
        last = index == len(body_lines) - 1
        text = _decoded(raw, index)
        if not last:
            if not text.endswith(","):
                raise LogMismatch(index, "the line does not end with ','")
            text = text[:-1]
        entry = _entry(text, index)
        if entry.seq != index:
            raise LogMismatch(index, f"has seq {entry.seq}: entries are out of order")
        if not entry.check_hash():
            raise LogMismatch(index, "its hash does not match its content")
        previous = entries[-1].hash if entries else GENESIS
        if entry.prev != previous:
            raise LogMismatch(index, "its 'prev' is not the hash of the entry before it")
        entries.append(entry)
    return game, entries


def _decoded(raw: bytes, index: int | None) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise LogMismatch(index, "the line is not valid UTF-8") from None


def _entry(text: str, index: int) -> Entry:
    try:
        entry = Entry.from_json(json.loads(text))
    except json.JSONDecodeError as error:
        raise LogMismatch(index, f"not valid JSON ({error.msg} at column {error.colno})") from None
    except BadInput as error:
        raise LogMismatch(index, str(error)) from None
    if canonical(entry.to_json()) != text:
        raise LogMismatch(index, "the line is not the entry's canonical JSON (bytes were changed)")
    return entry


@dataclass
class Counts:
    """What a verification looked at."""

    entries: int = 0
    commands: int = 0
    rolls: int = 0
    recomputed: int = 0
    unrevealed: int = 0
    physical: int = 0


@dataclass(frozen=True)
class Report:
    """The result of :func:`verify`: ``ok``, what was checked, and the first failure."""

    game: str | None
    counts: Counts
    failure: LogMismatch | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_json(self) -> dict[str, Any]:
        failure = self.failure
        return {
            "ok": self.ok,
            "game": self.game,
            "entries": self.counts.entries,
            "commands": self.counts.commands,
            "rolls": self.counts.rolls,
            "rolls_recomputed": self.counts.recomputed,
            "rolls_unrevealed": self.counts.unrevealed,
            "rolls_physical": self.counts.physical,
            "failed_entry": None if failure is None else failure.entry,
            "problem": None if failure is None else failure.problem,
            "clauses": ["SYS.record", "SYS.dice"],
            "explanation": _explain(self),
        }


def _explain(report: Report) -> str:
    if report.failure is not None:
        return str(report.failure)
    c = report.counts
    return (
        f"All {c.entries} entries chain and replay; {c.commands} commands give the same events;"
        f" {c.recomputed} of {c.rolls} rolls were recomputed from revealed seeds"
        f" ({c.unrevealed} from seeds not yet revealed, {c.physical} physical)."
    )


def verify(data: bytes) -> Report:
    """Check a whole exported log (see the module docstring); never raises for a bad log."""
    counts = Counts()
    game_id: str | None = None
    try:
        game_id, log = read_entries(data)
        counts.entries = len(log)
        _replay(game_id, log, counts)
    except LogMismatch as failure:
        return Report(game_id, counts, failure)
    return Report(game_id, counts)


def read_verified(data: bytes) -> tuple[list[Entry], Game]:
    """The entries of a log that verifies and the game they fold to; raises LogMismatch."""
    game_id, log = read_entries(data)
    return log, _replay(game_id, log, Counts())


def _replay(game_id: str, log: list[Entry], counts: Counts) -> Game:
    game = fold.start(log[0])
    if game.id != game_id:
        # Entry 0 passed its hash check, so the header is what was changed.
        raise LogMismatch(None, f"it names game {game_id}, but the log is game {game.id}")
    seeds = _revealed_seeds(log)
    for entry in log[1:]:
        if entry.type == "command":
            _check_command(game, entry, seeds, counts)
        game = apply_entry(game, entry)
    return game


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
            elif entry.type == "resume":
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
    dice = _ReplayDice(game, entry.seq, recorded, seeds.get(game.dice.epoch), counts)
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


@dataclass
class _ReplayDice:
    """Hands a replayed command the rolls its entry recorded, checking each one on the way."""

    game: Game
    seq: int
    recorded: list[RollRecord]
    seed: bytes | None
    counts: Counts
    replayed: list[RollRecord] = field(default_factory=list)

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
        derived = faces(
            self.seed, self.game.id, dice.epoch, dice.seeds, index=index, count=len(roll.faces)
        )
        if derived != roll.faces:
            raise LogMismatch(
                self.seq,
                f"roll {index} ({roll.purpose}) shows {list(roll.faces)}, but the revealed seed"
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
