"""The ASGI app: pages, the JSON API, static files, one :class:`~.table.Table` behind them.

>>> from starlette.testclient import TestClient
>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> app = create_app(str(pathlib.Path(folder.name) / "games.db"))
>>> with TestClient(app) as client:
...     client.get("/").status_code, client.get("/openapi.json").json()["info"]["title"]
(200, 'ordnance table')
>>> folder.cleanup()
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ordnance import __version__
from ordnance.core.errors import OrdnanceError
from ordnance.web import api, board, collector, connections, labels, notify, pages
from ordnance.web.answers import database_errors, database_failure
from ordnance.web.limits import Guard, Limits
from ordnance.web.middleware import InFlight, SecurityHeaders
from ordnance.web.table import Table
from ordnance.web.warm import start_process_warm, warm_process

# No inline script or style anywhere: table.js and table.css are the only ones.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    ("Referrer-Policy", "no-referrer"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy", CSP),
)


def create_app(
    db: str | None = None,
    *,
    ai_keys: Path | None = None,
    limits: Limits | None = None,
    trusted_proxies: list[str] | None = None,
    warm: bool = True,
    threads: int | None = None,
) -> FastAPI:
    """The app over the games in ``db`` (any URL the CLI's ``--db`` takes).

    ``limits``: the rates per client (default: :class:`~.limits.Limits`' documented ones);
    ``trusted_proxies``: addresses of reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (none by default: the peer is the client); ``warm``:
    work out in the background what pages will ask for first (:mod:`.warm`: the process's
    imports at start, each new version's picture and offers while a page of it listens);
    ``threads``: how many threads do the routes' blocking work at once (:mod:`.work`; None:
    40, AnyIO's default; ``ordnance serve --threads``).
    """
    table = Table(db, ai_keys, warm=warm, threads=threads)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # A full descriptor table: one log line a minute, not one per accept with a traceback.
        connections.quiet_accept_errors(asyncio.get_running_loop())
        if threads is not None:
            # AnyIO's threads (40 by default) read the static files and large uploads: no
            # more of them than the routes' own. Python runs one thread at a time: at 100
            # games (bench_web, SQLite) 40 threads waiting on each other gave action p95
            # 400-500 ms, 2 threads 141 ms, 1 thread 42 ms.
            anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        # Learn of other processes' writes from the start (LISTEN/NOTIFY, or polling SQLite).
        app.state.watcher = notify.start(table)
        if warm:
            start_process_warm()
        yield
        watcher = getattr(app.state, "watcher", None)
        if watcher is not None:
            watcher.cancel()
        table.close()

    app = FastAPI(
        title="ordnance table",
        version=__version__,
        description="A shared table for ordnance games: the same actions, views and errors as"
        " the CLI's game commands. Write calls take the side's token as"
        " 'Authorization: Bearer TOKEN'.",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.table = table
    static = resources.files("ordnance.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.include_router(api.router)
    app.include_router(board.router)
    app.include_router(labels.router)  # before pages': /games/{game}/{side} would take it
    app.include_router(pages.router)
    _answer_failures(app)

    # Links carry tokens only on the way in; never leak a URL to another site.
    app.add_middleware(SecurityHeaders, headers=SECURITY_HEADERS)
    app.add_middleware(InFlight, gauge=table.in_flight)

    # The last added runs first: the proxy's headers are read before the limits count a client.
    app.add_middleware(Guard, limits=limits if limits is not None else Limits())
    if trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=trusted_proxies)

    return app


def invalid_sentence(error: RequestValidationError) -> str:
    """The first fault of a request's fields as one line, quoting (a little of) the value.

    >>> invalid_sentence(RequestValidationError([{"loc": ("body", "expect_version"),
    ...     "msg": "Input should be a valid integer", "input": float("inf")}]))
    "bad expect_version 'inf': input should be a valid integer"
    """
    faults = error.errors()
    first: dict[str, object] = dict(faults[0]) if faults else {}
    loc = first.get("loc")
    places = (
        [str(p) for p in loc if p not in ("body", "query", "path")]
        if isinstance(loc, tuple | list)
        else []
    )
    value = first.get("input")
    shown = f" {str(value)[:40]!r}" if isinstance(value, str | int | float) else ""
    why = str(first.get("msg") or "not valid")
    return f"bad {'.'.join(places) or 'request'}{shown}: {why[:1].lower()}{why[1:]}"


def _answer_failures(app: FastAPI) -> None:
    """Whatever a handler let through is answered with a sentence, never a traceback: a field
    that is not valid (1e400, NaN, a string for a number) is 422; a database that cannot be
    reached is 503 with Retry-After (JSON under /api, a page elsewhere), one log line."""

    def failed(request: Request, error: OrdnanceError) -> Response:
        if request.url.path.startswith("/api/"):
            return api.error_answer(error)
        return pages.error_page(request, error)

    async def invalid(request: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        message = invalid_sentence(error)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": "bad-input", "message": message}, status_code=422)
        return PlainTextResponse(f"refused: {message}", status_code=422)

    async def unavailable(request: Request, error: Exception) -> Response:
        failure = database_failure(error)
        if failure is None:  # not a database failure: the server's ordinary 500
            raise error
        return failed(request, failure)

    app.add_exception_handler(RequestValidationError, invalid)
    for cls in database_errors():
        app.add_exception_handler(cls, unavailable)


def from_environment() -> FastAPI:
    """The app ``ordnance serve`` describes in ``$ORDNANCE_SERVE`` (one per worker process)."""
    config = json.loads(os.environ["ORDNANCE_SERVE"])
    app = create_app(
        config["db"],
        ai_keys=Path(config["ai_keys"]),
        limits=Limits(**config["limits"]),
        trusted_proxies=config["trusted_proxies"] or None,
        threads=config.get("threads"),
    )
    # Warm now rather than in the background, so that what it loads is frozen with the rest.
    warm_process()
    collector.pace()
    return app
