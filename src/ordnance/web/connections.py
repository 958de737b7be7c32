"""The connections of one server process: how many it holds, how long a client may take to
send a request's headers, and how a full descriptor table is logged.

uvicorn bounds neither in the phase before a request's headers: its ``limit_concurrency``
answers 503 only once the headers have arrived, and its keep-alive timer starts only after a
first response, so a client that connects and never finishes its headers holds a socket (a
descriptor) for good, and enough of them lock everyone out. ``ordnance serve`` runs uvicorn
with :class:`GuardedHttpProtocol` (uvicorn's httptools protocol: its parser is C, and a request
for an unknown path costs the server 0.58 ms of CPU against 0.82 with h11), which

- closes a connection whose request headers have not all arrived ``header_timeout`` seconds
  after it opened (or after its previous answer, on a kept-alive connection);
- answers 431 and closes a connection that sends more than :data:`MAX_HEADER_BYTES` without
  ending its headers (h11 had that bound; httptools has none of its own);
- holds at most ``max_connections`` at once: one more closes the connection that has waited
  longest for its headers (an idle or slow one, which costs its client nothing it sent), so a
  legitimate client still gets in while slow ones hold sockets; when every connection is busy
  with a request, the new one is answered 503 at once and closed.

Closed connections are counted and logged in one line a minute, not one per connection; a full
descriptor table (asyncio's "socket.accept() out of system resource") the same way.

>>> tally = Tally(every=60.0)
>>> tally.note("closed slow", now=0.0), tally.note("closed slow", now=1.0)
('closed slow (1)', None)
>>> tally.note("closed slow", now=61.0)
'closed slow (2 in the last 61 s)'
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import resource
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

log = logging.getLogger("ordnance.web")

MAX_CONNECTIONS = 1000
"""Default of ``ordnance serve --max-connections`` (per server process)."""
HEADER_TIMEOUT = 10.0
"""Default of ``ordnance serve --header-timeout``: seconds to send a request's headers."""
RESERVED_DESCRIPTORS = 64
"""Descriptors kept for the database, the key store and the logs beside the connections."""
RETRY_AFTER = 5
MAX_HEADER_BYTES = 16 * 1024
"""The most a request line and headers may take (uvicorn's bound with h11)."""
PROTOCOL = "ordnance.web.connections:GuardedHttpProtocol"
"""What ``ordnance serve`` gives uvicorn as its HTTP protocol (``http=``)."""


@dataclass(frozen=True)
class ConnectionLimits:
    """The bounds of one server process (``ordnance serve --max-connections --header-timeout``)."""

    max_connections: int = MAX_CONNECTIONS
    header_timeout: float = HEADER_TIMEOUT

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> ConnectionLimits:
        """The bounds ``ordnance serve`` wrote into ``$ORDNANCE_SERVE`` (else the defaults)."""
        try:
            given = json.loads(environ.get("ORDNANCE_SERVE", "{}")).get("connections") or {}
            return cls(int(given["max_connections"]), float(given["header_timeout"]))
        except (ValueError, KeyError, TypeError, AttributeError):
            return cls()


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (where allowed);
    the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft)


def connections_allowed(wanted: int, soft_limit: int) -> int:
    """``wanted``, or fewer when the descriptor limit could not hold twice as many and a
    reserve: asyncio accepts up to a listen backlog's worth of connections (``ordnance serve``
    makes it the bound) before any is counted, so the bound is kept as many more descriptors.

    >>> connections_allowed(1000, 20000), connections_allowed(1000, 1024)
    (1000, 480)
    """
    return max(1, min(wanted, (soft_limit - RESERVED_DESCRIPTORS) // 2))


class Tally:
    """Counts of one kind of event, logged at its first occurrence and then at most once a
    period with the count since the last line (a flood makes a few lines, not one each)."""

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self._counts: dict[str, tuple[int, float]] = {}  # what: (count unreported, last line)

    def note(self, what: str, now: float | None = None) -> str | None:
        """Count one ``what``; the line to log now, if one is due."""
        now = time.monotonic() if now is None else now
        count, last = self._counts.get(what, (0, -self.every))
        count += 1
        if now - last < self.every:
            self._counts[what] = (count, last)
            return None
        self._counts[what] = (0, now)
        if last < 0:
            return f"{what} ({count})"
        return f"{what} ({count} in the last {round(now - last)} s)"

    def log(self, what: str) -> None:
        line = self.note(what)
        if line is not None:
            log.warning("%s", line)


TALLY = Tally()


def _closing_answer(status: str, text: str, *headers: str) -> bytes:
    """A whole plain-text answer that closes its connection, written before any request."""
    body = text.encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        + "".join(f"{header}\r\n" for header in headers)
        + f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode("ascii") + body


def _refusal(limit: int) -> bytes:
    return _closing_answer(
        "503 Service Unavailable",
        f"refused: the server holds its limit of {limit} connections; try again in {RETRY_AFTER} s",
        f"retry-after: {RETRY_AFTER}",
    )


_TOO_LARGE = _closing_answer(
    "431 Request Header Fields Too Large",
    f"refused: a request's line and headers may take at most {MAX_HEADER_BYTES} bytes",
)


@dataclass
class Book:
    """One server's connections: those waiting for a request's headers, oldest first, and
    every open one (a connection it closes leaves both at once, before its connection_lost)."""

    limits: ConnectionLimits
    waiting: dict[GuardedHttpProtocol, None] = field(default_factory=dict)
    open: set[GuardedHttpProtocol] = field(default_factory=set)


_BOOKS: weakref.WeakKeyDictionary[ServerState, Book] = weakref.WeakKeyDictionary()


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a bound on connections, on the time to send headers
    and on their size (read from ``$ORDNANCE_SERVE``, which ``ordnance serve`` writes)."""

    def __init__(
        self, config: Config, server_state: ServerState, *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(config, server_state, *args, **kwargs)
        book = _BOOKS.get(server_state)
        if book is None:
            book = _BOOKS[server_state] = Book(ConnectionLimits.from_environment())
        self.book = book
        self.bounds = book.limits
        self.waiting, self.open = book.waiting, book.open
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = 0  # received since this connection began to wait for headers

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.open.add(self)
        if len(self.open) > self.bounds.max_connections:
            oldest = next((c for c in self.waiting if c is not self), None)
            if oldest is not None:
                TALLY.log(
                    f"connections over the bound of {self.bounds.max_connections}: closed the"
                    " one waiting longest for its headers"
                )
                oldest.drop()
            else:
                TALLY.log(
                    f"connections over the bound of {self.bounds.max_connections}, all busy:"
                    " refused new ones with 503"
                )
                transport.write(_refusal(self.bounds.max_connections))
                self.drop()
                return
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self in self.waiting and not self.transport.is_closing():
            # Still no end of headers after all of this: a header section past the bound.
            self._header_bytes += len(data)
            if self._header_bytes > MAX_HEADER_BYTES:
                TALLY.log(f"connections closed for headers over {MAX_HEADER_BYTES} bytes")
                self.transport.write(_TOO_LARGE)
                self.drop()

    def on_headers_complete(self) -> None:
        self._headers_arrived()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        pipelined = bool(self.pipeline)  # a next request whose headers came: it starts now
        super().on_response_complete()
        if not self.transport.is_closing() and not pipelined:
            self._await_headers()  # kept alive: the next request's headers are timed too

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        super().connection_lost(exc)

    # --- the header phase ------------------------------------------------------------------------

    def _await_headers(self) -> None:
        self.waiting.pop(self, None)
        self.waiting[self] = None
        self._header_bytes = 0
        if self._header_timer is not None:
            self._header_timer.cancel()
        self._header_timer = self.loop.call_later(self.bounds.header_timeout, self._too_slow)

    def _headers_arrived(self) -> None:
        self.waiting.pop(self, None)
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if self in self.waiting:
            TALLY.log(
                f"connections closed for not sending their headers within"
                f" {self.bounds.header_timeout:g} s"
            )
            self.drop()

    def drop(self) -> None:
        """Close this connection now (it no longer counts against the bound)."""
        self._forget()
        self.transport.close()

    def _forget(self) -> None:
        self.waiting.pop(self, None)
        self.open.discard(self)
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Log a full descriptor table once (then a count a minute), not once per attempt with a
    traceback; every other unhandled error goes to the loop's usual handler."""

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if "out of system resource" in str(context.get("message", "")):
            error = context.get("exception")
            reason = getattr(error, "strerror", None) or "out of descriptors"
            TALLY.log(f"cannot accept connections: {reason} (waiting for some to close)")
            return
        handle = context.get("handle")
        callback = getattr(handle, "_callback", None)
        if getattr(callback, "__name__", "") == "_start_serving" and isinstance(
            context.get("exception"), ValueError
        ):
            return  # asyncio's retry of accepting, after that listening socket was closed
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
