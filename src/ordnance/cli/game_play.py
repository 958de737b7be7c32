"""``ordnance game play GAME --side S``: play one side in a terminal loop (:mod:`.play_loop`).

The side's token comes as for ``game do`` (``--token-file``, ``$ORDNANCE_TOKEN``, ``--token``).
The game is a database's (``--db``) or a served table's (``--server URL``). At a table the
server plays its AI sides; with a database the AI plays the sides whose tokens this machine
keeps (:mod:`ordnance.game.ai_tokens`): ``--ai-token-file`` gives one, once, and from then
on the AI also answers every ``game do`` of that game, as on the web table.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ordnance.cli.game_common import Db, GameId, Server, Side, guard, open_service
from ordnance.cli.groups import game_app
from ordnance.cli.tokens import Token, TokenFile, resolve_token
from ordnance.core.errors import BadInput

if TYPE_CHECKING:
    from ordnance.cli.play_loop import PlayLoop
    from ordnance.cli.play_table import Seat
    from ordnance.game.service import GameService

AiTokenFile = Annotated[
    list[Path] | None,
    typer.Option(
        "--ai-token-file",
        metavar="PATH",
        help="The token of a side the scenario gives the AI ('ai: true'), kept here from now"
        " on: the AI plays that side in the loop and after every 'game do'. Repeat for each"
        " AI side. Not with --server (the server plays its AI sides).",
    ),
]


@game_app.command("play")
def play_command(
    game: GameId,
    *,
    side: Side,
    token: Token = None,
    token_file: TokenFile = None,
    ai_token_file: AiTokenFile = None,
    db: Db = None,
    server: Server = None,
) -> None:
    """Play a side in a loop: a prompt listing what you may do, Tab completion, '? COMMAND'
    for the exact odds before a roll, undo, status, log, help, quit; the other side's actions
    are shown as they come, and the AI's sides play themselves."""
    from ordnance.cli.play_table import (  # noqa: PLC0415
        LocalSeat,
        RemoteSeat,
        ai_sides_of,
        check_side,
    )

    secret = resolve_token(token, token_file)
    if server is not None:
        if ai_token_file:
            raise BadInput("option", "--ai-token-file", "a served table plays its AI sides itself")
        remote = RemoteSeat(server, game, side, secret)
        remote.status()  # an unknown game or side: one line before the loop starts
        _run(remote)
        return
    with open_service(db) as service:
        guard(service, game)
        service.authorize(game, side, secret)  # a wrong token: refused before the loop
        check_side(service.game(game), side)
        ai = keep_ai_tokens(service, game, side, ai_token_file or [])
        for left in ai_sides_of(service.game(game)):
            if left != side and left not in ai:
                sys.stdout.write(
                    f"The AI plays {left} in this scenario, but its token is not kept here:"
                    " give it once with --ai-token-file, or the loop waits for whoever plays"
                    f" {left} ('game ai', another 'game play').\n"
                )
        _run(LocalSeat(service, game, side, secret, ai))


def keep_ai_tokens(service: GameService, game: str, side: str, files: list[Path]) -> dict[str, str]:
    """Keep the AI tokens of ``files`` (each checked: the token of a side the scenario gives
    the AI, not ``side``); the tokens kept for ``game``'s other sides."""
    from ordnance.cli.play_table import ai_sides_of  # noqa: PLC0415
    from ordnance.game.ai_tokens import AiTokens  # noqa: PLC0415
    from ordnance.game.errors import NotAuthorized  # noqa: PLC0415

    kept = AiTokens.in_folder(service.keys.path)
    marked = ai_sides_of(service.game(game))
    ai_sides = [s for s in marked if s != side]
    found: dict[str, str] = {}
    for path in files:  # every file checked before any token is kept
        if not ai_sides:
            raise BadInput(
                "AI token file",
                str(path),
                f"the AI plays no other side of this game (its scenario gives it:"
                f" {', '.join(marked) or 'none'})",
            )
        secret = resolve_token(None, path)
        for ai_side in ai_sides:
            try:
                service.authorize(game, ai_side, secret)
            except NotAuthorized:
                continue
            found[ai_side] = secret
            break
        else:
            raise BadInput(
                "AI token file",
                str(path),
                f"not the token of a side the AI plays here ({', '.join(ai_sides)})",
            )
    for ai_side, secret in found.items():
        kept.put(game, ai_side, secret)
    return {s: t for s, t in kept.sides(game).items() if s != side}


def _run(seat: Seat) -> None:
    """The loop at ``seat``, reading lines with Tab completion of its words (readline)."""
    from ordnance.cli.play_loop import PlayLoop  # noqa: PLC0415

    loop = PlayLoop(seat)
    _complete_with(loop)
    loop.run()


def _complete_with(loop: PlayLoop) -> None:
    """Tab completes the words the loop offers at its prompt (none where readline is absent)."""
    try:
        import readline  # noqa: PLC0415  (absent on some systems: no completion then)
    except ImportError:
        return
    from ordnance.cli.play_words import complete  # noqa: PLC0415

    found: list[str] = []

    def completer(text: str, index: int) -> str | None:
        if index == 0:
            found[:] = complete(loop.words, text)
        return found[index] if index < len(found) else None

    readline.set_completer_delims(" \t,")
    readline.set_completer(completer)
    readline.parse_and_bind("tab: complete")
