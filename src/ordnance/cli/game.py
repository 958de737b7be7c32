"""``ordnance game ...``: play a scenario through the game service.

Every command takes ``--db URL`` (default ``$ORDNANCE_DB``, else a SQLite file in the user's
data folder) and ``--json``. Commands that act for a side take ``--side`` and the token from
``--token-file``, ``$ORDNANCE_TOKEN`` or ``--token`` (:mod:`.tokens`). The client side of the
checks lives here: a fresh entropy with each command, and the receipt of the last head shown
(:mod:`ordnance.game.receipts`), which a later read must reach. Errors are raised and printed
as one line by ``ordnance.cli.app.main``; nothing is stored when a command fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from ordnance.cli.game_common import (
    AsJson,
    Db,
    ExpectVersion,
    GameId,
    Server,
    Side,
    check_entropy_used,
    guard,
    open_service,
    print_applied,
    read_file,
    rules_of,
    shown,
)
from ordnance.cli.game_do import GameDoCommand, ai_after, print_with_ai
from ordnance.cli.groups import game_app
from ordnance.cli.options import Force
from ordnance.cli.output import console, emit_json, titled_table
from ordnance.cli.tokens import (
    Token,
    TokenFile,
    private_stdout,
    resolve_token,
    token_paths,
    write_tokens,
)
from ordnance.core.errors import BadInput
from ordnance.core.outfiles import check_output, write_output
from ordnance.game.receipts import Receipts

if TYPE_CHECKING:
    from ordnance.core.ruleset import Ruleset
    from ordnance.game.service import Appended, NewGame


@game_app.command("new")
def new_command(
    scenario: Annotated[
        Path | None, typer.Argument(metavar="SCENARIO", help="A scenario YAML file.")
    ] = None,
    *,
    by_email: Annotated[
        str | None,
        typer.Option(
            "--by-email",
            metavar="SIDE",
            help="Play by e-mail: this copy plays SIDE, the other side is invited (--invite).",
        ),
    ] = None,
    invite: Annotated[
        Path | None,
        typer.Option("--invite", metavar="FILE", help="Where to write the invitation to send."),
    ] = None,
    db: Db = None,
    as_json: AsJson = False,
    from_vsav: Annotated[
        Path | None,
        typer.Option(
            "--from-vsav",
            metavar="FILE",
            help="ASL: start from a VASL save's AFVs and Guns (writes FILE's .scenario.yaml).",
        ),
    ] = None,
    vasl_templates: Annotated[
        str | None,
        typer.Option("--vasl-templates", metavar="DIR", help="With --from-vsav: counter data."),
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", metavar="YYYY-MM", help="With --from-vsav: scenario date, YYYY-MM."),
    ] = None,
    map_file: Annotated[
        str | None,
        typer.Option("--map", metavar="MAPFILE", help="With --from-vsav: the ASL map file."),
    ] = None,
    server: Server = None,
    ai: Annotated[
        list[str] | None,
        typer.Option(
            "--ai",
            metavar="SIDE",
            help="With --server: the table's AI plays SIDE (repeat for each side), in place of"
            " the sides the scenario marks 'ai: true' (V&V).",
        ),
    ] = None,
    no_ai: Annotated[
        bool,
        typer.Option("--no-ai", help="With --server: the table's AI plays no side."),
    ] = False,
    force: Force = False,
    tokens_dir: Annotated[
        Path | None,
        typer.Option(
            "--tokens",
            metavar="DIR",
            help="Write each side's token to DIR/SIDE.token (mode 600; DIR is made if missing)"
            " instead of printing it; a file already there is refused.",
        ),
    ] = None,
) -> None:
    """Start a game from a scenario (or a VASL save); prints the game id and the side tokens
    (or, with --tokens DIR, the files that hold them)."""
    if (by_email is None) != (invite is None):
        raise BadInput("option", "--by-email/--invite", "play by e-mail needs both")
    if invite is not None:  # checked first: a game made with no invitation written is stuck
        check_output(invite, "invitation", force=force)
    ai_sides = _ai_choice(ai, no_ai, server)
    extra: dict[str, Any] = {}
    if from_vsav is not None:
        scenario, extra = _vsav_scenario(scenario, from_vsav, vasl_templates, date, map_file)
    elif scenario is None:
        raise BadInput("game new", "", "give a SCENARIO file, or --from-vsav FILE")
    token_files: dict[str, Path] | None = None
    if tokens_dir is not None:  # checked before the game is made: nothing half-done
        from ordnance.game.scenario import load_scenario_file  # noqa: PLC0415

        sides = [by_email] if by_email is not None else load_scenario_file(scenario).sides
        token_files = token_paths(tokens_dir, sides)
    if server is not None:
        if by_email is not None:
            raise BadInput("option", "--server", "play by e-mail and --server do not mix")
        from ordnance.cli import remote  # noqa: PLC0415  (only with --server)

        made, extra["ai_sides"] = remote.new_game(server, scenario, ai_sides)
    else:
        from ordnance.game.scenario import load_scenario_file  # noqa: PLC0415

        # Checked before the database is opened: a refused scenario leaves no empty file.
        checked = load_scenario_file(scenario)
        with open_service(db) as service:
            made = service.create(checked, by_email=by_email)
    for text in made.invitations.values():
        assert invite is not None
        write_private(invite, text, force=force)
    shown(made.game, made.version, made.head)
    if token_files is not None:
        _print_token_files(made, _write_tokens(made, token_files), as_json, extra)
        if as_json:
            return
    elif as_json and extra:
        private_stdout()
        emit_json({**made.to_json(), **extra})
        return
    else:
        _print_new(made, as_json, f"New game {made.game}")
    if extra.get("ai_sides"):
        played = ", ".join(extra["ai_sides"])
        console.print(Text(f"The table's AI plays {played}: that token stays with the server."))
    for note in extra.get("notes", []):
        console.print(Text(f"To check in {scenario}: {note}", style="dim"))
    if invite is not None and not as_json:
        other = ", ".join(made.invitations)
        console.print(
            Text(f"Send {invite} to {other}: it holds their invitation code and nothing of yours.")
        )


def _ai_choice(ai: list[str] | None, no_ai: bool, server: str | None) -> list[str] | None:
    """The sides ``--ai``/``--no-ai`` give the table's AI (None: as the scenario says)."""
    if not ai and not no_ai:
        return None
    given = "--no-ai" if no_ai else "--ai"
    if server is None:
        problem = (
            "is for a game at a served table (--server); with a database the AI plays a side"
            " the scenario gives it through 'game play --ai-token-file' or 'game ai'"
        )
        raise BadInput("option", given, problem)
    if ai and no_ai:
        raise BadInput("option", "--ai/--no-ai", "give sides for the AI or --no-ai, not both")
    return [] if no_ai else list(dict.fromkeys(ai or []))


def _vsav_scenario(
    scenario: Path | None,
    from_vsav: Path,
    vasl_templates: str | None,
    date: str | None,
    map_file: str | None,
) -> tuple[Path, dict[str, Any]]:
    """``--from-vsav``: write the save's scenario beside it; its path and what to report."""
    from ordnance.cli.asl_vsav import write_scenario  # noqa: PLC0415, RUF100

    if scenario is not None:
        raise BadInput("game new", str(scenario), "give a SCENARIO file or --from-vsav, not both")
    if vasl_templates is None or date is None:
        raise BadInput("game new", str(from_vsav), "--from-vsav needs --vasl-templates and --date")
    path, made = write_scenario(from_vsav, vasl_templates, date, map_file)
    return path, {"scenario_file": str(path), "notes": list(made.notes)}


def write_private(path: Path, text: str, *, force: bool = False) -> None:
    """Write an invitation only its owner may read (mode 0600: it holds a credential)."""
    write_output(path, text, "invitation", force=force, private=True)


@game_app.command("join")
def join_command(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="An invitation ('game new --invite').")
    ],
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Play by e-mail: join a game from its invitation, with this machine's own signing key."""
    data = read_file(file)
    with open_service(db) as service:
        made = service.join(data)
    shown(made.game, made.version, made.head)
    _print_new(made, as_json, f"Joined game {made.game} at version {made.version}")
    if not as_json:
        console.print(Text(f"Send the game back: ordnance game export {made.game} --out FILE"))


@game_app.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A log from 'game export'.")],
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Verify an exported log and store it here: a new game (new tokens for its sides), or the
    later entries of a game this database holds (play by e-mail)."""
    from ordnance.game.logfile import check_receipt, header_game, read_entries  # noqa: PLC0415
    from ordnance.game.service import Appended  # noqa: PLC0415

    data = read_file(file)
    game = header_game(data)
    receipt = Receipts().get(game) if game is not None else None
    if receipt is not None:
        check_receipt(receipt, read_entries(data)[1])
    with open_service(db) as service:
        made = service.import_log(data)
        rules = rules_of(service, made.game)
    shown(made.game, made.version, made.head)
    if isinstance(made, Appended):
        _print_appended(made, as_json, file, rules)
        return
    _print_new(made, as_json, f"Imported game {made.game} at version {made.version}")


def _print_appended(
    appended: Appended, as_json: bool, file: Path, rules: Ruleset[Any] | None
) -> None:
    if as_json:
        emit_json(appended.to_json())
        return
    console.print(
        Text(
            f"Took {appended.appended} new {'entry' if appended.appended == 1 else 'entries'} of"
            f" game {appended.game} from {file}; version {appended.version}."
        )
    )
    for applied in appended.then:
        print_applied(applied, False, rules)  # the ruleset's sentences, not the events' data
    if appended.then:
        console.print(Text(f"Send the game on: ordnance game export {appended.game} --out FILE"))


def _write_tokens(made: NewGame, paths: dict[str, Path]) -> dict[str, Path]:
    """The token files written; if one cannot be (a file appeared since the check, a full
    disk), none is left and the tokens are printed instead: the game exists, and its tokens
    exist nowhere else."""
    try:
        return write_tokens(paths, made.tokens)
    except BadInput as error:
        _print_new(made, False, f"New game {made.game}")
        error.problem += f"; game {made.game} was made: its tokens are printed above instead"
        raise


def _print_token_files(
    made: NewGame, written: dict[str, Path], as_json: bool, extra: dict[str, Any]
) -> None:
    """``game new --tokens``: the game and the files holding its tokens (never the tokens)."""
    if as_json:
        data = {k: v for k, v in made.to_json().items() if k != "tokens"}
        emit_json({**data, "token_files": {s: str(p) for s, p in written.items()}, **extra})
        return
    console.print(Text(f"New game {made.game}"))
    for side, path in written.items():
        # One line each, never folded: the name is to be copied into --token-file.
        console.print(Text(f"{side}'s token: {path} (mode 600; keep it secret)"), soft_wrap=True)
    _print_keys(made)


def _print_new(made: NewGame, as_json: bool, title: str) -> None:
    if made.tokens:
        private_stdout()
    if as_json:
        emit_json(made.to_json())
        return
    table = titled_table(title)
    table.add_column("side")
    table.add_column("token (keep it secret; it is shown only now)")
    for side, token in made.tokens.items():
        table.add_row(side, token)
    console.print(table)
    _print_keys(made)


def _print_keys(made: NewGame) -> None:
    if made.commitment is not None:
        console.print(Text(f"Server seed commitment (SHA-256): {made.commitment}"))
    if made.signer:
        console.print(Text(f"Signing key fingerprint: {made.signer['fingerprint']}"))


@game_app.command("status")
def status_command(
    game: GameId,
    side: Annotated[
        str | None, typer.Option("--side", metavar="SIDE", help="List this side's legal actions.")
    ] = None,
    db: Db = None,
    as_json: AsJson = False,
    server: Server = None,
) -> None:
    """Where the game stands: each game's side record as tables, whose move, legal actions."""
    if server is not None:
        from ordnance.cli import remote  # noqa: PLC0415  (only with --server)

        status = remote.status(server, game, side)
    else:
        with open_service(db) as service:
            guard(service, game)
            status = service.status(game, side)
    shown(game, status["version"], status["head"])
    if as_json:
        emit_json(status)
        return
    from ordnance.cli.status_text import status_renderables  # noqa: PLC0415, RUF100

    for part in status_renderables(status):
        console.print(part)


@game_app.command(
    "do",
    cls=GameDoCommand,
    context_settings={"ignore_unknown_options": True},
)
def do_command(
    game: GameId,
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="COMMAND...",
            help="e.g. 'fire pak --ammo APCR', 'canister at45 --drm 1', 'dispense m24 --target"
            " 4I5', 'phase next'. With 'dice: physical' add --dice W,C (a dr: --dice N)."
            " The game's commands: 'game do GAME --help'; one command's options:"
            " 'game do GAME COMMAND --help'.",
        ),
    ],
    *,
    side: Side,
    token: Token = None,
    token_file: TokenFile = None,
    expect_version: ExpectVersion = None,
    db: Db = None,
    as_json: AsJson = False,
    server: Server = None,
) -> None:
    """Send one command for a side; it is checked, resolved and logged, or refused."""
    from ordnance.game.fairdice import new_entropy  # noqa: PLC0415

    secret = resolve_token(token, token_file)
    if server is not None:
        entropy = new_entropy()
        from ordnance.cli import remote  # noqa: PLC0415  (only with --server)

        applied, rules = remote.do(
            server, game, side, secret, words, expect=expect_version, entropy=entropy
        )
        check_entropy_used(applied, entropy)
        shown(game, applied.version, applied.head)
        print_applied(applied, as_json, rules)
        return
    with open_service(db) as service:
        guard(service, game)
        # Fresh entropy from this client: the server's seed alone does not decide the roll.
        entropy = new_entropy()
        applied = service.do(
            game, side, secret, words, expect_version=expect_version, entropy=entropy
        )
        rules = rules_of(service, game)
        ai = ai_after(service, game, side, secret)  # the AI sides kept here answer
        last = ai.moves[-1].applied if ai is not None and ai.moves else applied
    check_entropy_used(applied, entropy)
    shown(game, last.version, last.head)
    print_with_ai(applied, as_json, rules, ai)


@game_app.command("undo")
def undo_command(
    game: GameId,
    *,
    side: Side,
    token: Token = None,
    token_file: TokenFile = None,
    expect_version: ExpectVersion = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Take back your latest command, if no die has been rolled or revealed since."""
    from ordnance.game.news import entry_sentence  # noqa: PLC0415

    secret = resolve_token(token, token_file)
    with open_service(db) as service:
        guard(service, game)
        applied = service.undo(game, side, secret, expect_version=expect_version)
        rules = rules_of(service, game)
        undone = int(applied.entries[0].body["undone"])
        taken = service.store.entries(game, undone, undone + 1)
    shown(game, applied.version, applied.head)
    # What was taken back, as the log's news says it ("m24 moved to 4G5 (2 MP)").
    said = entry_sentence(taken[0], rules) if taken else f"entry {undone}"
    for lead in (f"{side} ", f"{side}: "):
        said = said.removeprefix(lead) if said.startswith(lead) else said
    if as_json:
        emit_json({**applied.to_json(), "undone": {"seq": undone, "words": said}})
        return
    print_applied(applied, False, rules, title=f"Undo of entry {undone}")
    console.print(Text(f"{side} took back entry {undone}: {said}."))


@game_app.command("seed")
def seed_command(
    game: GameId,
    seed: Annotated[str, typer.Argument(metavar="SEED", help="Any text of your choosing.")],
    *,
    side: Side,
    token: Token = None,
    token_file: TokenFile = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Mix your own seed into the fair dice (before the first roll of the seed epoch)."""
    secret = resolve_token(token, token_file)
    with open_service(db) as service:
        guard(service, game)
        applied = service.add_seed(game, side, secret, seed)
    shown(game, applied.version, applied.head)
    print_applied(applied, as_json)


@game_app.command("reveal")
def reveal_command(
    game: GameId,
    *,
    side: Side,
    token: Token = None,
    token_file: TokenFile = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Agree to reveal the server seed; once every side agrees it is revealed (and renewed)."""
    secret = resolve_token(token, token_file)
    with open_service(db) as service:
        guard(service, game)
        applied = service.consent(game, side, secret)
    shown(game, applied.version, applied.head)
    print_applied(applied, as_json)
