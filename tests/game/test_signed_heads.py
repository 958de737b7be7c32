"""Signed heads and entry MACs (SYS.record): the service MACs every entry it stores and signs
heads with Ed25519; an exported log verifies only when every entry is covered by a signed head
of its writer, and logs signed entry by entry (format version 2) still verify."""

from __future__ import annotations

import json

import pytest
from tests.game.conftest import scenario

from ordnance.core.errors import BadInput
from ordnance.game.dberrors import StorageError
from ordnance.game.entries import Entry, entry_mac, make_entry, signed
from ordnance.game.errors import LogMismatch
from ordnance.game.keystore import KeyStore
from ordnance.game.logfile import export_text, read_entries, verify
from ordnance.game.service import GameService, NewGame
from ordnance.game.signing import Signer, head_interval


def opening_of(data: bytes) -> dict:
    return json.loads(data.split(b"\n", 1)[0] + b"]}")["signer"]


def plain(entry: Entry) -> Entry:
    """The entry without its signature (as stored between signed heads)."""
    return Entry(entry.seq, entry.type, entry.side, entry.body, entry.prev, entry.hash)


def phases(service: GameService, made: NewGame, count: int) -> None:
    """``count`` entries: each phase ended by the side that owns it."""
    for _ in range(count):
        side = service.status(made.game)["to_move"]
        service.do(made.game, side, made.tokens[side], ["phase", "next"])


@pytest.fixture
def service(sqlite_url):
    made = GameService(sqlite_url, sign_every=4, snapshot_every=0)
    yield made
    made.close()


@pytest.mark.clause("SYS.record")
def test_every_stored_entry_has_a_mac_and_heads_are_signed_every_k(service):
    made = service.create(scenario("physical"))
    phases(service, made, 9)
    log = service.log(made.game)
    key = service.keys.entry_key()
    assert all(e.mac == entry_mac(key, e.hash) for e in log)
    # The start (it declares the key), then every 4th entry: versions 4 and 8 end at seqs 3, 7.
    assert [e.seq for e in log if e.sig is not None] == [0, 3, 7]
    # An export hands out the head: it is signed then, and the signature is kept.
    data = service.export(made.game).encode()
    assert [e.seq for e in service.log(made.game) if e.sig is not None] == [0, 3, 7, 9]
    report = verify(data)
    assert report.ok, report.failure
    assert report.to_json()["signed_heads"] == 4
    assert "covered by 4 signed heads" in report.to_json()["explanation"]
    # The MAC is the service's own business: it never leaves in a file.
    assert b'"mac"' not in data


@pytest.mark.clause("SYS.record")
def test_a_signed_head_covers_the_entries_before_it(service):
    made = service.create(scenario("physical"))
    phases(service, made, 9)
    data = service.export(made.game).encode()
    game, entries = read_entries(data)
    opening = opening_of(data)
    # Signatures of the heads between removed: the last head still covers everything.
    only_ends = [e if e.seq in (0, 9) else plain(e) for e in entries]
    assert verify(export_text(game, only_ends, opening).encode()).ok
    # The last head's signature removed: its entries are an unsigned tail, named from the first.
    no_end = [*entries[:-1], plain(entries[-1])]
    failure = verify(export_text(game, no_end, opening).encode()).failure
    assert failure.entry == 8 and "not covered by a signature" in failure.problem
    # A head signature moved onto another entry is not that entry's.
    moved = [*entries[:-2], signed(entries[-2], str(entries[-1].sig)), plain(entries[-1])]
    failure = verify(export_text(game, moved, opening).encode()).failure
    assert failure.entry == 8 and "its signature is not the service's" in failure.problem


@pytest.mark.clause("SYS.record")
def test_an_unsigned_tail_is_refused_by_verify_and_import(service, tmp_path):
    made = service.create(scenario("physical"))
    phases(service, made, 2)
    data = service.export(made.game).encode()
    game, entries = read_entries(data)
    # A player appends commands of his own making, chained right, with no key to sign them.
    tail, prev = [], entries[-1].hash
    for seq in range(len(entries), len(entries) + 2):
        body = {"command": {"side": "german", "verb": "phase", "args": {}, "text": "phase next"},
                "rolls": [], "events": [], "ruling": {}}  # fmt: skip
        tail.append(make_entry(seq, "command", "german", body, prev))
        prev = tail[-1].hash
    longer = export_text(game, [*entries, *tail], opening_of(data)).encode()
    failure = verify(longer).failure
    assert failure.entry == len(entries) and "not covered by a signature" in failure.problem
    with pytest.raises(LogMismatch, match=f"entry {len(entries)}: it is not covered"):
        service.import_log(longer)
    other = GameService(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        with pytest.raises(LogMismatch, match=f"entry {len(entries)}: it is not covered"):
            other.import_log(longer)
        assert not other.store.has_game(game)
    finally:
        other.close()


@pytest.mark.clause("SYS.record")
def test_an_export_signed_entry_by_entry_still_verifies_and_imports(service, tmp_path):
    """Format version 2, as written before heads were signed: a signature on every entry."""
    made = service.create(scenario("physical"))
    phases(service, made, 3)
    data = service.export(made.game).encode()
    game, entries = read_entries(data)
    operator = Signer(KeyStore().private_key())
    every = [e if e.sig else signed(e, operator.sign(e.hash)) for e in entries]
    old = export_text(game, every, opening_of(data)).replace('"version":3', '"version":2', 1)
    report = verify(old.encode())
    assert report.ok, report.failure
    assert report.to_json()["signed_heads"] == len(entries)
    other = GameService(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        imported = other.import_log(old.encode())
        assert [e.hash for e in other.log(imported.game)] == [e.hash for e in entries]
        assert verify(other.export(imported.game).encode()).ok
    finally:
        other.close()
    # Any other version is refused at the header.
    failure = verify(old.replace('"version":2', '"version":1', 1).encode()).failure
    assert failure.entry is None and "versions 2-3" in failure.problem


@pytest.mark.clause("SYS.record")
def test_a_game_ending_or_revealing_its_seed_signs_its_head(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    german, russian = made.tokens["german"], made.tokens["russian"]
    service.do(made.game, "german", german, ["phase", "next"])
    service.consent(made.game, "german", german)
    service.consent(made.game, "russian", russian)
    log = service.log(made.game)
    assert log[-1].type == "reveal" and log[-1].sig is not None
    assert log[1].sig is None  # an ordinary command between signed heads


@pytest.mark.clause("SYS.record")
def test_the_head_interval_is_a_setting(monkeypatch):
    assert head_interval() == 100
    monkeypatch.setenv("ORDNANCE_SIGN_EVERY", "7")
    assert head_interval() == 7
    monkeypatch.setenv("ORDNANCE_SIGN_EVERY", "often")
    with pytest.raises(BadInput, match="ORDNANCE_SIGN_EVERY"):
        head_interval()
    with pytest.raises(BadInput, match="1 entry or more"):
        head_interval(0)


@pytest.mark.clause("SYS.record")
def test_an_export_is_signed_even_when_its_signature_cannot_be_kept(service, monkeypatch):
    made = service.create(scenario("physical"))
    phases(service, made, 2)

    def refused(*_: object) -> None:
        raise StorageError("sqlite:///games.db", "attempt to write a readonly database")

    monkeypatch.setattr(service.store, "add_signature", refused)
    assert verify(service.export(made.game).encode()).ok
    assert service.log(made.game)[-1].sig is None  # not kept: the next export signs it again
