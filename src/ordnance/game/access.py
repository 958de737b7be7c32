"""Who may act in a game: the sides' tokens, checked on every write (SYS.record).

A side acts with its token (:mod:`.tokens`: the database keeps only a keyed MAC of it). In a
game by e-mail a copy acts only for the side whose key is its own, whatever tokens it holds. A
write decided on a version the caller saw refuses to go on once the game has moved past it.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ordnance.game.errors import NotAuthorized, StaleState
from ordnance.game.fold import Game
from ordnance.game.keystore import KeyStore
from ordnance.game.tokens import mac_of_hash, new_token, token_hash, token_mac

if TYPE_CHECKING:
    from ordnance.game.storage import Store


class Access:
    """The token check of one service (its database ``store``, its key store ``keys``)."""

    def __init__(self, store: Store, keys: KeyStore) -> None:
        self.store = store
        self.keys = keys
        # Token MACs never change once stored: read each once.
        self._token_macs: dict[tuple[str, str], str | None] = {}
        # The SHA-256 of the token last found to match each MAC: the same token again is
        # checked against it (constant-time) without a second HMAC.
        self._token_seen: dict[tuple[str, str], str] = {}

    def new_tokens(
        self, game_id: str, sides: Iterable[str]
    ) -> tuple[dict[str, str], dict[str, str]]:
        """Fresh tokens for ``sides`` (shown once), and the MACs the database keeps of them."""
        tokens = {side: new_token() for side in sides}
        return tokens, self.macs(game_id, tokens)

    def macs(self, game_id: str, tokens: Mapping[str, str]) -> dict[str, str]:
        key = self.keys.token_key()
        return {side: token_mac(key, game_id, side, t) for side, t in tokens.items()}

    def check(
        self,
        game: Game,
        side: str,
        token: str,
        expect_version: int | None,
        *,
        own_key: str,
    ) -> None:
        """Refuse unless ``token`` is ``side``'s in ``game`` (NotAuthorized), ``side`` is the
        one this copy plays in a game by e-mail (its key ``own_key``), and the game is still
        at ``expect_version`` when one is given (StaleState)."""
        game.check_side(side)
        key = (game.id, side)
        hashed = token_hash(token)
        known = self._token_seen.get(key)
        if known is None or not hmac.compare_digest(hashed, known):
            if key not in self._token_macs:
                self._token_macs[key] = self.store.token_hash(game.id, side)
            stored = self._token_macs[key]
            if stored is None or not hmac.compare_digest(
                mac_of_hash(self.keys.token_key(), game.id, side, hashed), stored
            ):
                raise NotAuthorized(game.id, side)
            self._token_seen[key] = hashed
        if game.by_email and game.side_keys.get(side) != own_key:
            raise NotAuthorized(game.id, side)
        if expect_version is not None and expect_version != game.version:
            raise StaleState(game.id, expect_version, game.version)
