"""What the ``ordnance game`` commands share: their options, the service they open, the
receipt checks (:mod:`ordnance.game.receipts`), and how an applied command is printed.

The commands themselves: :mod:`.game` (start, join, import, status, play) and :mod:`.game_log`
(the log, the games, export, render, verify).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from ordnance.cli.output import console, emit_json, ruling_table
from ordnance.core.clauses import cite_all
from ordnance.game.entry_words import entry_words
from ordnance.game.errors import LogMismatch
from ordnance.game.receipts import Receipt, Receipts

if TYPE_CHECKING:
    from ordnance.core.ruleset import Ruleset
    from ordnance.game.service import Applied, GameService

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
def open_service(db: str | None) -> Iterator[GameService]:
    # Imported here: the service costs every other command start-up time. A SQLite file is
    # read and written through sqlite3 alone (light: no SQLAlchemy, game/sqlite_file.py).
    from ordnance.game.service import GameService  # noqa: PLC0415

    service = GameService(db, light=True)
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


def stage_words(state: dict[str, Any]) -> str:
    """Turn and phase in words from any ruleset's view (ASL's names the phasing player)."""
    player = f", {state['player']} Player Turn" if "player" in state else ""
    return f"turn {state.get('turn')}{player}, {state.get('phase')}"


def print_applied(
    applied: Applied, as_json: bool, rules: Ruleset[Any] | None = None, *, title: str | None = None
) -> None:
    data = applied.to_json()
    if as_json:
        emit_json(data)
        return
    entry = applied.entries[0]
    ruling = applied.ruling
    rows: list[tuple[str, object]] = [("Entry", f"{entry.seq} ({entry.type})")]
    for roll in data["rolls"]:
        rows.append((f"Roll {roll['index']}", f"{roll['purpose']}: {faces_text(roll['faces'])}"))
    for event in data["events"]:
        rows.append(("Event", event_text(event, rules)))
    for extra in applied.entries[1:]:
        rows.append(("Then", entry_words(extra)))
    rows.append(("Version", applied.version))
    if title is None:
        title = ruling["command"] if ruling is not None else entry_words(entry)
    console.print(ruling_table(title, rows))
    if ruling is not None:
        console.print(Text(str(ruling["explanation"])))
        console.print(Text(f"Rules: {cite_all(ruling['clauses'])}", style="dim"))


def faces_text(faces: list[int]) -> str:
    return ",".join(str(f) for f in faces)


def event_text(event: dict[str, Any], rules: Ruleset[Any] | None) -> str:
    """The ruleset's sentence for an event, else its data in words (never a Python repr)."""
    from ordnance.core.event_words import event_words  # noqa: PLC0415, RUF100
    from ordnance.core.ruleset import Event  # noqa: PLC0415, RUF100
    from ordnance.game.registry import spec_of  # noqa: PLC0415, RUF100

    teller = None if rules is None else spec_of(rules).event_text(rules)
    if teller is not None:
        return teller.describe_event(Event(event["kind"], event["data"]))
    return event_words(event["kind"], event["data"])


def rules_of(service: GameService, game: str) -> Ruleset[Any] | None:
    """The game's ruleset, looked up by the name the games table keeps (no replay)."""
    from ordnance.game.registry import ruleset  # noqa: PLC0415, RUF100

    for game_id, name, _ in service.store.game_ids():
        if game_id == game:
            return ruleset(name)
    return None


def read_file(file: Path) -> bytes:
    from ordnance.core.limits import MAX_LOG_FILE_BYTES, read_limited  # noqa: PLC0415

    return read_limited(file, "file", MAX_LOG_FILE_BYTES)
