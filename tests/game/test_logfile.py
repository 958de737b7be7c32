"""Export, verify and import (SYS.record, SYS.dice): any changed byte, a reordering or an altered
die is caught and the entry named."""

from __future__ import annotations

import json
import random

import pytest

from ordnance.game.entries import GENESIS, Entry, canonical, make_entry, signed
from ordnance.game.errors import LogMismatch
from ordnance.game.keystore import KeyStore
from ordnance.game.logfile import export_text, read_entries, verify
from ordnance.game.service import GameService
from ordnance.game.signing import Signer


def play_some(service, made):
    """A short game: seeds, shots, an undo, a reveal, then shots in the new (unrevealed) epoch."""
    german, russian = made.tokens["german"], made.tokens["russian"]
    service.add_seed(made.game, "german", german, "mine")
    for words in (
        ["phase", "next"],
        ["fire", "pak", "--ammo", "APCR"],
        ["fire", "pz4", "--ammo", "AP", "--to-hit", "7"],
        ["phase", "next"],
        ["move", "stug"],
    ):
        service.do(made.game, "german", german, words)
    service.undo(made.game, "german", german)
    service.consent(made.game, "german", german)
    service.consent(made.game, "russian", russian)
    service.do(made.game, "german", german, ["move", "stug"])
    service.do(made.game, "german", german, ["phase", "next"])
    service.do(made.game, "russian", russian, ["fire", "t34", "--ammo", "APCR"])
    return service.export(made.game).encode()


@pytest.fixture
def exported(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    return play_some(service, made)


def lines_of(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def covering_head(entries: list[Entry], seq: int) -> int:
    """The first signed head at or after entry ``seq``: where a change to it is caught."""
    return next(e.seq for e in entries if e.seq >= seq and e.sig is not None)


def opening_of(data: bytes) -> dict:
    """The signer a file's header names."""
    return json.loads(data.split(b"\n", 1)[0] + b"]}")["signer"]


def the_operators_key() -> Signer:
    """The service's own signing key (the test's key store): a forger who runs the server."""
    return Signer(KeyStore().private_key())


def rebuilt(entries: list[Entry], game: str, opening: dict, signer: Signer | None = None) -> bytes:
    """The file a forger would write after editing entries and rehashing the whole chain:
    without the service's key the old signatures stay where they were (and no longer match);
    with it (``signer``: the operator forging) every entry is signed again."""
    chained, prev = [], GENESIS
    for index, entry in enumerate(entries):
        again = make_entry(index, entry.type, entry.side, entry.body, prev)
        if signer is not None or entry.sig is not None:
            again = signed(again, signer.sign(again.hash) if signer else str(entry.sig))
        chained.append(again)
        prev = again.hash
    return export_text(game, chained, opening).encode()


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_an_untouched_export_verifies_and_recomputes_the_revealed_rolls(exported):
    report = verify(exported)
    assert report.ok, report.failure
    counts = report.to_json()
    assert counts["entries"] == 14 and counts["commands"] == 8
    assert (counts["rolls"], counts["rolls_recomputed"], counts["rolls_unrevealed"]) == (3, 2, 1)
    # Never a bare "ok": the roll of the unrevealed epoch is reported as unverified.
    assert (
        counts["verdict"] == "partly verified"
        and "1 rolls are UNVERIFIED" in (counts["explanation"])
    )
    assert [s["entries"] for s in counts["signers"]] == [14]
    assert counts["signers"][0]["fingerprint"] == opening_of(exported)["fingerprint"]
    json.loads(exported)  # the file is one JSON document


@pytest.mark.clause("SYS.record")
def test_changing_any_byte_fails_and_names_the_entry(exported):
    lines = lines_of(exported)
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    chooser = random.Random(4)
    positions = sorted({*chooser.sample(range(len(exported)), 400), 0, len(exported) - 1})
    for position in positions:
        changed = bytearray(exported)
        changed[position] = (changed[position] + chooser.randint(1, 255)) % 256
        report = verify(bytes(changed))
        assert not report.ok, position
        line = max(i for i, start in enumerate(starts) if start <= position)
        entry = line - 1 if 1 <= line <= len(lines) - 3 else None
        # A changed newline joins two lines: the first of them is named.
        assert report.failure.entry == entry or (exported[position] == 10 and entry is not None)


@pytest.mark.clause("SYS.record")
def test_reordering_two_entries_fails_at_the_first_moved_one(exported):
    game, entries = read_entries(exported)
    opening = opening_of(exported)
    order = [*entries[:3], entries[4], entries[3], *entries[5:]]
    swapped = export_text(game, order, opening).encode()
    report = verify(swapped)
    assert not report.ok and report.failure.entry == 3 and "out of order" in report.failure.problem
    # With every hash and seq rewritten, the first signed head after the moved entries fails,
    # and names the entries it covers...
    report = verify(rebuilt(order, game, opening))
    head = covering_head(order, 3)
    assert report.failure.entry == head and "signature" in report.failure.problem
    assert f"entries 1-{head - 1} it covers" in report.failure.problem
    # ...and even the operator, who can sign, is caught by the replay.
    report = verify(rebuilt(order, game, opening, the_operators_key()))
    assert not report.ok and report.failure.entry == 3


@pytest.mark.clause("SYS.dice")
def test_an_altered_die_fails_and_names_its_entry(exported):
    game, entries = read_entries(exported)
    shot = next(e for e in entries if e.rolls)
    body = json.loads(canonical(shot.body))
    body["rolls"][0]["faces"][0] = body["rolls"][0]["faces"][0] % 6 + 1
    edited = Entry(shot.seq, shot.type, shot.side, body, shot.prev, shot.hash, shot.sig)
    opening = opening_of(exported)
    changed = [edited if e.seq == shot.seq else e for e in entries]
    plain = export_text(game, changed, opening).encode()
    assert verify(plain).failure.entry == shot.seq  # its hash no longer matches
    failure = verify(rebuilt(changed, game, opening)).failure
    assert failure.entry == covering_head(entries, shot.seq) and "signature" in failure.problem
    failure = verify(rebuilt(changed, game, opening, the_operators_key())).failure
    assert failure.entry == shot.seq and "revealed seed gives" in failure.problem


@pytest.mark.clause("SYS.dice")
def test_an_altered_die_of_an_unrevealed_epoch_fails_the_replay(exported):
    game, entries = read_entries(exported)
    last = entries[-1]
    body = json.loads(canonical(last.body))
    body["rolls"][0]["faces"] = [6, 6] if body["rolls"][0]["faces"] != [6, 6] else [1, 1]
    forged = make_entry(last.seq, "command", last.side, body, last.prev)
    changed = [*entries[:-1], signed(forged, str(last.sig))]
    opening = opening_of(exported)
    # A player rehashing the chain is caught by the signature, the fault located...
    failure = verify(rebuilt(changed, game, opening)).failure
    assert failure.entry == last.seq and "signature" in failure.problem
    # ...and an operator who re-signs it by the replay (the depletion outcome follows the die).
    failure = verify(rebuilt(changed, game, opening, the_operators_key())).failure
    assert failure.entry == last.seq and "gives different" in failure.problem


def test_an_altered_event_or_an_illegal_undo_fails_the_replay(exported):
    game, entries = read_entries(exported)
    shot = next(e for e in entries if e.rolls)
    body = json.loads(canonical(shot.body))
    body["events"] = body["events"][:-1]
    opening, operator = opening_of(exported), the_operators_key()
    forged = rebuilt(
        [e if e.seq != shot.seq else make_entry(0, "command", e.side, body, "") for e in entries],
        game,
        opening,
        operator,
    )
    assert verify(forged).failure.entry == shot.seq
    undo_after_roll = make_entry(0, "undo", "german", {"undone": shot.seq}, "")
    forged = rebuilt([*entries[: shot.seq + 1], undo_after_roll], game, opening, operator)
    failure = verify(forged).failure
    assert failure.entry == shot.seq + 1 and "undo" in failure.problem


def test_a_file_that_is_not_a_log_fails_at_the_header():
    assert verify(b"hello\n").failure.entry is None
    assert verify(b"").failure.entry is None


@pytest.mark.clause("SYS.record")
def test_import_stores_a_verified_log_and_play_continues(exported, tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        made = service.import_log(exported)
        log = service.log(made.game)
        assert [e.to_json() for e in log[:-1]] == [e.to_json() for e in read_entries(exported)[1]]
        assert log[-1].type == "resume" and made.commitment == log[-1].body["commitment"]
        service.do(
            made.game, "russian", made.tokens["russian"], ["canister", "at45"]
        )  # never fired yet
        assert verify(service.export(made.game).encode()).ok
        # The copy here is ahead of the file (its resume entry and more): an older file.
        with pytest.raises(LogMismatch, match="older file"):
            service.import_log(exported)
        tampered = exported.replace(b'"mine"', b'"mind"')
        with pytest.raises(LogMismatch):
            service.import_log(tampered)
    finally:
        service.close()


@pytest.mark.clause("SYS.record")
def test_a_header_line_of_megabytes_is_refused_before_it_is_parsed():
    # 10 MB whose first line is one JSON array of five million values: refused by its length
    # (a header is about 250 bytes), never parsed into a list of that size.
    data = b"[" + b"1," * 5_000_000 + b"1]\n" + b'{"seq":0},\n]}\n'
    with pytest.raises(LogMismatch, match="first line is over 4 KiB"):
        read_entries(data)
    assert "over 4 KiB" in verify(data).to_json()["explanation"]
