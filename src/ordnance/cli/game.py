"""``ordnance game ...``: play a scenario through the game service.

Every command takes ``--db URL`` (default ``$ORDNANCE_DB``, else a SQLite file in the user's
data folder) and ``--json``. Commands that act for a side take ``--side`` and ``--token`` (or
``$ORDNANCE_TOKEN``, which keeps the token out of shell history). Errors are raised and printed
as one line by ``ordnance.cli.app.main``; nothing is stored when a command fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from ordnance.cli.groups import game_app
from ordnance.cli.output import console, emit_json, ruling_table
from ordnance.core.errors import BadInput
from ordnance.game.errors import LogMismatch

if TYPE_CHECKING:
    from ordnance.game.entries import Entry
    from ordnance.game.service import Applied, GameService, NewGame

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
GameId = Annotated[str, typer.Argument(metavar="GAME", help="The game id 'game new' printed.")]
Side = Annotated[str, typer.Option("--side", metavar="SIDE", help="The side acting.")]
Token = Annotated[
    str,
    typer.Option(
        "--token",
        metavar="TOKEN",
        envvar="ORDNANCE_TOKEN",
        help="The side's secret token from 'game new' (or $ORDNANCE_TOKEN).",
    ),
]
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


@game_app.command("new")
def new_command(
    scenario: Annotated[
        Path | None, typer.Argument(metavar="SCENARIO", help="A scenario YAML file.")
    ] = None,
    *,
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
        str | None, typer.Option("--date", help="With --from-vsav: scenario date, YYYY-MM.")
    ] = None,
    map_file: Annotated[
        str | None,
        typer.Option("--map", metavar="MAPFILE", help="With --from-vsav: the ASL map file."),
    ] = None,
) -> None:
    """Start a game from a scenario (or a VASL save); prints the game id and side tokens."""
    extra: dict[str, Any] = {}
    if from_vsav is not None:
        scenario, extra = _vsav_scenario(scenario, from_vsav, vasl_templates, date, map_file)
    elif scenario is None:
        raise BadInput("game new", "", "give a SCENARIO file, or --from-vsav FILE")
    with _service(db) as service:
        made = service.new_game(scenario)
    if as_json and extra:
        emit_json({**made.to_json(), **extra})
        return
    _print_new(made, as_json, f"New game {made.game}")
    for note in extra.get("notes", []):
        console.print(Text(f"To check in {scenario}: {note}", style="dim"))


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


@game_app.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A log from 'game export'.")],
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Verify an exported log and store it as a game here, with new tokens for its sides."""
    data = _read(file)
    with _service(db) as service:
        made = service.import_log(data)
    _print_new(made, as_json, f"Imported game {made.game} at version {made.version}")


def _print_new(made: NewGame, as_json: bool, title: str) -> None:
    if as_json:
        emit_json(made.to_json())
        return
    table = Table(title=title, title_justify="left")
    table.add_column("side")
    table.add_column("token (keep it secret; it is shown only now)")
    for side, token in made.tokens.items():
        table.add_row(side, token)
    console.print(table)
    if made.commitment is not None:
        console.print(Text(f"Server seed commitment (SHA-256): {made.commitment}"))


@game_app.command("status")
def status_command(
    game: GameId,
    side: Annotated[
        str | None, typer.Option("--side", metavar="SIDE", help="List this side's legal actions.")
    ] = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Where the game stands: each game's side record as tables, whose move, legal actions."""
    with _service(db) as service:
        status = service.status(game, side)
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
    context_settings={"ignore_unknown_options": True},
)
def do_command(
    game: GameId,
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="COMMAND...",
            help="e.g. 'fire pak --ammo APCR', 'canister at45 --drm 1', 'dispense m24 --target"
            " 4I5', 'phase next'. With 'dice: physical' add --dice W,C (a dr: --dice N).",
        ),
    ],
    *,
    side: Side,
    token: Token,
    expect_version: ExpectVersion = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Send one command for a side; it is checked, resolved and logged, or refused."""
    with _service(db) as service:
        applied = service.do(game, side, token, words, expect_version=expect_version)
        rules = _rules_of(service, game)
    _print_applied(applied, as_json, rules)


@game_app.command("undo")
def undo_command(
    game: GameId,
    *,
    side: Side,
    token: Token,
    expect_version: ExpectVersion = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Take back your latest command, if no die has been rolled or revealed since."""
    with _service(db) as service:
        applied = service.undo(game, side, token, expect_version=expect_version)
        rules = _rules_of(service, game)
    _print_applied(applied, as_json, rules)


@game_app.command("seed")
def seed_command(
    game: GameId,
    seed: Annotated[str, typer.Argument(metavar="SEED", help="Any text of your choosing.")],
    *,
    side: Side,
    token: Token,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Mix your own seed into the fair dice (before the first roll of the seed epoch)."""
    with _service(db) as service:
        applied = service.add_seed(game, side, token, seed)
    _print_applied(applied, as_json)


@game_app.command("reveal")
def reveal_command(
    game: GameId,
    *,
    side: Side,
    token: Token,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Agree to reveal the server seed; once every side agrees it is revealed (and renewed)."""
    with _service(db) as service:
        applied = service.consent(game, side, token)
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
        rows.append(("Then", _entry_line(extra)))
    rows.append(("Version", applied.version))
    title = ruling["command"] if ruling is not None else _entry_line(entry)
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


def _entry_line(entry: Entry) -> str:
    body = entry.body
    if entry.type == "command":
        rolls = "; ".join(f"{r['purpose']}: {_faces(r['faces'])}" for r in body["rolls"])
        return f"{entry.side}: {body['command']['text']}" + (f" [{rolls}]" if rolls else "")
    if entry.type == "undo":
        return f"{entry.side} undoes entry {body['undone']}"
    if entry.type == "seed":
        return f"{entry.side} adds a seed to epoch {body['epoch']}"
    if entry.type == "consent":
        return f"{entry.side} agrees to reveal the seed of epoch {body['epoch']}"
    if entry.type == "reveal":
        return f"server seed of epoch {body['epoch']} revealed: {body['seed']}"
    if entry.type == "resume":
        return f"epoch {body['epoch']} begins ({body['reason']})"
    scenario = body["scenario"]
    return f"game {body['game']} starts: {scenario['name']} ({scenario['ruleset']})"


@game_app.command("log")
def log_command(game: GameId, db: Db = None, as_json: AsJson = False) -> None:
    """Every entry of the game's log, in order."""
    with _service(db) as service:
        log = service.log(game)
        rules = _rules_of(service, game)
    if as_json:
        emit_json({"game": game, "entries": [e.to_json() for e in log]})
        return
    table = Table(title=f"Log of game {game}", title_justify="left")
    table.add_column("seq", justify="right")
    table.add_column("entry")
    table.add_column("hash")
    for entry in log:
        lines = [_entry_line(entry)]
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
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="Where to write the log.")],
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Write the game's log to one JSON file (hash-chained, one entry per line)."""
    with _service(db) as service:
        text = service.export(game)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        raise BadInput("file", str(out), f"cannot be written ({error.strerror})") from None
    entries = text.count("\n") - 2
    if as_json:
        emit_json({"game": game, "file": str(out), "entries": entries})
        return
    console.print(Text(f"Wrote {entries} entries of game {game} to {out}"))


@game_app.command("render")
def render_command(
    game: GameId,
    *,
    out: Annotated[
        Path, typer.Option("--out", metavar="FILE", help="The SVG (or .png) file to write.")
    ],
    los: Annotated[
        tuple[str, str] | None,
        typer.Option("--los", metavar="FROM TO", help="Also draw this line of sight."),
    ] = None,
    png: Annotated[bool, typer.Option("--png", help="Also write a PNG beside the SVG.")] = False,
    size: Annotated[
        float | None,
        typer.Option("--size", min=8.0, max=200.0, help="Hex size in pixels (default 48)."),
    ] = None,
    db: Db = None,
    as_json: AsJson = False,
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
    written = write_picture(picture, out, png=png, los=verdict, size=size, title=title)
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
    """Check an exported log: chain, replay of every command, every roll against its seed."""
    from ordnance.game.logfile import verify  # noqa: PLC0415

    report = verify(_read(file))
    if as_json:
        emit_json(report.to_json())
    elif report.ok:
        console.print(Text(report.to_json()["explanation"]))
    if report.failure is not None:
        raise LogMismatch(report.failure.entry, f"{report.failure.problem} ({file})")


def _read(file: Path) -> bytes:
    try:
        return file.read_bytes()
    except OSError as error:
        raise BadInput("file", str(file), f"cannot be read ({error.strerror})") from None
