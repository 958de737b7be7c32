"""``ordnance serve``: the shared table in the browser (and the JSON API ``--server`` uses)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

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


def _rate(name: str, what: str) -> Any:
    return typer.Option(
        name, min=0, max=1_000_000, metavar="N", help=f"{what} per client and minute (0: off)."
    )


@app.command("serve")
def serve_command(
    db: Db = None,
    *,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="HOST",
            help="Address to listen on: 127.0.0.1 (this machine only) or 0.0.0.0 (the LAN).",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", min=1, max=65535, help="TCP port.")
    ] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            metavar="N",
            min=1,
            max=64,
            help="Server processes on this port (PostgreSQL only; they share the database).",
        ),
    ] = 1,
    trust_proxy: Annotated[
        str,
        typer.Option(
            "--trust-proxy",
            metavar="ADDRS",
            help="Comma-separated addresses of reverse proxies whose X-Forwarded-For and"
            " X-Forwarded-Proto are believed (default: none).",
        ),
    ] = "",
    ai_keys: Annotated[
        Path | None,
        typer.Option(
            "--ai-keys",
            metavar="FILE",
            help="Where the server's AI keeps its sides' tokens; every process of one database"
            " must share it. Default: beside a SQLite file, else ai.json in your data folder.",
        ),
    ] = None,
    limit_actions: Annotated[int, _rate("--limit-actions", "Commands and undos")] = 120,
    limit_games: Annotated[int, _rate("--limit-games", "New games")] = 10,
    limit_uploads: Annotated[int, _rate("--limit-uploads", "Logs uploaded to /verify")] = 10,
) -> None:
    """Serve the table: a lobby at http://HOST:PORT/, a page per side, the JSON API.

    Limits are per client address and minute (--limit-actions, --limit-games,
    --limit-uploads; 0 switches one off).
    """
    from ordnance.core.errors import BadInput  # noqa: PLC0415
    from ordnance.core.extras import require  # noqa: PLC0415

    # Imported here: the web stack is the 'web' extra, and costs other commands start-up time.
    require("web", "ordnance serve")
    import uvicorn  # noqa: PLC0415

    from ordnance.game.storage import database_url, default_database  # noqa: PLC0415

    url = database_url(db)
    if workers > 1 and not url.startswith("postgresql"):
        raise BadInput(
            "--workers", str(workers), "several processes need PostgreSQL (SQLite: one process)"
        )
    # The AI's side tokens live beside a SQLite file, else in the user's data folder.
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else None
    keys = ai_keys or (
        Path(f"{path}.ai-tokens.json") if path else default_database().parent / "ai.json"
    )
    proxies = [a.strip() for a in trust_proxy.split(",") if a.strip()]
    # Each worker process builds its app from this (uvicorn starts them from an import string).
    os.environ["ORDNANCE_SERVE"] = json.dumps(
        {
            "db": url,
            "ai_keys": str(keys),
            "limits": {"actions": limit_actions, "games": limit_games, "uploads": limit_uploads},
            "trusted_proxies": proxies,
        }
    )
    typer.echo(f"ordnance table on http://{host}:{port}/ (games in {url.split('@')[-1]})")
    uvicorn.run(
        "ordnance.web.app:from_environment",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        # The app reads forwarded headers itself, and only from --trust-proxy addresses.
        proxy_headers=False,
        timeout_graceful_shutdown=5,
    )
