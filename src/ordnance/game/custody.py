"""What a service vouches for: the entries it writes, the seeds it keeps, the heads it signs
and keeps (SYS.record, SYS.dice).

Every entry the service writes carries its MAC (the key store's entry key), and every entry it
reads back is believed only once its hash, its MAC and any signature hold. The fair dice's
server seeds stay in the key store until their reveal, which makes them public; the service
signs the heads a reader without the MAC key needs (see :meth:`Custody.heads`), and keeps the
newest head of each game outside the database (:mod:`.heads`), so a log cut short is refused.
"""

from __future__ import annotations

import contextlib
import hmac
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ordnance.core.errors import IllegalAction, OrdnanceError
from ordnance.game import fold, snapshots
from ordnance.game.dberrors import StorageError
from ordnance.game.entries import Entry, entry_mac, make_entry, signed, with_mac
from ordnance.game.errors import LogMismatch
from ordnance.game.fairdice import (
    FairDice,
    PhysicalDice,
    check_entropy,
    commitment,
    new_server_seed,
    parse_entered,
)
from ordnance.game.fold import Game
from ordnance.game.heads import Head, check_log
from ordnance.game.keystore import KeyStore, KeyStoreError
from ordnance.game.signing import Signer, fingerprint

if TYPE_CHECKING:
    from ordnance.game.storage import Store


class Custody:
    """The seeds, keys and heads of one service (its database ``store``, key store ``keys``)."""

    def __init__(self, store: Store, keys: KeyStore) -> None:
        self.store = store
        self.keys = keys
        self._signer: Signer | None = None
        # The server seed of the epoch last rolled in, by its commitment (see server_seed).
        self._seeds: dict[str, bytes] = {}

    @property
    def signer(self) -> Signer:
        """The service's signing key (made in the key store on first use)."""
        if self._signer is None:
            self._signer = Signer(self.keys.private_key())
        return self._signer

    # --- writing entries --------------------------------------------------------------------

    def entry(
        self,
        seq: int,
        kind: str,
        side: str | None,
        body: Mapping[str, Any],
        prev: str,
        *,
        sign: bool = False,
        as_given: bool = False,
    ) -> Entry:
        """A new entry written by this service: MACed, and with ``sign`` a signed head (the
        entries that declare a key, and a reveal, always are; :meth:`heads` signs the others
        that need it). ``as_given``: see :func:`~ordnance.game.entries.make_entry`."""
        key = self.keys.entry_key()
        entry = make_entry(seq, kind, side, body, prev, mac_key=key, as_given=as_given)
        return signed(entry, self.signer.sign(entry.hash)) if sign else entry

    def heads(self, game: Game, new: list[Entry], after: Game, sign_every: int) -> list[Entry]:
        """``new`` with the heads signed that this service signs as it writes.

        Besides the entries that always are (start, resume, join, reveal): the last new entry
        when the append passes a multiple of the head interval ``sign_every``, and when the
        scenario is over. In a game by e-mail every entry its side writes (they are few, and
        each leaves in a file).
        """
        last = new[-1]
        if game.by_email:
            return [e if e.sig is not None else signed(e, self.signer.sign(e.hash)) for e in new]
        if last.sig is not None:
            return new
        if not (
            snapshots.due(game.version, after.version, sign_every)
            or after.rules.is_over(after.state)
        ):
            return new
        return [*new[:-1], signed(last, self.signer.sign(last.hash))]

    def macked(self, log: Sequence[Entry]) -> list[Entry]:
        """Entries taken from a verified file, with this service's MAC (kept as they are
        otherwise: their writers' signatures go on with them)."""
        key = self.keys.entry_key()
        return [e if e.mac is not None else with_mac(e, key) for e in log]

    def opening(self, first: Entry) -> dict[str, str]:
        """The key the log opens with, as an export's header names it: the one its start
        entry declares, or for a game started before signing this service's own."""
        signer = first.body.get("signer")
        public = str(signer["public_key"]) if signer else self.signer.public_key
        return {"public_key": public, "fingerprint": fingerprint(public)}

    # --- fair dice seeds --------------------------------------------------------------------

    def server_seed(self, game: Game) -> bytes:
        """The secret seed of ``game``'s running epoch, from the key store."""
        name = game.dice.commitments[game.dice.epoch]
        # A commitment names one seed for good: read the key store's file once per epoch.
        seed = self._seeds.get(name)
        if seed is None:
            seed = self.keys.seed(name)
            if seed is not None:
                self._seeds = {name: seed}  # only the running epoch's
        if seed is None:
            raise OrdnanceError(
                f"game {game.id}: the key store {self.keys.path} does not hold the server seed"
                f" of epoch {game.dice.epoch} (commitment {name[:16]}...); act through the"
                " service that made the game"
            )
        return seed

    def dice(
        self, game: Game, entered: Sequence[str], entropy: str | None
    ) -> FairDice | PhysicalDice:
        """The dice of a command in a fair or a physical game: the server seed with the acting
        client's ``entropy``, or the dice the side ``entered`` (``--dice``)."""
        # The caller is the acting side's client: with none given, this process is that client
        # (and draws it when the command first rolls).
        if entropy is not None:
            entropy = check_entropy(entropy)
        if game.dice.mode == "fair":
            if entered:
                raise IllegalAction(
                    "SYS.dice",
                    "this game rolls fair dice; --dice is for scenarios with 'dice: physical'",
                )
            return FairDice(
                self.server_seed(game),
                game.id,
                game.dice.epoch,
                game.dice.seeds,
                game.dice.next_roll,
                entropy=entropy,
                draw_entropy=entropy is None,
            )
        return PhysicalDice([parse_entered(t) for t in entered], game.dice.next_roll)

    def resume(self, game: Game) -> Entry | None:
        """The signed ``resume`` entry of a game imported from elsewhere: a fair game goes on
        in a new seed epoch (the exporting server keeps its seed), and a game another service
        wrote names this one's key; None for this service's own game of other dice."""
        if game.dice.mode == "fair":
            body = {
                "epoch": game.dice.epoch + 1,
                "commitment": self.keys.put_seed(new_server_seed()),
                "reason": "imported",
                "signer": self.signer.declaration(),
            }
        else:
            body = {"reason": "imported", "signer": self.signer.declaration()}
        if game.dice.mode == "fair" or game.custodian != self.signer.public_key:
            return self.entry(game.version, "resume", None, body, game.head, sign=True)
        return None

    def reveal(self, game: Game) -> Entry:
        """The signed entry that reveals the running epoch's seed and commits to the next."""
        body = {
            "epoch": game.dice.epoch,
            "seed": self.server_seed(game).hex(),
            "next_commitment": self.keys.put_seed(new_server_seed()),
        }
        return self.entry(game.version, "reveal", None, body, game.head, sign=True)

    def forget_revealed(self, new: Sequence[Entry]) -> None:
        """Drop from the key store the seeds that ``new`` (committed) revealed: public now."""
        for entry in new:
            if entry.type == "reveal":
                self.keys.forget_seed(commitment(bytes.fromhex(str(entry.body["seed"]))))

    # --- reading entries and keeping heads ----------------------------------------------------

    def start(self, entry: Entry) -> Game:
        """The game a stored ``start`` entry opens, once this service believes the entry."""
        # A game started before signing (migration 0002 signed it with this service's key).
        legacy = None if "signer" in entry.body else self.signer.public_key
        self.check_stored(None, entry, legacy)
        return fold.start(entry, legacy)

    def check_stored(self, game: Game | None, entry: Entry, legacy: str | None = None) -> None:
        """Believe an entry read from the database only if this service wrote it there.

        Its hash must match its content, and its MAC must be this service's (only the key
        store's holder can make one); a signed head's signature must hold too. An entry stored
        before MACs were kept (migration 0004) must carry its writer's own signature instead.
        """
        if not entry.check_hash():
            raise LogMismatch(entry.seq, "its hash does not match its content in the database")
        if entry.mac is not None:
            if not hmac.compare_digest(entry_mac(self.keys.entry_key(), entry.hash), entry.mac):
                why = (
                    # The first entry failing is most often a key store other than the game's.
                    f"the key store in use ({self.keys.path}) is not the one that wrote this"
                    " game ($ORDNANCE_KEYS names it), or it was written into the database by"
                    " someone without that key store"
                    if entry.seq == 0
                    else "it was written into the database, or changed there, by someone"
                    " without the service's key store"
                )
                raise LogMismatch(entry.seq, f"its MAC is not this service's: {why}")
            if entry.sig is None:
                return
        fold.check_signed(game, entry, legacy)

    def check_head(self, game: Game, kept: Head | None, log: Sequence[Entry]) -> None:
        """Refuse ``game`` (folded from the database, ``log`` the entries just read) if it
        stops before or forks from ``kept``; else keep its newest entry as the head."""
        last = game.version - 1
        if kept is not None and kept.seq == last and kept.hash == game.head:
            return  # the usual case: the head this service or another one kept last

        def hash_at(seq: int) -> str:
            if seq == last:
                return game.head
            if log and log[0].seq <= seq:
                return log[seq - log[0].seq].hash
            # Only when the kept head lags behind a game this service holds folded.
            return self.store.entries(game.id, seq, seq + 1)[0].hash

        check_log(game.id, kept, game.version, hash_at, "the database")
        self.keys.keep_head(game.id, last, game.head)

    def is_kept_head(self, game: Game) -> bool:
        """Whether ``game``'s last entry is the head the key store keeps for it (no process
        sharing the key store kept a newer one)."""
        kept = self.keys.head(game.id)
        return kept is not None and kept.seq == game.version - 1 and kept.hash == game.head

    def with_signed_head(self, game: Game, log: list[Entry]) -> list[Entry]:
        """``log`` (the game's entries) ending in a signed head: unless it is signed already,
        its last entry is signed here when this service wrote it, for readers who cannot check
        a MAC (an export), and the signature kept for later exports (after more entries, the
        next head covers this one). A database this process cannot write still exports:
        Ed25519 signs the same head the same way next time."""
        last = log[-1]
        if last.sig is None and fold.signing_key(game, last) == self.signer.public_key:
            sig = self.signer.sign(last.hash)
            with contextlib.suppress(StorageError):
                self.store.add_signature(game.id, last.seq, sig)
            log = [*log[:-1], signed(last, sig)]
        return log

    def keep_head(self, game: Game) -> None:
        """Keep the head of entries just committed. A key store that cannot be written now
        does not undo the commit: the next read of the game keeps it, or says why not."""
        with contextlib.suppress(KeyStoreError):
            self.keys.keep_head(game.id, game.version - 1, game.head)
