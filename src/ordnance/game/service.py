"""The game service: games made from scenarios, commands from sides, one append per command.

A command is checked against the state at the version it was decided on, resolved with the
game's dice, and its entry appended in one transaction that fails (StaleState) if the version
moved meanwhile. Tokens are checked on every write; dice are fair (:mod:`.fairdice`: the
committed server seed with the client's fresh ``entropy`` for each command that rolls) or, when
the scenario says ``dice: physical``, entered with ``--dice``.

The service's secrets (server seeds, the signing key, the keys of the token and entry MACs)
live in its key store (:mod:`.keystore`), never in the database. Every entry it writes carries
its MAC, and every entry it reads from the database is checked (hash, chain, MAC) before it is
believed, so an entry written into the database behind the service's back is refused, naming
its seq. Heads are signed with the service's Ed25519 key (:mod:`.signing`): the start, every
resume, join and reveal, the last entry of an append that passes a multiple of K
(``sign_every``, ``$ORDNANCE_SIGN_EVERY``, default 100), the end of the scenario, and whatever
head an export hands out; in a game by e-mail, every entry.

Snapshots (:mod:`.snapshots`) are written by the service that reads them: one that opens a game
and folds entries past a multiple of ``snapshot_every`` since its newest snapshot stores one.
A service that writes a game already holds it folded, so its commands write none.

>>> import tempfile, pathlib
>>> from ordnance.game.scenario import scenario_from_mapping
>>> folder = tempfile.TemporaryDirectory()
>>> service = GameService(str(pathlib.Path(folder.name) / "games.db"))
>>> made = service.create(scenario_from_mapping({"ruleset": "asl", "name": "demo",
...     "date": "1945-03", "dice": "physical", "sides": {
...     "russian": {"units": {"t34": {"kind": "vehicle", "notation": "A5(4)/6(5)"}}},
...     "german": {}}}))
>>> _ = service.do(made.game, "russian", made.tokens["russian"], ["phase", "next"])
>>> done = service.do(made.game, "russian", made.tokens["russian"],
...                   ["fire", "t34", "--ammo", "APCR", "--dice", "3,3"])
>>> done.version, done.ruling["depletion"]["outcome"]
(3, 'used-last')
>>> service.do(made.game, "german", made.tokens["russian"], ["phase", "next"])
Traceback (most recent call last):
...
ordnance.game.errors.NotAuthorized: not authorized: that is not the token of side german in game ...
>>> service.close(); folder.cleanup()
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ordnance import __version__
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.ruleset import Command
from ordnance.game import fold, snapshots
from ordnance.game.dberrors import StorageError
from ordnance.game.entries import GENESIS, Entry, entry_mac, make_entry, signed, with_mac
from ordnance.game.errors import LogMismatch, NotAuthorized, StaleState
from ordnance.game.fairdice import (
    FairDice,
    PhysicalDice,
    check_entropy,
    check_side_seed,
    commitment,
    new_entropy,
    new_server_seed,
    parse_entered,
)
from ordnance.game.fold import Game, apply_entry, command_body, resolve_command
from ordnance.game.heads import Head, check_log
from ordnance.game.keystore import KeyStore, KeyStoreError
from ordnance.game.logfile import export_text, header_game, read_verified
from ordnance.game.pbem import Invitation, ProbeDice, RollsNeeded, new_code, other_side
from ordnance.game.scenario import Scenario, load_scenario_file
from ordnance.game.signing import Signer, fingerprint, head_interval
from ordnance.game.storage import Store, database_url
from ordnance.game.tokens import mac_of_hash, new_token, token_hash, token_mac

GAME_ID_BYTES = 6


@dataclass(frozen=True)
class NewGame:
    """A game just made (or imported, or joined): its id, the tokens of the sides this copy
    plays (shown once), its version, and for play by e-mail the invitations to send."""

    game: str
    tokens: Mapping[str, str]
    version: int
    commitment: str | None
    signer: Mapping[str, str] = field(default_factory=dict)
    invitations: Mapping[str, str] = field(default_factory=dict)
    head: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "tokens": dict(self.tokens),
            "version": self.version,
            "head": self.head,
            "commitment": self.commitment,
            "signer": dict(self.signer),
            "invited": sorted(self.invitations),
        }


@dataclass(frozen=True)
class Applied:
    """What one write stored: its entries, the version after them, the command's ruling."""

    game: str
    entries: tuple[Entry, ...]
    version: int
    ruling: Mapping[str, Any] | None

    @property
    def head(self) -> str:
        return self.entries[-1].hash

    def to_json(self) -> dict[str, Any]:
        first = self.entries[0]
        return {
            "game": self.game,
            "version": self.version,
            "head": self.head,
            "seq": first.seq,
            "type": first.type,
            "rolls": first.rolls,
            "events": first.body.get("events", []),
            "ruling": None if self.ruling is None else dict(self.ruling),
            "also": [e.type for e in self.entries[1:]],
        }


@dataclass(frozen=True)
class Appended:
    """A later file taken into an existing copy: how many entries came, and what this copy
    wrote in turn (play by e-mail: the answer to a proposal, or the resolution of its own)."""

    game: str
    appended: int
    version: int
    head: str
    then: tuple[Applied, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "appended": self.appended,
            "version": self.version,
            "head": self.head,
            "then": [a.to_json() for a in self.then],
        }


def split_dice(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """Take the ``--dice X`` pairs out of a command's words (the service's business, not the
    ruleset's).

    >>> split_dice(["fire", "t34", "--dice", "3,4", "--ammo", "AP"])
    (['fire', 't34', '--ammo', 'AP'], ['3,4'])
    """
    if "--dice" not in words:  # most commands
        return list(words), []
    rest: list[str] = []
    entered: list[str] = []
    items = iter(words)
    for word in items:
        if word == "--dice":
            entered.append(next(items, ""))
        else:
            rest.append(word)
    return rest, entered


class GameService:
    """Games in one database (``url``: see :func:`~ordnance.game.storage.database_url`), with
    the secrets in the key store ``keys`` (default ``$ORDNANCE_KEYS`` or the user's)."""

    def __init__(
        self,
        url: str | None = None,
        *,
        keys: str | Path | KeyStore | None = None,
        snapshot_every: int | None = None,
        sign_every: int | None = None,
    ) -> None:
        self.keys = keys if isinstance(keys, KeyStore) else KeyStore(keys)
        self.store = Store(database_url(url), self.keys)
        self._signer: Signer | None = None
        # A snapshot of the folded game every K entries, by whoever opens it (game/snapshots.py).
        self.snapshot_every = snapshots.every(snapshot_every)
        # A signed head at least every K entries (game/signing.py).
        self.sign_every = head_interval(sign_every)
        # Folded games by id, brought up to date from the log on every use. These caches are
        # shared by threads (a web table runs games at once): each use is one read or write
        # of one key, and a fold is checked against the stored version on every use.
        self._games: dict[str, Game] = {}
        # Token MACs never change once stored: read each once.
        self._token_macs: dict[tuple[str, str], str | None] = {}
        # The SHA-256 of the token last found to match each MAC: the same token again is
        # checked against it (constant-time) without a second HMAC.
        self._token_seen: dict[tuple[str, str], str] = {}
        # The server seed of the epoch last rolled in, by its commitment (see _server_seed).
        self._seeds: dict[str, bytes] = {}

    def close(self) -> None:
        self.store.close()
        self.keys.close()

    @property
    def signer(self) -> Signer:
        """The service's signing key (made in the key store on first use)."""
        if self._signer is None:
            # Threads may race here (a web table runs games at once): the key store makes the
            # key once (link() lets one name win), so each reads the same key.
            self._signer = Signer(self.keys.private_key())
        return self._signer

    def _entry(
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
        entries that declare a key, and a reveal, always are; :meth:`_store` signs the others
        that need it). ``as_given``: see :func:`~ordnance.game.entries.make_entry`."""
        key = self.keys.entry_key()
        entry = make_entry(seq, kind, side, body, prev, mac_key=key, as_given=as_given)
        return signed(entry, self.signer.sign(entry.hash)) if sign else entry

    # --- making games -----------------------------------------------------------------------

    def new_game(
        self, path: str | Path, *, server_seed: bytes | None = None, by_email: str | None = None
    ) -> NewGame:
        """A game from a scenario file."""
        return self.create(load_scenario_file(path), server_seed=server_seed, by_email=by_email)

    def create(
        self, scenario: Scenario, *, server_seed: bytes | None = None, by_email: str | None = None
    ) -> NewGame:
        """A game from a checked scenario; ``server_seed`` only for tests (default: fresh).

        ``by_email`` names the side this copy plays in a game by e-mail (:mod:`.pbem`): the
        other side gets an invitation instead of a token, and there is no server seed.
        """
        game_id = secrets.token_hex(GAME_ID_BYTES)
        body: dict[str, Any] = {
            "game": game_id,
            "ruleset": scenario.ruleset,
            "engine": __version__,
            "scenario": scenario.to_json(),
            "commitment": None,
            "signer": self.signer.declaration(),
        }
        codes: dict[str, str] = {}
        if by_email is not None:
            if by_email not in scenario.sides:
                known = ", ".join(scenario.sides)
                raise BadInput("side", by_email, f"no such side; sides: {known}")
            codes = {other_side(scenario.sides, by_email): new_code()}
            invited = {s: hashlib.sha256(c.encode("utf-8")).hexdigest() for s, c in codes.items()}
            body["pbem"] = {"inviter": by_email, "invited": invited}
        elif scenario.dice == "fair":
            seed = server_seed if server_seed is not None else new_server_seed()
            # The seed is in the key store before the game that commits to it exists.
            body["commitment"] = self.keys.put_seed(seed)
        first = self._entry(0, "start", None, body, GENESIS, sign=True)
        game = fold.start(first)
        playing = [by_email] if by_email is not None else list(scenario.sides)
        tokens = {side: new_token() for side in playing}
        self.store.create(game_id, scenario.ruleset, [first], self._macs(game_id, tokens))
        self._games[game_id] = game
        self._keep_head(game)
        invitations = {
            side: Invitation(
                game_id, side, code, export_text(game_id, [first], self._opening(first))
            ).to_text()
            for side, code in codes.items()
        }
        return NewGame(
            game_id,
            tokens,
            game.version,
            body["commitment"],
            self.signer.declaration(),
            invitations,
            first.hash,
        )

    def _macs(self, game_id: str, tokens: Mapping[str, str]) -> dict[str, str]:
        key = self.keys.token_key()
        return {side: token_mac(key, game_id, side, t) for side, t in tokens.items()}

    def import_log(self, data: bytes) -> NewGame | Appended:
        """Take an exported log: a new game here, or later entries for the copy held here.

        A new game gets new tokens for its sides; a fair one continues in a new seed epoch whose
        commitment is appended (a ``resume`` entry), since the exporting server's seed stays
        with it. A game already held here takes the file only if it extends this copy: every
        entry the copy holds must be in the file unchanged, and every new one must be signed
        by its writer (play by e-mail: the other side). Games by e-mail are joined with their
        invitation (:meth:`join`), not imported.
        """
        game_id = header_game(data)
        if game_id is not None and self.store.has_game(game_id):
            return self._append(game_id, data)
        log, game = read_verified(data)
        # A game this key store's service served elsewhere (another database): the file must
        # reach the head it kept, as a copy of it in a database must.
        check_log(game.id, self.keys.head(game.id), len(log), lambda s: log[s].hash, "the file")
        if game.by_email:
            raise BadInput(
                "log",
                game.id,
                "a game played by e-mail is joined with its invitation ('game join'), or"
                " imported into the copy that plays it",
            )
        new: list[Entry] = []
        if game.dice.mode == "fair":
            seed = new_server_seed()
            body = {
                "epoch": game.dice.epoch + 1,
                "commitment": self.keys.put_seed(seed),
                "reason": "imported",
                "signer": self.signer.declaration(),
            }
        else:
            body = {"reason": "imported", "signer": self.signer.declaration()}
        if game.dice.mode == "fair" or game.custodian != self.signer.public_key:
            resume = self._entry(game.version, "resume", None, body, game.head, sign=True)
            game = apply_entry(game, resume)
            new.append(resume)
        tokens = {side: new_token() for side in game.sides}
        self.store.create(
            game.id, game.scenario.ruleset, [*self._macked(log), *new], self._macs(game.id, tokens)
        )
        self._games[game.id] = game
        self._keep_head(game)
        promised = game.dice.commitments[game.dice.epoch] if game.dice.commitments else None
        return NewGame(
            game.id, tokens, game.version, promised, self.signer.declaration(), {}, game.head
        )

    def join(self, data: bytes) -> NewGame:
        """Join a game by e-mail from its invitation: store the log, sign a ``join`` entry with
        this key store's key, and make a token for the invited side only."""
        invitation = Invitation.from_bytes(data)
        log, game = read_verified(invitation.log.encode("utf-8"))
        if game.id != invitation.game or invitation.side not in game.invited:
            raise LogMismatch(None, f"the invitation is not for a side of game {game.id} to join")
        if self.signer.public_key in game.side_keys.values():
            raise BadInput(
                "key store",
                str(self.keys.path),
                "its key already plays the other side: each player of a game by e-mail needs"
                " a key store of their own ($ORDNANCE_KEYS)",
            )
        body = {"code": invitation.code, "signer": self.signer.declaration()}
        entry = self._entry(game.version, "join", invitation.side, body, game.head, sign=True)
        game = apply_entry(game, entry)
        tokens = {invitation.side: new_token()}
        self.store.create(
            game.id, game.scenario.ruleset, [*self._macked(log), entry], self._macs(game.id, tokens)
        )
        self._games[game.id] = game
        self._keep_head(game)
        return NewGame(
            game.id, tokens, game.version, None, self.signer.declaration(), {}, game.head
        )

    def _append(self, game_id: str, data: bytes) -> Appended:
        held = self.game(game_id)
        local = self.store.entries(game_id)
        log, _ = read_verified(data, legacy_key=held.custodian)
        # The copy here reached the kept head (self.game checked it), and the file must extend
        # the copy: an older file is named as such below, not as a rolled-back log.
        if len(log) < len(local):
            raise LogMismatch(
                len(log),
                f"the file ends at entry {len(log) - 1}, but this copy holds up to entry"
                f" {len(local) - 1}: an older file, or entries were deleted from it",
            )
        for mine, theirs in zip(local, log, strict=False):
            if mine.hash != theirs.hash:
                raise LogMismatch(mine.seq, "differs from this copy's entry: the file forks")
        new = log[len(local) :]
        game = held
        mine_key = self.signer.public_key
        for entry in new:
            if fold.signing_key(game, entry) == mine_key:
                raise LogMismatch(
                    entry.seq, "is signed with this copy's own key, but this copy never wrote it"
                )
            game = apply_entry(game, entry)
        if new:
            self._store(held, self._macked(new), game, own=False)
        then = self._follow_up(game)
        final = self.game(game_id)
        return Appended(game_id, len(new), final.version, final.head, tuple(then))

    # --- reading -----------------------------------------------------------------------------

    def game(self, game_id: str) -> Game:
        """The game folded up to its stored version (cached; only new entries are read).

        Every entry read is checked: its hash, its place in the chain and its writer's
        signature; one that fails is refused (LogMismatch naming it), whatever wrote it there.
        A log that stops before the head the key store keeps for the game, or forks from it,
        is refused (RolledBack, :mod:`.heads`); else its newest entry becomes the kept head.
        """
        # The kept head is read before the version: a head is kept only once its entry is
        # committed, so a version read after it reaches it unless entries were deleted.
        kept = self.keys.head(game_id)
        version, tip = self.store.tip(game_id)
        game = self._games.get(game_id)
        log: list[Entry] | None = None
        if game is not None and game.version == version:
            # The same number of entries is the same log only if its last entry is the same.
            log = [] if game.head == tip else None
        elif game is not None and game.version < version:
            log = self.store.entries(game_id, game.version)
            if log and log[0].prev != game.head:
                log = None  # the stored log does not extend the one folded here
        if game is None or log is None:
            # A snapshot this service signed that matches the chain, plus the entries after
            # it (each checked below); else the whole log.
            found = snapshots.load(self.store, game_id, version, self._start, self.signer)
            if found is None:
                log = self.store.entries(game_id)
                if not log:
                    # Every entry deleted, the start included: a rollback if a head is kept.
                    check_log(game_id, kept, 0, lambda seq: "", "the database")
                    raise LogMismatch(0, "the game has no entries in the database")
                game = self._start(log[0])
                log = log[1:]
            else:
                game, log = found
            folded_from = game.version
        else:
            folded_from = version  # a game this service holds folded needs no snapshot
        for entry in log:
            self._check_stored(game, entry)
            game = apply_entry(game, entry)
        self._check_head(game, kept, log)
        self._games[game_id] = game
        # Opened from the database: a snapshot once the fold passed a multiple of K since the
        # newest one (the next service to open the game folds only what follows).
        if snapshots.due(folded_from, game.version, self.snapshot_every):
            snapshots.save(self.store, game, self.signer)
        return game

    def _check_head(self, game: Game, kept: Head | None, log: Sequence[Entry]) -> None:
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

    def _keep_head(self, game: Game) -> None:
        """Keep the head of entries just committed. A key store that cannot be written now
        does not undo the commit: the next read of the game keeps it, or says why not."""
        with contextlib.suppress(KeyStoreError):
            self.keys.keep_head(game.id, game.version - 1, game.head)

    def _start(self, entry: Entry) -> Game:
        # A game started before signing (migration 0002 signed it with this service's key).
        legacy = None if "signer" in entry.body else self.signer.public_key
        self._check_stored(None, entry, legacy)
        return fold.start(entry, legacy)

    def _check_stored(self, game: Game | None, entry: Entry, legacy: str | None = None) -> None:
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

    def _macked(self, log: Sequence[Entry]) -> list[Entry]:
        """Entries taken from a verified file, with this service's MAC (kept as they are
        otherwise: their writers' signatures go on with them)."""
        key = self.keys.entry_key()
        return [e if e.mac is not None else with_mac(e, key) for e in log]

    def _opening(self, first: Entry) -> dict[str, str]:
        """The key the log opens with, as an export's header names it: the one its start
        entry declares, or for a game started before signing this service's own."""
        signer = first.body.get("signer")
        public = str(signer["public_key"]) if signer else self.signer.public_key
        return {"public_key": public, "fingerprint": fingerprint(public)}

    def log(self, game_id: str) -> list[Entry]:
        self.game(game_id)  # an unknown game is BadInput; a forged entry is refused
        return self.store.entries(game_id)

    def status(
        self, game_id: str, side: str | None = None, *, game: Game | None = None
    ) -> dict[str, Any]:
        """Where the game stands; with ``side``, what that side may do now. ``game``: the game
        as already folded (a page draws it outside the game's lock), not read again."""
        game = self.game(game_id) if game is None else game
        acting = side if side is not None else game.rules.to_move(game.state)
        if side is not None:
            game.check_side(side)
        last = game.undoable[-1] if game.undoable else None
        pending = game.pending
        return {
            "game": game.id,
            "ruleset": game.scenario.ruleset,
            "scenario": game.scenario.name,
            "sides": list(game.sides),
            "version": game.version,
            "head": game.head,
            "signer": game.custodian and {"public_key": game.custodian,
                                          "fingerprint": fingerprint(game.custodian)},
            "by_email": (
                {
                    "keys": {s: fingerprint(k) for s, k in game.side_keys.items()},
                    "invited": sorted(game.invited),
                    "open_proposal": None if pending is None else {
                        "seq": pending.seq, "side": pending.side,
                        "answered": pending.entropy is not None,
                    },
                }
                if game.by_email
                else None
            ),
            "to_move": game.rules.to_move(game.state),
            "over": game.rules.is_over(game.state),
            "dice": game.dice.to_json(),
            "undoable": None if last is None else {"seq": last.seq, "side": last.side},
            "legal_actions": (
                {acting: list(game.rules.legal_actions(game.state, acting))}
                if acting is not None
                else {}
            ),
            "state": game.rules.view(game.state),
        }  # fmt: skip

    def export(self, game_id: str) -> str:
        """The log as one JSON file (one entry per line, hash-chained, its heads signed).

        The head the file ends with leaves the service here, for readers who cannot check a
        MAC: unless it is signed already, this service signs it (and keeps the signature), so
        every entry of the file is covered by a signed head.
        """
        game = self.game(game_id)
        log = self.store.entries(game_id, 0, game.version)
        last = log[-1]
        if last.sig is None and fold.signing_key(game, last) == self.signer.public_key:
            sig = self.signer.sign(last.hash)
            # Kept for later exports (after more entries, the next head covers this one). A
            # database this process cannot write still exports: Ed25519 signs the same head
            # the same way next time.
            with contextlib.suppress(StorageError):
                self.store.add_signature(game_id, last.seq, sig)
            log[-1] = signed(last, sig)
        return export_text(game_id, log, self._opening(log[0]))

    # --- writing -----------------------------------------------------------------------------

    def do(
        self,
        game_id: str,
        side: str,
        token: str,
        words: Sequence[str],
        *,
        expect_version: int | None = None,
        entropy: str | None = None,
    ) -> Applied:
        """Check, resolve and store one command of ``side``.

        The command is decided on the stored game (its version is read first: a game another
        process moved on is folded up to it, never decided from this service's cache), and
        stored in one transaction that checks the version; if another writer moved the game
        between the read and the append and no ``expect_version`` was given, it is decided
        once more on the stored game.

        ``entropy``: the acting client's fresh random bytes (hex,
        :func:`~ordnance.game.fairdice.new_entropy`), mixed into a fair game's rolls with the
        committed server seed and recorded in the entry. A client that talks to the service
        from elsewhere sends its own and checks the entry it gets back records it; without
        one, this process is the client and draws it here.
        """
        try:
            return self._do(game_id, side, token, words, expect_version, entropy=entropy)
        except StaleState:
            if expect_version is not None:
                raise
            return self._do(game_id, side, token, words, expect_version, entropy=entropy)

    def _do(
        self,
        game_id: str,
        side: str,
        token: str,
        words: Sequence[str],
        expect_version: int | None,
        *,
        entropy: str | None,
    ) -> Applied:
        game = self._authorized(game_id, side, token, expect_version)
        fold.check_open(game)
        rest, entered = split_dice(words)
        command = game.rules.parse_command(side, rest)
        if game.dice.mode == "pbem":
            if entered:
                raise IllegalAction(
                    "SYS.dice", "this game rolls its dice between the sides; --dice is for"
                    " scenarios with 'dice: physical'",
                )  # fmt: skip
            return self._propose_or_do(game, command)
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
            dice: FairDice | PhysicalDice = FairDice(
                self._server_seed(game),
                game.id,
                game.dice.epoch,
                game.dice.seeds,
                game.dice.next_roll,
                entropy=entropy,
                draw_entropy=entropy is None,
            )
        else:
            dice = PhysicalDice([parse_entered(t) for t in entered], game.dice.next_roll)
        body, folded = resolve_command(game, command, dice, dice.rolls)
        if isinstance(dice, PhysicalDice):
            dice.check_all_used()
        elif dice.rolls:
            body["entropy"] = dice.entropy
        entry = self._entry(game.version, "command", side, body, game.head, as_given=True)
        after = apply_entry(game, entry, folded=folded)
        new: list[Entry] = [entry]
        if after.dice.mode == "fair" and after.rules.is_over(after.state):
            # The scenario is over: reveal the seed so every roll can be checked.
            reveal = self._reveal(after)
            after = apply_entry(after, reveal)
            new.append(reveal)
        return self._store(game, new, after, body["ruling"])

    def _propose_or_do(self, game: Game, command: Command) -> Applied:
        """Play by e-mail: a command that does not roll is stored; one that rolls is proposed."""
        try:
            body = command_body(game, command, ProbeDice(), [])
        except RollsNeeded:
            secret = new_server_seed()
            promised = self.keys.put_seed(secret)
            proposal = {"command": command.to_json(), "commitment": promised}
            entry = self._entry(game.version, "propose", command.side, proposal, game.head)
            return self._store(game, [entry], apply_entry(game, entry))
        entry = self._entry(game.version, "command", command.side, body, game.head)
        return self._store(game, [entry], apply_entry(game, entry), body["ruling"])

    def _follow_up(self, game: Game) -> list[Applied]:
        """After an import, play by e-mail: answer the other side's proposal, or resolve ours."""
        pending = game.pending
        mine = {s for s, k in game.side_keys.items() if k == self.signer.public_key}
        if pending is None or not mine:
            return []
        if pending.entropy is None and pending.side not in mine:
            body = {"proposal": pending.seq, "entropy": new_entropy()}
            answerer = sorted(mine)[0]
            entry = self._entry(game.version, "answer", answerer, body, game.head)
            return [self._store(game, [entry], apply_entry(game, entry))]
        if pending.entropy is not None and pending.side in mine:
            return [self._resolve(game)]
        return []

    def _resolve(self, game: Game) -> Applied:
        pending = game.pending
        assert pending is not None and pending.entropy is not None
        secret = self.keys.seed(pending.commitment)
        if secret is None:
            raise OrdnanceError(
                f"game {game.id}: the key store {self.keys.path} does not hold the secret of"
                f" proposal {pending.seq}; only the copy that proposed it can resolve it"
            )
        dice = FairDice(
            secret, game.id, game.dice.epoch, {}, game.dice.next_roll,
            entropy=pending.entropy, proposal=pending.seq,
        )  # fmt: skip
        command = Command.from_json(pending.command)
        closing = {"proposal": pending.seq, "secret": secret.hex()}
        ruling: Mapping[str, Any] | None
        try:
            body = {**command_body(game, command, dice, dice.rolls), **closing}
            kind, ruling = "command", body["ruling"]
        except (IllegalAction, BadInput) as refusal:
            rolls = [r.to_json() for r in dice.rolls]
            body = {**closing, "command": command.to_json(), "rolls": rolls, "reason": str(refusal)}
            kind, ruling = "refused", None
        entry = self._entry(game.version, kind, pending.side, body, game.head)
        applied = self._store(game, [entry], apply_entry(game, entry), ruling)
        self.keys.forget_seed(pending.commitment)
        return applied

    def undo(
        self, game_id: str, side: str, token: str, *, expect_version: int | None = None
    ) -> Applied:
        """Take back ``side``'s latest command, if no die was revealed since (SYS.dice)."""
        game = self._authorized(game_id, side, token, expect_version)
        fold.check_open(game)
        last = fold.check_undo(game, side)
        entry = self._entry(game.version, "undo", side, {"undone": last.seq}, game.head)
        return self._store(game, [entry], apply_entry(game, entry))

    def add_seed(
        self, game_id: str, side: str, token: str, seed: str, *, expect_version: int | None = None
    ) -> Applied:
        """Mix ``side``'s own seed into this epoch's rolls (before its first roll)."""
        game = self._authorized(game_id, side, token, expect_version)
        fold.check_seed(game, side)
        body = {"seed": check_side_seed(seed), "epoch": game.dice.epoch}
        entry = self._entry(game.version, "seed", side, body, game.head)
        return self._store(game, [entry], apply_entry(game, entry))

    def consent(
        self, game_id: str, side: str, token: str, *, expect_version: int | None = None
    ) -> Applied:
        """``side`` agrees to reveal the server seed; the last agreement reveals it."""
        game = self._authorized(game_id, side, token, expect_version)
        fold.check_consent(game, side)
        body = {"epoch": game.dice.epoch}
        entry = self._entry(game.version, "consent", side, body, game.head)
        after = apply_entry(game, entry)
        new: list[Entry] = [entry]
        if after.dice.consents == frozenset(after.sides):
            reveal = self._reveal(after)
            after = apply_entry(after, reveal)
            new.append(reveal)
        return self._store(game, new, after)

    def authorize(self, game_id: str, side: str, token: str) -> Game:
        """The game, once ``token`` is ``side``'s: NotAuthorized otherwise (even when the
        command would then find nothing to do)."""
        return self._authorized(game_id, side, token, None)

    # --- helpers -----------------------------------------------------------------------------

    def _authorized(self, game_id: str, side: str, token: str, expect_version: int | None) -> Game:
        # Always the stored game: another process may have moved it on (a decision from this
        # service's cache would refuse legal commands), or someone may have cut its log short.
        game = self.game(game_id)
        game.check_side(side)
        key = (game_id, side)
        hashed = token_hash(token)
        known = self._token_seen.get(key)
        if known is None or not hmac.compare_digest(hashed, known):
            if key not in self._token_macs:
                self._token_macs[key] = self.store.token_hash(game_id, side)
            stored = self._token_macs[key]
            if stored is None or not hmac.compare_digest(
                mac_of_hash(self.keys.token_key(), game_id, side, hashed), stored
            ):
                raise NotAuthorized(game_id, side)
            self._token_seen[key] = hashed
        if game.by_email and game.side_keys.get(side) != self.signer.public_key:
            raise NotAuthorized(game_id, side)
        if expect_version is not None and expect_version != game.version:
            raise StaleState(game_id, expect_version, game.version)
        return game

    def _server_seed(self, game: Game) -> bytes:
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

    def _heads(self, game: Game, new: list[Entry], after: Game) -> list[Entry]:
        """``new`` with the heads signed that this service signs as it writes.

        Besides the entries that always are (start, resume, join, reveal): the last new entry
        when the append passes a multiple of the head interval K, and when the scenario is over.
        In a game by e-mail every entry its side writes (they are few, and each leaves in a
        file).
        """
        last = new[-1]
        if game.by_email:
            return [e if e.sig is not None else signed(e, self.signer.sign(e.hash)) for e in new]
        if last.sig is not None:
            return new
        if not (
            snapshots.due(game.version, after.version, self.sign_every)
            or after.rules.is_over(after.state)
        ):
            return new
        return [*new[:-1], signed(last, self.signer.sign(last.hash))]

    def _reveal(self, game: Game) -> Entry:
        body = {
            "epoch": game.dice.epoch,
            "seed": self._server_seed(game).hex(),
            "next_commitment": self.keys.put_seed(new_server_seed()),
        }
        return self._entry(game.version, "reveal", None, body, game.head, sign=True)

    def _store(
        self,
        game: Game,
        new: list[Entry],
        after: Game,
        ruling: Mapping[str, Any] | None = None,
        *,
        own: bool = True,
    ) -> Applied:
        """Append ``new`` (decided on ``game``, giving ``after``) in one transaction.

        ``own``: this service wrote the entries, and signs the heads among them that need it
        (see :meth:`_heads`); entries taken from a file keep their writers' signatures.
        """
        if own:
            new = self._heads(game, new, after)
        try:
            self.store.append(game.id, game.version, new)
        except StaleState:
            self._games.pop(game.id, None)
            raise
        self._games[game.id] = after
        self._keep_head(after)
        for entry in new:
            if entry.type == "reveal":
                # Public now: the key store need not keep it.
                self.keys.forget_seed(commitment(bytes.fromhex(str(entry.body["seed"]))))
        return Applied(game.id, tuple(new), after.version, ruling)
