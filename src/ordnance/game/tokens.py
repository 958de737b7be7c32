"""Side tokens: a secret per side, shown once when the game is made, stored only as a keyed MAC.

Tokens are 32 random bytes (``secrets.token_urlsafe``). The database keeps
``HMAC-SHA256(key, game NUL side NUL SHA-256(token))`` where the key comes from the service's key
store (:mod:`.keystore`): a player who can write the database cannot put there the MAC of a
token of their own for the other side (they do not have the key), nor move their own side's
record to the other side (the side is in the MAC). Comparison is constant-time.

>>> token, key = new_token(), bytes(32)
>>> stored = token_mac(key, "g1", "german", token)
>>> matches(key, "g1", "german", token, stored), matches(key, "g1", "russian", token, stored)
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def mac_of_hash(key: bytes, game: str, side: str, hashed: str) -> str:
    """The stored MAC, from the token's SHA-256 (migration 0002 converts old rows with it)."""
    message = b"\x00".join(part.encode("utf-8") for part in (game, side, hashed))
    return hmac.digest(key, message, "sha256").hex()  # one call into OpenSSL


def token_mac(key: bytes, game: str, side: str, token: str) -> str:
    return mac_of_hash(key, game, side, token_hash(token))


def matches(key: bytes, game: str, side: str, token: str, stored: str | None) -> bool:
    """Whether ``token`` is the one whose MAC is ``stored`` (False when none is stored)."""
    if stored is None:
        return False
    return hmac.compare_digest(token_mac(key, game, side, token), stored)
