"""What ``ordnance serve`` hands uvicorn and its processes when its command line does not say:
its threads by database (web/work.py ``threads_for``) and its event loop (SYS.record)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from ordnance.cli.app import main


def served(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """uvicorn's arguments and the processes' configuration for ``ordnance serve ARGS``,
    nothing served."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    monkeypatch.setenv("ORDNANCE_SERVE", "")  # the command's, undone after the test
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    assert main(["serve", "--port", port, *args]) == 0
    return seen, json.loads(os.environ["ORDNANCE_SERVE"])


@pytest.mark.clause("SYS.record")
def test_one_thread_on_sqlite_two_on_postgresql_unless_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sqlite = f"sqlite:///{tmp_path / 'g.db'}"
    postgres = "postgresql://nobody@127.0.0.1:9/none"  # never connected: nothing is served
    keys = ["--ai-keys", str(tmp_path / "ai.json")]  # not the user's data folder
    assert served(monkeypatch, "--db", sqlite)[1]["threads"] == 1
    assert served(monkeypatch, "--db", postgres, *keys)[1]["threads"] == 2
    assert served(monkeypatch, "--db", postgres, *keys, "--threads", "1")[1]["threads"] == 1
    assert served(monkeypatch, "--db", sqlite, "--threads", "3")[1]["threads"] == 3


@pytest.mark.clause("SYS.record")
@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not installed on Windows")
def test_the_server_runs_on_uvloop_where_the_web_extra_brings_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvloop  # noqa: PLC0415

    options = served(monkeypatch, "--db", f"sqlite:///{tmp_path / 'g.db'}")[0]
    factory = uvicorn.Config(app=None, loop=options["loop"]).get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()
    assert not isinstance(asyncio.new_event_loop(), uvloop.Loop)  # the test's own: asyncio's
