"""Fair dice (SYS.dice): the derivation, the unbiased mapping, seeds never taken from a clock."""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.game import fairdice
from ordnance.game.fairdice import FairDice, commitment, faces

GAME_SOURCES = Path(fairdice.__file__).parent


@pytest.mark.clause("SYS.dice")
def test_a_roll_is_hmac_sha256_of_the_seeds_the_game_and_its_index():
    seed = bytes(range(32))
    seeds = {"german": "g", "russian": "r"}
    body = {"game": "abc", "epoch": 2, "seeds": seeds, "roll": 17}
    message = (
        b"ordnance-dice-v1\x00" + json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    )
    digest = hmac.new(seed, message + b"\x00" + (0).to_bytes(4, "big"), hashlib.sha256).digest()
    expected = tuple(b % 6 + 1 for b in digest if b < 252)[:2]
    assert faces(seed, "abc", 2, seeds, index=17, count=2) == expected


@pytest.mark.clause("SYS.dice")
def test_every_face_gets_exactly_42_of_the_accepted_byte_values():
    accepted = Counter(b % 6 + 1 for b in range(256) if b < fairdice._ACCEPT_BELOW)
    assert fairdice._ACCEPT_BELOW == 252 and set(accepted.values()) == {42}


@pytest.mark.clause("SYS.dice")
def test_bytes_from_252_up_are_skipped_and_the_stream_goes_on(monkeypatch):
    # A digest of bytes that are all rejected forces the next block: no face is ever forced.
    calls = []

    def fake_digest(key, message):
        calls.append(message[-4:])
        block = int.from_bytes(message[-4:], "big")
        return bytes([255] * 32) if block == 0 else bytes([5, 252, 6] + [0] * 29)

    monkeypatch.setattr(fairdice, "hmac_sha256", fake_digest)
    assert faces(b"k", "g", 0, {}, index=0, count=2) == (6, 1)
    assert calls == [(0).to_bytes(4, "big"), (1).to_bytes(4, "big")]


@pytest.mark.clause("SYS.dice")
def test_faces_are_uniform_over_many_rolls():
    seed = bytes(32)
    counts = Counter(
        face for k in range(3000) for face in faces(seed, "g", 0, {}, index=k, count=2)
    )
    expected = 6000 / 6
    chi_square = sum((n - expected) ** 2 / expected for n in counts.values())
    assert set(counts) == set(range(1, 7)) and chi_square < 20.5  # p ~ 0.001 at 5 dof


@pytest.mark.clause("SYS.dice")
def test_each_side_seed_changes_the_rolls():
    seed = bytes(range(32))
    plain = [faces(seed, "g", 0, {}, index=k, count=2) for k in range(8)]
    mixed = [faces(seed, "g", 0, {"german": "x"}, index=k, count=2) for k in range(8)]
    assert plain != mixed


@pytest.mark.clause("SYS.dice")
def test_the_server_seed_never_comes_from_the_clock(monkeypatch):
    frozen = 1_000_000.0
    monkeypatch.setattr(time, "time", lambda: frozen)
    monkeypatch.setattr(time, "time_ns", lambda: int(frozen * 1e9))
    monkeypatch.setattr(time, "monotonic", lambda: frozen)
    monkeypatch.setattr(time, "perf_counter", lambda: frozen)
    seeds = {fairdice.new_server_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(len(s) == 32 for s in seeds)


@pytest.mark.clause("SYS.dice")
def test_the_server_seed_comes_from_secrets(monkeypatch):
    monkeypatch.setattr(fairdice.secrets, "token_bytes", lambda n: b"\x07" * n)
    assert fairdice.new_server_seed() == b"\x07" * 32


def _imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
    return modules


@pytest.mark.clause("SYS.dice")
def test_no_game_module_uses_the_clock_or_random():
    # The one exception: the key store's heads note when each was kept (``game list``'s last
    # change), which no ruling, roll or check reads.
    stamps = {GAME_SOURCES / "heads.py": {"time"}}
    for path in GAME_SOURCES.rglob("*.py"):
        found = _imported_modules(path) & {"random", "time", "datetime"}
        assert not found - stamps.get(path, set()), path


@pytest.mark.clause("SYS.dice")
def test_fair_dice_record_index_purpose_faces_and_epoch():
    dice = FairDice(bytes(32), "g", 3, {}, start=10)
    first = dice.roll_dr("To Hit DR")
    die = dice.roll_die("a dr")
    assert [(r.index, r.purpose, r.kind, r.epoch) for r in dice.rolls] == [
        (10, "To Hit DR", "DR", 3),
        (11, "a dr", "dr", 3),
    ]
    assert dice.rolls[0].faces == (first.white, first.colored) and dice.rolls[1].faces == (
        die.value,
    )


def test_the_commitment_is_the_seeds_sha256():
    assert commitment(b"abc") == hashlib.sha256(b"abc").hexdigest()


@pytest.mark.clause("SYS.dice")
@given(
    st.fixed_dictionaries({
        "seed": st.binary(min_size=1, max_size=40),
        "game": st.text(min_size=1, max_size=12),
        "epoch": st.integers(0, 5),
        "seeds": st.dictionaries(st.sampled_from(["german", "russian", "ü"]), st.text(max_size=10)),
    }),
    st.one_of(st.none(), st.text(alphabet="0123456789abcdef", min_size=32, max_size=32)),
    st.one_of(st.none(), st.integers(0, 10**6)),
    st.integers(0, 10**5),
)  # fmt: skip
def test_a_commands_dice_roll_what_faces_derives(where, entropy, proposal, start):
    # FairDice makes the message around the roll's index once per command: every roll must be
    # the one faces() derives from the whole message (which verify recomputes).
    dice = FairDice(**where, start=start, entropy=entropy, proposal=proposal)
    rolled = [dice.roll_dr("a"), dice.roll_die("b"), dice.roll_dr("c")]
    derive = {"entropy": entropy, "proposal": proposal}
    assert [(rolled[0].white, rolled[0].colored), (rolled[2].white, rolled[2].colored)] == [
        faces(**where, index=start, count=2, **derive),
        faces(**where, index=start + 2, count=2, **derive),
    ]
    assert (rolled[1].value,) == faces(**where, index=start + 1, count=1, **derive)
