"""The table's defences against a hostile client: rates, sizes, secrets in URLs, cookies, CSP.

Each refusal is checked for its status, its machine-readable kind (JSON under /api) and a
sentence that says which limit was hit.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from tests.web.conftest import EXAMPLES, create_game, csrf_of

from ordnance.cli.app import main
from ordnance.web.app import create_app
from ordnance.web.limits import Limits, body_limit

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
DEMO = (EXAMPLES / "asl-c8-demo.yaml").read_text(encoding="utf-8")


def make_client(
    tmp_path: Path,
    limits: Limits | None = None,
    proxies: list[str] | None = None,
    base_url: str = "http://testserver",
) -> TestClient:
    app = create_app(
        str(tmp_path / "games.db"),
        ai_keys=tmp_path / "ai.json",
        limits=limits,
        trusted_proxies=proxies,
    )
    return TestClient(app, base_url=base_url)


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path, Limits(actions=3, games=2, uploads=1)) as client:
        yield client


def _do(client: TestClient, game: str, token: str, **headers: str) -> object:
    return client.post(
        f"/api/games/{game}/do",
        json={"side": "german", "words": ["phase", "next"]},
        headers={"Authorization": f"Bearer {token}", **headers},
    )


# --- rates ---------------------------------------------------------------------------------------


def test_actions_over_the_rate_are_refused_with_429_and_when_to_retry(limited):
    made = limited.post("/api/games", json={"scenario": DEMO}).json()
    token = made["tokens"]["german"]
    answers = [_do(limited, made["game"], token) for _ in range(4)]
    assert [a.status_code != 429 for a in answers] == [True, True, True, False]
    refused = answers[-1]
    assert refused.json()["error"] == "rate-limited"
    assert "too many actions" in refused.json()["message"]
    assert "3 a minute" in refused.json()["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    # The page's forms count against the same rate, and say so in a sentence.
    page = limited.post(f"/games/{made['game']}/german/do", data={"action": "phase next"})
    assert page.status_code == 429 and page.text.startswith("refused: too many actions")


def test_game_creation_and_uploads_have_their_own_rates(limited):
    for _ in range(2):
        assert limited.post("/api/games", json={"scenario": DEMO}).status_code == 200
    third = limited.post("/api/games", json={"scenario": DEMO})
    assert third.status_code == 429 and "too many new games" in third.json()["message"]
    lobby = limited.post("/games", data={"example": "asl-c8-demo"})
    assert lobby.status_code == 429 and "new games" in lobby.text
    csrf = csrf_of(limited.get("/verify").text)
    files = {"log": ("log.json", b"{}")}
    assert limited.post("/verify", data={"csrf": csrf}, files=files).status_code != 429
    again = limited.post("/verify", data={"csrf": csrf}, files=files)
    assert again.status_code == 429 and "too many uploads" in again.text
    # Reads are never limited.
    assert all(limited.get("/").status_code == 200 for _ in range(5))


def test_rates_count_per_client_and_believe_forwarded_addresses_only_from_a_trusted_proxy(
    tmp_path,
):
    with make_client(tmp_path, Limits(games=1), proxies=["testclient"]) as trusting:
        for address in ("10.0.0.1", "10.0.0.2"):
            sent = {"X-Forwarded-For": address}
            ok = trusting.post("/api/games", json={"scenario": DEMO}, headers=sent)
            assert ok.status_code == 200
        again = trusting.post(
            "/api/games", json={"scenario": DEMO}, headers={"X-Forwarded-For": "10.0.0.1"}
        )
        assert again.status_code == 429
    with make_client(tmp_path, Limits(games=1)) as plain:
        first = plain.post(
            "/api/games", json={"scenario": DEMO}, headers={"X-Forwarded-For": "10.0.0.3"}
        )
        # Without --trust-proxy a client cannot make itself new by naming another address.
        forged = plain.post(
            "/api/games", json={"scenario": DEMO}, headers={"X-Forwarded-For": "10.0.0.4"}
        )
        assert (first.status_code, forged.status_code) == (200, 429)


def test_serve_refuses_several_processes_on_sqlite(capsys, tmp_path):
    code = main(["serve", "--db", str(tmp_path / "g.db"), "--workers", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "PostgreSQL" in err[0], err


# --- sizes ---------------------------------------------------------------------------------------


def test_bodies_over_their_limit_are_refused_before_they_are_read(client):
    made = client.post("/api/games", json={"scenario": DEMO}).json()
    big = {"side": "german", "words": ["x" * 100_000]}
    declared = client.post(f"/api/games/{made['game']}/do", json=big)
    assert declared.status_code == 413 and declared.json()["error"] == "too-large"
    assert "at most 64 KB" in declared.json()["message"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(body_limit("/api/games")[0] // 10_000 + 1):
            yield b"x" * 10_000

    chunked = client.post("/api/games", content=chunks())
    assert chunked.status_code == 413 and "256 KB" in chunked.json()["message"]
    huge = client.post("/verify", files={"log": ("l.json", b"x" * (9 * 1024 * 1024))})
    assert huge.status_code == 413 and "at most 8 MB" in huge.text


# --- secrets, cookies, script --------------------------------------------------------------------


def test_a_private_link_redirects_once_to_a_url_without_the_token(client):
    _game, links, _ = create_game(client, "asl-c8-demo")
    token = links["german"].rsplit("/", 1)[1]
    first = client.get(links["german"], follow_redirects=False)
    assert first.status_code == 303 and token not in first.headers["location"]
    assert first.headers["cache-control"] == "no-store"
    assert first.headers["referrer-policy"] == "no-referrer"
    page = client.get(first.headers["location"])
    assert page.status_code == 200 and token not in page.text and token not in str(page.url)


def _cookie_flags(response: object) -> list[str]:
    return [v.lower() for k, v in response.headers.multi_items() if k == "set-cookie"]


def test_cookies_are_httponly_strict_and_secure_only_behind_tls(tmp_path):
    with make_client(tmp_path) as plain:
        _game, links, _ = create_game(plain, "asl-c8-demo")
        cookies = _cookie_flags(plain.get(links["german"], follow_redirects=False))
        assert cookies and all("httponly" in c and "samesite=strict" in c for c in cookies)
        assert not any("secure" in c for c in cookies)
        # A forged X-Forwarded-Proto from a client that is no trusted proxy changes nothing.
        plain.cookies.clear()
        forged = plain.get("/", headers={"X-Forwarded-Proto": "https"})
        assert not any("secure" in c for c in _cookie_flags(forged))
    with make_client(tmp_path, proxies=["testclient"]) as proxied:
        answer = proxied.get("/", headers={"X-Forwarded-Proto": "https"})
        cookies = _cookie_flags(answer)
        assert cookies and all("secure" in c and "httponly" in c for c in cookies)
        assert "max-age" in answer.headers["strict-transport-security"]
    with make_client(tmp_path, base_url="https://testserver") as direct:
        _game, links, _ = create_game(direct, "asl-c8-demo")
        cookies = _cookie_flags(direct.get(links["german"], follow_redirects=False))
        assert cookies and all("secure" in c for c in cookies)


INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle\s*=|\son[a-z]+\s*=|javascript:", re.I
)


def test_the_policy_forbids_inline_script_and_no_page_needs_it(client):
    policy = client.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    templates = resources.files("ordnance.web").joinpath("templates")
    for template in templates.iterdir():
        found = INLINE.search(template.read_text(encoding="utf-8"))
        assert found is None, (template.name, found)
    game, links, spectator = create_game(client, "asl-c8-demo")
    pages = [client.get(u) for u in ("/", links["german"], spectator, "/verify", "/games/x")]
    for page in pages:
        assert INLINE.search(page.text) is None, (page.url, INLINE.search(page.text))
    assert game in pages[2].text


@pytest.mark.clause("SYS.record")
def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    """Pages, API errors and static files all get them; HSTS only over HTTPS (set by the
    plain ASGI middleware that replaced Starlette's per-request one)."""
    wanted = {
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
    }
    with make_client(tmp_path) as client:
        for answer in (
            client.get("/"),
            client.get("/api/games/nosuchgame"),
            client.get("/static/table.js"),
        ):
            for name, value in wanted.items():
                assert answer.headers[name] == value, (answer.url, name)
            assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
            assert "strict-transport-security" not in answer.headers
    (tmp_path / "s").mkdir()
    with make_client(tmp_path / "s", base_url="https://testserver") as client:
        assert client.get("/").headers["strict-transport-security"] == "max-age=31536000"
