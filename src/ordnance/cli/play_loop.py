"""The loop of ``ordnance game play``: one side at a terminal, until the game is over.

Each turn round the loop: the AI plays while the decision is its (here, or the server's), each
log entry since the last look is said in one sentence (:mod:`ordnance.game.news`, the web
table's notices), then either the player is asked (the prompt lists what the side may do now),
or the loop waits for the other side, polling the game's version, until it is the player's
decision again (Ctrl-C gives the prompt back meanwhile). With physical dice the loop asks for
each die a command rolls, the player's own and the AI's, in the order they are rolled.

Errors of one command (refused, bad words, a stale version) are one line, and the loop goes on;
nothing is stored of a command that failed.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ordnance.cli import play_words
from ordnance.cli.game_common import shown
from ordnance.core.errors import OrdnanceError
from ordnance.game.legal import legal_actions

if TYPE_CHECKING:
    from ordnance.cli.play_table import Seat, Waiting
    from ordnance.game.fold import Game

# Seconds between two looks at the game's version while the other side acts.
POLL = 0.2
WIDTH = 80
LOG_LINES = 10

Ask = Callable[[str], str]


class Quit(Exception):
    """The player leaves the loop (``quit``, Ctrl-D)."""


class PlayLoop:
    """One side's loop at ``seat``; ``ask`` reads a line (``input``; EOFError ends the loop)."""

    def __init__(self, seat: Seat, ask: Ask = input, *, poll: float = POLL) -> None:
        self.seat = seat
        self.ask = ask
        self.poll = poll
        self.seen = 0  # the version whose entries have all been said
        self.words: list[str] = []  # what Tab completes now
        self.listed = -1  # the version whose actions were last listed

    # --- the loop ------------------------------------------------------------------------------

    def run(self) -> None:
        game = self.seat.game()
        self.say(
            f"Game {game.id}: {game.scenario.name} ({game.scenario.ruleset}); you play"
            f" {self.seat.side}; dice: {game.dice.mode}. Type 'help' for the loop's words."
        )
        self.seen = max(0, game.version - 3)  # the last few entries, for where things stand
        try:
            while self.step():
                pass
        except (Quit, KeyboardInterrupt):  # Ctrl-C while the AI or the service works: leave
            self.say("Left the game; it stays where it is ('game play' again to go on).")

    def step(self) -> bool:
        """One round of the loop; False once the game is over."""
        waiting = self.guarded(lambda: self.seat.ai_turn(self.tell))
        self.tell()
        game = self.seat.game()
        if game.rules.is_over(game.state):
            self.say(self.stage(game))
            return False
        if waiting is not None and waiting.side != self.seat.side:
            self.roll_for_ai(game, waiting)
            return True
        if game.rules.to_move(game.state) != self.seat.side or self.seat.ai_busy():
            if not self.wait(game):
                self.prompt(game, acting=False)  # Ctrl-C: the loop's words, then wait again
            return True
        self.prompt(game, acting=True)
        return True

    def guarded(self, action: Callable[[], Any]) -> Any:
        """Run ``action``; an error of the game is said in one line (None then)."""
        try:
            return action()
        except OrdnanceError as error:
            self.say(str(error))
            return None

    def say(self, text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def tell(self) -> None:
        """Say each entry stored since the last look, one sentence each."""
        from ordnance.game.news import news_since  # noqa: PLC0415

        log = self.seat.log()
        if not log or log[-1].seq < self.seen:
            self.seen = len(log)
            return
        game = self.seat.game()
        for sentence in news_since(log, self.seen, game.rules, limit=len(log)):
            self.say(f"* {sentence}")
        self.seen = log[-1].seq + 1
        shown(game.id, game.version, game.head)  # the receipt of what the player was shown

    def stage(self, game: Game) -> str:
        from ordnance.cli.status_text import stage_line  # noqa: PLC0415

        rules, state = game.rules, game.state
        status = {
            "state": rules.view(state),
            "over": rules.is_over(state),
            "to_move": rules.to_move(state),
        }
        return stage_line(status)

    def wait(self, game: Game) -> bool:
        """Wait until the game moves on (True), or the player presses Ctrl-C (False)."""
        mine = game.rules.to_move(game.state) == self.seat.side
        try:
            self.say(f"{self.stage(game)} Waiting... (Ctrl-C: the prompt)")
            # The served AI may have stopped at this very version (its turn is over): the
            # status read with the version says so.
            while self.seat.version() == game.version and not (mine and not self.seat.ai_busy()):
                time.sleep(self.poll)
        except KeyboardInterrupt:
            self.say("")
            return False
        return True

    # --- the prompt ----------------------------------------------------------------------------

    def prompt(self, game: Game, *, acting: bool) -> None:
        side = self.seat.side
        actions = list(legal_actions(game, side)) if acting else []
        self.words = play_words.completions(game, side)
        if acting and self.listed != game.version:  # listed again only once it changed
            self.listed = game.version
            self.say(self.stage(game))
            for line in play_words.actions_lines(actions, WIDTH):
                self.say(line)
        try:
            line = self.ask(f"{side}> ")
        except EOFError:
            self.say("")
            raise Quit() from None
        except KeyboardInterrupt:
            self.say("")
            return
        self.guarded(lambda: self.handle(line, game, actions))

    def handle(self, line: str, game: Game, actions: Sequence[str]) -> None:
        try:
            words = shlex.split(line)
        except ValueError as error:
            self.say(f"bad input: {error}")
            return
        if not words:
            return
        if words[0] == "?" or words[-1] == "?" or words[-1].endswith("?"):
            rest = words[1:] if words[0] == "?" else [*words[:-1], words[-1].rstrip("?")]
            for text in play_words.odds_lines(game, self.seat.side, [w for w in rest if w]):
                self.say(text)
            return
        verb, args = words[0].lower(), words[1:]
        if verb in ("quit", "exit"):
            raise Quit()
        loop_word = getattr(self, f"do_{verb}", None)
        if loop_word is not None and verb in play_words.LOOP_WORDS:
            loop_word(game, args, actions)
            return
        self.command(game, words)

    def command(self, game: Game, words: list[str]) -> None:
        """A command of the game, sent for the side (its dice asked for first, if physical)."""
        side = self.seat.side
        to_move = game.rules.to_move(game.state)
        if to_move != side:
            self.say(f"Not your decision now: {to_move or 'nobody'} is to act.")
            return
        if game.dice.mode == "physical" and "--dice" not in words:
            dice = self.ask_dice(game, side, shlex.join(words))
            if dice is None:
                return
            words = [*words, *(w for d in dice for w in ("--dice", d))]
        self.seat.do(words, game.version)

    def roll_for_ai(self, game: Game, waiting: Waiting) -> None:
        self.say(f"The AI ({waiting.side}) plays '{waiting.text}': roll its dice.")
        dice = self.ask_dice(game, waiting.side, waiting.text)
        if dice is not None:
            self.guarded(lambda: self.seat.ai_dice(waiting, dice))

    def ask_dice(self, game: Game, side: str, text: str) -> list[str] | None:
        """Each physical die ``text`` rolls, asked in order; None when the player gives up
        (Ctrl-C, Ctrl-D) or the command is refused before any roll."""
        given: list[str] = []
        while True:
            try:
                rolls = play_words.needed(game, side, text, given)
            except OrdnanceError as error:
                self.say(str(error))
                if not given:
                    return None
                given.pop()  # the last die did not fit: asked again
                continue
            if not rolls:
                return given
            roll = rolls[0]
            try:
                answer = self.ask(f"  roll {len(given) + 1} - {roll.text}, as {roll.form}: ")
            except (EOFError, KeyboardInterrupt):
                self.say("\nNo dice entered: nothing was sent.")
                return None
            given.append(answer.strip())

    # --- the loop's own words ------------------------------------------------------------------

    def do_help(self, game: Game, args: list[str], actions: Sequence[str]) -> None:
        from ordnance.game.registry import spec_of  # noqa: PLC0415

        helped = spec_of(game.rules).commands(game.rules)
        if args and helped is not None:
            from ordnance.cli.game_do import table_help  # noqa: PLC0415

            table = helped.commands
            self.say(table_help(table, game.id, table.verb(args[:1]), WIDTH).rstrip())
            return
        self.say(play_words.HELP)
        if helped is not None:
            self.say("The game's commands: " + ", ".join(helped.commands.verbs))

    def do_actions(self, game: Game, args: list[str], actions: Sequence[str]) -> None:
        shown = [a for a in actions if not args or a.split(" ", 1)[0] == args[0]]
        for action in shown or ["(none)"]:
            self.say(f"  {action}")

    def do_status(self, game: Game, args: list[str], actions: Sequence[str]) -> None:
        from ordnance.cli.output import console  # noqa: PLC0415
        from ordnance.cli.status_text import status_renderables  # noqa: PLC0415

        for part in status_renderables(self.seat.status()):
            console.print(part)

    def do_log(self, game: Game, args: list[str], actions: Sequence[str]) -> None:
        from ordnance.core.errors import BadInput  # noqa: PLC0415
        from ordnance.game.news import sentences  # noqa: PLC0415

        said = sentences(self.seat.log(), game.rules)
        if args and args[0] != "all" and not args[0].isdigit():
            raise BadInput("log", args[0], "give a number of lines, or 'all'")
        count = len(said) if args and args[0] == "all" else int(args[0]) if args else LOG_LINES
        for seq, sentence in said[-count:] if count else []:
            self.say(f"{seq:>4}  {sentence}")

    def do_undo(self, game: Game, args: list[str], actions: Sequence[str]) -> None:
        self.seat.undo(game.version)
