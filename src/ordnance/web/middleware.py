"""Two plain ASGI middlewares every answer passes through: the security headers, and the count
of requests being answered (the warmer works only while it is zero, :mod:`.warm`).

Plain ASGI rather than Starlette's ``@app.middleware("http")``: that one runs each request in
a task group of its own, with memory streams between it and the app, a cost every request
paid (bench_web's profiles at 100 games showed it on every request's stack).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class SecurityHeaders:
    """Set ``headers`` on every HTTP answer that does not set them itself; on HTTPS, HSTS too."""

    def __init__(self, app: ASGIApp, headers: Iterable[tuple[str, str]]) -> None:
        self.app = app
        self.headers = tuple(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers:
                    headers.setdefault(name, value)
                if secure:
                    headers.setdefault("Strict-Transport-Security", "max-age=31536000")
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Gauge:
    """How many requests are being answered now (kept by :class:`InFlight`)."""

    def __init__(self) -> None:
        self.count = 0


class InFlight:
    """Count on ``gauge`` the HTTP requests being answered, event streams apart (they stay
    open while a page listens, and wait rather than work)."""

    def __init__(self, app: ASGIApp, gauge: Gauge) -> None:
        self.app = app
        self.gauge = gauge

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or str(scope["path"]).endswith("/events"):
            await self.app(scope, receive, send)
            return
        self.gauge.count += 1  # the event loop's thread alone changes it
        try:
            await self.app(scope, receive, send)
        finally:
            self.gauge.count -= 1
