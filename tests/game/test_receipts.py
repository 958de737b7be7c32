"""Receipts (SYS.record): a signed log cut short, or forked, is refused against the last head a
client was shown; the whole log re-signed with another key is another game."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from ordnance.game.entries import GENESIS, make_entry, signed
from ordnance.game.errors import LogMismatch, RolledBack
from ordnance.game.heads import Heads
from ordnance.game.logfile import check_receipt, export_text, read_entries, verify
from ordnance.game.receipts import Receipt, Receipts
from ordnance.game.service import GameService
from ordnance.game.signing import Signer


def played(service, made, shots=2):
    german = made.tokens["german"]
    service.do(made.game, "german", german, ["phase", "next"])
    for gun in ("pak", "pz4")[:shots]:
        service.do(made.game, "german", german, ["fire", gun, "--ammo", "AP", "--to-hit", "7"])
    return service.export(made.game).encode()


@pytest.mark.clause("SYS.record")
def test_deleting_the_last_entries_is_refused_against_the_receipt(sqlite_url, new_game, tmp_path):
    service, made = new_game(sqlite_url)
    data = played(service, made)
    game, entries = read_entries(data)
    receipt = Receipt(game, len(entries), entries[-1].hash)
    # Cut after an entry that is no signed head, the log ends in an unsigned tail: refused by
    # itself, at the first entry no signed head covers.
    cut = export_text(game, entries[:-2], _opening(data)).encode()
    failure = verify(cut).failure
    tail = next(e.seq for e in entries if e.sig is None)
    assert failure.entry == tail and "not covered by a signature" in failure.problem
    # Cut at a signed head, every remaining entry is covered: only the receipt can tell.
    kept = 1 + max(e.seq for e in entries[:-1] if e.sig is not None)
    cut = export_text(game, entries[:kept], _opening(data)).encode()
    assert verify(cut).ok
    failure = verify(cut, receipt).failure
    assert failure.entry == kept and "entries were deleted" in failure.problem
    # The import into another database refuses it the same way (through the CLI's receipt).
    book = Receipts(tmp_path / "receipts")
    book.keep(receipt)
    assert book.get(game) == receipt
    assert verify(data, book.get(game)).to_json()["receipt"]["version"] == len(entries)


@pytest.mark.clause("SYS.record")
def test_a_fork_is_refused_against_the_receipt(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    data = played(service, made, shots=1)
    game, entries = read_entries(data)
    receipt = Receipt(game, len(entries), entries[-1].hash)
    # The operator rewrites history from entry 2 on: deletes the shot from the database and
    # lets the service write another command there. Every signature holds (the service signed
    # it), but the entry the player was shown is gone.
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM entries WHERE seq >= 2"))
        connection.execute(sa.text("UPDATE games SET version = 2"))
    engine.dispose()
    other = GameService(sqlite_url)
    try:
        # The key store keeps the head the service wrote: the service refuses the cut log...
        with pytest.raises(RolledBack, match="rolled back or forked at entry 2"):
            other.do(made.game, "german", made.tokens["german"], ["phase", "next"])
        # ...unless the operator holds the key store too and drops it: only the receipt is left.
        Heads(other.keys.path / "heads").path(made.game).unlink()
        other.close()
        other = GameService(sqlite_url)
        other.do(made.game, "german", made.tokens["german"], ["phase", "next"])
        forked = other.export(made.game).encode()
        assert verify(forked).ok
        failure = verify(forked, receipt).failure
        assert failure.entry == 2 and "forked or rewritten" in failure.problem
    finally:
        other.close()


@pytest.mark.clause("SYS.record")
def test_a_log_re_signed_with_another_key_is_another_game(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    data = played(service, made, shots=1)
    game, entries = read_entries(data)
    thief = Signer(bytes(range(32)))
    chained, prev = [], GENESIS
    for entry in entries:
        body = dict(entry.body)
        if entry.type == "start":
            body["signer"] = thief.declaration()
        again = make_entry(entry.seq, entry.type, entry.side, body, prev)
        chained.append(signed(again, thief.sign(again.hash)))
        prev = again.hash
    stolen = export_text(game, chained, thief.declaration()).encode()
    report = verify(stolen).to_json()
    # It verifies on its own terms, but under the thief's fingerprint...
    assert report["ok"] and report["signers"][0]["fingerprint"] == thief.fingerprint
    assert thief.fingerprint != made.signer["fingerprint"]
    # ...and not against the player's receipt: the very first entry differs.
    failure = verify(stolen, Receipt(game, len(entries), entries[-1].hash)).failure
    assert failure is not None and "forked or rewritten" in failure.problem


def _opening(data: bytes) -> dict:
    return json.loads(data.split(b"\n", 1)[0] + b"]}")["signer"]


def test_receipts_never_move_backwards_and_ignore_bad_names(tmp_path):
    book = Receipts(tmp_path)
    book.keep(Receipt("g1", 5, "aa" * 32))
    book.keep(Receipt("g1", 4, "bb" * 32))
    assert book.get("g1") == Receipt("g1", 5, "aa" * 32)
    book.keep(Receipt("../evil", 1, "cc" * 32))
    assert book.get("../evil") is None and not (tmp_path.parent / "evil.json").exists()
    with pytest.raises(LogMismatch):
        check_receipt(Receipt("g1", 3, "aa" * 32), [])
