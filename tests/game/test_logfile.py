"""Export, verify and import (SYS.record, SYS.dice): any changed byte, a reordering or an altered
die is caught and the entry named."""

from __future__ import annotations

import json
import random

import pytest

from ordnance.game.entries import GENESIS, Entry, canonical, make_entry
from ordnance.game.errors import LogMismatch
from ordnance.game.logfile import export_text, read_entries, verify
from ordnance.game.service import GameService


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


def rebuilt(entries: list[Entry], game: str) -> bytes:
    """The file a forger would write after editing entries and rehashing the whole chain."""
    chained, prev = [], GENESIS
    for index, entry in enumerate(entries):
        again = make_entry(index, entry.type, entry.side, entry.body, prev)
        chained.append(again)
        prev = again.hash
    return export_text(game, chained).encode()


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_an_untouched_export_verifies_and_recomputes_the_revealed_rolls(exported):
    report = verify(exported)
    assert report.ok, report.failure
    counts = report.to_json()
    assert counts["entries"] == 14 and counts["commands"] == 8
    assert (counts["rolls"], counts["rolls_recomputed"], counts["rolls_unrevealed"]) == (3, 2, 1)
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
    swapped = export_text(game, [*entries[:3], entries[4], entries[3], *entries[5:]]).encode()
    report = verify(swapped)
    assert not report.ok and report.failure.entry == 3 and "out of order" in report.failure.problem
    # Even with every hash and seq rewritten, the replay notices.
    forged = rebuilt([*entries[:3], entries[4], entries[3], *entries[5:]], game)
    report = verify(forged)
    assert not report.ok and report.failure.entry == 3


@pytest.mark.clause("SYS.dice")
def test_an_altered_die_fails_and_names_its_entry(exported):
    game, entries = read_entries(exported)
    shot = next(e for e in entries if e.rolls)
    body = json.loads(canonical(shot.body))
    body["rolls"][0]["faces"][0] = body["rolls"][0]["faces"][0] % 6 + 1
    edited = Entry(shot.seq, shot.type, shot.side, body, shot.prev, shot.hash)
    plain = export_text(game, [edited if e.seq == shot.seq else e for e in entries]).encode()
    assert verify(plain).failure.entry == shot.seq  # its hash no longer matches
    forged = rebuilt([edited if e.seq == shot.seq else e for e in entries], game)
    failure = verify(forged).failure
    assert failure.entry == shot.seq and "revealed seed gives" in failure.problem


@pytest.mark.clause("SYS.dice")
def test_an_altered_die_of_an_unrevealed_epoch_fails_the_replay(exported):
    game, entries = read_entries(exported)
    last = entries[-1]
    body = json.loads(canonical(last.body))
    body["rolls"][0]["faces"] = [6, 6] if body["rolls"][0]["faces"] != [6, 6] else [1, 1]
    forged = rebuilt(
        [*entries[:-1], make_entry(last.seq, "command", last.side, body, last.prev)], game
    )
    failure = verify(forged).failure
    assert failure.entry == last.seq and "gives different" in failure.problem


def test_an_altered_event_or_an_illegal_undo_fails_the_replay(exported):
    game, entries = read_entries(exported)
    shot = next(e for e in entries if e.rolls)
    body = json.loads(canonical(shot.body))
    body["events"] = body["events"][:-1]
    forged = rebuilt(
        [e if e.seq != shot.seq else make_entry(0, "command", e.side, body, "") for e in entries],
        game,
    )
    assert verify(forged).failure.entry == shot.seq
    undo_after_roll = make_entry(0, "undo", "german", {"undone": shot.seq}, "")
    forged = rebuilt([*entries[: shot.seq + 1], undo_after_roll], game)
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
        service.do(made.game, "russian", made.tokens["russian"], ["fire", "t34", "--ammo", "AP"])
        assert verify(service.export(made.game).encode()).ok
        with pytest.raises(Exception, match="already exists"):
            service.import_log(exported)
        tampered = exported.replace(b'"mine"', b'"mind"')
        with pytest.raises(LogMismatch):
            service.import_log(tampered)
    finally:
        service.close()
