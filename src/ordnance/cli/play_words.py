"""What ``game play`` shows and completes: the actions of the prompt, the words Tab completes,
the exact odds of a command before its roll (``?``), and the dice a command asks for.

Nothing here decides a rule: the actions are the ruleset's ``legal_actions``, the odds its
``chance_outcomes`` (SYS.odds), the rolls those :func:`~ordnance.game.rolls.needed_rolls` finds.

>>> actions_lines(["phase next", "fire a1 --at F6", "fire a2 --at F6", "pass"], 80)
['You may: phase next, pass, fire ... (2 ways)']
>>> actions_lines(["pass", "mg a", "mg b", "wp-shell a", "wp-shell b"], 36)
['You may: pass, mg ... (2 ways),', '  wp-shell ... (2 ways)']
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from ordnance.core.errors import IllegalAction, OrdnanceError
from ordnance.game.legal import legal_actions
from ordnance.game.registry import spec_of

if TYPE_CHECKING:
    from ordnance.game.fold import Game
    from ordnance.game.rolls import NeededRoll

# The loop's own words (beside the game's commands).
LOOP_WORDS = ("actions", "help", "log", "quit", "status", "undo")


def actions_lines(actions: Sequence[str], width: int) -> list[str]:
    """The legal actions as the prompt lists them, wrapped at ``width``: a verb with one way
    in full, a verb with several as ``VERB ... (N ways)`` (``actions`` lists them all)."""
    if not actions:
        return ["Nothing to do now."]
    by_verb: dict[str, list[str]] = {}
    for action in actions:
        by_verb.setdefault(action.split(" ", 1)[0], []).append(action)
    single = [ways[0] for ways in by_verb.values() if len(ways) == 1]
    many = [f"{verb} ... ({len(ways)} ways)" for verb, ways in by_verb.items() if len(ways) > 1]
    items = [*single, *many]
    lines, line = [], "You may:"
    for index, item in enumerate(items):
        piece = item + ("," if index < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > width and line.strip() != "You may:":
            lines.append(line)  # an action is never split between two lines
            line = " "
        line += " " + piece
    return [*lines, line]


def completions(game: Game, side: str) -> list[str]:
    """The words Tab completes: the loop's words, the game's commands, unit names and the
    map's hexes, and every word of the side's legal actions now (options such as ``--at``).

    Only what any player may see: the game's view, never a hidden value."""
    words: set[str] = set(LOOP_WORDS)
    spec, rules = spec_of(game.rules), game.rules
    helped, units, on_map = spec.commands(rules), spec.counters(rules), spec.map_rules(rules)
    if helped is not None:
        words.update(helped.commands.verbs)
    if units is not None:
        words.update(c.unit for c in units.counters(game.state))
    live = None if on_map is None else on_map.live_map(game.state)
    if live is not None:
        board = live[0]
        words.update(board.label(h) for h in board)
    if side in game.sides:
        for action in legal_actions(game, side):
            for word in action.split():
                words.update(w for w in word.split(",") if w)
    return sorted(words)


def complete(candidates: Iterable[str], text: str) -> list[str]:
    """The candidates that start with ``text`` (case-insensitively).

    >>> complete(["phase", "pass", "fire", "F6"], "p")
    ['pass', 'phase']
    >>> complete(["F6", "F7", "fire"], "f")
    ['F6', 'F7', 'fire']
    """
    low = text.lower()
    return sorted(c for c in candidates if c.lower().startswith(low))


def odds_lines(game: Game, side: str, words: Sequence[str]) -> list[str]:
    """The exact odds of ``words`` for ``side`` before any roll, one outcome a line, or the
    one line that says why there are none (refused, rolls nothing, no odds in this ruleset).

    Nothing is rolled or stored: the odds are the ruleset's ``chance_outcomes``."""
    from ordnance.core.ruleset import ProbeDice, ProbeRolled  # noqa: PLC0415
    from ordnance.game.fairdice import split_dice  # noqa: PLC0415

    rest, _ = split_dice(words)
    if not rest:
        return ["Give the command to weigh, e.g. '? fire a1 --at F6' or 'fire a1 --at F6 ?'."]
    rules = game.rules
    text = shlex.join(rest)
    try:
        command = rules.parse_command(side, rest)
        rules.resolve(game.state, command, ProbeDice())
    except ProbeRolled:
        pass  # checked up to its first roll: legal, and it rolls
    except OrdnanceError as error:
        return [f"'{text}': {error}"]
    else:
        return [f"'{text}' rolls no dice: nothing is left to chance."]
    odds = spec_of(rules).odds(rules)
    if odds is None:
        return [f"'{text}' rolls, but the {game.scenario.ruleset} ruleset gives no odds yet."]
    try:
        distribution = odds.chance_outcomes(game.state, command)
    except IllegalAction as error:
        return [f"'{text}': {error}"]
    except OrdnanceError as error:
        return [f"No odds for '{text}': {error}"]
    items = list(distribution.items())
    with contextlib.suppress(TypeError):  # outcomes without an order keep the procedure's
        items.sort(key=lambda item: item[0])
    rows = [(str(outcome), Fraction(p)) for outcome, p in items]
    wide = max(len(label) for label, _ in rows)
    lines = [f"Odds of '{command.text or text}' (exact, before any roll):"]
    for label, p in rows:
        fraction = f"{p.numerator}/{p.denominator}"
        lines.append(f"  {label:<{wide}}  {fraction:>7}  {float(p * 100):6.2f}%")
    return lines


def needed(game: Game, side: str, text: str, given: Sequence[str]) -> tuple[NeededRoll, ...]:
    """The physical rolls ``text`` (a command of ``side``) still needs after ``given``."""
    from ordnance.game.rolls import entered_dice, needed_rolls  # noqa: PLC0415

    command = game.rules.parse_command(side, shlex.split(text))
    return needed_rolls(game.rules, game.state, command, entered_dice(given)).rolls


HELP = """\
Type a command of the game as 'game do' takes it (without --side), e.g. 'phase next'.
  ? COMMAND  or  COMMAND ?   the exact odds of COMMAND before any roll (nothing is sent)
  actions [VERB]             every action you may take now (or those of one verb)
  status                     where the game stands, as 'game status' shows it
  log [N]                    the last N sentences of the log (default 10; 'log all')
  undo                       take back your latest command (not past a revealed roll)
  help [COMMAND]             this text, or the options of one of the game's commands
  quit                       leave the loop (Ctrl-D too); the game stays where it is
Tab completes commands, units and hexes. While the other side acts the loop waits and shows
each of its actions; Ctrl-C gives the prompt back."""
