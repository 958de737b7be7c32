"""Export, read and verify a game log file (SYS.record, SYS.dice).

The file is one JSON document laid out one entry per line::

    {"format":"ordnance-log","version":3,"game":"<id>","signer":{"fingerprint":...,
    "public_key":...},"entries":[
    <entry 0 as canonical JSON, with its "sig">,
    <entry 1, with a "sig" if it is a signed head>
    ]}

(the header is one line; ``signer`` is the key the log opens with: the one its start entry
declares, or for a game started before signing the exporting service's.) Version 3 signs heads:
an entry carries a ``sig`` when it is a signed head, and the last entry always is one. Version 2
files (a ``sig`` on every entry) are read by the same rules. Verification checks, and names the
first entry that fails:

1. the layout, byte for byte: every entry line is its entry's canonical JSON, so changing any
   byte (even whitespace) is noticed;
2. the chain: entry ``k`` has ``seq`` k, its hash matches its content, and its ``prev`` is the
   hash of entry ``k-1`` (a reordering breaks both);
3. the signatures: every signature an entry carries is its writer's (:func:`.fold.signing_key`),
   and every entry is covered by one, on its own or a later head of the same writer
   (:class:`.signing.Coverage`). An entry changed and rehashed, or entries swapped and
   rehashed, fail at the first signed head after them (the problem names the entries that
   head covers); an unsigned tail fails at its first entry. These are checked before 4 and
   5, so a file changed by someone without the key is reported as such;
4. the replay: every command is run again through the ruleset against the state the entries
   before it fold to, and must give the same rolls, events and ruling; undo, seed and reveal
   entries must be ones the rules allow;
5. the dice: every revealed seed matches its epoch's commitment, and every fair roll of a
   revealed epoch equals the one the seed and the command's entropy derive (rolls by e-mail:
   the proposal's secret and the answer's entropy). Rolls of an epoch not yet revealed are
   reported as unverified, physical dice as entered;
6. the receipt, when the reader has one (:mod:`.receipts`): the log must reach the entry the
   reader was last shown, with the same hash there (else entries were deleted, or the game was
   forked or rewritten).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ordnance.core.errors import BadInput
from ordnance.core.limits import check_tree, parsing
from ordnance.game.entries import GENESIS, Entry, canonical
from ordnance.game.errors import LogMismatch
from ordnance.game.fold import Game
from ordnance.game.heads import Head, check_log
from ordnance.game.log_replay import Counts, replay
from ordnance.game.receipts import Receipt
from ordnance.game.signing import declared_key

FORMAT = "ordnance-log"
FORMAT_VERSION = 3
READS = (2, 3)  # version 2: every entry signed; version 3: signed heads
_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,40}")
_FOOTER = "]}"
# A header line names the format, its version, the game and the signer: about 250 bytes. A
# longer one is refused before it is parsed (a hostile file's first line may be all of it).
_HEADER_BYTES = 4096


def _header_line(game: str, opening: Mapping[str, str], version: int = FORMAT_VERSION) -> str:
    # Fixed key order (the entries last, so the file reads top-down); the signer canonical.
    return (
        f'{{"format":"{FORMAT}","version":{version},"game":{json.dumps(game)},'
        f'"signer":{canonical(dict(opening))},"entries":['
    )


def export_text(game: str, log: list[Entry], opening: Mapping[str, str]) -> str:
    """The file text of a game's entries (see the module docstring); ``opening`` is the key the
    log opens with (``{"public_key", "fingerprint"}``)."""
    lines = [canonical(e.to_json()) for e in log]
    body = ",\n".join(lines)
    return f"{_header_line(game, opening)}\n{body}\n{_FOOTER}\n"


def header_game(data: bytes) -> str | None:
    """The game id a file's header names, or None when the header cannot be read."""
    try:
        return _header(data[: _HEADER_BYTES + 1].split(b"\n", 1)[0])[0]
    except LogMismatch:
        return None


def _header(raw: bytes) -> tuple[str, str]:
    """The game id and opening public key of a header line, checked byte for byte."""
    if len(raw) > _HEADER_BYTES:
        raise LogMismatch(None, f"not an {FORMAT} header (its first line is over 4 KiB)")
    text = _decoded(raw, None)
    try:
        with parsing("log header", "header"):
            header = json.loads(text + _FOOTER)
        check_tree(header, "log header", "header")
    except json.JSONDecodeError:
        raise LogMismatch(None, f"not an {FORMAT} header") from None
    except BadInput as error:
        raise LogMismatch(None, error.problem) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogMismatch(None, f"not an {FORMAT} header")
    version = header.get("version")
    if isinstance(version, bool) or version not in READS:
        raise LogMismatch(
            None,
            f"an {FORMAT} of version {version}: this version reads versions"
            f" {READS[0]}-{READS[-1]} (signed logs); export it again with this version",
        )
    game = header.get("game")
    if not isinstance(game, str) or not _GAME_ID.fullmatch(game):
        raise LogMismatch(None, "the header names no valid game id")
    try:
        opening = declared_key(header)
    except ValueError as error:
        raise LogMismatch(None, f"the header's signer: {error}") from None
    if _header_line(game, header["signer"], int(version)) != text:
        raise LogMismatch(None, "the header is not in its canonical form (bytes were changed)")
    return game, opening


def read_entries(data: bytes) -> tuple[str, list[Entry]]:
    """The game id and entries of a file, with layout, hashes and chain checked."""
    game, _, entries = _read(data)
    return game, entries


def _read(data: bytes) -> tuple[str, str, list[Entry]]:
    if not data.endswith(f"\n{_FOOTER}\n".encode()):
        raise LogMismatch(None, "the file does not end with the line ']}' and a newline")
    # The header is read before the whole file is split into lines.
    game, opening = _header(data[: _HEADER_BYTES + 1].split(b"\n", 1)[0])
    lines = data.split(b"\n")
    if len(lines) < 4 or lines[-1] != b"" or lines[-2] != _FOOTER.encode():
        raise LogMismatch(None, "the file does not end with the line ']}' and a newline")
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
    return game, opening, entries


def _decoded(raw: bytes, index: int | None) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise LogMismatch(index, "the line is not valid UTF-8") from None


def _entry(text: str, index: int) -> Entry:
    try:
        with parsing("log entry", f"entry {index}"):
            data = json.loads(text)
        check_tree(data, "log entry", f"entry {index}")
        entry = Entry.from_json(data)
    except json.JSONDecodeError as error:
        raise LogMismatch(index, f"not valid JSON ({error.msg} at column {error.colno})") from None
    except BadInput as error:
        raise LogMismatch(index, str(error)) from None
    if canonical(entry.to_json()) != text:
        raise LogMismatch(index, "the line is not the entry's canonical JSON (bytes were changed)")
    return entry


@dataclass(frozen=True)
class Report:
    """The result of :func:`verify`: what was checked, the first failure, and the verdict.

    ``ok`` means nothing was found wrong; it is never the whole story: ``verdict`` is
    ``verified`` only when every roll was recomputed (or entered as physical dice), ``partly
    verified`` while rolls of an unrevealed seed epoch remain unchecked, ``failed`` otherwise.
    """

    game: str | None
    counts: Counts
    failure: LogMismatch | None = None
    receipt: Receipt | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def verdict(self) -> str:
        if self.failure is not None:
            return "failed"
        return "partly verified" if self.counts.unrevealed else "verified"

    def to_json(self) -> dict[str, Any]:
        failure = self.failure
        return {
            "ok": self.ok,
            "verdict": self.verdict,
            "game": self.game,
            "entries": self.counts.entries,
            "commands": self.counts.commands,
            "rolls": self.counts.rolls,
            "rolls_recomputed": self.counts.recomputed,
            "rolls_unrevealed": self.counts.unrevealed,
            "rolls_physical": self.counts.physical,
            "signers": [
                {"fingerprint": key, "entries": n} for key, n in self.counts.signers.items()
            ],
            "signed_heads": self.counts.heads,
            "legacy_start": self.counts.legacy,
            "receipt": None if self.receipt is None else self.receipt.to_json(),
            "failed_entry": None if failure is None else failure.entry,
            "problem": None if failure is None else failure.problem,
            "clauses": ["SYS.record", "SYS.dice"],
            "explanation": _explain(self),
        }


def _explain(report: Report) -> str:
    if report.failure is not None:
        return str(report.failure)
    c = report.counts
    keys = ", ".join(f"{key} ({n})" for key, n in c.signers.items())
    text = (
        f"{report.verdict.upper()}: all {c.entries} entries chain, are covered by {c.heads}"
        f" signed heads of their writers (keys: {keys}) and replay; {c.commands} commands give"
        f" the same events; {c.recomputed} of {c.rolls} rolls were recomputed"
    )
    if c.physical:
        text += f", {c.physical} were physical dice as entered"
    if c.unrevealed:
        text += (
            f"; {c.unrevealed} rolls are UNVERIFIED: their seed epoch is not revealed yet"
            " (verify again after the reveal)"
        )
    if c.legacy:
        text += "; the game started before signing: its key is the one the file's header names"
    if report.receipt is not None:
        text += f"; it reaches your receipt (entry {report.receipt.version - 1})"
    return text + "."


def verify(data: bytes, receipt: Receipt | None = None, kept: Head | None = None) -> Report:
    """Check a whole exported log (see the module docstring); never raises for a bad log.

    ``receipt``: the last head this reader was shown of the game (checked when it names the
    file's game). ``kept``: the head the reader's key store keeps for the file's game (the
    newest entry its service wrote or read, :mod:`.heads`); a file that stops before it or
    forks from it fails (RolledBack).
    """
    counts = Counts()
    game_id: str | None = None
    try:
        game_id, opening, log = _read(data)
        counts.entries = len(log)
        replay(game_id, log, counts, opening)
        check_log(game_id, kept, len(log), lambda seq: log[seq].hash, "the file")
        if receipt is not None and receipt.game == game_id:
            check_receipt(receipt, log)
        else:
            receipt = None
    except LogMismatch as failure:
        return Report(game_id, counts, failure)
    return Report(game_id, counts, receipt=receipt)


def check_receipt(receipt: Receipt, log: list[Entry]) -> None:
    """Refuse a log shorter than, or forked from, what the reader was last shown."""
    last = receipt.version - 1
    if len(log) <= last:
        raise LogMismatch(
            len(log),
            f"missing: the log ends at entry {len(log) - 1}, but you were shown entry {last}"
            " (your receipt): entries were deleted",
        )
    if log[last].hash != receipt.head:
        raise LogMismatch(
            last,
            "is not the entry your receipt holds: the game was forked or rewritten at or before"
            " this entry",
        )


def read_verified(data: bytes, legacy_key: str | None = None) -> tuple[list[Entry], Game]:
    """The entries of a log that verifies and the game they fold to; raises LogMismatch.

    ``legacy_key`` is the key of a game started before signing, when the reader knows it
    (else the file's header names it).
    """
    game_id, opening, log = _read(data)
    return log, replay(game_id, log, Counts(), legacy_key or opening)
