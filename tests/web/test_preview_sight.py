"""The page without script (``?unit=&hex=``) judges the preview's line of sight once: the
preview's words and the line drawn on the map come from the same verdict."""

from __future__ import annotations

import dataclasses

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create_game, csrf_of, version_of

from ordnance.core.maps.visibility import Visibility
from ordnance.vv import los as vv_los


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Each line of sight the V&V judge is asked for, as (firer, target) labels; those the
    chosen unit's shading asks for (every hex it may see, :class:`Visibility`) left out."""
    asked: list[tuple[str, str]] = []
    shading: list[bool] = []
    judge = vv_los.JUDGE
    one_line = Visibility.judged

    def counted(game_map, firer, target):  # type: ignore[no-untyped-def]
        if not shading:
            asked.append((game_map.label(firer), game_map.label(target)))
        return judge.los(game_map, firer, target)

    def shade(self, firer, target):  # type: ignore[no-untyped-def]
        shading.append(True)
        try:
            return one_line(self, firer, target)
        finally:
            shading.pop()

    # The V&V spec gives its judge from the module on each use (game/registry.py).
    monkeypatch.setattr(vv_los, "JUDGE", dataclasses.replace(judge, los=counted))
    monkeypatch.setattr(Visibility, "judged", shade)
    return asked


def test_the_full_page_judges_the_previewed_line_of_sight_once(
    client: TestClient, judged: list[tuple[str, str]]
) -> None:
    game, links, _ = create_game(client, "vv-hedgerow-ambush", ai="german")
    page = client.get(links["american"]).text
    base = f"/games/{game}/american"
    data = {"csrf": csrf_of(page), "version": str(version_of(page)), "action": "phase next"}
    assert client.post(f"{base}/do", data=data).status_code == 200
    offers = client.get(f"{base}/offers", params={"unit": "a1"}).json()
    target = next(h["hex"] for h in offers["hexes"] if "fire" in h["actions"])
    judged.clear()
    full = client.get(base, params={"unit": "a1", "hex": target})
    assert full.status_code == 200 and "data-preview" in full.text
    line = (offers["from"], target)
    assert f"Line of sight</strong>: {line[0]} to {line[1]}" in full.text  # the words
    assert 'class="los' in full.text  # the line on the map
    assert judged.count(line) == 1, judged
