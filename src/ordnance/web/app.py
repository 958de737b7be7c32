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

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import Response

from ordnance import __version__
from ordnance.web import api, pages
from ordnance.web.table import Table


def create_app(db: str | None = None, *, ai_keys: Path | None = None) -> FastAPI:
    """The app over the games in ``db`` (any URL the CLI's ``--db`` takes)."""
    table = Table(db, ai_keys)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
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
    app.include_router(pages.router)

    @app.middleware("http")
    async def headers(request: Request, call_next: api.CallNext) -> Response:
        response = await call_next(request)
        # Links carry tokens only on the way in; never leak a URL to another site.
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline';"
            " frame-ancestors 'none'",
        )
        return response

    return app
