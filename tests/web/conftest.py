"""Fixtures for the web table: an app on a fresh SQLite file, in process or on a real port."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
import warnings
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
import uvicorn

from ordnance.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: a worker whose browser tests ran first has an
    event loop running in its main thread (Playwright's sync API), where asyncio.run refuses."""
    with ThreadPoolExecutor(1) as apart:
        return apart.submit(asyncio.run, coroutine).result()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "games.db"), ai_keys=tmp_path / "ai.json")
    with TestClient(app) as test_client:
        yield test_client


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, "the page has no CSRF field"
    return found.group(1)


def create_game(
    client: TestClient, example: str, *, dice: str = "", ai: str = ""
) -> tuple[str, dict[str, str], str]:
    """Create a game in the lobby: (game id, {side: private link path}, spectator path)."""
    page = client.get("/")
    made = client.post(
        "/games",
        data={"csrf": csrf_of(page.text), "example": example, "dice": dice, "ai": ai},
        files={"file": ("", b"")},
    )
    assert made.status_code == 200, made.text
    links = dict(re.findall(r'data-side="([^"]+)" href="https?://[^/]+(/join/[^"]+)"', made.text))
    spectator = re.search(
        r'class="spectator-link" href="https?://[^/]+(/games/[0-9a-f]+)"', made.text
    )
    assert spectator is not None
    game = spectator.group(1).rsplit("/", 1)[1]
    return game, links, spectator.group(1)


def version_of(html: str) -> int:
    found = re.search(r'data-version="(\d+)"', html)
    assert found is not None
    return int(found.group(1))


class LiveServer:
    """uvicorn serving the app on a free local port, in a thread."""

    def __init__(self, db: Path, ai_keys: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.db = db
        config = uvicorn.Config(
            create_app(str(db), ai_keys=ai_keys),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path / "games.db", tmp_path / "ai.json") as server:
        yield server
