"""make_entry hashes exactly the canonical JSON a verifier rebuilds (SYS.record)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.game.entries import (
    GENESIS,
    TYPES,
    Entry,
    body_text,
    canonical,
    digest,
    make_entry,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)


@pytest.mark.clause("SYS.record")
@given(
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from(TYPES),
    st.none() | st.text(max_size=8),
    st.dictionaries(st.text(max_size=6), json_values, max_size=5),
    st.just(GENESIS) | st.text(max_size=8),
)
def test_the_hash_is_the_digest_of_the_content(seq, kind, side, body, prev):
    # The hash is spelled out around the body's text: any text of side, type and prev
    # (quotes, backslashes, control and non-ASCII characters) must give canonical()'s bytes.
    entry = make_entry(seq, kind, side, body, prev)
    assert entry.hash == digest(entry.content())
    assert Entry.from_json(entry.to_json()).check_hash()
    # As read from a database: the hash checked over the body's stored text.
    assert entry.body_text is not None and entry.check_hash()


@pytest.mark.clause("SYS.record")
def test_a_stored_body_text_that_is_not_canonical_fails_the_hash():
    entry = make_entry(1, "seed", "german", {"seed": "x", "epoch": 0}, GENESIS)
    spaced = Entry(entry.seq, entry.type, entry.side, entry.body, entry.prev, entry.hash,
                   body_text='{"epoch": 0, "seed": "x"}')  # fmt: skip
    assert not spaced.check_hash()
    assert Entry(entry.seq, entry.type, entry.side, entry.body, entry.prev, entry.hash,
                 body_text=entry.body_text).check_hash()  # fmt: skip


@pytest.mark.clause("SYS.record")
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=12,
    )
)
def test_the_canonical_text_stays_the_one_stored_logs_were_hashed_with(value):
    # Every stored and exported entry was hashed over json.dumps with these options: any faster
    # encoder must give the same bytes (floats included), or old logs would stop verifying.
    assert canonical(value) == json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


# Every kind of value a body could hold, NaN and the infinities aside (no ruleset writes one):
# integers past 64 bits, floats of every size, keys that are not text, tuples, text with
# control, non-ASCII and astral characters.
finite_bodies = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.floats(min_value=1e-7, max_value=1e-3)
    | st.floats(min_value=1e14, max_value=1e18)
    | st.text(max_size=8)
    | st.sampled_from(["one-shot", "3e-5", "0.00001", "e+", "\u2028", "\x7f", "\x00"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5), inner)
        | st.dictionaries(st.integers(-3, 3), inner, max_size=2)
    ),
    max_leaves=12,
)


@pytest.mark.clause("SYS.record")
@given(st.dictionaries(st.text(max_size=6), finite_bodies, max_size=5))
def test_a_command_body_is_written_as_canonical_writes_it(body):
    # make_entry writes a command's body with orjson where it gives the same bytes, and with
    # canonical() where it would not: the text (so the hash) is the same either way.
    assert body_text(body) == canonical(body)
    made = make_entry(2, "command", "german", body, GENESIS, as_given=True)
    assert made.body_text == canonical(body)
    assert made.hash == make_entry(2, "command", "german", body, GENESIS).hash


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize(
    "value",
    [1e-05, 1.5e-07, 0.0001, 9.99e-05, 1e16, 1.5e17, 123456789012345678.0, -0.0, 5e-324, 2**64],
)
def test_the_floats_orjson_writes_otherwise_are_written_by_canonical(value):
    body = {"x": [value], "y": {"z": value}}
    assert body_text(body) == canonical(body) == json.dumps(body, sort_keys=True,
                                                             separators=(",", ":"))  # fmt: skip
