"""``ordnance game ai GAME --side S --token T [--dice W,C ...]``: let the AI play a side.

The AI sends its side's commands (through the same checks as anyone's) until the decision is
another side's, or, with physical dice, until a command that rolls needs the dice a player
rolls for it (:mod:`ordnance.game.autoplay`, which the web table's AI uses too). Any game whose
spec offers an AI (``Feature.AI``) plays here; another is refused with its name.

Errors are raised and printed as one line by ``ordnance.cli.app.main``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from ordnance.cli.game_common import (
    AsJson,
    Db,
    GameId,
    Side,
    guard,
    open_service,
    print_applied,
    shown,
)
from ordnance.cli.groups import game_app
from ordnance.cli.output import console, emit_json
from ordnance.cli.tokens import Token, TokenFile, resolve_token

if TYPE_CHECKING:
    from ordnance.core.ruleset import Ruleset
    from ordnance.game.service import Applied

AiDice = Annotated[
    list[str] | None,
    typer.Option(
        "--dice",
        metavar="W,C",
        help="With 'dice: physical': the dice of the AI's next command, in the order it rolls"
        " (W,C for two dice, N for one); repeat for each roll. Without them the AI stops at"
        " its first command that rolls and says which rolls to enter.",
    ),
]


@game_app.command("ai")
def ai_command(
    game: GameId,
    *,
    side: Side,
    token: Token = None,
    token_file: TokenFile = None,
    dice: AiDice = None,
    keep: Annotated[
        bool,
        typer.Option(
            "--keep",
            help="Keep the side's token here: from now on the AI answers every 'game do' and"
            " 'game play' of this game by itself (as 'game play --ai-token-file').",
        ),
    ] = False,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Let the AI play a side the scenario gives it: it sends that side's commands (checked
    like anyone's) until the next decision belongs to the other side. With physical dice it
    stops at a command that rolls (exit 2, the rolls to enter named) until --dice gives them."""
    from ordnance.game import autoplay  # noqa: PLC0415

    secret = resolve_token(token, token_file)
    with open_service(db) as service:
        guard(service, game)
        service.authorize(game, side, secret)  # first: a wrong token is refused even when idle
        # A ruleset without an AI, or a side the scenario does not give it, is refused at once.
        autoplay.ai_choice(service.game(game), side)
        if keep:
            from ordnance.game.ai_tokens import AiTokens  # noqa: PLC0415

            AiTokens.in_folder(service.keys.path).put(game, side, secret)
        run = autoplay.play(service, game, {side: secret}, dice=dice or ())
        folded = service.game(game)
    shown(game, folded.version, folded.head)
    applied = [move.applied for move in run.moves]
    to_move = folded.rules.to_move(folded.state)
    explanation = f"The AI sent {len(applied)} command(s) for {side}; {to_move or 'nobody'} to act."
    waiting = run.waiting
    if waiting is not None:
        explanation += " " + waiting.sentence()
    if as_json:
        emit_json(
            {
                "game": game,
                "side": side,
                "commands": [a.to_json() for a in applied],
                "version": folded.version,
                "to_move": to_move,
                "waiting": None if waiting is None else waiting.to_json(),
                "needs_dice": [] if waiting is None else [r.to_json() for r in waiting.rolls],
                "clauses": _clauses(folded.rules, applied, waiting is not None),
                "explanation": explanation,
            }
        )
    else:
        for one in applied:
            print_applied(one, False, folded.rules)
        console.print(Text(explanation))
    if waiting is not None:
        # Input is needed: the exit code of bad input, the one line on stderr as for any.
        raise autoplay.DiceWanted(waiting)


def _clauses(rules: Ruleset[Any], applied: list[Applied], waits: bool) -> list[str]:
    """What the AI's turn cites: the game's sequence of play, each command's own clauses, and
    the dice rule when a command waits for physical dice."""
    from ordnance.game.registry import spec_of  # noqa: PLC0415

    cited = list(spec_of(rules).ai_clauses)
    for one in applied:
        cited += [] if one.ruling is None else list(one.ruling["clauses"])
    return list(dict.fromkeys([*cited, *(["SYS.dice"] if waits else [])]))
