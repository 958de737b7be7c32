"""The keyed HMAC the entry MACs and the fair dice use is HMAC-SHA256 itself (SYS.record,
SYS.dice)."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.game.entries import entry_mac
from ordnance.game.keyed import hmac_sha256


@pytest.mark.clause("SYS.record", "SYS.dice")
@given(st.binary(max_size=200), st.binary(max_size=300))
def test_it_is_the_standard_libraries_hmac_sha256(key, message):
    # Keys shorter than, equal to and longer than SHA-256's 64-byte block all appear here.
    assert hmac_sha256(key, message) == hmac.new(key, message, hashlib.sha256).digest()


@pytest.mark.clause("SYS.record", "SYS.dice")
@pytest.mark.parametrize("length", [0, 1, 32, 63, 64, 65, 128])
def test_keys_at_the_block_edges(length):
    key = bytes(range(length % 256)) if length < 256 else bytes(length)
    for message in (b"", b"x", bytes(64), bytes(1000)):
        assert hmac_sha256(key, message) == hmac.digest(key, message, "sha256")


@pytest.mark.clause("SYS.record")
def test_a_mac_does_not_change_the_keys_begun_hashes():
    # Each MAC works on copies: the same MAC comes out however many were made before it.
    key = bytes(32)
    first = entry_mac(key, "ab" * 32)
    for other in ("cd" * 32, "ef" * 32):
        entry_mac(key, other)
    assert (
        entry_mac(key, "ab" * 32)
        == first
        == hmac.new(key, b"ordnance-entry-mac-v1\x00" + b"ab" * 32, "sha256").hexdigest()
    )
