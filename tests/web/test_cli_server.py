"""The CLI's game commands through a running table (``--server URL``), as two players would."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import httpx
import pytest
from tests.web.conftest import EXAMPLES

from ordnance.cli.app import main


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_two_sides_play_through_the_server_and_the_log_verifies(live_server, capsys, tmp_path):
    url = live_server.url
    code, out, _ = _run(
        capsys, "game", "new", str(EXAMPLES / "asl-c8-demo.yaml"), "--server", url, "--json"
    )
    assert code == 0
    made = json.loads(out)
    game, tokens = made["game"], made["tokens"]
    # The same status, JSON for JSON, through the server and from the database itself.
    _, remote, _ = _run(capsys, "game", "status", game, "--server", url, "--json")
    _, local, _ = _run(capsys, "game", "status", game, "--db", str(live_server.db), "--json")
    assert json.loads(remote) == json.loads(local)
    # One full Player Turn for each side: step the phases; fire where the ruleset allows.
    fired: set[tuple[str, str]] = set()
    for _ in range(60):
        status = json.loads(_run(capsys, "game", "status", game, "--server", url, "--json")[1])
        if status["over"]:
            break
        side = status["to_move"]
        actions = json.loads(
            _run(capsys, "game", "status", game, "--side", side, "--server", url, "--json")[1]
        )["legal_actions"][side]
        fire = [a for a in actions if a.startswith("fire ")]
        phase = (side, str(status["state"]["phase"]))
        words = (fire[0] if fire and phase not in fired else "phase next").split()
        fired.add(phase)
        code, out, err = _run(
            capsys,
            "game",
            "do",
            game,
            *words,
            "--side",
            side,
            "--token",
            tokens[side],
            "--server",
            url,
        )
        assert code == 0, err
        assert "Version" in out
    assert status["over"]
    # A refusal keeps its exit code and its one line.
    code, _, err = _run(
        capsys,
        "game",
        "do",
        game,
        "phase",
        "next",
        "--side",
        "german",
        "--token",
        tokens["german"],
        "--server",
        url,
    )
    # (the first line warns that --token shows in ps: the token files are for real play)
    assert code == 1 and err.splitlines()[-1].startswith("ordnance: refused by")
    # A wrong token: one line, exit 2, as locally.
    code, _, err = _run(
        capsys,
        "game",
        "do",
        game,
        "phase",
        "next",
        "--side",
        "german",
        "--token",
        "x" * 43,
        "--server",
        url,
    )
    assert code == 2 and "not authorized" in err
    log = tmp_path / "log.json"
    assert _run(capsys, "game", "export", game, "--out", str(log), "--server", url)[0] == 0
    code, out, _ = _run(capsys, "game", "verify", str(log), "--json")
    assert code == 0 and json.loads(out)["ok"]


def test_a_stale_command_through_the_server_is_refused_like_a_local_one(live_server, capsys):
    url = live_server.url
    made = json.loads(
        _run(capsys, "game", "new", str(EXAMPLES / "asl-c8-demo.yaml"), "--server", url, "--json")[
            1
        ]
    )
    code, _, err = _run(
        capsys,
        "game",
        "do",
        made["game"],
        "phase",
        "next",
        "--side",
        "german",
        "--token",
        made["tokens"]["german"],
        "--expect-version",
        "7",
        "--server",
        url,
    )
    assert code == 2 and "stale state" in err


@pytest.mark.clause("VV.AP-phases")
def test_game_new_through_the_server_gives_its_ai_the_sides_asked_for(
    live_server, capsys, tmp_path
):
    url, hedgerows = live_server.url, str(EXAMPLES / "vv-hedgerow-ambush.yaml")
    # As the scenario says (the German 'ai: true'): the German token stays with the table.
    code, out, _ = _run(capsys, "game", "new", hedgerows, "--server", url)
    assert code == 0 and "The table's AI plays german" in out and "american" in out
    # --ai in its place: the AI plays the American, who moves first, and does so by itself.
    code, out, _ = _run(
        capsys, "game", "new", hedgerows, "--server", url, "--ai", "american", "--json"
    )
    made = json.loads(out)
    assert code == 0 and set(made["tokens"]) == {"german"} and made["ai_sides"] == ["american"]
    deadline, version = time.monotonic() + 30, made["version"]
    while version == made["version"] and time.monotonic() < deadline:
        time.sleep(0.1)
        status = json.loads(
            _run(capsys, "game", "status", made["game"], "--server", url, "--json")[1]
        )
        version = status["version"]
    assert version > made["version"]  # the table's AI moved
    # --no-ai: every token is the players'.
    code, out, _ = _run(capsys, "game", "new", hedgerows, "--server", url, "--no-ai", "--json")
    assert code == 0 and set(json.loads(out)["tokens"]) == {"american", "german"}
    # Without a table, --ai is refused before anything is made.
    db = tmp_path / "none.sqlite3"
    code, _, err = _run(capsys, "game", "new", hedgerows, "--ai", "german", "--db", str(db))
    assert code == 2 and err.count("\n") == 1 and "--server" in err and not db.exists()
    code, _, err = _run(
        capsys, "game", "new", hedgerows, "--server", url, "--ai", "german", "--no-ai"
    )
    assert code == 2 and "not both" in err


@pytest.mark.parametrize("server", ["http://127.0.0.1:9", "not a url"])
def test_an_unreachable_server_is_one_line(capsys, server):
    code, _, err = _run(capsys, "game", "status", "abc", "--server", server)
    assert code == 2 and err.count("\n") == 1 and "server" in err


def test_ordnance_serve_serves_the_lobby(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = f"sqlite:///{tmp_path / 'served.db'}"
    command = [sys.executable, "-m", "ordnance.cli.app", "serve", "--db", db, "--port", str(port)]
    command += ["--host", "127.0.0.1"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "ordnance serve did not start"
                time.sleep(0.2)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/html")
        assert "Start a game" in answer.text
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert (tmp_path / "served.db").is_file()
