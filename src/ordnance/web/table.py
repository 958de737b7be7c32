"""The game service as the web app shares it: a lock per game, the AI's turns, news for pages.

Every request runs in a worker thread. Calls about one game take that game's lock
(:mod:`.locks`) only while the game is read or a command stored; other games never wait for
them, and pages are drawn outside any lock (:mod:`.page_cache`). Across processes the
database keeps the order: a command is stored only at the version it was chosen at. After
every write the game's new version is noted in :class:`~.versions.News`, which the
server-sent events read; a page of another process learns of a write from the database
(nothing a page depends on lives only in one process's memory).

The AI plays in the background (:mod:`.ai_runner`): a write answers once its own command is
stored, and the AI's commands follow, each its own version. The lock is not held while the AI
chooses, so pages are drawn meanwhile. Whether the AI is to play is read from the stored game
(its side is to move, with no physical dice to wait for), so every process's pages say so;
a page that finds the AI to play while nothing here plays it (a server restarted mid-turn, a
write made elsewhere) starts it.

The AI side of a V&V game needs its token to act like anyone else: the app keeps the tokens of
the sides it plays (:mod:`ordnance.game.ai_tokens`), never in the game database, which
players may read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

import yaml

from ordnance.core.errors import BadInput
from ordnance.core.maps import MapFiles
from ordnance.core.maps.cache import BoundedCache
from ordnance.core.spec import Feature
from ordnance.game import autoplay
from ordnance.game.ai_tokens import AiTokens
from ordnance.game.autoplay import AiWaits, DiceWanted
from ordnance.game.fold import Game
from ordnance.game.registry import names, spec, spec_of
from ordnance.game.scenario import (
    DICE_MODES,
    Scenario,
    mark_ai_sides,
    scenario_from_mapping,
    scenario_from_text,
)
from ordnance.game.service import Applied, GameService, NewGame
from ordnance.web.ai_runner import AiRunner
from ordnance.web.locks import GameLocks
from ordnance.web.middleware import Gauge
from ordnance.web.page_cache import PageCache
from ordnance.web.versions import News
from ordnance.web.warm import Warmer
from ordnance.web.work import Workers

__all__ = ["News", "Table"]  # (moved; still named here)

T = TypeVar("T")

# A page starts the AI of a game only when the game has been still this long here (seconds):
# a game that moves is being played by this process or another, and a second run would only
# lose every race to store a command (harmless, but twice the work).
AI_STILL = 3.0
# At shutdown, how long the AI's runs may take to finish their command in flight (seconds).
AI_SHUTDOWN = 20.0
AI_GAMES_KEPT = 1024  # games whose AI moves a page lists, the least recently moved forgotten


def has_ai(name: str) -> bool:
    """Whether the ruleset ``name`` has an AI that can play a side (:class:`AiPlayer`).

    >>> has_ai("vv"), has_ai("asl")
    (True, False)
    """
    return spec(name).has(Feature.AI)


def check_ai_sides(scenario: Scenario, sides: Sequence[str]) -> list[str]:
    """``sides`` for the server's AI to play, refused (BadInput) when the scenario's ruleset
    has no AI or one is not a side of the scenario. Every way to start a game asks this."""
    if not sides:
        return []
    if not has_ai(scenario.ruleset):
        with_ai = ", ".join(n for n in names() if has_ai(n)) or "none"
        raise BadInput(
            "ai side",
            ", ".join(sides),
            f"the {scenario.ruleset} ruleset has no AI to play a side (rulesets with one:"
            f" {with_ai})",
        )
    for side in sides:
        if side not in scenario.sides:
            raise BadInput("ai side", side, f"not a side: {', '.join(scenario.sides)}")
    return list(dict.fromkeys(sides))


def new_game_scenario(
    text: str,
    maps: Mapping[str, str] | None = None,
    *,
    where: str = "scenario",
    dice: str = "",
    ai: Sequence[str] | None = None,
) -> tuple[Scenario, list[str]]:
    """An uploaded scenario for a new game, with the lobby's or the API's choices written in,
    and the sides the server's AI is to play.

    ``dice`` (``fair``, ``physical``; blank: as the scenario says) and ``ai`` (None: the sides
    the scenario gives the AI; a list: exactly these, checked by :func:`check_ai_sides`)
    override the file. The server reads no file a scenario names: its map is a bundled map or
    one of ``maps`` (name -> YAML text; :class:`~ordnance.core.maps.MapFiles`). A fault names
    the line, the key and the fault.

    >>> new_game_scenario("ruleset: asl\\nname: [")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.game.scenario.ScenarioFileError: bad scenario 'scenario', line 2: not valid YAML...
    """
    files = MapFiles.uploaded(maps)
    scenario = scenario_from_text(text, where, files)
    data = yaml.safe_load(text)  # it parsed once already: a mapping, checked and bounded
    changed = False
    if dice in DICE_MODES and dice != scenario.dice:
        data["dice"], changed = dice, True
    chosen = None if ai is None else check_ai_sides(scenario, ai)
    if chosen is not None and has_ai(scenario.ruleset):
        # The AI plays the sides the scenario marks 'ai: true': write the choice in.
        changed = mark_ai_sides(data, chosen) or changed
    if changed:
        scenario = scenario_from_mapping(data, files)
    return scenario, list(scenario.ai_sides) if chosen is None else chosen


@dataclass(frozen=True)
class AiMove:
    """One command the AI sent, with its words on it (``note``: what it expected, in the
    game's terms, when its AI says; :meth:`~ordnance.core.ruleset.AiPlayer.ai_note`)."""

    side: str
    text: str
    version: int
    note: str | None


@dataclass(frozen=True)
class AiState:
    """What a page says of the server's AI: ``thinking`` (its side is to play, or a step of
    the player's with no choice is about to be taken) or ``failed`` (``sentence`` says why)."""

    kind: Literal["thinking", "failed"]
    side: str
    sentence: str


class Table:
    """The service behind every page and API call of one app."""

    def __init__(
        self,
        db: str | None,
        ai_keys: Path | None = None,
        *,
        warm: bool = True,
        threads: int | None = None,
    ) -> None:
        self.service = GameService(db)
        # The threads that do the routes' blocking work (:mod:`.work`).
        self.workers = Workers(threads)
        # A lock per game, held to read a game or store a command (never to draw a page).
        self.locks = GameLocks()
        # The pages drawn, by (game, version, side, what else changes them): :mod:`.page_cache`.
        self.pages = PageCache()
        self.news = News()
        # The requests being answered (:class:`.middleware.InFlight`): the warmer waits for 0.
        self.in_flight = Gauge()
        self.ai = AiTokens(None) if ai_keys is None else AiTokens.at(ai_keys)
        # The AI's latest moves of each game, as its page shows them (the games least recently
        # moved beyond AI_GAMES_KEPT forgotten: their pages show no list).
        self.ai_moves = BoundedCache[str, tuple[AiMove, ...]](AI_GAMES_KEPT)
        self.runner = AiRunner(
            self.play_ai,
            version=lambda game: self.call(lambda s: s.store.version(game), game),
            to_move=self._to_move,
            told=self.news.poke,
        )
        # A new version's picture and offers, worked out before its pages ask (:mod:`.warm`).
        self.warmer = Warmer(self) if warm else None
        if self.warmer is not None:
            self.news.watched = self.warmer.note

    def close(self, timeout: float = AI_SHUTDOWN) -> None:
        """End the AI's runs (:meth:`.AiRunner.close`), the warming and the work, then the
        service."""
        self.runner.close(timeout)
        if self.warmer is not None:
            self.warmer.stop()
        self.workers.close()
        self.service.close()

    def call(self, action: Callable[[GameService], T], game: str | None = None) -> T:
        """Run one service call; with ``game``, under that game's lock (other games go on).

        A read needs no lock to be right (the service checks its fold of a game against the
        stored version on every use); the lock spares a game's concurrent calls here from
        folding it, or deciding a command on it, twice at once."""
        if game is None:
            return action(self.service)
        with self.locks.hold(game):
            return action(self.service)

    # --- writes: each notes the new version, then lets the AI answer ----------------------------

    def create(self, scenario: Scenario, ai_sides: Sequence[str] = ()) -> NewGame:
        """Start a game; the app keeps the tokens of ``ai_sides`` and plays them. When an AI
        side is to act first it starts at once, taking the players' steps with no choice."""
        ai_sides = check_ai_sides(scenario, ai_sides)  # no side hidden that nobody can play
        if scenario.dice == "physical" and ai_sides and set(scenario.sides) <= set(ai_sides):
            # The AI's physical dice are entered by a player: with none, nobody could.
            raise BadInput(
                "ai sides",
                ",".join(ai_sides),
                "with physical dice a player enters the AI's rolls: leave a side to a player",
            )
        made = self.service.create(scenario)  # a new id: nobody else can hold its lock yet
        with self.locks.hold(made.game):
            for side in ai_sides:
                self.ai.put(made.game, side, made.tokens[side])
        self.news.note(made.game, made.version)
        if ai_sides:
            people = {s: t for s, t in made.tokens.items() if s not in ai_sides}
            self.runner.start(made.game, people)
        return made

    def do(
        self,
        game: str,
        side: str,
        token: str,
        words: Sequence[str],
        *,
        expect: int | None,
        entropy: str | None = None,
    ) -> Applied:
        """One command; ``entropy`` is the acting browser's or client's (else drawn here).
        Answers once it is stored; the AI's answer follows in the background."""
        with self.locks.hold(game):
            applied = self.service.do(
                game, side, token, words, expect_version=expect, entropy=entropy
            )
        self.news.note(game, applied.version)
        self.run_ai(game, player=(side, token))
        return applied

    def undo(self, game: str, side: str, token: str, expect: int | None) -> Applied:
        with self.locks.hold(game):
            applied = self.service.undo(game, side, token, expect_version=expect)
        self.news.note(game, applied.version)
        return applied

    def run_ai(self, game: str, player: tuple[str, str] | None = None) -> bool:
        """Let the app's AI act for its sides, in the background, while the next decision is
        theirs (with physical dice, until its command needs them: :meth:`ai_waiting` says
        which). ``player``: the side and token of the player who just acted, whose steps with
        no choice in the AI's turn are taken for it
        (:func:`~ordnance.game.autoplay.forced_choice`). False when the AI plays no side of
        ``game`` (or the server is shutting down)."""
        keys = self.ai.sides(game)
        if not keys:
            return False
        forced = {player[0]: player[1]} if player is not None and player[0] not in keys else {}
        return self.runner.start(game, forced)

    def settle(self, game: str, timeout: float = 60.0) -> bool:
        """Wait until the AI's run of ``game`` in this process has ended (tests, scripts)."""
        return self.runner.settle(game, timeout)

    def ai_state(
        self, folded: Game, side: str | None = None, token: str | None = None
    ) -> AiState | None:
        """What the page of ``side`` (None: a spectator) says of the AI at this version of the
        game, starting its run when it is to play and nothing here plays it (``token``: the
        side's, for its steps with no choice). None: nothing to say (no AI, the game over,
        a player to decide, physical dice to enter)."""
        keys = self.ai.sides(folded.id)
        if not keys or folded.rules.is_over(folded.state):
            return None
        trouble = self.runner.trouble(folded.id, folded.version)
        to_move = folded.rules.to_move(folded.state)
        if to_move is None:
            return None
        if trouble is not None and not trouble.again:
            return AiState("failed", to_move, trouble.sentence)
        only = None
        if to_move in keys:
            if autoplay.waiting_for(folded, to_move) is not None:
                return None  # a player enters its dice (the page's form)
        elif to_move != side or token is None:
            return None
        elif (only := autoplay.forced_choice(folded, to_move)) is None:
            return None  # the player's decision
        forced = {to_move: token} if only is not None and token is not None else {}
        if forced or self.runner.running(folded.id) or self.news.still_for(folded.id) >= AI_STILL:
            self.runner.start(folded.id, forced)
        if only is not None:
            return AiState(
                "thinking", to_move, f"Your only step, '{only}', is taken for you; the AI plays on."
            )
        return AiState("thinking", to_move, f"The AI ({to_move}) is thinking\u2026")

    # The AI's state at a version of the game, worked out on the folded game (a value) the
    # caller read, outside the lock: an action's answer asks all three of one read.

    def ai_waiting(self, folded: Game, given: Sequence[str] = ()) -> AiWaits | None:
        """The AI's command that waits for physical dice beyond ``given``, if any."""
        keys = self.ai.sides(folded.id)
        side = folded.rules.to_move(folded.state) if keys else None
        if side is None or side not in keys:
            return None
        return autoplay.waiting_for(folded, side, given)

    def ai_to_play(self, folded: Game) -> bool:
        """Whether the AI is to play the game now by itself (its side to move, no physical
        dice for a player to enter; or its run here about to take a player's step that is no
        choice): a client waits for the versions it stores."""
        keys = self.ai.sides(folded.id)
        if not keys:
            return False
        side = folded.rules.to_move(folded.state)
        if side is None or folded.rules.is_over(folded.state):
            return False
        trouble = self.runner.trouble(folded.id, folded.version)
        if trouble is not None and not trouble.again:
            return False
        if side not in keys:
            forced = autoplay.forced_choice(folded, side) is not None
            return forced and self.runner.running(folded.id)
        return autoplay.waiting_for(folded, side) is None

    def ai_trouble(self, folded: Game) -> str | None:
        """Why the AI's run stopped at this version of the game, if it failed there."""
        trouble = self.runner.trouble(folded.id, folded.version)
        return None if trouble is None else trouble.sentence

    def ai_dice(
        self,
        game: str,
        side: str,
        token: str,
        dice: Sequence[str],
        *,
        expect: int | None,
        command: str | None = None,
    ) -> list[AiMove]:
        """A player (``side``, its token checked) enters the physical dice of the AI's waiting
        command, decided at version ``expect`` (``command``: the one the page showed). Too
        few dice: DiceWanted, naming the rolls still to enter; nothing is stored. The command
        is played before the answer (its dice are checked); the AI's next ones follow in the
        background."""
        keys = self.ai.sides(game)
        with self.locks.hold(game):
            self.service.authorize(game, side, token)
            if side in keys:
                raise BadInput("side", side, "the AI plays this side; its opponent rolls for it")
            if not keys:
                raise BadInput("game", game, "the AI plays no side of this game")
        if not dice:
            waiting = self.ai_waiting(self.call(lambda s: s.game(game), game))
            if waiting is None:
                raise BadInput("dice", "", "the AI's next command needs no dice now")
            raise DiceWanted(waiting)
        run = autoplay.play(
            self.service,
            game,
            keys,
            dice=dice,
            expect_version=expect,
            expect_command=command,
            limit=1,
            lock=self.locks.of(game),
            on_move=lambda move: self._noted(game, keys, move),
        )
        if run.waiting is not None and run.waiting.given:
            raise DiceWanted(run.waiting)  # the dice fell short: nothing of it was stored
        self.run_ai(game, player=(side, token))
        return [self._shown(m) for m in run.moves]

    def play_ai(self, game: str, forced: Mapping[str, str], stop: Callable[[], bool]) -> None:
        """The AI's turn of ``game``, one command at a time, each stored as its own version and
        noted for the pages at once; the lock is held only to read and to store (the runner's
        ``play``)."""
        keys = self.ai.sides(game)
        if keys:
            autoplay.play(
                self.service,
                game,
                keys,
                forced=forced,
                lock=self.locks.of(game),
                on_move=lambda move: self._noted(game, keys, move),
                stop=stop,
            )

    def _noted(self, game: str, keys: Mapping[str, str], move: autoplay.AiMove) -> None:
        """A command the AI (or a player's forced step) stored: the pages hear of it."""
        self.news.note(game, move.applied.version)
        if move.side in keys:  # the player's forced steps are not the AI's choices
            shown = self._shown(move)
            with self.locks.hold(game):
                kept = self.ai_moves.peek(game) or ()
                self.ai_moves.put(game, (*kept, shown)[-20:])  # the page shows the latest few

    @staticmethod
    def _shown(move: autoplay.AiMove) -> AiMove:
        rules, state = move.chosen_on.rules, move.chosen_on.state
        ai = spec_of(rules).ai(rules)
        note = None if ai is None else ai.ai_note(state, move.side, move.text)
        return AiMove(move.side, move.text, move.applied.version, note)

    def _to_move(self, game: str) -> str | None:
        folded = self.call(lambda s: s.game(game), game)
        return folded.rules.to_move(folded.state)
