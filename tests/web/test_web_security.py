"""Who may act at the table: cookies, spectators, CSRF, escaping, upload limits."""

from __future__ import annotations

import pytest
from tests.web.conftest import EXAMPLES, create_game, csrf_of, version_of

from ordnance.web import pages
from ordnance.web.security import side_cookie

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _post_do(client, game, side, csrf, version):
    return client.post(
        f"/games/{game}/{side}/do", data={"csrf": csrf, "version": version, "action": "phase next"}
    )


def test_a_side_cookie_cannot_act_for_the_other_side_or_in_another_game(client):
    game, links, _ = create_game(client, "asl-c8-demo")
    other, _, _ = create_game(client, "asl-c8-demo")
    page = client.get(links["german"])
    csrf, v = csrf_of(page.text), version_of(page.text)
    german_token = links["german"].rsplit("/", 1)[1]
    # No russian cookie in this browser: refused, nothing stored.
    assert _post_do(client, game, "russian", csrf, v).status_code == 403
    # A russian cookie forged with german's token: the service refuses the token.
    client.cookies.set(side_cookie(game, "russian"), german_token)
    assert _post_do(client, game, "russian", csrf, v).status_code == 403
    # German's token planted as german of another game: refused there too.
    client.cookies.set(side_cookie(other, "german"), german_token)
    assert _post_do(client, other, "german", csrf, 1).status_code == 403
    assert version_of(client.get(f"/games/{game}").text) == v
    assert version_of(client.get(f"/games/{other}").text) == 1
    # And the JSON API takes no cookie: without the Bearer token nothing happens.
    api = client.post(f"/api/games/{game}/do", json={"side": "german", "words": ["phase", "next"]})
    assert api.status_code == 422 and api.json()["error"] == "bad-input"
    wrong = client.post(
        f"/api/games/{game}/do",
        json={"side": "russian", "words": ["phase", "next"]},
        headers={"Authorization": f"Bearer {german_token}"},
    )
    assert wrong.status_code == 403 and wrong.json()["error"] == "not-authorized"


def test_a_spectator_sees_but_cannot_act(client):
    game, _, spectator = create_game(client, "asl-c8-demo")
    client.get("/")  # a browser with a CSRF cookie but no side link
    csrf = client.cookies.get("ordnance_csrf")
    watched = client.get(spectator)
    assert watched.status_code == 200 and 'method="post"' not in watched.text
    assert client.get(f"/games/{game}/german").status_code == 403
    assert _post_do(client, game, "german", csrf, 1).status_code == 403
    assert version_of(client.get(spectator).text) == 1


def test_every_post_of_the_pages_needs_the_csrf_token(client):
    game, links, _ = create_game(client, "asl-c8-demo")
    client.get(links["german"])
    posts = [r.path for r in pages.router.routes if "POST" in (getattr(r, "methods", None) or ())]
    assert len(posts) >= 4
    for path in posts:
        url = path.replace("{game}", game).replace("{side}", "german")
        for sent in ({}, {"csrf": "forged-token-forged-token-forged-token"}):
            answer = client.post(url, data={**sent, "version": "1", "action": "phase next"})
            assert answer.status_code == 403, url
            assert "CSRF" in answer.text
    assert version_of(client.get(f"/games/{game}").text) == 1


def test_scenario_text_is_escaped_in_the_pages(client):
    text = (EXAMPLES / "asl-c8-demo.yaml").read_text(encoding="utf-8")
    text = text.replace("name: 7.5cm PaK 40", "name: \"<script>alert('pak')</script>\"")
    text = text.replace('name: "Ammunition at', 'name: "<b>bold</b> Ammunition at')
    csrf = csrf_of(client.get("/").text)
    made = client.post(
        "/games", data={"csrf": csrf, "example": ""}, files={"file": ("x.yaml", text.encode())}
    )
    assert made.status_code == 200
    assert "<b>bold</b>" not in made.text and "&lt;b&gt;bold&lt;/b&gt;" in made.text
    link = made.text.split('data-side="german" href="')[1].split('"')[0]
    page = client.get(link.replace("http://testserver", ""))
    assert "<script>alert" not in page.text
    assert "&lt;script&gt;alert(&#39;pak&#39;)&lt;/script&gt;" in page.text


def test_uploads_over_the_limit_are_refused_with_a_clear_message(client):
    csrf = csrf_of(client.get("/").text)
    big = b"# padding\n" * 40_000  # 400 KB, over the 256 KB scenario limit
    answer = client.post(
        "/games", data={"csrf": csrf, "example": ""}, files={"file": ("big.yaml", big)}
    )
    assert answer.status_code == 413
    assert "too large" in answer.text and "256 KB" in answer.text
    api = client.post("/api/games", json={"scenario": "x" * 300_000})
    assert api.status_code == 422


def test_a_link_with_a_wrong_token_sets_no_cookie(client):
    game, links, _ = create_game(client, "asl-c8-demo")
    forged = links["german"][:-4] + "AAAA"
    answer = client.get(forged, follow_redirects=False)
    assert answer.status_code == 403 and "not the link of side german" in answer.text
    assert "ordnance_side" not in answer.headers.get("set-cookie", "")
    assert client.get(f"/games/{game}/german").status_code == 403
