"""The pushes of a game to its pages: server-sent events, one stream per open page.

A ``version`` event whenever the game moves past the version the page shows (``static/table.js``
then asks for its page again, drawn once per version and side: :mod:`.page_cache`); an ``ai``
event when the page should look again at the same version (the AI's run failed).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import StreamingResponse

from ordnance.core.errors import OrdnanceError
from ordnance.game.dberrors import StorageError
from ordnance.web import notify
from ordnance.web.answers import note_failure, retry_headers, status_of
from ordnance.web.render import router, table_of

KEEPALIVE = 15.0


def _watcher(request: Request) -> asyncio.Task[None]:
    """The app's task that follows other processes' writes (:func:`.notify.start`), started
    again should it have ended."""
    state = request.app.state
    task: asyncio.Task[None] | None = getattr(state, "watcher", None)
    if task is None or task.done():
        task = state.watcher = notify.start(table_of(request))
    return task


@router.get("/games/{game}/events")
async def events(request: Request, game: str, seen: int = -1) -> StreamingResponse:
    """Server-sent events: a ``version`` event whenever the game moves past ``seen``; an
    ``ai`` event when the page should look again at the same version (the AI's run failed)."""
    table = table_of(request)

    async def stream() -> AsyncIterator[bytes]:
        last = seen
        if last < 0:
            try:
                last = await table.workers.run(table.call, lambda s: s.store.version(game))
            except OrdnanceError as error:
                # Away since the look below: end, and the browser comes back (retry).
                note_failure(error, request.url.path)
                yield b"retry: 2000\n\n"
                return
        watcher = _watcher(request)
        # Listening, and the pokes counted, before the hello: news that comes as the page
        # hears it (the AI's run failing just then) is pushed, never taken as already seen.
        key = table.news.listen(game)
        poked = table.news.pokes(game)
        try:
            yield f"retry: 1000\nevent: hello\ndata: {last}\n\n".encode()
            while True:
                now = table.news.version(game)
                if now is not None and now > last:
                    last = now
                    yield f"event: version\ndata: {now}\n\n".encode()
                    continue
                if table.news.pokes(game) != poked:
                    # No new version, but the page has news (the AI's run failed): look again.
                    poked = table.news.pokes(game)
                    yield f"event: ai\ndata: {last}\n\n".encode()
                    continue
                key[1].clear()
                if table.news.version(game) != now or table.news.pokes(game) != poked:
                    continue  # moved on between the look and the clear
                try:
                    await asyncio.wait_for(key[1].wait(), KEEPALIVE)
                except TimeoutError:
                    yield b": keep-alive\n\n"
        finally:
            # The response is cancelled when the browser goes away.
            table.news.stop(game, key)
            del watcher

    try:
        await table.workers.run(table.call, lambda s: s.store.version(game))
    except StorageError as error:
        # The database is away (restarting): end normally, so the browser comes back (retry;
        # an EventSource answered with any status but 200 would give up for good).
        note_failure(error, request.url.path)
        return StreamingResponse(
            iter([b"retry: 2000\n\n"]), media_type="text/event-stream", headers=retry_headers(503)
        )
    except OrdnanceError as error:  # no such game: the status of the one table (404)
        told = f"event: error\ndata: {error}\n\n".encode()
        return StreamingResponse(iter([told]), status_of(error))
    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
