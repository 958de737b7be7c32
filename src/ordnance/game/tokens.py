"""Side tokens: a secret per side, shown once when the game is made, stored only as a hash.

Tokens are 32 random bytes (``secrets.token_urlsafe``); with that much entropy a plain SHA-256
is enough to store them (nothing to brute-force), and comparison is constant-time.

>>> token = new_token()
>>> matches(token, token_hash(token)), matches("guess", token_hash(token))
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


def matches(token: str, stored: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored`` (False when none is stored)."""
    if stored is None:
        return False
    return hmac.compare_digest(token_hash(token), stored)
