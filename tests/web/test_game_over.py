"""A finished game's page says so, and who won, at the head of the column where the player
acts (not only in the side record, folded on a phone)."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create_game


def test_the_panel_of_a_finished_game_names_the_winner(client: TestClient) -> None:
    game, links, _ = create_game(client, "vv-hedgerow-ambush", ai="none")
    tokens = {side: link.rsplit("/", 1)[1] for side, link in links.items()}
    for link in links.values():
        client.get(link)
    for _ in range(400):
        status = client.get(f"/api/games/{game}").json()
        if status["over"]:
            break
        side = status["to_move"]
        legal = status["legal_actions"][side]
        words = next((a for a in ("phase next", "pass", "end") if a in legal), legal[0]).split()
        done = client.post(
            f"/api/games/{game}/do",
            json={"side": side, "words": words},
            headers={"Authorization": f"Bearer {tokens[side]}"},
        )
        assert done.status_code == 200, done.text
    else:
        pytest.fail("the game did not end")
    page = client.get(f"/games/{game}/american").text
    start = page.index('id="game-over"')
    banner = page[start : page.index("</section>", start)]
    said = re.search(r'<p class="result">([^<]*)</p>', banner)
    assert said is not None and "victory points" in said.group(1)
    assert re.search(r"(american|german) wins|A draw", said.group(1))
    panel = page[page.index('id="act-h"') : page.index('id="ruling-h"')]
    assert "The game is over (see above)" in panel
