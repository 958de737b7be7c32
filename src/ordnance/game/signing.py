"""Ed25519 signatures on the heads of a game log (SYS.record).

An entry's hash covers its content and, through ``prev``, every entry before it. So a signature
of entry N's hash (a *signed head*, as Certificate Transparency signs its tree heads) vouches
for entry N and for every earlier entry written by the same key. The writer is the game
service, or in a game played by e-mail the side's own client (:func:`.fold.signing_key`). A
signature is over ``"ordnance-entry-v1" NUL <hash, hex>``; a key is known by its fingerprint,
the first 32 hex digits of the SHA-256 of its 32 raw public bytes.

A log is whole when every entry is *covered*: a head at or after it carries a valid signature
of the entry's own writer (:class:`Coverage`). Which heads the service signs, and how often
(:func:`head_interval`), is written in :mod:`.service`; logs written before heads were signed
carry a signature on every entry, so each entry covers itself.

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

from ordnance.game.errors import LogMismatch
from ordnance.game.intervals import entry_interval

_DOMAIN = b"ordnance-entry-v1\x00"
_LOWER_HEX = re.compile(r"[0-9a-f]*")
_PUBLIC_BYTES = 32
_SIGNATURE_BYTES = 64
DEFAULT_HEAD_INTERVAL = 100
HEAD_ENVIRONMENT = "ORDNANCE_SIGN_EVERY"


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


def head_interval(given: int | None = None) -> int:
    """K: the service signs the head at least every K entries (``given``, else
    ``$ORDNANCE_SIGN_EVERY``, else :data:`DEFAULT_HEAD_INTERVAL`; at least 1).

    >>> head_interval(50), head_interval(1)
    (50, 1)
    """
    return entry_interval(
        given, HEAD_ENVIRONMENT, DEFAULT_HEAD_INTERVAL, least=1, what="head signature interval"
    )


class Coverage:
    """Checks, entry by entry, that every entry of a log is covered by a signed head.

    Fed every entry in order with the key of its writer (:meth:`add`), it refuses a signature
    that is not that key's (naming the entries it was to cover), and at the end (:meth:`finish`)
    an entry that no later head of its writer's key signed (an unsigned tail).

    >>> signer, other = Signer(bytes(32)), Signer(bytes(range(32)))
    >>> coverage = Coverage()
    >>> coverage.add(0, signer.public_key, "ab" * 32, None)
    >>> coverage.add(1, signer.public_key, "cd" * 32, signer.sign("cd" * 32)); coverage.finish()
    >>> coverage.add(2, other.public_key, "ef" * 32, None)
    >>> coverage.finish()
    Traceback (most recent call last):
    ...
    ordnance.game.errors.LogMismatch: log does not verify at entry 2: it is not covered by a ...
    """

    def __init__(self) -> None:
        # key -> the first entry of that key that no signed head covers yet
        self.waiting: dict[str, int] = {}

    def add(
        self, seq: int, key: str, entry_hash: str, sig: str | None, writer: str = "service"
    ) -> None:
        if sig is None:
            self.waiting.setdefault(key, seq)
            return
        first = self.waiting.get(key, seq)
        if not valid(key, entry_hash, sig):
            covered = (
                "it was changed" if first == seq
                else f"it, or one of entries {first}-{seq - 1} it covers, was changed"
            )  # fmt: skip
            raise LogMismatch(
                seq,
                f"its signature is not the {writer}'s (key {fingerprint(key)}): {covered},"
                " or written by someone else",
            )
        self.waiting.pop(key, None)

    def finish(self) -> None:
        """Refuse the log if an entry is left that no signed head of its writer covers."""
        if self.waiting:
            key, seq = min(self.waiting.items(), key=lambda item: item[1])
            raise LogMismatch(
                seq,
                "it is not covered by a signature: no head from here on is signed by its"
                f" writer's key ({fingerprint(key)}); an unsigned tail was added, or its"
                " signature removed",
            )
