"""The table's limits on a client: request sizes and rates of actions, new games and uploads.

Rates are token buckets per client address (the proxy's ``X-Forwarded-For`` only when the
server is told to trust that proxy, ``--trust-proxy``): a bucket holds up to a minute's worth
and refills continuously, so a client may burst up to the limit, then goes at the limit's pace.
A refusal is HTTP 429 with ``Retry-After`` and a sentence saying which limit and when to retry
(JSON ``{"error": "rate-limited", ...}`` under ``/api``). Bodies over their size limit are
refused with 413 before the app reads them. Each process counts its own clients: behind N
processes a client that the proxy spreads over all of them gets up to N times the limit.

>>> limits = Limits(actions=2, games=1, uploads=1)
>>> [limits.allow("actions", "10.0.0.1", now=0.0) for _ in range(3)]
[0.0, 0.0, 30.0]
>>> limits.allow("actions", "10.0.0.2", now=0.0), limits.allow("actions", "10.0.0.1", now=30.0)
(0.0, 0.0)
>>> kind_of("POST", "/api/games/ab12/do"), kind_of("POST", "/verify"), kind_of("GET", "/")
('actions', 'uploads', None)
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ordnance.web.security import LOG_LIMIT, MAP_LIMIT, MAX_MAPS, SCENARIO_LIMIT

# Defaults per client and minute (``ordnance serve --limit-actions`` etc.; 0 switches one off).
# A player sends a command every few seconds at most; a script through --server a few a second.
ACTIONS_PER_MINUTE = 120
GAMES_PER_MINUTE = 10
UPLOADS_PER_MINUTE = 10
CLIENTS_KEPT = 10_000  # the least recently seen clients' buckets are dropped beyond this
# The largest body each kind of request may send (bytes): a scenario, a log, anything else.
FORM_LIMIT = 64 * 1024
SLACK = 64 * 1024  # multipart framing and the form's other fields around an uploaded file

KINDS = {
    "actions": "actions (commands and undos)",
    "games": "new games",
    "uploads": "uploads (logs to verify)",
}
_ACTION = re.compile(r"^/(api/games/[^/]+|games/[^/]+/[^/]+)/(do|undo)$")


def kind_of(method: str, path: str) -> str | None:
    """Which rate a request counts against (None: reads are not limited)."""
    if method != "POST":
        return None
    if path in ("/games", "/api/games"):
        return "games"
    if path == "/verify":
        return "uploads"
    if _ACTION.match(path):
        return "actions"
    return None


def body_limit(path: str) -> tuple[int, str]:
    """The largest body a POST to ``path`` may carry, and the refusal's words."""
    if path == "/verify":
        return LOG_LIMIT + SLACK, f"a log to verify may be at most {LOG_LIMIT // 2**20} MB"
    rule = (
        f"a scenario may be at most {SCENARIO_LIMIT // 1024} KB, and each map uploaded with it"
        f" {MAP_LIMIT // 1024} KB"
    )
    if path == "/games":  # the lobby's form: a scenario file and a map file
        return SCENARIO_LIMIT + MAP_LIMIT + SLACK, rule
    if path == "/api/games":  # JSON: up to MAX_MAPS maps, their text escaped (up to twice)
        return 2 * (SCENARIO_LIMIT + MAX_MAPS * MAP_LIMIT) + SLACK, rule
    return FORM_LIMIT, f"a form or command may be at most {FORM_LIMIT // 1024} KB"


@dataclass
class Limits:
    """Per-minute rates of each kind (0: unlimited) and the buckets of the clients seen."""

    actions: int = ACTIONS_PER_MINUTE
    games: int = GAMES_PER_MINUTE
    uploads: int = UPLOADS_PER_MINUTE
    _buckets: OrderedDict[tuple[str, str], tuple[float, float]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def rate(self, kind: str) -> int:
        value: int = getattr(self, kind)
        return value

    def allow(self, kind: str, client: str, now: float | None = None) -> float:
        """0.0 when ``client`` may go ahead (one token taken), else the seconds to wait."""
        rate = self.rate(kind)
        if rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        per_second = rate / 60.0
        key = (kind, client)
        with self._lock:
            tokens, then = self._buckets.pop(key, (float(rate), now))
            tokens = min(float(rate), tokens + (now - then) * per_second)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                wait = 0.0
            else:
                self._buckets[key] = (tokens, now)
                wait = (1.0 - tokens) / per_second
            while len(self._buckets) > CLIENTS_KEPT:
                self._buckets.popitem(last=False)
        return wait


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def _refuse(
    send: Send, scope: Scope, *, status: int, kind: str, message: str, headers: dict[str, str]
) -> None:
    """A refusal: JSON under /api (the CLI's --server reads it), a plain sentence elsewhere."""
    if str(scope.get("path", "")).startswith("/api/"):
        body = json.dumps({"error": kind, "message": message}).encode()
        media = "application/json"
    else:
        body = f"refused: {message}".encode()
        media = "text/plain; charset=utf-8"
    raw = [(b"content-type", media.encode()), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: refuse over-rate clients (429) and over-size bodies (413)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    @staticmethod
    async def _too_large(send: Send, scope: Scope, message: str) -> None:
        await _refuse(
            send,
            scope,
            status=413,
            kind="too-large",
            message=message,
            headers={"Connection": "close"},
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        path = str(scope["path"])
        kind = kind_of("POST", path)
        if kind is not None:
            wait = self.limits.allow(kind, client_of(scope))
            if wait > 0:
                seconds = math.ceil(wait)
                message = (
                    f"too many {KINDS[kind]} from this address: the limit is"
                    f" {self.limits.rate(kind)} a minute; try again in {seconds} s"
                )
                await _refuse(
                    send,
                    scope,
                    status=429,
                    kind="rate-limited",
                    message=message,
                    headers={"Retry-After": str(seconds)},
                )
                return
        limit, rule = body_limit(path)
        too_large = f"the request is too large: {rule}"
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"").decode("latin-1")
        if declared.isdigit() and int(declared) > limit:
            await self._too_large(send, scope, too_large)
            return
        # Read the body here (it is small by now) so a chunked body cannot pass the limit.
        chunks: list[bytes] = []
        size = 0
        while True:
            got = await receive()
            if got["type"] == "http.disconnect":
                return
            chunk = got.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._too_large(send, scope, too_large)
                return
            chunks.append(chunk)
            if not got.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
