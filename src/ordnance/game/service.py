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

The service holds the flow; its parts live beside it: who may act (:mod:`.access`), what it
vouches for (seeds, MACs, signed and kept heads: :mod:`.custody`), how a stored game is read
back and checked (:mod:`.reading`), the entries of play by e-mail (:mod:`.pbem_flow`), and
what its calls return (:mod:`.outcomes`).

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

import secrets
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.maps.cache import BoundedCache
from ordnance.core.ruleset import Command
from ordnance.game import fold, pbem_flow, snapshots
from ordnance.game.access import Access
from ordnance.game.custody import Custody
from ordnance.game.dberrors import StorageError
from ordnance.game.entries import GENESIS, Entry
from ordnance.game.errors import StaleState
from ordnance.game.fairdice import PhysicalDice, check_side_seed, new_server_seed, split_dice
from ordnance.game.fold import Game, apply_entry, resolve_command
from ordnance.game.heads import check_log
from ordnance.game.kept_logs import KeptLogs
from ordnance.game.keystore import KeyStore
from ordnance.game.logfile import export_text, header_game, read_verified
from ordnance.game.outcomes import Appended, Applied, NewGame, status_json
from ordnance.game.pbem import Invitation
from ordnance.game.reading import read_stored
from ordnance.game.scenario import Scenario, load_scenario_file
from ordnance.game.signing import Signer, head_interval
from ordnance.game.start import start_body
from ordnance.game.stores import open_store

__all__ = ["Appended", "Applied", "GameService", "NewGame", "split_dice"]

GAME_ID_BYTES = 6
# Folded games a service holds at once: more than a server plays at once (bench_web: 500 over
# two processes); a fold is the game's state, tens of KB.
GAMES_HELD = 1024


class GameService:
    """Games in one database (``url``: see :func:`~ordnance.game.storage.database_url`), with
    the secrets in the key store ``keys`` (default ``$ORDNANCE_KEYS`` or the user's). ``light``:
    an existing SQLite file through sqlite3 alone (:mod:`.sqlite_file`; the CLI)."""

    def __init__(
        self,
        url: str | None = None,
        *,
        keys: str | Path | KeyStore | None = None,
        snapshot_every: int | None = None,
        sign_every: int | None = None,
        light: bool = False,
    ) -> None:
        self.keys = keys if isinstance(keys, KeyStore) else KeyStore(keys)
        self.store = open_store(url, self.keys, light=light)
        # Who may act (tokens, sides), and what the service vouches for (seeds, MACs, heads).
        self.access = Access(self.store, self.keys)
        self.custody = Custody(self.store, self.keys)
        # A snapshot of the folded game every K entries, by whoever opens it (game/snapshots.py).
        self.snapshot_every = snapshots.every(snapshot_every)
        # A signed head at least every K entries (game/signing.py).
        self.sign_every = head_interval(sign_every)
        # Folded games by id, checked against the stored version on every use (the least
        # recently used beyond GAMES_HELD dropped), shared by a web table's threads; and the
        # logs its pages tell, fed with the entries read or stored here (:mod:`.kept_logs`).
        self._games = BoundedCache[str, Game](GAMES_HELD)
        self.logs = KeptLogs(self.store)

    def close(self) -> None:
        self.store.close()
        self.keys.close()

    @property
    def signer(self) -> Signer:
        """The service's signing key (made in the key store on first use)."""
        return self.custody.signer

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

        def commit() -> str:
            return self.keys.put_seed(server_seed if server_seed is not None else new_server_seed())

        body, codes = start_body(game_id, scenario, self.signer.declaration(), by_email, commit)
        first = self.custody.entry(0, "start", None, body, GENESIS, sign=True)
        game = fold.start(first)
        playing = [by_email] if by_email is not None else list(scenario.sides)
        tokens, macs = self.access.new_tokens(game_id, playing)
        self.store.create(game_id, scenario.ruleset, [first], macs)
        self._games.put(game_id, game)
        self.custody.keep_head(game)
        invitations = {
            side: Invitation(
                game_id, side, code, export_text(game_id, [first], self.custody.opening(first))
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
        resume = self.custody.resume(game)
        if resume is not None:
            game = apply_entry(game, resume)
            new.append(resume)
        tokens, macs = self.access.new_tokens(game.id, game.sides)
        self.store.create(game.id, game.scenario.ruleset, [*self.custody.macked(log), *new], macs)
        self._games.put(game.id, game)
        self.custody.keep_head(game)
        promised = game.dice.commitments[game.dice.epoch] if game.dice.commitments else None
        return NewGame(
            game.id, tokens, game.version, promised, self.signer.declaration(), {}, game.head
        )

    def join(self, data: bytes) -> NewGame:
        """Join a game by e-mail from its invitation: store the log, sign a ``join`` entry with
        this key store's key, and make a token for the invited side only."""
        log, game, entry = pbem_flow.joining(data, self.custody)
        assert entry.side is not None
        tokens, macs = self.access.new_tokens(game.id, [entry.side])
        self.store.create(game.id, game.scenario.ruleset, [*self.custody.macked(log), entry], macs)
        self._games.put(game.id, game)
        self.custody.keep_head(game)
        return NewGame(
            game.id, tokens, game.version, None, self.signer.declaration(), {}, game.head
        )

    def _append(self, game_id: str, data: bytes) -> Appended:
        held = self.game(game_id)
        local = self.store.entries(game_id)
        log, _ = read_verified(data, legacy_key=held.custodian)
        # The copy here reached the kept head (self.game checked it).
        new, game = pbem_flow.extension(held, local, log, self.signer.public_key)
        if new:
            self._store(held, self.custody.macked(new), game, own=False)
        then = self._follow_up(game)
        final = self.game(game_id)
        return Appended(game_id, len(new), final.version, final.head, tuple(then))

    # --- reading -----------------------------------------------------------------------------

    def game(self, game_id: str) -> Game:
        """The game folded up to its stored version (cached; only new entries are read), every
        entry read checked and the log held to the kept head (:mod:`.reading`); its newest
        entry becomes the kept head."""
        read = read_stored(self.store, self.keys, self.custody, self._games.peek(game_id), game_id)
        game = read.game
        self._games.put(game_id, game)
        self.logs.add(game, read.new)
        # Opened from the database: a snapshot once the fold passed a multiple of K since the
        # newest one (the next service to open the game folds only what follows).
        if snapshots.due(read.base, game.version, self.snapshot_every):
            snapshots.save(self.store, game, self.signer)
        return game

    def log(self, game_id: str) -> list[Entry]:
        self.game(game_id)  # an unknown game is BadInput; a forged entry is refused
        return self.store.entries(game_id)

    def status(
        self, game_id: str, side: str | None = None, *, game: Game | None = None
    ) -> dict[str, Any]:
        """Where the game stands; with ``side``, what that side may do now. ``game``: the game
        as already folded (a page draws it outside the game's lock), not read again."""
        return status_json(self.game(game_id) if game is None else game, side)

    def export(self, game_id: str) -> str:
        """The log as one JSON file (one entry per line, hash-chained, its heads signed): its
        last head, leaving for readers who cannot check a MAC, is signed here if it is not
        already (the signature kept), so a signed head covers every entry of the file."""
        game = self.game(game_id)
        log = self.custody.with_signed_head(game, self.store.entries(game_id, 0, game.version))
        return export_text(game_id, log, self.custody.opening(log[0]))

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

        The command is decided on the game as this service holds it and stored in one
        transaction that checks the database still ends where it was decided (:meth:`_write`):
        a game another process moved on is folded up to it and the command decided again,
        never stored from this service's cache. If another writer moved the game between
        that read and the append and no ``expect_version`` was given, it is decided once more.

        ``entropy``: the acting client's fresh random bytes (hex,
        :func:`~ordnance.game.fairdice.new_entropy`), mixed into a fair game's rolls with the
        committed server seed and recorded in the entry. A client that talks to the service
        from elsewhere sends its own and checks the entry it gets back records it; without
        one, this process is the client and draws it here.
        """
        return self._write(
            game_id,
            lambda game: self._do(game, side, token, words, expect_version, entropy=entropy),
            again=expect_version is None,
        )

    def _do(
        self,
        game: Game,
        side: str,
        token: str,
        words: Sequence[str],
        expect_version: int | None,
        *,
        entropy: str | None,
    ) -> Applied:
        self._check(game, side, token, expect_version)
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
        dice = self.custody.dice(game, entered, entropy)
        body, folded = resolve_command(game, command, dice, dice.rolls)
        if isinstance(dice, PhysicalDice):
            dice.check_all_used()
        elif dice.rolls:
            body["entropy"] = dice.entropy
        entry = self.custody.entry(game.version, "command", side, body, game.head, as_given=True)
        after = apply_entry(game, entry, folded=folded)
        new: list[Entry] = [entry]
        if after.dice.mode == "fair" and after.rules.is_over(after.state):
            # The scenario is over: reveal the seed so every roll can be checked.
            reveal = self.custody.reveal(after)
            after = apply_entry(after, reveal)
            new.append(reveal)
        return self._store(game, new, after, body["ruling"])

    def _propose_or_do(self, game: Game, command: Command) -> Applied:
        """Play by e-mail: a command that does not roll is stored; one that rolls is proposed."""
        step = pbem_flow.proposal_or_command(game, command, self.custody)
        return self._store(game, [step.entry], apply_entry(game, step.entry), step.ruling)

    def _follow_up(self, game: Game) -> list[Applied]:
        """After an import, play by e-mail: answer the other side's proposal, or resolve ours."""
        step = pbem_flow.follow_up(game, self.custody)
        if step is None:
            return []
        applied = self._store(game, [step.entry], apply_entry(game, step.entry), step.ruling)
        if step.settles is not None:
            self.keys.forget_seed(step.settles)
        return [applied]

    def undo(
        self, game_id: str, side: str, token: str, *, expect_version: int | None = None
    ) -> Applied:
        """Take back ``side``'s latest command, if no die was revealed since (SYS.dice)."""

        def decide(game: Game) -> Applied:
            self._check(game, side, token, expect_version)
            fold.check_open(game)
            last = fold.check_undo(game, side)
            body = {"undone": last.seq}
            entry = self.custody.entry(game.version, "undo", side, body, game.head)
            return self._store(game, [entry], apply_entry(game, entry))

        return self._write(game_id, decide)

    def add_seed(
        self, game_id: str, side: str, token: str, seed: str, *, expect_version: int | None = None
    ) -> Applied:
        """Mix ``side``'s own seed into this epoch's rolls (before its first roll)."""

        def decide(game: Game) -> Applied:
            self._check(game, side, token, expect_version)
            fold.check_seed(game, side)
            body = {"seed": check_side_seed(seed), "epoch": game.dice.epoch}
            entry = self.custody.entry(game.version, "seed", side, body, game.head)
            return self._store(game, [entry], apply_entry(game, entry))

        return self._write(game_id, decide)

    def consent(
        self, game_id: str, side: str, token: str, *, expect_version: int | None = None
    ) -> Applied:
        """``side`` agrees to reveal the server seed; the last agreement reveals it."""

        def decide(game: Game) -> Applied:
            self._check(game, side, token, expect_version)
            fold.check_consent(game, side)
            body = {"epoch": game.dice.epoch}
            entry = self.custody.entry(game.version, "consent", side, body, game.head)
            after = apply_entry(game, entry)
            new: list[Entry] = [entry]
            if after.dice.consents == frozenset(after.sides):
                reveal = self.custody.reveal(after)
                after = apply_entry(after, reveal)
                new.append(reveal)
            return self._store(game, new, after)

        return self._write(game_id, decide)

    def authorize(self, game_id: str, side: str, token: str) -> Game:
        """The game as stored, once ``token`` is ``side``'s: NotAuthorized otherwise (even
        when the command would then find nothing to do)."""
        game = self.game(game_id)
        self._check(game, side, token, None)
        return game

    # --- helpers -----------------------------------------------------------------------------

    def _check(self, game: Game, side: str, token: str, expect_version: int | None) -> None:
        self.access.check(game, side, token, expect_version, own_key=self.signer.public_key)

    def _write(
        self, game_id: str, decide: Callable[[Game], Applied], *, again: bool = False
    ) -> Applied:
        """``decide(game)``, a write decided on the game and stored by :meth:`_store`.

        First on the game as this service holds it folded, when the key store's kept head is
        that fold's last entry (no process sharing the key store kept a newer one): its append
        is stored only if the database still ends at that entry (:mod:`.statements`), so a
        fold the database moved past, or a log cut short behind it, stores nothing. That
        spares every command a read of the stored version (bench_ledger: one statement of
        five). Else, or when that decision was refused for any reason, it is decided on the
        stored game (read and checked, :meth:`game`), whose refusal stands; with ``again``,
        once more if another writer moved the game between that read and the append.
        """
        held = self._games.peek(game_id)
        if held is not None and self.custody.is_kept_head(held):
            try:
                return decide(held)
            except StorageError:
                # The database failed under the append: whether it stored the entries is
                # unknown, so the command is not decided again (it could be stored twice).
                raise
            except OrdnanceError:
                # Decided again only if nothing was stored: the fold is still the one held
                # (refused before the append) or was dropped (the append refused it).
                now = self._games.peek(game_id)
                if now is not None and now is not held:
                    raise
        try:
            return decide(self.game(game_id))
        except StaleState:
            if not again:
                raise
            return decide(self.game(game_id))

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
        (:meth:`.Custody.heads`); entries taken from a file keep their writers' signatures.
        """
        if own:
            new = self.custody.heads(game, new, after, self.sign_every)
        try:
            self.store.append(game.id, game.version, new)
        except StaleState:
            self._games.discard(game.id)
            raise
        self._games.put(game.id, after)
        self.logs.add(after, new)
        self.custody.keep_head(after)
        self.custody.forget_revealed(new)
        return Applied(game.id, tuple(new), after.version, ruling)
