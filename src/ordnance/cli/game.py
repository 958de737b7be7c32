"""``ordnance game ...``: play a scenario through the game service.

Every command takes ``--db URL`` (default ``$ORDNANCE_DB``, else a SQLite file in the user's
data folder) and ``--json``. Commands that act for a side take ``--side`` and the token from
``--token-file``, ``$ORDNANCE_TOKEN`` or ``--token`` (:mod:`.tokens`). The client side of the
checks lives here: a fresh entropy with each command, and the receipt of the last head shown
(:mod:`ordnance.game.receipts`), which a later read must reach. Errors are raised and printed
as one line by ``ordnance.cli.app.main``; nothing is stored when a command fails.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from ordnance.cli import remote
from ordnance.cli.game_do import GameDoCommand
from ordnance.cli.groups import game_app
from ordnance.cli.options import Force
from ordnance.cli.output import console, emit_json, output_file, ruling_table, titled_table
from ordnance.cli.tokens import Token, TokenFile, resolve_token
from ordnance.core.errors import BadInput
from ordnance.core.outfiles import check_output, write_output
from ordnance.game.entry_words import entry_words
from ordnance.game.errors import LogMismatch, RolledBack
from ordnance.game.receipts import Receipt, Receipts

if TYPE_CHECKING:
    from ordnance.game.entries import Entry
    from ordnance.game.heads import Head
    from ordnance.game.service import Appended, Applied, GameService, NewGame

Db = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Database: a SQLAlchemy URL (sqlite:///FILE, postgresql://...) or a SQLite file"
        " path. Default: $ORDNANCE_DB, else games.sqlite3 in your data folder.",
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
Server = Annotated[
    str | None,
    typer.Option(
        "--server",
        metavar="URL",
        help="Act through an 'ordnance serve' table at URL instead of a database.",
    ),
]
GameId = Annotated[str, typer.Argument(metavar="GAME", help="The game id 'game new' printed.")]
Side = Annotated[str, typer.Option("--side", metavar="SIDE", help="The side acting.")]
ExpectVersion = Annotated[
    int | None,
    typer.Option(
        "--expect-version",
        metavar="N",
        help="Refuse (stale state) unless the game is still at version N.",
    ),
]


@contextmanager
def _service(db: str | None) -> Iterator[GameService]:
    # Imported here: the storage stack (SQLAlchemy) costs every other command start-up time.
    from ordnance.game.service import GameService  # noqa: PLC0415

    service = GameService(db)
    try:
        yield service
    finally:
        service.close()


def shown(game: str, version: int, head: str) -> None:
    """Keep the receipt of what this client just showed its player."""
    Receipts().keep(Receipt(game, version, head))


def check_entropy_used(applied: Applied, entropy: str) -> None:
    """A client checks that the rolls it caused used the entropy it sent (a service that
    swapped it could choose the roll)."""
    entry = applied.entries[0]
    used = entry.body.get("entropy")
    if entry.type == "command" and entry.rolls and used is not None and used != entropy:
        raise LogMismatch(entry.seq, "its rolls do not use the entropy this client sent")


def guard(service: GameService, game: str) -> None:
    """Refuse a database copy that stops short of, or forks from, the last head shown here."""
    receipt = Receipts().get(game)
    if receipt is None:
        return
    found = service.store.entries(game, receipt.version - 1)[:1]
    if not found:
        raise LogMismatch(
            receipt.version - 1,
            f"missing from game {game} in the database, but you were shown it (your receipt):"
            " entries were deleted",
        )
    if found[0].hash != receipt.head:
        raise LogMismatch(
            receipt.version - 1,
            f"of game {game} in the database is not the one your receipt holds: the log was"
            " forked or rewritten",
        )


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
    force: Force = False,
) -> None:
    """Start a game from a scenario (or a VASL save); prints the game id and side tokens."""
    if (by_email is None) != (invite is None):
        raise BadInput("option", "--by-email/--invite", "play by e-mail needs both")
    if invite is not None:  # checked first: a game made with no invitation written is stuck
        check_output(invite, "invitation", force=force)
    extra: dict[str, Any] = {}
    if from_vsav is not None:
        scenario, extra = _vsav_scenario(scenario, from_vsav, vasl_templates, date, map_file)
    elif scenario is None:
        raise BadInput("game new", "", "give a SCENARIO file, or --from-vsav FILE")
    if server is not None:
        if by_email is not None:
            raise BadInput("option", "--server", "play by e-mail and --server do not mix")
        made = remote.new_game(server, scenario)
    else:
        from ordnance.game.scenario import load_scenario_file  # noqa: PLC0415

        # Checked before the database is opened: a refused scenario leaves no empty file.
        checked = load_scenario_file(scenario)
        with _service(db) as service:
            made = service.create(checked, by_email=by_email)
    for text in made.invitations.values():
        assert invite is not None
        write_private(invite, text, force=force)
    shown(made.game, made.version, made.head)
    if as_json and extra:
        emit_json({**made.to_json(), **extra})
        return
    _print_new(made, as_json, f"New game {made.game}")
    for note in extra.get("notes", []):
        console.print(Text(f"To check in {scenario}: {note}", style="dim"))
    if invite is not None and not as_json:
        other = ", ".join(made.invitations)
        console.print(
            Text(f"Send {invite} to {other}: it holds their invitation code and nothing of yours.")
        )


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
    data = _read(file)
    with _service(db) as service:
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

    data = _read(file)
    game = header_game(data)
    receipt = Receipts().get(game) if game is not None else None
    if receipt is not None:
        check_receipt(receipt, read_entries(data)[1])
    with _service(db) as service:
        made = service.import_log(data)
    shown(made.game, made.version, made.head)
    if isinstance(made, Appended):
        _print_appended(made, as_json, file)
        return
    _print_new(made, as_json, f"Imported game {made.game} at version {made.version}")


def _print_appended(appended: Appended, as_json: bool, file: Path) -> None:
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
        _print_applied(applied, False)
    if appended.then:
        console.print(Text(f"Send the game on: ordnance game export {appended.game} --out FILE"))


def _print_new(made: NewGame, as_json: bool, title: str) -> None:
    if as_json:
        emit_json(made.to_json())
        return
    table = titled_table(title)
    table.add_column("side")
    table.add_column("token (keep it secret; it is shown only now)")
    for side, token in made.tokens.items():
        table.add_row(side, token)
    console.print(table)
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
        status = remote.status(server, game, side)
    else:
        with _service(db) as service:
            guard(service, game)
            status = service.status(game, side)
    shown(game, status["version"], status["head"])
    if as_json:
        emit_json(status)
        return
    from ordnance.cli.status_text import status_renderables  # noqa: PLC0415, RUF100

    for part in status_renderables(status):
        console.print(part)


def _stage(state: dict[str, Any]) -> str:
    """Turn and phase in words from any ruleset's view (ASL's names the phasing player)."""
    player = f", {state['player']} Player Turn" if "player" in state else ""
    return f"turn {state.get('turn')}{player}, {state.get('phase')}"


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
        applied, rules = remote.do(
            server, game, side, secret, words, expect=expect_version, entropy=entropy
        )
        check_entropy_used(applied, entropy)
        shown(game, applied.version, applied.head)
        _print_applied(applied, as_json, rules)
        return
    with _service(db) as service:
        guard(service, game)
        # Fresh entropy from this client: the server's seed alone does not decide the roll.
        entropy = new_entropy()
        applied = service.do(
            game, side, secret, words, expect_version=expect_version, entropy=entropy
        )
        rules = _rules_of(service, game)
    check_entropy_used(applied, entropy)
    shown(game, applied.version, applied.head)
    _print_applied(applied, as_json, rules)


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
    secret = resolve_token(token, token_file)
    with _service(db) as service:
        guard(service, game)
        applied = service.undo(game, side, secret, expect_version=expect_version)
        rules = _rules_of(service, game)
    shown(game, applied.version, applied.head)
    _print_applied(applied, as_json, rules)


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
    with _service(db) as service:
        guard(service, game)
        applied = service.add_seed(game, side, secret, seed)
    shown(game, applied.version, applied.head)
    _print_applied(applied, as_json)


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
    with _service(db) as service:
        guard(service, game)
        applied = service.consent(game, side, secret)
    shown(game, applied.version, applied.head)
    _print_applied(applied, as_json)


def _print_applied(applied: Applied, as_json: bool, rules: object | None = None) -> None:
    data = applied.to_json()
    if as_json:
        emit_json(data)
        return
    entry = applied.entries[0]
    ruling = applied.ruling
    rows: list[tuple[str, object]] = [("Entry", f"{entry.seq} ({entry.type})")]
    for roll in data["rolls"]:
        rows.append((f"Roll {roll['index']}", f"{roll['purpose']}: {_faces(roll['faces'])}"))
    for event in data["events"]:
        rows.append(("Event", _event_text(event, rules)))
    for extra in applied.entries[1:]:
        rows.append(("Then", entry_words(extra)))
    rows.append(("Version", applied.version))
    title = ruling["command"] if ruling is not None else entry_words(entry)
    console.print(ruling_table(title, rows))
    if ruling is not None:
        console.print(Text(str(ruling["explanation"])))
        console.print(Text(f"Rules: {', '.join(ruling['clauses'])}", style="dim"))


def _faces(faces: list[int]) -> str:
    return ",".join(str(f) for f in faces)


def _event_text(event: dict[str, Any], rules: object | None) -> str:
    """The ruleset's sentence for an event, else its data in words (never a Python repr)."""
    from ordnance.core.event_words import event_words  # noqa: PLC0415, RUF100
    from ordnance.core.ruleset import Event, EventText  # noqa: PLC0415, RUF100

    if isinstance(rules, EventText):
        return rules.describe_event(Event(event["kind"], event["data"]))
    return event_words(event["kind"], event["data"])


def _rules_of(service: GameService, game: str) -> object | None:
    """The game's ruleset, looked up by the name the games table keeps (no replay)."""
    from ordnance.game.registry import ruleset  # noqa: PLC0415, RUF100

    for game_id, name, _ in service.store.game_ids():
        if game_id == game:
            return ruleset(name)
    return None


@game_app.command("log")
def log_command(game: GameId, db: Db = None, as_json: AsJson = False) -> None:
    """Every entry of the game's log, in order."""
    with _service(db) as service:
        guard(service, game)
        log = service.log(game)
        rules = _rules_of(service, game)
    if log:
        shown(game, len(log), log[-1].hash)
    if as_json:
        emit_json({"game": game, "entries": [e.to_json() for e in log]})
        return
    table = titled_table(f"Log of game {game}")
    table.add_column("seq", justify="right")
    table.add_column("entry")
    table.add_column("hash")
    for entry in log:
        lines = [entry_words(entry)]
        lines += [f"  {_event_text(e, rules)}" for e in entry.body.get("events", ())]
        table.add_row(str(entry.seq), Text("\n".join(lines)), entry.hash[:12])
    console.print(table)


@game_app.command("list")
def list_command(db: Db = None, as_json: AsJson = False) -> None:
    """The games in the database."""
    with _service(db) as service:
        games = service.store.game_ids()
    rows = [{"game": g, "ruleset": r, "version": v} for g, r, v in games]
    if as_json:
        emit_json({"games": rows})
        return
    for row in rows:
        console.print(Text(f"{row['game']}  {row['ruleset']}  version {row['version']}"))


@game_app.command("export")
def export_command(
    game: GameId,
    *,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Where to write the log ('-': standard output).",
            callback=output_file,
        ),
    ],
    db: Db = None,
    as_json: AsJson = False,
    server: Server = None,
    force: Force = False,
) -> None:
    """Write the game's log to one JSON file (hash-chained, one entry per line); --out - writes
    it to standard output."""
    to_stdout = str(out) == "-"
    if to_stdout and as_json:
        raise BadInput("option", "--json", "with --out - the log itself is what is printed")
    if not to_stdout:
        check_output(out, "log", force=force)  # before the database is opened
    if server is not None:
        text = remote.export(server, game)
    else:
        with _service(db) as service:
            guard(service, game)
            text = service.export(game)
            folded = service.game(game)
        shown(game, folded.version, folded.head)
    entries = text.count("\n") - 2
    if to_stdout:
        sys.stdout.write(text)
        sys.stdout.flush()
        sys.stderr.write(f"Wrote {entries} entries of game {game} to standard output\n")
        return
    write_output(out, text, "log", force=force)
    if as_json:
        emit_json({"game": game, "file": str(out), "entries": entries})
        return
    console.print(Text(f"Wrote {entries} entries of game {game} to {out}"))


@game_app.command("render")
def render_command(
    game: GameId,
    *,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            metavar="FILE",
            help="The SVG (or .png) file to write.",
            callback=output_file,
        ),
    ],
    los: Annotated[
        tuple[str, str] | None,
        typer.Option("--los", metavar="FROM TO", help="Also draw this line of sight."),
    ] = None,
    png: Annotated[bool, typer.Option("--png", help="Also write a PNG beside the SVG.")] = False,
    size: Annotated[
        float | None,
        typer.Option(
            "--size", metavar="PX", min=8.0, max=200.0, help="Hex size in pixels (default 48)."
        ),
    ] = None,
    db: Db = None,
    as_json: AsJson = False,
    force: Force = False,
) -> None:
    """Draw the game's map as it stands now: terrain, markers, the game's SMOKE, every unit."""
    from ordnance.cli.map_games import judge_for  # noqa: PLC0415, RUF100
    from ordnance.cli.pictures import write_picture  # noqa: PLC0415, RUF100
    from ordnance.game.picture import game_picture  # noqa: PLC0415, RUF100

    with _service(db) as service:
        folded = service.game(game)
    rules = folded.rules
    picture = game_picture(rules, folded.state)
    if picture is None:
        raise BadInput("game", game, "its scenario has no map to draw ('map:' in the scenario)")
    game_map = picture.game_map
    verdict = None
    if los is not None:
        firer, target = (game_map.parse(label) for label in los)
        verdict = judge_for(game_map).los(game_map, firer, target)
    state = rules.view(folded.state)
    title = f"{folded.scenario.name}: {_stage(state)} (version {folded.version})"
    written = write_picture(picture, out, png=png, los=verdict, size=size, title=title, force=force)
    markers = sum(len(names) for names in game_map.markers.values())
    units = len(picture.counters)
    explanation = f"wrote {written.files}: {game_map.name} with {markers} markers, {units} units"
    if as_json:
        los_json = None if verdict is None else verdict.to_json()
        payload = {"game": game, "svg": str(written.svg), "png": written.png_text}
        emit_json(
            {
                **payload,
                "converter": written.converter,
                "markers": markers,
                "units": units,
                "los": los_json,
                "explanation": explanation,
            }
        )
        return
    console.print(Text(explanation))
    if verdict is not None:
        console.print(Text(verdict.explanation))


@game_app.command("verify")
def verify_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A log from 'game export'.")],
    as_json: AsJson = False,
) -> None:
    """Check an exported log: chain, signatures, replay of every command, every roll against its
    seed, your receipt of the game, and the head your key store keeps of it."""
    from ordnance.game.logfile import header_game, verify  # noqa: PLC0415

    data = _read(file)
    game = header_game(data)
    report = verify(
        data,
        Receipts().get(game) if game is not None else None,
        _kept_head(game) if game is not None else None,
    )
    if as_json:
        emit_json(report.to_json())
    elif report.ok:
        console.print(Text(report.to_json()["explanation"]))
    failure = report.failure
    if isinstance(failure, RolledBack):
        raise RolledBack(failure.game, failure.entry or 0, f"{failure.why} ({file})")
    if failure is not None:
        raise LogMismatch(failure.entry, f"{failure.problem} ({file})")
    if game is not None:
        _, entries = _entries_of(data)
        shown(game, len(entries), entries[-1].hash)


def _kept_head(game: str) -> Head | None:
    """The head of ``game`` the local key store keeps ($ORDNANCE_KEYS), if any: the newest
    entry a service on this key store wrote or read."""
    from ordnance.game.keystore import KeyStore  # noqa: PLC0415

    return KeyStore().head(game)


def _entries_of(data: bytes) -> tuple[str, list[Entry]]:
    from ordnance.game.logfile import read_entries  # noqa: PLC0415

    return read_entries(data)


def _read(file: Path) -> bytes:
    from ordnance.core.limits import MAX_LOG_FILE_BYTES, read_limited  # noqa: PLC0415

    return read_limited(file, "file", MAX_LOG_FILE_BYTES)
