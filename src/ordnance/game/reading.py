"""A stored game read back: folded from what this process already holds, from a snapshot, or
from its first entry, with every entry it reads checked before it is believed.

The service (:mod:`.service`) keeps the fold this returns and tells the pages its new entries;
this module decides only what to read and whether the database may be trusted with it:

- an entry's hash, its place in the chain and its writer's MAC or signature
  (:meth:`.Custody.check_stored`): one that fails is refused (LogMismatch naming its seq),
  whatever wrote it there;
- a log that stops before the head the key store keeps for the game, or forks from it, is
  refused (RolledBack, :mod:`.heads`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ordnance.game import snapshots
from ordnance.game.custody import Custody
from ordnance.game.entries import Entry
from ordnance.game.errors import LogMismatch
from ordnance.game.fold import Game, apply_entry
from ordnance.game.heads import check_log
from ordnance.game.keystore import KeyStore

if TYPE_CHECKING:  # SQLAlchemy's: a game command on a SQLite file reads without it
    from ordnance.game.storage import Store


@dataclass(frozen=True)
class Read:
    """A stored game folded to its stored version: ``game``, the entries this read folded
    (``new``), and the version it folded from (``base``: a snapshot's or the first entry's,
    or the stored version itself when the fold held was current or only extended)."""

    game: Game
    new: list[Entry]
    base: int


def read_stored(
    store: Store, keys: KeyStore, custody: Custody, held: Game | None, game_id: str
) -> Read:
    """Game ``game_id`` as stored, starting from ``held`` (this process's fold of it, or None)
    where the stored log extends it, else from this service's newest snapshot that matches the
    chain, else from its first entry."""
    # The kept head is read before the version: a head is kept only once its entry is
    # committed, so a version read after it reaches it unless entries were deleted.
    kept = keys.head(game_id)
    version, tip = store.tip(game_id)
    log: list[Entry] | None = None
    if held is not None and held.version == version:
        # The same number of entries is the same log only if its last entry is the same.
        log = [] if held.head == tip else None
    elif held is not None and held.version < version:
        log = store.entries(game_id, held.version)
        if log and log[0].prev != held.head:
            log = None  # the stored log does not extend the one folded here
    if held is not None and log is not None:
        game, base = held, version  # a game this process holds folded needs no snapshot
    else:
        found = snapshots.load(store, game_id, version, custody.start, custody.signer)
        if found is None:
            log = store.entries(game_id)
            if not log:
                # Every entry deleted, the start included: a rollback if a head is kept.
                check_log(game_id, kept, 0, lambda seq: "", "the database")
                raise LogMismatch(0, "the game has no entries in the database")
            game, log = custody.start(log[0]), log[1:]
        else:
            game, log = found
        base = game.version
    for entry in log:
        custody.check_stored(game, entry)
        game = apply_entry(game, entry)
    custody.check_head(game, kept, log)
    return Read(game, log, base)
