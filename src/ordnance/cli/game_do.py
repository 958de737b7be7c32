"""``ordnance game do``'s command line: its own options, then the game's command words.

The words after GAME belong to the game (``fire pak --ammo AP``): the ruleset reads them with
the Click commands it builds from its command table (:mod:`ordnance.core.command_words`), in
the game service, so a remote table reads them the same way. ``game do``'s own options
(``--side``, ``--json``, ...) may stand anywhere among them, as before.

``--help`` after a verb asks for that game command's help, and ``--help`` after GAME alone for
the list of the game's commands. Which commands a game has depends on its ruleset, known only
once GAME is looked up: the help needs a game that exists (in the database, or at
``--server``), but neither ``--side`` nor a token, since it shows nothing of the game itself.
``--help`` before GAME is ``game do``'s own help.

>>> scan(["g1", "--side", "german", "--json", "fire", "pak", "--help"], {"--side"})
Scan(game='g1', verb=4, help=6, values={'--side': 'german'}, incomplete=False)
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import typer.core

from ordnance.core.errors import BadInput

if TYPE_CHECKING:
    from ordnance.core.command_words import CommandTable
    from ordnance.core.ruleset import Ruleset
    from ordnance.game.autoplay import AiRun
    from ordnance.game.service import Applied, GameService

HELP = ("--help",)


@dataclass
class Scan:
    """Where things stand in ``game do``'s words: GAME, the verb's index, ``--help``'s index,
    the values of ``game do``'s own options seen, and whether one of them lacks its value."""

    game: str | None = None
    verb: int | None = None
    help: int | None = None
    values: dict[str, str] = field(default_factory=dict)
    incomplete: bool = False


def scan(args: Sequence[str], valued: Collection[str]) -> Scan:
    """Walk ``args`` as Click would: ``valued`` options take the next word as their value."""
    found = Scan()
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            break
        if word in HELP and found.help is None:
            found.help = index
        elif word.startswith("-") and word != "-":
            name, equals, value = word.partition("=")
            if name in valued and not equals and index + 1 < len(args):
                found.values[name] = args[index + 1]
                index += 1
            elif name in valued and equals:
                found.values[name] = value
            elif name in valued:
                found.incomplete = True  # Click says so, in its own words
        elif found.game is None:
            found.game = word
        elif found.verb is None:
            found.verb = index
        index += 1
    return found


class GameDoCommand(typer.core.TyperCommand):
    """``game do``: ``--help`` after GAME shows the game's commands, not ``game do``'s."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        # Typer carries its own copy of Click: its parameters are known by their kind's name.
        valued = {
            name
            for param in self.params
            if param.param_type_name == "option" and not getattr(param, "is_flag", False)
            for name in param.opts
        }
        found = scan(args, valued)
        asks = found.help is not None and found.game is not None and not found.incomplete
        if asks and (found.verb is None or (found.help or 0) > found.verb):
            assert found.game is not None
            words = [] if found.verb is None else [args[found.verb]]
            server, db = found.values.get("--server"), found.values.get("--db")
            sys.stdout.write(game_help(found.game, words, db=db, server=server))
            ctx.exit(0)
        return super().parse_args(ctx, args)


def game_help(game: str, words: Sequence[str], *, db: str | None, server: str | None) -> str:
    """The help of one of the game's commands (``words``: its verb), or of them all."""
    table = command_table(game, db=db, server=server)
    return table_help(table, game, table.verb(words) if words else None)


def table_help(table: CommandTable, game: str, verb: str | None, width: int | None = None) -> str:
    """The help of one command of ``table`` (or the list of them all, ``verb`` None), as
    ``game do GAME ... COMMAND --help`` prints it; ``width`` fixes the line width.

    >>> from ordnance.game.registry import ruleset
    >>> print(table_help(ruleset("lnl").commands, "GAME", "mg", width=80))
    Usage: ordnance game do GAME --side SIDE mg [OPTIONS] UNIT
    <BLANKLINE>
      Fire the vehicle's MGs (after its shell, or on their own).
    <BLANKLINE>
    Options:
      --at HEX  The hex fired at.  [required]
      --help    Show this message and exit.
    <BLANKLINE>
      UNIT: The unit's id in the scenario.
    <BLANKLINE>
    """
    import click  # noqa: PLC0415  (Click itself, not Typer's copy: only for this help)

    group = table.group("do", "The commands of this game. Help for one: COMMAND --help.")
    parent = click.Context(
        group,
        info_name=f"ordnance game do {game} --side SIDE",
        terminal_width=width,
        max_content_width=width,
    )
    if verb is None:
        return parent.get_help() + "\n"
    command = table.commands[verb]
    return click.Context(command, info_name=verb, parent=parent).get_help() + "\n"


def command_table(game: str, *, db: str | None, server: str | None) -> CommandTable:
    """The command table of the ruleset ``game`` is played with (the game must exist)."""
    from ordnance.game.registry import spec  # noqa: PLC0415

    name = _ruleset_name(game, db=db, server=server)
    made = spec(name)
    rules = made.commands(made.ruleset())
    if rules is None:
        raise BadInput("game", game, f"its ruleset {name!r} lists no commands")
    return rules.commands


def _ruleset_name(game: str, *, db: str | None, server: str | None) -> str:
    if server is not None:
        from ordnance.cli import remote  # noqa: PLC0415

        status = remote.status(server, game, None)
        return str(status.get("ruleset", ""))
    from ordnance.game.service import GameService  # noqa: PLC0415

    service = GameService(db)
    try:
        service.store.version(game)  # the one sentence for a game that is not there
        return next(name for found, name, _ in service.store.game_ids() if found == game)
    finally:
        service.close()


def ai_after(service: GameService, game: str, side: str, token: str) -> AiRun | None:
    """After ``side``'s command: the AI plays the sides whose tokens this machine keeps
    (``game play --ai-token-file``: :mod:`ordnance.game.ai_tokens`) while the decision is
    theirs, taking ``side``'s steps that are no choice meanwhile, as the web table does after
    any command.
    None when the AI plays no side of ``game`` here. The player's command is stored already:
    an AI that cannot play says why in the run, never undoes it."""
    from ordnance.core.errors import OrdnanceError  # noqa: PLC0415
    from ordnance.game import autoplay  # noqa: PLC0415
    from ordnance.game.ai_tokens import AiTokens  # noqa: PLC0415

    moves: list[autoplay.AiMove] = []
    try:
        kept = AiTokens.in_folder(service.keys.path).sides(game)
        kept = {s: t for s, t in kept.items() if s != side}
        if not kept:
            return None
        run = autoplay.play(service, game, kept, forced={side: token}, on_move=moves.append)
    except OrdnanceError as error:
        sys.stderr.write(f"ordnance: the AI could not play: {error}\n")
        return autoplay.AiRun(moves)
    return run


def print_with_ai(
    applied: Applied, as_json: bool, rules: Ruleset[Any] | None, run: AiRun | None
) -> None:
    """The command as ``game do`` prints it, then what the AI did after it (JSON: ``ai``, its
    commands and the command waiting for physical dice)."""
    from ordnance.cli.game_common import print_applied  # noqa: PLC0415

    if run is None:
        print_applied(applied, as_json, rules)
        return
    waiting = run.waiting
    if as_json:
        from ordnance.cli.output import emit_json  # noqa: PLC0415

        ai = {
            "commands": [m.applied.to_json() for m in run.moves],
            "waiting": None if waiting is None else waiting.to_json(),
        }
        emit_json({**applied.to_json(), "ai": ai})
        return
    print_applied(applied, False, rules)
    for move in run.moves:
        print_applied(move.applied, False, rules)
    if waiting is not None:
        sys.stdout.write(f"{waiting.sentence()} (game ai --side {waiting.side} ... --dice)\n")
