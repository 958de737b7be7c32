"""The table page shows the map's hex labels as one image of their own document
(web/labels.py): no label text in the page's SVG, an address any server process answers from
the game alone, kept for good by the browser, and 404 for an address that names no drawing."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.web.conftest import TestClient, create_game
from tests.web.test_pictures import map_of

from ordnance.cli.map_games import open_map
from ordnance.web import labels
from ordnance.web.app import create_app
from ordnance.web.pictures import Pictures

SVG = "{http://www.w3.org/2000/svg}"
pytestmark = pytest.mark.clause("SYS.record")


def labels_href(page: str) -> str:
    found = re.findall(r'<image class="hex-labels" href="([^"]+)"', page)
    assert len(found) == 1, "the map has not one labels image"
    return html.unescape(found[0])


def test_the_page_map_has_no_label_text_and_shows_the_labels_image(client: TestClient) -> None:
    game, links, _ = create_game(client, "asl-d13-demo")
    drawn = map_of(client.get(links["american"]).text)
    href = labels_href(drawn)
    assert href.startswith(f"/games/{game}/labels.svg?size=48.0&counters=1&h=")
    assert 'class="hex-labels"' in drawn and '<g class="hex-labels"' not in drawn
    assert ">4F5</text>" not in drawn and ">L1</text>" not in drawn
    # Each hex keeps its id, data-hex and the title that names it.
    assert '<polygon points="' in drawn
    assert re.search(r'id="hex-4F5" class="hex [^"]*" data-hex="4F5"[^>]*><title>4F5: ', drawn)
    # The image is where the hexes are: the map's clip frame, under the counters.
    frame = re.search(r'<clipPath id="map"><rect x="([\d.]+)" y="([\d.]+)"', drawn)
    image = re.search(r'<image class="hex-labels" href="[^"]+" x="([\d.]+)" y="([\d.]+)"', drawn)
    assert frame and image and frame.groups() == image.groups()
    assert drawn.index("<image") < drawn.index('<g id="unit-')


def test_the_labels_image_answers_from_the_game_alone_in_another_server(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, links, spectator = create_game(client, "asl-d13-demo")
    href = labels_href(client.get(links["american"]).text)
    assert labels_href(client.get(spectator).text) == href  # the same public map
    # Another worker of the same database, which never drew this game's page, and a browser
    # that holds no side's link.
    monkeypatch.setattr(labels, "SHEETS", Pictures[labels.Address](size=4))
    other = create_app(str(tmp_path / "games.db"), ai_keys=tmp_path / "ai.json")
    with TestClient(other) as stranger:
        answer = stranger.get(href)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    root = ET.fromstring(answer.text)
    words = [t.text for t in root.iter(f"{SVG}text")]
    village = open_map("asl-village")
    hexes = sorted(village.label(h) for h in village)
    assert sorted(w for w in words if not (w or "").startswith("L")) == hexes
    levels = [w for w in words if (w or "").startswith("L")]
    assert len(levels) == sum(1 for h in village if village.elevation(h))
    assert answer.text == client.get(href).text  # the drawing the page's server kept


def test_an_address_that_names_no_drawing_is_404(client: TestClient) -> None:
    game, links, _ = create_game(client, "asl-d13-demo")
    href = labels_href(client.get(links["american"]).text)
    base, digest = href.rsplit("&h=", 1)
    wrong = "0" * 16 if digest != "0" * 16 else "1" * 16
    for address in (
        f"{base}&h={wrong}",  # not the hash of this drawing
        href.replace(f"/games/{game}/", "/games/nosuchgame/"),
        href.replace("size=48.0", "size=26.0"),  # the hash of another size's drawing
        href.replace("size=48.0", "size=1e9"),
        href.replace("counters=1", "counters=7"),
    ):
        answer = client.get(address)
        assert answer.status_code == 404, address
        assert answer.text.startswith("no such labels drawing: "), answer.text
        assert "\n" not in answer.text.strip() and "Traceback" not in answer.text
    answer = client.get(href.replace("size=48.0", "size=big"))
    assert answer.status_code == 422 and answer.text.startswith("refused: bad size 'big'")
