"""``ordnance serve``: the shared table in the browser (and the JSON API ``--server`` uses)."""

from __future__ import annotations

import json
import os
import socket
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
    threads: Annotated[
        int | None,
        typer.Option(
            "--threads",
            metavar="N",
            min=1,
            max=64,
            help="Threads of one server process that work out pages, previews and commands"
            " (the AI plays in its own). Default: 1 on SQLite (Python runs one at a time, and"
            " more only wait for each other), 2 on PostgreSQL (one works while another waits"
            " on the database).",
        ),
    ] = None,
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
            metavar="PATH",
            help="Where the server's AI keeps its sides' tokens: a file in an existing folder,"
            " or a folder (then ai_tokens.json in it); every process of one database must"
            " share it. Default: beside a SQLite file, else ai.json in your data folder.",
        ),
    ] = None,
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections",
            metavar="N",
            min=1,
            max=1_000_000,
            help="Connections one server process holds at once; one more closes the one"
            " waiting longest for its request (or is refused, 503, when all are busy).",
        ),
    ] = 1000,
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout",
            metavar="SECONDS",
            min=0.1,
            max=600.0,
            help="Seconds a client may take to send its request's headers; then its connection"
            " is closed.",
        ),
    ] = 10.0,
    limit_actions: Annotated[int, _rate("--limit-actions", "Commands and undos")] = 120,
    limit_games: Annotated[int, _rate("--limit-games", "New games")] = 10,
    limit_uploads: Annotated[int, _rate("--limit-uploads", "Logs uploaded to /verify")] = 10,
) -> None:
    """Serve the table: a lobby at http://HOST:PORT/, a page per side, the JSON API.

    Limits are per client address and minute (--limit-actions, --limit-games,
    --limit-uploads; 0 switches one off). Each process bounds its connections and
    the time a client has to send its request's headers (--max-connections,
    --header-timeout).
    """
    from ordnance.core.errors import BadInput  # noqa: PLC0415
    from ordnance.core.extras import require  # noqa: PLC0415

    # Imported here: the web stack is the 'web' extra, and costs other commands start-up time.
    require("web", "ordnance serve")
    import uvicorn  # noqa: PLC0415

    from ordnance.game.storage import database_url, default_database, make_engine  # noqa: PLC0415
    from ordnance.web.connections import (  # noqa: PLC0415
        PROTOCOL,
        connections_allowed,
        raise_descriptor_limit,
    )
    from ordnance.web.work import threads_for  # noqa: PLC0415

    url = database_url(db)
    if workers > 1 and not url.startswith("postgresql"):
        raise BadInput(
            "--workers", str(workers), "several processes need PostgreSQL (SQLite: one process)"
        )
    # Refused here, in one line, rather than by each worker as it starts: a URL that is not
    # one, a SQLite file whose folder does not exist (nothing connects yet).
    make_engine(url).dispose()
    _check_listen(host, port)
    # The AI's side tokens live beside a SQLite file, else in the user's data folder.
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else None
    keys = _ai_keys(ai_keys) or (
        Path(f"{path}.ai-tokens.json") if path else default_database().parent / "ai.json"
    )
    from ordnance.game.ai_tokens import AiTokens  # noqa: PLC0415

    AiTokens(keys)  # a file open to others or unreadable: refused now, before the banner
    proxies = [a.strip() for a in trust_proxy.split(",") if a.strip()]
    # Each connection is a descriptor: use all the system lets this process have.
    allowed = connections_allowed(max_connections, raise_descriptor_limit())
    # Each worker process builds its app from this (uvicorn starts them from an import string).
    os.environ["ORDNANCE_SERVE"] = json.dumps(
        {
            "db": url,
            "ai_keys": str(keys),
            "limits": {"actions": limit_actions, "games": limit_games, "uploads": limit_uploads},
            "trusted_proxies": proxies,
            "connections": {"max_connections": allowed, "header_timeout": header_timeout},
            "threads": threads or threads_for(url),
        }
    )
    typer.echo(f"ordnance table on http://{host}:{port}/ (games in {url.split('@')[-1]})")
    if allowed < max_connections:
        typer.echo(f"at most {allowed} connections per process (the open-files limit)")
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
        # Bounds connections and the time to send headers (uvicorn's own do neither).
        http=PROTOCOL,
        # uvloop where the web extra installed it (not on Windows), else asyncio's own loop.
        loop="auto",
        # asyncio accepts up to a backlog's worth at once, before the bound counts them.
        backlog=min(2048, allowed),
    )


def _check_listen(host: str, port: int) -> None:
    """Refuse (BadInput) an address this machine cannot listen on, before uvicorn would."""
    from ordnance.core.errors import BadInput  # noqa: PLC0415

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError):
        raise BadInput(
            "--host", host, "not an address or a name this machine resolves (e.g. 127.0.0.1)"
        ) from None
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise BadInput(
                "--host", f"{host} port {port}", f"cannot listen there ({error.strerror})"
            ) from None


def _ai_keys(given: Path | None) -> Path | None:
    """The AI key file ``--ai-keys`` names: a folder means ai_tokens.json in it; a file's
    folder must exist (BadInput otherwise)."""
    from ordnance.core.errors import BadInput  # noqa: PLC0415
    from ordnance.game.ai_tokens import AI_TOKENS  # noqa: PLC0415

    if given is None:
        return None
    path = given.expanduser()
    if path.is_dir():
        return path / AI_TOKENS
    if not path.parent.is_dir():
        raise BadInput("--ai-keys", str(given), f"its folder {path.parent} does not exist")
    if path.exists() and not path.is_file():
        raise BadInput("--ai-keys", str(given), "not a regular file or a folder")
    return path
