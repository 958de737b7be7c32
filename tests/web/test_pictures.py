"""The drawn map is kept by what it shows (web/pictures.py): a page of a picture already
drawn draws no map, a version that changes the map is drawn afresh, and pages asking at once
wait for one drawing."""

from __future__ import annotations

import re
import threading
import time

import pytest
from tests.web.conftest import create_game, csrf_of, version_of

from ordnance.web import views
from ordnance.web.pictures import Pictures


@pytest.fixture
def drawings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the maps drawn (one item per render_svg call)."""
    drawn: list[int] = []
    real = views.render_svg

    def counted(*args: object, **kwargs: object) -> str:
        drawn.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(views, "render_svg", counted)
    return drawn


def map_of(html: str) -> str:
    found = re.search(r"<svg [^>]*class=\"ordnance-map\".*?</svg>", html, re.S)
    assert found is not None, "the page has no map"
    return found.group(0)


@pytest.mark.clause("SYS.record")
def test_both_sides_pages_of_one_version_draw_the_map_once(client, drawings):
    game, links, spectator = create_game(client, "asl-d13-demo")
    american = client.get(links["american"]).text
    german = client.get(links["german"]).text
    watcher = client.get(spectator).text
    assert len(drawings) == 1
    assert map_of(american) == map_of(german) == map_of(watcher)
    base = f"/games/{game}/american"

    def act(page: str, action: str) -> str:
        data = {"csrf": csrf_of(page), "version": version_of(page), "action": action}
        done = client.post(f"{base}/do", data=data)
        assert done.status_code == 200 and version_of(done.text) == version_of(page) + 1
        return done.text

    # A version that changes nothing on the map shows the picture already drawn...
    prep_fire = act(american, "phase next")
    assert len(drawings) == 1 and map_of(prep_fire) == map_of(american)
    movement = act(prep_fire, "phase next")
    assert len(drawings) == 1
    # ... and one that does is drawn afresh, and shown: the M24 moves on (by road).
    moved = act(movement, "move m24 --to 4G5")
    assert len(drawings) == 2 and map_of(moved) != map_of(movement)
    assert map_of(client.get(f"/games/{game}/german").text) == map_of(moved)
    assert len(drawings) == 2


@pytest.mark.clause("SYS.record")
def test_a_units_sight_is_kept_per_unit_and_a_previewed_los_is_drawn_each_time(client, drawings):
    game, links, _ = create_game(client, "asl-d13-demo")
    plain = map_of(client.get(links["american"]).text)
    base = f"/games/{game}/american"
    shaded = map_of(client.get(base, params={"unit": "m24"}).text)
    assert shaded != plain
    assert map_of(client.get(base, params={"unit": "m24"}).text) == shaded
    assert len(drawings) == 2
    client.get(base, params={"unit": "m10"})
    # Not a unit: nothing shaded, the plain picture.
    assert map_of(client.get(base, params={"unit": "no-such-unit"}).text) == plain
    assert len(drawings) == 3
    # A preview with a line of sight is this page's alone: never kept. (Fire waits for the
    # PFPh: one phase on, a new version with the same plain picture, not drawn again.)
    here = client.get(base).text
    data = {"csrf": csrf_of(here), "version": str(version_of(here)), "action": "phase next"}
    assert client.post(f"{base}/do", data=data).status_code == 200
    assert len(drawings) == 3
    page = client.get(base, params={"action": "fire m24 --ammo AP --at 4K3"})
    # (The same query again is the page kept for this version: another page, same picture.)
    client.get(base, params={"action": "fire m24 --ammo AP --at 4K3", "again": "1"})
    assert page.status_code == 200 and map_of(page.text) != plain and len(drawings) == 5


def test_pages_asking_for_one_picture_at_once_wait_for_one_drawing():
    store = Pictures(size=4)
    drawn: list[int] = []

    def slow() -> str:
        drawn.append(1)
        time.sleep(0.2)
        return "<svg/>"

    got: list[str | None] = []
    threads = [
        threading.Thread(target=lambda: got.append(store.get_or_draw(("g", 1, "h", None), slow)))
        for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == ["<svg/>"] * 6 and len(drawn) == 1
    assert store.get_or_draw(("g", 1, "h", None), lambda: None) == "<svg/>"
    # A game without a map has no picture to keep: asked again, it is drawn again.
    assert store.get_or_draw(("g", 2, "h2", None), lambda: None) is None
    assert len(store) == 1
