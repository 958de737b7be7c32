"""HMAC-SHA256 with a key used again and again: the entry MACs and the fair dice.

HMAC (RFC 2104) hashes the message after the key XOR one pad, then that digest after the key
XOR another pad. With the same key for every entry of a game (the key store's entry key) or
every roll of an epoch (the server seed), both padded keys are hashed once here and each MAC
copies the two begun hashes: about 0.7 us against 1.1 us for a copy of :mod:`hmac`'s own
object and 1.7 us for :func:`hmac.digest` (this machine, 150-byte messages). The value is
HMAC-SHA256's own (``tests/game/test_keyed.py`` checks it against :mod:`hmac`).

>>> import hmac
>>> key = bytes(range(32))
>>> hmac_sha256(key, b"roll 1") == hmac.digest(key, b"roll 1", "sha256")
True
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

_BLOCK = 64  # SHA-256's block size in bytes
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 of ``message`` under ``key`` (the key's padded hashes begun once per key)."""
    inner, outer = _begun(key)
    inside = inner.copy()
    inside.update(message)
    mac = outer.copy()
    mac.update(inside.digest())
    return mac.digest()


@lru_cache(maxsize=16)
def _begun(key: bytes) -> tuple[hashlib._Hash, hashlib._Hash]:
    """SHA-256 begun on the key XOR each pad (a key longer than a block is hashed first)."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    padded = key.ljust(_BLOCK, b"\x00")
    return hashlib.sha256(padded.translate(_INNER)), hashlib.sha256(padded.translate(_OUTER))
