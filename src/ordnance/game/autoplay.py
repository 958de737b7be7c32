"""The AI's turn, shared by ``game ai`` and the web table: it plays while the decision is a
side it holds the token of, until another side must act or its command needs physical dice.

Each command the AI chooses goes through :meth:`GameService.do` like anyone's, decided on the
version it was chosen at (a game another writer moved meanwhile stops the turn: that writer's
AI carries on). With ``dice: physical`` a command that rolls is not sent until its dice are
given: :func:`play` stops with an :class:`AiWaits` that names the command and the rolls it
needs (:mod:`.rolls`), and nothing of that command is stored. The AI's choice is a function of
the state (``ai_command`` is deterministic), so the same version gives the same command when
the dice come, in this process or another.

Dice given to :func:`play` are for the AI's next command, which must be one that rolls; its
later commands are played as before (until the next roll, or the next other decision).

A player is not asked what is no choice: during the AI's turn the human side's only legal
action, when it is ``pass`` (letting the AI's move go on unanswered) or ``phase next`` in a
Player Turn that is not its own, is played for it (:func:`forced_choice`) with the token of the
player whose action set the AI going. Anything with a second option is left to the player.

A server plays the AI in the background (:mod:`ordnance.web.ai_runner`): :func:`play` then
takes the server's ``lock`` only to read the game and to store a command, never while the AI
thinks (its choice is made on the folded game, a frozen value), reports each stored command
through ``on_move`` as it goes, and asks ``stop`` between commands (a server shutting down).
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from ordnance.core.errors import BadInput
from ordnance.game.errors import StaleState
from ordnance.game.fold import Game
from ordnance.game.legal import legal_actions
from ordnance.game.registry import spec_of
from ordnance.game.rolls import NeededRoll, entered_dice, needed_rolls
from ordnance.game.service import Applied, GameService
from ordnance.game.state_view import state_view

# The AI stops after this many commands in a row (a guard; a V&V phase takes a handful).
MAX_AI_COMMANDS = 200


@dataclass(frozen=True)
class AiMove:
    """One command the AI sent for ``side``, the game it chose it on, what the service stored."""

    side: str
    text: str
    applied: Applied
    chosen_on: Game


@dataclass(frozen=True)
class AiWaits:
    """The AI's command held back for physical dice: the rolls still to enter, in order, after
    the ``given`` ones (``more``: a roll may follow that depends on their faces)."""

    side: str
    text: str
    version: int
    given: tuple[str, ...]
    rolls: tuple[NeededRoll, ...]
    more: bool
    # What the given dice are for, in order.
    done: tuple[NeededRoll, ...] = ()

    @property
    def entered(self) -> list[tuple[NeededRoll, str]]:
        """Each given roll with what it is for."""
        return list(zip(self.done, self.given, strict=True))

    @property
    def dice_options(self) -> str:
        """The ``--dice`` options that would play it (the given dice, then a form per roll)."""
        forms = [*self.given, *(r.form for r in self.rolls)]
        return " ".join(f"--dice {f}" for f in forms)

    def sentence(self) -> str:
        """What the player reads: the command, each roll (numbered in the command's order)."""
        rolls = "; ".join(
            [f"roll {i + 1} - {r.text}: {d}" for i, (r, d) in enumerate(self.entered)]
            + [f"roll {len(self.given) + i + 1} - {r.text}" for i, r in enumerate(self.rolls)]
        )
        later = " (more rolls may follow, depending on these)" if self.more else ""
        return (
            f"The AI ({self.side}) wants to play '{self.text}' with physical dice: {rolls}"
            f"{later}. Give {self.dice_options}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "command": self.text,
            "version": self.version,
            "dice_given": [{**r.to_json(), "entered": d} for r, d in self.entered],
            "needs_dice": [r.to_json() for r in self.rolls],
            "more_may_follow": self.more,
            "explanation": self.sentence(),
        }


class DiceWanted(BadInput):
    """The AI's command waits for physical dice (bad input: input is missing)."""

    def __init__(self, waits: AiWaits) -> None:
        super().__init__("dice", " ".join(waits.given), waits.sentence())
        self.waits = waits

    def __str__(self) -> str:
        return f"dice needed: {self.waits.sentence()}"


@dataclass
class AiRun:
    """What :func:`play` did: the commands sent, and the command waiting for dice, if any."""

    moves: list[AiMove] = field(default_factory=list)
    waiting: AiWaits | None = None


def ai_choice(game: Game, side: str) -> str | None:
    """The AI's next command for ``side`` (None: not its decision); BadInput for a ruleset
    without an AI."""
    ai = spec_of(game.rules).ai(game.rules)
    if ai is None:
        raise BadInput("game", game.id, f"the {game.scenario.ruleset} ruleset has no AI")
    return ai.ai_command(game.state, side)


# What a side may be left with when it has nothing to decide (its only legal action).
NO_CHOICE = ("pass", "phase next")


def forced_choice(game: Game, side: str) -> str | None:
    """The command ``side`` would send because it is its only one, when that is no choice:
    ``pass``, or ``phase next`` in another side's Player Turn; with physical dice only one
    that rolls nothing. None when the side has anything to decide."""
    if game.rules.to_move(game.state) != side:
        return None
    actions = legal_actions(game, side)
    if len(actions) != 1 or actions[0] not in NO_CHOICE:
        return None
    only = actions[0]
    if only == "phase next" and state_view(game).get("player") in (None, side):
        return None  # its own Player Turn: the player ends its phases when it wants
    if game.dice.mode == "physical":
        command = game.rules.parse_command(side, shlex.split(only))
        if needed_rolls(game.rules, game.state, command, []).rolls:
            return None
    return only


def _choice(game: Game, side: str) -> str | None:
    """:func:`ai_choice`, None for a ruleset without an AI (nothing to play)."""
    ai = spec_of(game.rules).ai(game.rules)
    return None if ai is None else ai.ai_command(game.state, side)


def waiting_for(game: Game, side: str, given: Sequence[str] = ()) -> AiWaits | None:
    """The AI's command for ``side`` at this state when it needs physical dice beyond
    ``given``, else None (a fair game, not the AI's decision, or enough dice)."""
    if game.dice.mode != "physical" or game.rules.to_move(game.state) != side:
        return None
    text = _choice(game, side)
    if text is None:
        return None
    command = game.rules.parse_command(side, shlex.split(text))
    needed = needed_rolls(game.rules, game.state, command, entered_dice(given))
    if not needed.rolls:
        return None
    return AiWaits(side, text, game.version, tuple(given), needed.rolls, needed.more, needed.given)


def play(
    service: GameService,
    game_id: str,
    tokens: Mapping[str, str],
    *,
    dice: Sequence[str] = (),
    expect_version: int | None = None,
    expect_command: str | None = None,
    limit: int = MAX_AI_COMMANDS,
    forced: Mapping[str, str] | None = None,
    lock: AbstractContextManager[Any] | None = None,
    on_move: Callable[[AiMove], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> AiRun:
    """Let the AI act for the sides in ``tokens`` while the next decision is theirs.

        ``forced``: the tokens of human sides whose decisions with no choice
        (:func:`forced_choice`) are played for them meanwhile, so the AI's turn goes on.

        ``lock`` (reusable, e.g. a ``threading.RLock``) is held only while the game is read and
        while a command is stored; ``on_move`` is told of each stored command at once (outside
        the lock); ``stop`` is asked before each command is chosen and again before it is stored,
    and ends the run when it says so.

        ``dice``: the physical dice of the AI's next command, which must roll (BadInput
        otherwise, before anything is stored). ``expect_version`` and ``expect_command``: the
        version and the AI's command the dice were entered for (the page that asked); a game that
        moved on is StaleState, a different choice BadInput, and nothing is stored.
    """
    run = AiRun()
    given = [d.strip() for d in dice]
    guard: AbstractContextManager[Any] = lock if lock is not None else contextlib.nullcontext()

    def store(side: str, token: str, words: list[str], game: Game) -> Applied | None:
        """The command stored; None when the run is to stop (chosen, but the server stops)."""
        with guard:
            if stop is not None and stop():
                return None
            return service.do(game_id, side, token, words, expect_version=game.version)

    for count in range(limit):
        if stop is not None and stop():
            break
        with guard:
            game = service.game(game_id)
        if count == 0 and expect_version is not None and expect_version != game.version:
            raise StaleState(game_id, expect_version, game.version)
        side = game.rules.to_move(game.state)
        text = _choice(game, side) if side is not None and side in tokens else None
        if count == 0 and given:
            _check_dice_for(game, side, text, expect_command)
        if side is not None and text is None and forced and side in forced:
            text = forced_choice(game, side)
            if text is not None:
                try:
                    applied = store(side, forced[side], shlex.split(text), game)
                except StaleState:
                    break
                if applied is None:
                    break
                _moved(run, AiMove(side, text, applied, game), on_move)
                continue
        if side is None or text is None:
            break
        words = shlex.split(text)
        if game.dice.mode == "physical":
            waits = waiting_for(game, side, given)
            if waits is not None:
                run.waiting = waits
                break
            for entered in given:
                words += ["--dice", entered]
            given = []
        try:
            applied = store(side, tokens[side], words, game)
        except StaleState:
            if count == 0 and expect_version is not None:
                raise
            break  # another writer moved the game first; its AI carries on
        if applied is None:
            break
        _moved(run, AiMove(side, text, applied, game), on_move)
    return run


def _moved(run: AiRun, move: AiMove, on_move: Callable[[AiMove], None] | None) -> None:
    run.moves.append(move)
    if on_move is not None:
        on_move(move)


def _check_dice_for(game: Game, side: str | None, text: str | None, expected: str | None) -> None:
    """Dice are given for the AI's next command: there must be one, that rolls, and (when the
    page that asked names it) the same one."""
    if game.dice.mode != "physical":
        raise BadInput("dice", "", "this game rolls fair dice; --dice is for 'dice: physical'")
    if side is None or text is None:
        raise BadInput("dice", "", "the AI has no decision to make now, so no dice to roll")
    if expected is not None and expected != text:
        raise BadInput(
            "command", expected, f"the AI's command at this version is '{text}'; enter its dice"
        )
    command = game.rules.parse_command(side, shlex.split(text))
    if not needed_rolls(game.rules, game.state, command, []).rolls:
        raise BadInput("dice", "", f"the AI's next command '{text}' rolls no dice")
