"""Hostile or unlucky input gets a sentence from the table, never a traceback or silence.

A side's page checks its cookie's token; a version that is not a whole number is 422; a
database that goes away is 503 with Retry-After on every path (API, pages, exports, event
streams), logged in one line each; ``serve`` refuses a bad --host, a database folder that is
not there and a missing --ai-keys folder in one line (exit 2), and takes a folder for --ai-keys.
"""

from __future__ import annotations

import json
import logging
import re
import resource
import socket
import stat
import subprocess
import sys
import time
import warnings
from pathlib import Path

import httpx
import pytest
from tests.web.conftest import EXAMPLES, create_game, csrf_of

from ordnance.game.ai_tokens import AiTokens
from ordnance.game.dberrors import StorageError
from ordnance.game.storage import Store
from ordnance.web import security
from ordnance.web.app import create_app
from ordnance.web.connections import MAX_HEADER_BYTES

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
DEMO = (EXAMPLES / "asl-c8-demo.yaml").read_text(encoding="utf-8")
VV = (EXAMPLES / "vv-hedgerow-ambush.yaml").read_text(encoding="utf-8")
REJOIN = "open your private link again"
AI_KEYS_FILE = "ai_tokens.json"  # the documented file in a folder given as --ai-keys


def _api_game(client: TestClient) -> tuple[str, str]:
    made = client.post("/api/games", json={"scenario": DEMO}).json()
    return made["game"], made["tokens"]["german"]


# --- a side's cookie is checked, not only its name --------------------------------------------


@pytest.mark.clause("SYS.record", "SYS.cite")
def test_a_side_page_and_its_actions_check_the_cookies_token(client):
    game, links, _ = create_game(client, "asl-c8-demo")
    # A cookie of the right name with another token: as good as none.
    client.cookies.set(security.side_cookie(game, "german"), "x" * 43)
    page = client.get(f"/games/{game}/german")
    assert page.status_code == 403 and REJOIN in page.text
    csrf = csrf_of(client.get("/").text)
    for path, data in (("do", {"action": "phase next"}), ("undo", {})):
        refused = client.post(f"/games/{game}/german/{path}", data={"csrf": csrf, **data})
        assert refused.status_code == 403 and REJOIN in refused.text
    assert client.get(f"/api/games/{game}").json()["version"] == 1  # nothing applied
    # The link itself puts the right token in: the page and the actions work again.
    client.cookies.clear()
    assert client.get(links["german"]).status_code == 200
    assert client.get(f"/games/{game}/german").status_code == 200


# --- numbers -----------------------------------------------------------------------------------


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("raw", ["1e400", "NaN", "-Infinity", "1.5", "2.0", '"1"', "true", "-1"])
def test_a_version_that_is_not_a_whole_number_is_422_with_a_sentence(client, raw):
    game, token = _api_game(client)
    bodies = {
        "do": f'{{"side": "german", "words": ["phase", "next"], "expect_version": {raw}}}',
        "undo": f'{{"side": "german", "expect_version": {raw}}}',
    }
    for path, body in bodies.items():
        answer = client.post(
            f"/api/games/{game}/{path}",
            content=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        assert answer.status_code == 422, answer.text
        data = answer.json()
        assert data["error"] == "bad-input" and data["message"].startswith("bad expect_version")
    assert client.get(f"/api/games/{game}").json()["version"] == 1


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("raw", ["1e400", "nan", "²", "1.0", "9" * 40])
def test_a_form_version_that_is_not_a_whole_number_is_422(client, raw):
    game, links, _ = create_game(client, "asl-c8-demo")
    page = client.get(links["german"])
    csrf = csrf_of(page.text)
    for path, data in (("do", {"action": "phase next"}), ("undo", {})):
        answer = client.post(
            f"/games/{game}/german/{path}", data={"csrf": csrf, "version": raw, **data}
        )
        assert answer.status_code == 422, answer.text
        assert "bad version" in answer.text
    assert client.get(f"/api/games/{game}").json()["version"] == 1


@pytest.mark.clause("SYS.cite")
def test_an_event_stream_with_a_non_number_is_a_sentence(client):
    game, _ = _api_game(client)
    answer = client.get(f"/games/{game}/events", params={"seen": "1e400"})
    assert answer.status_code == 422 and answer.text.startswith("refused: bad seen")


# --- the AI's key file ------------------------------------------------------------------------


@pytest.mark.clause("SYS.record")
def test_a_folder_as_the_ai_key_file_holds_ai_tokens_json(tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    with TestClient(create_app(str(tmp_path / "g.db"), ai_keys=keys)) as client:
        made = client.post("/api/games", json={"scenario": VV, "ai_sides": ["german"]})
        assert made.status_code == 200, made.text
    stored = keys / AI_KEYS_FILE
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert list(json.loads(stored.read_text())[made.json()["game"]]) == ["german"]
    assert AiTokens.at(keys).sides(made.json()["game"]).keys() == {"german"}


# --- a database that goes away -----------------------------------------------------------------


@pytest.mark.clause("SYS.record")
def test_an_append_while_postgresql_is_down_is_a_storage_error(postgres):
    # The append takes its connection from the pool itself: the driver's error when none can
    # be made must become the one StorageError line too (it escaped as a traceback, HTTP 500).
    store = Store(postgres.create_database())
    postgres._ctl("-m", "fast", "stop")
    try:
        store.engine.dispose()  # no pooled connection left: the append must connect
        with pytest.raises(StorageError, match="connection"):
            store.append("g1", 0, [])
    finally:
        postgres._ctl("start")
        store.close()


@pytest.mark.clause("SYS.record", "SYS.cite")
def test_a_lost_database_is_503_with_retry_after_on_every_path(postgres, tmp_path, caplog):
    app = create_app(postgres.create_database(), ai_keys=tmp_path / "ai.json")
    with TestClient(app, raise_server_exceptions=False) as client:
        game, token = _api_game(client)
        joined = client.get(f"/join/{game}/german/{token}")
        assert joined.status_code == 200
        csrf = csrf_of(joined.text)
        auth = {"Authorization": f"Bearer {token}"}
        postgres._ctl("-m", "fast", "stop")
        try:
            caplog.clear()
            api = [
                client.get(f"/api/games/{game}"),
                client.get(f"/api/games/{game}/export"),
                client.post("/api/games", json={"scenario": DEMO}),
                client.post(
                    f"/api/games/{game}/do",
                    json={"side": "german", "words": ["phase", "next"]},
                    headers=auth,
                ),
                client.post(f"/api/games/{game}/undo", json={"side": "german"}, headers=auth),
            ]
            for answer in api:
                assert answer.status_code == 503, answer.text
                assert answer.json()["error"] == "unavailable"
                assert int(answer.headers["Retry-After"]) > 0
            lobby = client.get("/", params={})  # lists the games this browser holds
            pages = [
                lobby,
                client.get(f"/games/{game}"),
                client.get(f"/games/{game}/german"),
                client.get(f"/games/{game}/export"),
                client.get(f"/join/{game}/german/{token}"),
                client.post(
                    f"/games/{game}/german/do", data={"csrf": csrf, "action": "phase next"}
                ),
                client.post(f"/games/{game}/german/undo", data={"csrf": csrf}),
                client.post(
                    "/games",
                    data={"csrf": csrf, "example": "asl-c8-demo"},
                    files={"file": ("", b"")},
                ),
            ]
            for page in pages:
                assert page.status_code == 503, (page.request.url, page.text[:300])
                assert "cannot be reached" in page.text and "try again" in page.text
                assert int(page.headers["Retry-After"]) > 0
            # An event stream ends at once and says when to come back (EventSource retries).
            events = client.get(f"/games/{game}/events")
            assert events.status_code == 200 and events.text.startswith("retry:")
            failures = [r for r in caplog.records if r.name == "ordnance.web"]
            assert failures and all(r.exc_info is None for r in caplog.records)
            assert len(failures) <= len(api) + len(pages) + 2
        finally:
            postgres._ctl("start")
        # Back: the same pages work again.
        assert client.get(f"/games/{game}/german").status_code == 200
        assert client.get(f"/api/games/{game}").status_code == 200


# --- ordnance serve ----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "ordnance.cli.app", "serve", "--port", str(_free_port())]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--host", "999.1.1.1"], "bad --host '999.1.1.1'"),
        (["--host", "8.8.8.8"], "cannot listen there"),
        (["--db", "sqlite:///{missing}/x.db"], "does not exist (create it first)"),
        (["--ai-keys", "{missing}/keys.json"], "bad --ai-keys"),
    ],
)
def test_serve_refuses_what_it_cannot_use_in_one_line(tmp_path, args, said):
    missing = tmp_path / "no" / "such"
    args = [arg.format(missing=missing) for arg in args]
    if "--db" not in args:
        args = [*args, "--db", str(tmp_path / "g.db")]
    try:
        done = _serve(*args, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve {args} started serving instead of refusing")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and said in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "no").exists()


@pytest.mark.clause("SYS.cite")
def test_serve_refuses_an_ai_token_file_other_users_may_read_before_it_starts(tmp_path):
    keys = tmp_path / "ai.json"
    keys.write_text('{"g1": {"german": "secret"}}')
    keys.chmod(0o644)
    done = _serve("--ai-keys", str(keys), "--db", str(tmp_path / "g.db"), timeout=20)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "is open to other users (mode 0644)" in done.stderr
    assert "ordnance table on" not in done.stdout  # refused before it says it serves
    assert keys.read_text() == '{"g1": {"german": "secret"}}'


class Served:
    """``ordnance serve`` as a subprocess on a free port, its log in a file; ``descriptors``:
    the open-files limit it runs under (soft and hard)."""

    def __init__(self, folder: Path, *args: str, descriptors: int | None = None) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / "serve.log"
        command = [sys.executable, "-m", "ordnance.cli.app", "serve", "--port", str(self.port)]
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [*command, "--db", str(folder / "g.db"), *args],
                stdout=out,
                stderr=out,
                preexec_fn=None  # noqa: PLW1509 (the test runs no threads of its own then)
                if descriptors is None
                else lambda: _limit_files(descriptors),
            )
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{self.url}/static/table.css", timeout=2)
                return
            except httpx.TransportError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(self.log.read_text()) from None
                time.sleep(0.1)

    def stop(self) -> str:
        self.process.terminate()
        self.process.wait(timeout=10)
        return self.log.read_text()


@pytest.mark.clause("SYS.record")
def test_serve_keeps_the_ai_keys_in_a_folder_given_as_ai_keys(tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    served = Served(tmp_path, "--ai-keys", str(keys))
    try:
        made = httpx.post(
            f"{served.url}/api/games", json={"scenario": VV, "ai_sides": ["german"]}, timeout=30
        )
        assert made.status_code == 200, made.text
        status = httpx.get(f"{served.url}/api/games/{made.json()['game']}", timeout=30)
        assert status.status_code == 200
    finally:
        log = served.stop()
    assert "Traceback" not in log
    assert made.json()["game"] in json.loads((keys / AI_KEYS_FILE).read_text())


def _limit_files(count: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


def _closed(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


@pytest.mark.clause("SYS.record")
def test_slow_clients_over_the_bound_cannot_lock_others_out(tmp_path):
    served = Served(tmp_path, "--max-connections", "100", "--header-timeout", "1.5")
    slow: list[socket.socket] = []
    try:
        for _ in range(200):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=5)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            slow.append(sock)
        # A client with all its headers is served at once, among 200 that never finish.
        started = time.monotonic()
        answer = httpx.get(f"{served.url}/", timeout=5)
        assert answer.status_code == 200 and time.monotonic() - started < 2
        time.sleep(0.3)
        assert sum(_closed(s) for s in slow) >= 100  # the bound: the oldest went first
        time.sleep(1.7)
        assert all(_closed(s) for s in slow)  # and the rest after the header timeout
    finally:
        for sock in slow:
            sock.close()
        log = served.stop()
    assert "Traceback" not in log and len(log.splitlines()) <= 6, log


@pytest.mark.clause("SYS.record")
def test_more_slow_clients_than_descriptors_cannot_lock_others_out(tmp_path):
    # As 1,100 slow clients against the usual limit of 1024 files, in small: 400 against 256.
    # The default bound does not fit in 256 descriptors: the server lowers it and says so.
    served = Served(tmp_path, descriptors=256)
    slow: list[socket.socket] = []
    try:
        for _ in range(400):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=5)
            sock.sendall(b"GET / HTTP/1.1\r\n")
            slow.append(sock)
        answer = httpx.get(f"{served.url}/", timeout=5)
        assert answer.status_code == 200
    finally:
        for sock in slow:
            sock.close()
        log = served.stop()
    assert "at most 96 connections per process" in log
    assert "Traceback" not in log and log.count("Too many open files") <= 1
    assert len(log.splitlines()) <= 6, log


@pytest.mark.clause("SYS.record")
def test_a_full_descriptor_table_is_logged_once_then_counted(caplog):
    import asyncio  # noqa: PLC0415

    from ordnance.web import connections  # noqa: PLC0415

    connections.TALLY = connections.Tally(every=60.0)
    loop = asyncio.new_event_loop()
    try:
        connections.quiet_accept_errors(loop)
        error = OSError(24, "Too many open files")
        with caplog.at_level(logging.WARNING, logger="ordnance.web"):
            for _ in range(500):
                loop.call_exception_handler(
                    {"message": "socket.accept() out of system resource", "exception": error}
                )
    finally:
        loop.close()
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "cannot accept connections: Too many open files (waiting for some to close) (1)"
    ]
    assert all(r.exc_info is None for r in caplog.records)


@pytest.mark.clause("SYS.record")
def test_headers_past_the_bound_are_answered_431_and_the_table_goes_on(tmp_path):
    served = Served(tmp_path)
    try:
        # One line short of the end of the headers, past the bound: answered and closed.
        with socket.create_connection(("127.0.0.1", served.port), timeout=5) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            for _ in range(MAX_HEADER_BYTES // 1000 + 1):
                sock.sendall(b"X-Pad: " + b"a" * 991 + b"\r\n")
            answer = b""
            while chunk := sock.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 431 ")
        assert f"at most {MAX_HEADER_BYTES} bytes".encode() in answer
        # Two requests on one kept-alive connection, each sending 10 KB of its headers before
        # the rest: both answered, as the count starts again for each request.
        with socket.create_connection(("127.0.0.1", served.port), timeout=5) as sock:
            for _ in range(2):
                request = b"GET /static/table.css HTTP/1.1\r\nHost: x\r\nX-Pad: "
                sock.sendall(request + b"a" * 10_000)
                time.sleep(0.2)  # read by the server on its own
                sock.sendall(b"\r\n\r\n")
                head = sock.recv(65536)
                assert head.startswith(b"HTTP/1.1 200 "), head[:80]
                length = int(re.search(rb"content-length: (\d+)", head, re.I)[1])
                while len(head) - head.index(b"\r\n\r\n") - 4 < length:
                    head += sock.recv(65536)
            # Then two requests sent at once (pipelined): both answered, in turn.
            asked = b"GET /static/table.css HTTP/1.1\r\nHost: x\r\n"
            sock.sendall(asked + b"\r\n" + asked + b"Connection: close\r\n\r\n")
            answers = b""
            while chunk := sock.recv(65536):
                answers += chunk
            assert answers.count(b"HTTP/1.1 200 ") == 2, answers[:200]
    finally:
        log = served.stop()
    assert "Traceback" not in log
    assert f"connections closed for headers over {MAX_HEADER_BYTES} bytes (1)" in log, log
