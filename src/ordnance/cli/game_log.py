"""``ordnance game log|list|export|render|verify``: a game's log, the games of a database, the
exported file and the map as it stands (the options and checks of :mod:`.game_common`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from ordnance.cli.game_common import (
    AsJson,
    Db,
    GameId,
    Server,
    event_text,
    guard,
    open_service,
    read_file,
    rules_of,
    shown,
    stage_words,
)
from ordnance.cli.groups import game_app
from ordnance.cli.options import Force
from ordnance.cli.output import console, emit_json, output_file, titled_table
from ordnance.core.errors import BadInput
from ordnance.core.outfiles import check_output, write_output
from ordnance.game.entry_words import entry_words
from ordnance.game.errors import LogMismatch, RolledBack
from ordnance.game.receipts import Receipts

if TYPE_CHECKING:
    from ordnance.game.entries import Entry
    from ordnance.game.heads import Head


@game_app.command("log")
def log_command(game: GameId, db: Db = None, as_json: AsJson = False) -> None:
    """Every entry of the game's log, in order."""
    from ordnance.game.news import entry_sentence  # noqa: PLC0415

    with open_service(db) as service:
        guard(service, game)
        log = service.log(game)
        rules = rules_of(service, game)
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
        # An undo names what it took back (the command's text), as the table's news does.
        lines = [entry_sentence(entry, rules, log) if entry.type == "undo" else entry_words(entry)]
        lines += [f"  {event_text(e, rules)}" for e in entry.body.get("events", ())]
        table.add_row(str(entry.seq), Text("\n".join(lines)), entry.hash[:12])
    console.print(table)


@game_app.command("list")
def list_command(db: Db = None, as_json: AsJson = False) -> None:
    """The games in the database: scenario, ruleset, sides, turn and phase, whose move, last
    change."""
    from ordnance.cli.game_list import game_rows, games_text  # noqa: PLC0415

    with open_service(db) as service:
        rows = game_rows(service)
    if as_json:
        emit_json({"games": rows})
        return
    console.print(Text(games_text(rows)))


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
        from ordnance.cli import remote  # noqa: PLC0415  (only with --server)

        text = remote.export(server, game)
    else:
        with open_service(db) as service:
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

    with open_service(db) as service:
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
    title = f"{folded.scenario.name}: {stage_words(state)} (version {folded.version})"
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

    data = read_file(file)
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
