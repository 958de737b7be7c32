"""The board page's layout is chosen by a class the server writes on <body>, not by CSS
``:has()``: with ``main:has(.board)`` every change under <main> (a hover's words, a chosen
counter, the marks of its hexes) restyled all of its 1,600-2,300 elements (bench_board.py's
trace: 211 ms of style for a hover and a counter click, 11-14 ms with the class)."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from tests.web.conftest import TestClient, create_game

pytestmark = pytest.mark.clause("SYS.record")


def body_tag(html: str) -> str:
    found = re.search(r"<body[^>]*>", html)
    assert found is not None
    return found.group(0)


def test_a_page_with_a_map_says_so_on_its_body_and_others_do_not(client: TestClient) -> None:
    lobby = client.get("/")
    assert body_tag(lobby.text) == "<body>"
    _, links, spectator = create_game(client, "asl-d13-demo")
    for address in (links["german"], spectator):
        page = client.get(address).text
        assert '<section class="board"' in page
        assert body_tag(page) == '<body class="with-board">'


def test_no_stylesheet_of_the_table_uses_has() -> None:
    static = resources.files("ordnance.web").joinpath("static")
    for sheet in ("table.css", "map.css", "board.css"):
        text = re.sub(r"/\*.*?\*/", "", static.joinpath(sheet).read_text("utf-8"), flags=re.S)
        assert ":has(" not in text, sheet
