"""``ordnance serve``: the shared table in the browser (and the JSON API ``--server`` uses)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ordnance.cli.groups import app

# As the game commands' --db (not imported from cli.game: 'ordnance --help' stays light).
Db = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Database: a SQLAlchemy URL (sqlite:///FILE, postgresql://...) or a SQLite file"
        " path. Default: $ORDNANCE_DB, else games.sqlite3 in your data folder.",
    ),
]


@app.command("serve")
def serve_command(
    db: Db = None,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="HOST",
            help="Address to listen on: 127.0.0.1 (this machine only) or 0.0.0.0 (the LAN).",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8000,
) -> None:
    """Serve the table: a lobby at http://HOST:PORT/, a page per side, the JSON API."""
    # Imported here: the web stack costs every other command start-up time.
    import uvicorn  # noqa: PLC0415

    from ordnance.game.storage import database_url, default_database  # noqa: PLC0415
    from ordnance.web.app import create_app  # noqa: PLC0415

    url = database_url(db)
    # The AI's side tokens live beside a SQLite file, else in the user's data folder.
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else None
    keys = Path(f"{path}.ai-tokens.json") if path else default_database().parent / "ai.json"
    typer.echo(f"ordnance table on http://{host}:{port}/ (games in {url.split('@')[-1]})")
    uvicorn.run(create_app(url, ai_keys=keys), host=host, port=port, log_level="warning")
