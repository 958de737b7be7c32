"""The game service: games made from scenarios, commands from sides, one append per command.

A command is checked against the state at the version it was decided on, resolved with the
game's dice, and its entry appended in one transaction that fails (StaleState) if the version
moved meanwhile. Tokens are checked on every write; dice are fair (:mod:`.fairdice`) or, when
the scenario says ``dice: physical``, entered with ``--dice``.

>>> import tempfile, pathlib
>>> from ordnance.game.scenario import scenario_from_mapping
>>> folder = tempfile.TemporaryDirectory()
>>> service = GameService(str(pathlib.Path(folder.name) / "games.db"))
>>> made = service.create(scenario_from_mapping({"ruleset": "asl", "name": "demo",
...     "date": "1945-03", "dice": "physical", "sides": {
...     "russian": {"units": {"t34": {"kind": "vehicle", "notation": "A5(4)/6(5)"}}},
...     "german": {}}}, None))
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ordnance import __version__
from ordnance.core.errors import IllegalAction, OrdnanceError
from ordnance.game import fold
from ordnance.game.entries import GENESIS, Entry, make_entry
from ordnance.game.errors import NotAuthorized, StaleState
from ordnance.game.fairdice import (
    FairDice,
    PhysicalDice,
    check_side_seed,
    commitment,
    new_server_seed,
    parse_entered,
)
from ordnance.game.fold import Game, apply_entry, command_body
from ordnance.game.logfile import export_text, read_verified
from ordnance.game.scenario import Scenario, load_scenario_file
from ordnance.game.storage import Store, database_url
from ordnance.game.tokens import matches, new_token, token_hash

GAME_ID_BYTES = 6


@dataclass(frozen=True)
class NewGame:
    """A game just made (or imported): its id, each side's token (shown once), its version."""

    game: str
    tokens: Mapping[str, str]
    version: int
    commitment: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "tokens": dict(self.tokens),
            "version": self.version,
            "commitment": self.commitment,
        }


@dataclass(frozen=True)
class Applied:
    """What one write stored: its entries, the version after them, the command's ruling."""

    game: str
    entries: tuple[Entry, ...]
    version: int
    ruling: Mapping[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        first = self.entries[0]
        return {
            "game": self.game,
            "version": self.version,
            "seq": first.seq,
            "type": first.type,
            "rolls": first.rolls,
            "events": first.body.get("events", []),
            "ruling": None if self.ruling is None else dict(self.ruling),
            "also": [e.type for e in self.entries[1:]],
        }


def split_dice(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """Take the ``--dice X`` pairs out of a command's words (the service's business, not the
    ruleset's).

    >>> split_dice(["fire", "t34", "--dice", "3,4", "--ammo", "AP"])
    (['fire', 't34', '--ammo', 'AP'], ['3,4'])
    """
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
    """Games in one database (``url``: see :func:`~ordnance.game.storage.database_url`)."""

    def __init__(self, url: str | None = None) -> None:
        self.store = Store(database_url(url))
        # Folded games by id, brought up to date from the log on every use.
        self._games: dict[str, Game] = {}
        # Token hashes and server seeds never change once stored: read each once.
        self._token_hashes: dict[tuple[str, str], str | None] = {}
        self._seeds: dict[tuple[str, int], bytes] = {}

    def close(self) -> None:
        self.store.close()

    # --- making games -----------------------------------------------------------------------

    def new_game(self, path: str | Path, *, server_seed: bytes | None = None) -> NewGame:
        """A game from a scenario file."""
        return self.create(load_scenario_file(path), server_seed=server_seed)

    def create(self, scenario: Scenario, *, server_seed: bytes | None = None) -> NewGame:
        """A game from a checked scenario; ``server_seed`` only for tests (default: fresh)."""
        game_id = secrets.token_hex(GAME_ID_BYTES)
        fair = scenario.dice == "fair"
        seed = server_seed if server_seed is not None else new_server_seed()
        promised = commitment(seed) if fair else None
        body = {
            "game": game_id,
            "ruleset": scenario.ruleset,
            "engine": __version__,
            "scenario": scenario.to_json(),
            "commitment": promised,
        }
        first = make_entry(0, "start", None, body, GENESIS)
        game = fold.start(first)
        tokens = {side: new_token() for side in scenario.sides}
        self.store.create(
            game_id,
            scenario.ruleset,
            [first],
            {side: token_hash(t) for side, t in tokens.items()},
            {0: seed} if fair else {},
        )
        self._games[game_id] = game
        return NewGame(game_id, tokens, game.version, promised)

    def import_log(self, data: bytes) -> NewGame:
        """Store a verified exported log as a game here, with new tokens for its sides.

        The exporting server's seed stays with it, so a fair game continues in a new seed
        epoch whose commitment is appended (a ``resume`` entry).
        """
        log, game = read_verified(data)
        seeds: dict[int, bytes] = {}
        if game.dice.mode == "fair":
            seed = new_server_seed()
            epoch = game.dice.epoch + 1
            body = {"epoch": epoch, "commitment": commitment(seed), "reason": "imported"}
            resume = make_entry(game.version, "resume", None, body, game.head)
            game = apply_entry(game, resume)
            log = [*log, resume]
            seeds[epoch] = seed
        tokens = {side: new_token() for side in game.sides}
        hashes = {side: token_hash(t) for side, t in tokens.items()}
        self.store.create(game.id, game.scenario.ruleset, log, hashes, seeds)
        self._games[game.id] = game
        promised = game.dice.commitments[game.dice.epoch] if game.dice.commitments else None
        return NewGame(game.id, tokens, game.version, promised)

    # --- reading -----------------------------------------------------------------------------

    def game(self, game_id: str) -> Game:
        """The game folded up to its stored version (cached; only new entries are read)."""
        version = self.store.version(game_id)
        game = self._games.get(game_id)
        if game is None or game.version > version:
            log = self.store.entries(game_id)
            game = fold.start(log[0])
            log = log[1:]
        else:
            log = self.store.entries(game_id, game.version) if game.version < version else []
        for entry in log:
            game = apply_entry(game, entry)
        self._games[game_id] = game
        return game

    def log(self, game_id: str) -> list[Entry]:
        self.store.version(game_id)  # an unknown game is BadInput, not an empty log
        return self.store.entries(game_id)

    def status(self, game_id: str, side: str | None = None) -> dict[str, Any]:
        """Where the game stands; with ``side``, what that side may do now."""
        game = self.game(game_id)
        acting = side if side is not None else game.rules.to_move(game.state)
        if side is not None:
            game.check_side(side)
        last = game.undoable[-1] if game.undoable else None
        return {
            "game": game.id,
            "ruleset": game.scenario.ruleset,
            "scenario": game.scenario.name,
            "sides": list(game.sides),
            "version": game.version,
            "head": game.head,
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
        }

    def export(self, game_id: str) -> str:
        """The log as one JSON file (one entry per line, hash-chained)."""
        return export_text(game_id, self.log(game_id))

    # --- writing -----------------------------------------------------------------------------

    def do(
        self,
        game_id: str,
        side: str,
        token: str,
        words: Sequence[str],
        *,
        expect_version: int | None = None,
    ) -> Applied:
        """Check, resolve and store one command of ``side``.

        The command is decided on the game as this service last saw it, and stored in one
        transaction that checks the version; if another writer moved the game meanwhile and no
        ``expect_version`` was given, it is decided once more on the stored game.
        """
        try:
            return self._do(game_id, side, token, words, expect_version, cached=True)
        except StaleState:
            if expect_version is not None:
                raise
            return self._do(game_id, side, token, words, expect_version, cached=False)

    def _do(
        self,
        game_id: str,
        side: str,
        token: str,
        words: Sequence[str],
        expect_version: int | None,
        *,
        cached: bool,
    ) -> Applied:
        game = self._authorized(game_id, side, token, expect_version, cached=cached)
        rest, entered = split_dice(words)
        command = game.rules.parse_command(side, rest)
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
            )
        else:
            dice = PhysicalDice([parse_entered(t) for t in entered], game.dice.next_roll)
        body = command_body(game, command, dice, dice.rolls)
        if isinstance(dice, PhysicalDice):
            dice.check_all_used()
        entry = make_entry(game.version, "command", side, body, game.head)
        after = apply_entry(game, entry)
        new: list[Entry] = [entry]
        seeds: dict[int, bytes] = {}
        if after.dice.mode == "fair" and after.rules.is_over(after.state):
            # The scenario is over: reveal the seed so every roll can be checked.
            reveal, seeds = self._reveal(after)
            after = apply_entry(after, reveal)
            new.append(reveal)
        return self._store(game, new, after, seeds, body["ruling"])

    def undo(
        self, game_id: str, side: str, token: str, *, expect_version: int | None = None
    ) -> Applied:
        """Take back ``side``'s latest command, if no die was revealed since (SYS.dice)."""
        game = self._authorized(game_id, side, token, expect_version)
        last = fold.check_undo(game, side)
        entry = make_entry(game.version, "undo", side, {"undone": last.seq}, game.head)
        return self._store(game, [entry], apply_entry(game, entry))

    def add_seed(
        self, game_id: str, side: str, token: str, seed: str, *, expect_version: int | None = None
    ) -> Applied:
        """Mix ``side``'s own seed into this epoch's rolls (before its first roll)."""
        game = self._authorized(game_id, side, token, expect_version)
        fold.check_seed(game, side)
        body = {"seed": check_side_seed(seed), "epoch": game.dice.epoch}
        entry = make_entry(game.version, "seed", side, body, game.head)
        return self._store(game, [entry], apply_entry(game, entry))

    def consent(
        self, game_id: str, side: str, token: str, *, expect_version: int | None = None
    ) -> Applied:
        """``side`` agrees to reveal the server seed; the last agreement reveals it."""
        game = self._authorized(game_id, side, token, expect_version)
        fold.check_consent(game, side)
        body = {"epoch": game.dice.epoch}
        entry = make_entry(game.version, "consent", side, body, game.head)
        after = apply_entry(game, entry)
        new: list[Entry] = [entry]
        seeds: dict[int, bytes] = {}
        if after.dice.consents == frozenset(after.sides):
            reveal, seeds = self._reveal(after)
            after = apply_entry(after, reveal)
            new.append(reveal)
        return self._store(game, new, after, seeds)

    # --- helpers -----------------------------------------------------------------------------

    def _authorized(
        self,
        game_id: str,
        side: str,
        token: str,
        expect_version: int | None,
        *,
        cached: bool = False,
    ) -> Game:
        # ``cached``: the game as last seen, without asking the database (the append's version
        # check catches a game that moved); else, and when the caller expects another version,
        # the stored game.
        game = self._games.get(game_id) if cached else None
        if game is None or (expect_version is not None and expect_version != game.version):
            game = self.game(game_id)
        game.check_side(side)
        key = (game_id, side)
        if key not in self._token_hashes:
            self._token_hashes[key] = self.store.token_hash(game_id, side)
        if not matches(token, self._token_hashes[key]):
            raise NotAuthorized(game_id, side)
        if expect_version is not None and expect_version != game.version:
            raise StaleState(game_id, expect_version, game.version)
        return game

    def _server_seed(self, game: Game) -> bytes:
        key = (game.id, game.dice.epoch)
        if key not in self._seeds:
            seed = self.store.server_seed(*key)
            if seed is None:
                raise OrdnanceError(
                    f"game {game.id}: this database does not hold the server seed of epoch"
                    f" {game.dice.epoch}"
                )
            self._seeds[key] = seed
        return self._seeds[key]

    def _reveal(self, game: Game) -> tuple[Entry, dict[int, bytes]]:
        following = new_server_seed()
        body = {
            "epoch": game.dice.epoch,
            "seed": self._server_seed(game).hex(),
            "next_commitment": commitment(following),
        }
        entry = make_entry(game.version, "reveal", None, body, game.head)
        return entry, {game.dice.epoch + 1: following}

    def _store(
        self,
        game: Game,
        new: list[Entry],
        after: Game,
        seeds: Mapping[int, bytes] | None = None,
        ruling: Mapping[str, Any] | None = None,
    ) -> Applied:
        try:
            self.store.append(game.id, game.version, new, seeds)
        except StaleState:
            self._games.pop(game.id, None)
            raise
        self._games[game.id] = after
        return Applied(game.id, tuple(new), after.version, ruling)
