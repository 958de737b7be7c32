"""Ed25519 signatures on log entries (SYS.record).

Every entry's hash (which covers its content and, through ``prev``, every entry before it) is
signed by the key of whoever wrote it: the game service, or in a game played by e-mail the side's
own client. A signature is over ``"ordnance-entry-v1" NUL <hash, hex>``; a key is known by its
fingerprint, the first 32 hex digits of the SHA-256 of its 32 raw public bytes.

>>> signer = Signer(bytes(32))
>>> signature = signer.sign("ab" * 32)
>>> valid(signer.public_key, "ab" * 32, signature), valid(signer.public_key, "cd" * 32, signature)
(True, False)
>>> fingerprint(signer.public_key) == signer.fingerprint, len(signer.fingerprint)
(True, 32)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

_DOMAIN = b"ordnance-entry-v1\x00"
_LOWER_HEX = re.compile(r"[0-9a-f]*")
_PUBLIC_BYTES = 32
_SIGNATURE_BYTES = 64


def fingerprint(public_key: str) -> str:
    """The short name of a public key (hex): SHA-256 of its raw bytes, first 128 bits."""
    return hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[:32]


class Signer:
    """Signs entry hashes with one private key (32 raw bytes)."""

    def __init__(self, private_key: bytes) -> None:
        self._key = Ed25519PrivateKey.from_private_bytes(private_key)
        self.public_key = self._key.public_key().public_bytes_raw().hex()
        self.fingerprint = fingerprint(self.public_key)

    def sign(self, entry_hash: str) -> str:
        return self._key.sign(_DOMAIN + entry_hash.encode("ascii")).hex()

    def declaration(self) -> dict[str, Any]:
        """How a log names this key: ``{"public_key", "fingerprint"}``."""
        return {"public_key": self.public_key, "fingerprint": self.fingerprint}


def valid(public_key: str, entry_hash: str, signature: str | None) -> bool:
    """Whether ``signature`` is ``public_key``'s signature of ``entry_hash``."""
    if signature is None or not (
        _LOWER_HEX.fullmatch(public_key) and _LOWER_HEX.fullmatch(signature)
    ):
        # One spelling only: an upper-case copy of a signature must not pass as the same one.
        return False
    try:
        raw_key, raw_signature = bytes.fromhex(public_key), bytes.fromhex(signature)
    except ValueError:
        return False
    if len(raw_key) != _PUBLIC_BYTES or len(raw_signature) != _SIGNATURE_BYTES:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(raw_key).verify(
            raw_signature, _DOMAIN + entry_hash.encode("ascii")
        )
    except (InvalidSignature, ValueError):
        return False
    return True


def declared_key(body: Any) -> str:
    """The public key a ``start``/``resume``/``join`` body declares (``signer.public_key``),
    checked against the fingerprint beside it; ValueError when missing or inconsistent."""
    signer = body.get("signer") if isinstance(body, Mapping) else None
    if not isinstance(signer, Mapping):
        raise ValueError("it names no signing key")
    public_key, named = signer.get("public_key"), signer.get("fingerprint")
    if (
        not isinstance(public_key, str)
        or len(public_key) != 2 * _PUBLIC_BYTES
        or not _LOWER_HEX.fullmatch(public_key)
    ):
        raise ValueError("its signing key is not 32 bytes of lower-case hex")
    try:
        printed = fingerprint(public_key)
    except ValueError:
        raise ValueError("its signing key is not hex") from None
    if printed != named:
        raise ValueError("its signing key does not match the fingerprint beside it")
    return public_key
