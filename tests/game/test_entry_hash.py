"""make_entry hashes exactly the canonical JSON a verifier rebuilds (SYS.record)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.game.entries import GENESIS, TYPES, Entry, canonical, digest, make_entry

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
