"""The lobby, the private links, the table page and its forms, in process (no browser)."""

from __future__ import annotations

import re

import pytest
from tests.web.conftest import EXAMPLES, create_game, csrf_of, version_of

from ordnance.cli.map_games import judge_for
from ordnance.game.logfile import verify
from ordnance.game.picture import game_picture

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_lobby_lists_the_bundled_examples_and_serves_its_assets(client):
    page = client.get("/")
    assert page.status_code == 200
    for example in ("asl-c8-demo", "lnl-smoke-wp", "vv-hedgerow-ambush"):
        assert f'value="{example}"' in page.text
    assert client.get("/static/table.js").status_code == 200
    assert "http" not in re.sub(r'https?://(www\.)?w3\.org[^"]*', "", client.get("/").text)


def test_a_side_link_sets_a_strict_httponly_cookie_and_redirects_to_a_clean_url(client):
    game, links, _ = create_game(client, "asl-c8-demo")
    assert set(links) == {"german", "russian"}
    joined = client.get(links["german"], follow_redirects=False)
    assert joined.status_code == 303
    assert joined.headers["location"] == f"/games/{game}/german"
    cookie = joined.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    page = client.get(joined.headers["location"])
    assert "You play <strong>german</strong>" in page.text
    assert "phase next" in page.text
    # The lobby now lists this browser's game.
    assert f"/games/{game}/german" in client.get("/").text


def test_a_page_address_with_a_bad_version_says_which_field_is_wrong(client):
    """The side page and the spectator page read their ``?seen=`` by hand (web/render.py's
    page_route): a value that is no version is a page naming it, never a traceback, and a
    good one still shows the news since it (SYS.record)."""
    game, links, _ = create_game(client, "asl-c8-demo")
    client.get(links["german"])
    for address in (f"/games/{game}/german?seen=soon", f"/games/{game}?seen=-2"):
        page = client.get(address)
        # Bad input, as the one table answers it everywhere (the API's too): 422, not 404.
        assert page.status_code == 422, address
        assert "bad seen" in page.text and "Not done" in page.text
    assert client.get(f"/games/{game}/german?seen=0&unit=pak").status_code == 200
    assert client.get(f"/games/{game}?seen=0").status_code == 200


def test_an_uploaded_scenario_with_a_fault_is_answered_next_to_the_field(client):
    csrf = csrf_of(client.get("/").text)
    broken = b"ruleset: asl\nname: [unclosed\n"
    answer = client.post(
        "/games", data={"csrf": csrf, "example": ""}, files={"file": ("bad.yaml", broken)}
    )
    assert answer.status_code == 422
    assert re.search(r'id="file-error" role="alert">[^<]*line 3', answer.text)
    no_name = b"ruleset: vv\nsides: {}\n"
    answer = client.post(
        "/games", data={"csrf": csrf, "example": ""}, files={"file": ("x.yaml", no_name)}
    )
    assert re.search(r'id="file-error" role="alert">[^<]*name', answer.text)


def test_an_uploaded_scenario_starts_a_game(client):
    csrf = csrf_of(client.get("/").text)
    text = (EXAMPLES / "asl-c8-demo.yaml").read_bytes()
    answer = client.post(
        "/games",
        data={"csrf": csrf, "example": "", "dice": "physical"},
        files={"file": ("mine.yaml", text)},
    )
    assert answer.status_code == 200
    assert "/join/" in answer.text


def test_play_preview_confirm_stale_and_undo_on_the_page(client):
    game, links, spectator = create_game(client, "vv-hedgerow-ambush", ai="german")
    assert set(links) == {"american"}  # the AI's side gets no link
    page = client.get(links["american"])
    # The side record states the scenario's victory conditions and who holds each objective.
    assert (
        '<p class="victory">Victory: objectives H2 4 VP (nobody), I2 4 VP (nobody),'
        " I3 4 VP (nobody); casualties count; a tie goes to german.</p>"
    ) in page.text
    csrf = csrf_of(page.text)
    base = f"/games/{game}/american"
    v = version_of(page.text)
    done = client.post(f"{base}/do", data={"csrf": csrf, "version": v, "action": "phase next"})
    # The notice says what happened, as the log's newest item does.
    assert done.status_code == 200
    assert '<p class="notice news">american ended the phase' in done.text
    # The preview shows the LOS in words and the exact odds as a chart and a table.
    preview = client.get(base, params={"action": "fire a1,a2,sgt --at E5"})
    assert "Line of sight" in preview.text and 'class="odds"' in preview.text
    assert "at least this" in preview.text
    # A stale version is refused with the fresh view.
    stale = client.post(f"{base}/do", data={"csrf": csrf, "version": v, "action": "phase next"})
    assert stale.status_code == 409 and "Not applied. stale state" in stale.text
    # A refusal names its clause.
    refused = client.post(
        f"{base}/do",
        data={"csrf": csrf, "version": version_of(stale.text), "action": "fire a3 --at Z99"},
    )
    assert refused.status_code in (409, 422) and 'class="notice"' in refused.text
    # Fire: the AI answers the CP by itself, the page shows dice faces and clauses.
    v = version_of(client.get(base).text)
    fired = client.post(
        f"{base}/do", data={"csrf": csrf, "version": v, "action": "fire a1,a2,sgt --at E5"}
    )
    assert fired.status_code == 200
    assert 'aria-label="die showing' in fired.text and "VV.AP-resolve" in fired.text
    # Undo only until dice: after the fire it is refused.
    assert "Undo my last command" not in fired.text
    # 'phase next' can be undone: no die was rolled (once the AI has taken its CP).
    assert client.app.state.table.settle(game)
    v = version_of(client.get(base).text)
    moved = client.post(f"{base}/do", data={"csrf": csrf, "version": v, "action": "phase next"})
    assert "Undo my last command" in moved.text
    undone = client.post(f"{base}/undo", data={"csrf": csrf, "version": version_of(moved.text)})
    assert undone.status_code == 200
    assert '<p class="notice news">undo: american took back entry' in undone.text
    # The spectator sees the same game and no form to act with.
    watched = client.get(spectator)
    assert "You are watching" in watched.text and 'method="post"' not in watched.text
    exported = client.get(f"/games/{game}/export")
    assert verify(exported.content).ok


def test_the_verify_page_checks_an_uploaded_log(client):
    game, links, _ = create_game(client, "asl-c8-demo")
    page = client.get(links["german"])
    client.post(
        f"/games/{game}/german/do",
        data={"csrf": csrf_of(page.text), "version": version_of(page.text), "action": "phase next"},
    )
    log = client.get(f"/games/{game}/export").content
    csrf = csrf_of(client.get("/verify").text)
    good = client.post("/verify", data={"csrf": csrf}, files={"log": ("log.json", log)})
    assert "The log verifies" in good.text
    bad = client.post(
        "/verify", data={"csrf": csrf}, files={"log": ("log.json", log.replace(b"phase", b"phaze"))}
    )
    assert "does not verify" in bad.text


def test_the_ai_plays_its_side_by_itself_when_it_moves_first(client):
    game, links, _ = create_game(client, "vv-hedgerow-ambush", ai="american")
    assert set(links) == {"german"}
    assert client.app.state.table.settle(game)  # it plays in the background, no click
    page = client.get(links["german"]).text
    # The AI (american) moved through its phases until german had a decision.
    assert version_of(page) > 1
    assert "What the AI chose" in page


def test_physical_dice_games_have_a_dice_entry_form(client):
    game, links, _ = create_game(client, "asl-d13-demo")
    page = client.get(links["american"])
    csrf = csrf_of(page.text)
    base = f"/games/{game}/american"
    client.post(
        f"{base}/do", data={"csrf": csrf, "version": version_of(page.text), "action": "phase next"}
    )
    preview = client.get(base, params={"action": "fire m24 --ammo HE"})
    assert 'name="dice"' in preview.text
    v = version_of(preview.text)
    fired = client.post(
        f"{base}/do",
        data={"csrf": csrf, "version": v, "action": "fire m24 --ammo HE", "dice": "3,4"},
    )
    assert fired.status_code == 200 and "die showing 3" in fired.text


def test_events_push_the_new_version(client):
    game, links, _ = create_game(client, "asl-c8-demo")
    page = client.get(links["german"])
    client.post(
        f"/games/{game}/german/do",
        data={"csrf": csrf_of(page.text), "version": version_of(page.text), "action": "phase next"},
    )
    with client.stream("GET", f"/games/{game}/events", params={"seen": 1}) as stream:
        lines = []
        for line in stream.iter_lines():
            lines.append(line)
            if line.startswith("data: 2"):
                break
    assert "event: version" in lines


def test_a_chosen_unit_shades_every_hex_it_can_see_by_the_games_own_los(client):
    game, links, _ = create_game(client, "vv-hedgerow-ambush", ai="german")
    client.get(links["american"])
    page = client.get(f"/games/{game}/american", params={"unit": "a1"})
    shaded = dict(re.findall(r'class="seen" data-hex="([^"]+)" data-hindrance="(\d+)"', page.text))
    assert "the hexes a1 can see are shaded" in page.text
    folded = client.app.state.table.service.game(game)
    game_map = game_picture(folded.rules, folded.state).game_map
    judge = judge_for(game_map)
    origin = game_map.parse("D8")  # a1's hex in the scenario
    truth = {}
    for target in game_map:
        if target != origin:
            verdict = judge.los(game_map, origin, target)
            if verdict.clear:
                truth[game_map.label(target)] = str(verdict.total)
    assert truth and len(truth) < len(game_map) - 1  # it sees some hexes, not all
    assert shaded == truth
    # Without a chosen unit nothing is shaded.
    assert 'class="seen"' not in client.get(f"/games/{game}/american").text
