"""A scenario that reaches the server names a bundled map or one uploaded with it, never a path;
AI sides only for a ruleset with an AI (issue 26)."""

from __future__ import annotations

import json
import re
import time
import warnings
from importlib import resources
from typing import Any

import pytest
from tests.opened_files import files_opened
from tests.web.conftest import EXAMPLES, csrf_of

from ordnance.cli.app import main
from ordnance.web.app import create_app
from ordnance.web.security import MAP_LIMIT, MAX_MAPS

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# Each ruleset's example on its bundled map.
EXAMPLE = {"asl": "asl-d13-demo", "lnl": "lnl-smoke-wp", "vv": "vv-hedgerow-ambush"}
BUNDLED = {"asl": "asl-village", "lnl": "lnl-farm", "vv": "vv-hedgerows"}
SECRET = "TOPSECRET-4f9c1e"


def example(ruleset: str, map_name: str | None = None) -> str:
    """The ruleset's example scenario, its ``map:`` replaced by ``map_name`` (quoted)."""
    text = (EXAMPLES / f"{EXAMPLE[ruleset]}.yaml").read_text(encoding="utf-8")
    if map_name is None:
        return text
    changed, count = re.subn(r"(?m)^map: .*$", f"map: {json.dumps(map_name)}", text)
    assert count == 1
    return changed


def bundled_text(ruleset: str) -> str:
    entry = resources.files(f"ordnance.{ruleset}").joinpath(
        "data", "maps", f"{BUNDLED[ruleset]}.yaml"
    )
    return entry.read_text(encoding="utf-8")


def own_map(ruleset: str) -> str:
    """A map of the scenario's own: the bundled one under another name."""
    text, count = re.subn(r"(?m)^name: .*$", "name: Our own ground", bundled_text(ruleset))
    assert count == 1
    return text


def lobby_post(
    client: TestClient, scenario: str, map_file: tuple[str, str] | None = None, ai: str = ""
) -> Any:
    page = client.get("/")
    files = {"file": ("scenario.yaml", scenario.encode())}
    if map_file is not None:
        files["map"] = (map_file[0], map_file[1].encode())
    return client.post("/games", data={"csrf": csrf_of(page.text), "ai": ai}, files=files)


def error_of(answer: Any) -> str:
    """The refusal's sentence: the API's message, or the lobby's error paragraph."""
    if answer.headers["content-type"].startswith("application/json"):
        return str(answer.json()["message"])
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', answer.text, re.S)
    assert found, answer.text[:500]
    return " ".join(found)


def api_new(client: TestClient, scenario: str, **extra: Any) -> Any:
    return client.post("/api/games", json={"scenario": scenario, **extra})


# --- a path is refused, and nothing is read --------------------------------------------------


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("ruleset", ["asl", "lnl", "vv"])
@pytest.mark.parametrize("face", ["api", "lobby"])
def test_a_map_naming_a_file_on_the_server_is_refused_without_quoting_it(
    client, tmp_path, ruleset, face
):
    secret = tmp_path / "secret.yaml"
    secret.write_text(f"{SECRET}: hunter2\nname: x\n", encoding="utf-8")
    scenario = example(ruleset, str(secret))
    with files_opened() as opened:
        answer = api_new(client, scenario) if face == "api" else lobby_post(client, scenario)
    message = error_of(answer)
    assert answer.status_code == 422, message
    assert SECRET not in answer.text and "hunter2" not in answer.text
    assert "is a path" in message and BUNDLED[ruleset] in message
    assert "uploaded with the scenario" in message
    assert str(secret) not in opened


@pytest.mark.parametrize("ruleset", ["lnl", "vv", "asl"])
def test_dev_zero_as_a_map_is_refused_at_once_and_never_read(client, ruleset):
    with files_opened() as opened:
        began = time.monotonic()
        answer = api_new(client, example(ruleset, "/dev/zero"))
        took = time.monotonic() - began
    assert answer.status_code == 422 and "is a path" in answer.json()["message"]
    assert took < 2.0
    assert "/dev/zero" not in opened


def test_a_relative_map_path_is_not_read_from_the_servers_working_folder(
    client, tmp_path, monkeypatch
):
    # A valid LnLT map one folder up from where the server runs: still a path, still refused.
    (tmp_path / "x.yaml").write_text(own_map("lnl"), encoding="utf-8")
    (tmp_path / "run").mkdir()
    monkeypatch.chdir(tmp_path / "run")
    for name in ("../x.yaml", "~/x.yaml", "run/../../x.yaml"):
        with files_opened() as opened:
            answer = api_new(client, example("lnl", name))
        assert answer.status_code == 422, answer.text
        assert "is a path" in answer.json()["message"], name
        assert not [o for o in opened if o.endswith("x.yaml")]


@pytest.mark.clause("SYS.record")
def test_naming_the_servers_own_database_loses_no_confirmed_move(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(create_app(str(db), ai_keys=tmp_path / "ai.json")) as client:
        made = api_new(client, example("asl")).json()
        game, tokens = made["game"], made["tokens"]

        def step() -> int:
            side = client.get(f"/api/games/{game}").json()["to_move"]
            done = client.post(
                f"/api/games/{game}/do",
                json={"side": side, "words": ["phase", "next"]},
                headers={"Authorization": f"Bearer {tokens[side]}"},
            )
            assert done.status_code == 200, done.text
            return int(done.json()["version"])

        step()
        for name in (str(db), f"{db}-wal", f"{db}-shm"):
            with files_opened() as opened:
                answer = api_new(client, example("asl", name))
            assert answer.status_code == 422 and "is a path" in answer.json()["message"]
            assert not [o for o in opened if o.startswith(str(db))]
        confirmed = step()
    with TestClient(create_app(str(db), ai_keys=tmp_path / "ai.json")) as again:
        assert again.get(f"/api/games/{game}").json()["version"] == confirmed


# --- a map uploaded with the scenario ---------------------------------------------------------


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("ruleset", ["asl", "lnl", "vv"])
@pytest.mark.parametrize("name", ["our-ground", "our-ground.yaml"])
def test_a_scenario_with_an_uploaded_map_plays_and_its_log_carries_the_map(client, ruleset, name):
    answer = api_new(
        client, example(ruleset, name), maps={"our-ground.yaml": own_map(ruleset)}, ai_sides=[]
    )
    assert answer.status_code == 200, answer.text
    made = answer.json()
    game = made["game"]
    side = client.get(f"/api/games/{game}").json()["to_move"]
    actions = client.get(f"/api/games/{game}", params={"side": side}).json()["legal_actions"][side]
    done = client.post(
        f"/api/games/{game}/do",
        json={"side": side, "words": actions[0].split()},
        headers={"Authorization": f"Bearer {made['tokens'][side]}"},
    )
    assert done.status_code == 200, done.text
    # The map's text is in the log: a replay elsewhere needs no file.
    assert "Our own ground" in client.get(f"/api/games/{game}/export").text


def test_the_lobby_takes_a_map_file_beside_the_scenario(client):
    made = lobby_post(client, example("lnl", "our-ground"), ("our-ground.yaml", own_map("lnl")))
    assert made.status_code == 200, error_of(made)
    game = re.search(r'class="spectator-link" href="https?://[^/]+/games/([0-9a-f]+)"', made.text)
    assert game is not None
    assert "Our own ground" in client.get(f"/api/games/{game.group(1)}/export").text
    # Without the map file the same scenario is refused, saying what the server would take.
    refused = lobby_post(client, example("lnl", "our-ground"))
    assert refused.status_code == 422
    assert "not a map the server has" in error_of(refused) and "lnl-farm" in error_of(refused)


@pytest.mark.clause("SYS.cite")
def test_uploaded_maps_are_bounded_and_named_plainly(client):
    scenario = example("lnl", "m0")
    many = {f"m{i}.yaml": own_map("lnl") for i in range(MAX_MAPS + 1)}
    assert api_new(client, scenario, maps=many).status_code == 422
    large = {"m0.yaml": own_map("lnl") + "#" * MAP_LIMIT}
    assert api_new(client, scenario, maps=large).status_code == 422
    twice = api_new(client, example("lnl", "lnl-farm"), maps={"lnl-farm.yaml": own_map("lnl")})
    assert twice.status_code == 422 and "both a bundled map" in twice.json()["message"]
    control = api_new(client, example("lnl", "m\n0"), maps={"m\n0": own_map("lnl")})
    assert control.status_code == 422 and "control characters" in control.json()["message"]
    big = lobby_post(client, scenario, ("m0.yaml", "#" * (MAP_LIMIT + 1)))
    assert big.status_code == 413 and "too large" in error_of(big)
    not_a_map = api_new(client, scenario, maps={"m0.yaml": f"{SECRET}: 1\n"})
    assert not_a_map.status_code == 422  # the uploader's own text; it may be quoted to them


def test_a_vasl_templates_folder_is_refused_on_the_server(client, tmp_path):
    text = example("asl").replace("ruleset: asl", f"ruleset: asl\nvasl_templates: {tmp_path}", 1)
    with files_opened() as opened:
        answer = api_new(client, text)
    assert answer.status_code == 422
    assert "the server reads no file" in answer.json()["message"]
    assert not [o for o in opened if o.startswith(str(tmp_path))]


def test_game_new_through_a_server_sends_the_map_beside_the_scenario(live_server, capsys, tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "ground.yaml").write_text(own_map("vv"), encoding="utf-8")
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(example("vv", "maps/ground.yaml"), encoding="utf-8")
    code = main(["game", "new", str(scenario), "--server", live_server.url, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    game = json.loads(out)["game"]
    code = main(["game", "export", game, "--server", live_server.url, "--out", str(tmp_path / "e")])
    capsys.readouterr()
    assert code == 0 and "Our own ground" in (tmp_path / "e").read_text(encoding="utf-8")
    # A map file that is not there is one line here, before anything is sent.
    scenario.write_text(example("vv", "maps/none.yaml"), encoding="utf-8")
    code = main(["game", "new", str(scenario), "--server", live_server.url])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "none.yaml" in err[0] and "cannot be read" in err[0]


# --- AI sides only where a ruleset has an AI ------------------------------------------------------


@pytest.mark.clause("SYS.cite")
def test_ai_sides_for_a_ruleset_without_an_ai_are_refused_by_api_and_lobby_alike(client):
    api = api_new(client, example("asl"), ai_sides=["german"])
    assert api.status_code == 422, api.text
    message = api.json()["message"]
    assert "the asl ruleset has no AI" in message and "vv" in message
    lobby = lobby_post(client, example("asl"), ai="german")
    assert lobby.status_code == 422 and "the asl ruleset has no AI" in error_of(lobby)
    # Nothing was created: no game holds a side nobody can play.
    table = client.app.state.table
    assert table.call(lambda service: service.store.game_ids()) == []


@pytest.mark.clause("VV.AP-phases")
def test_a_vv_game_made_without_ai_sides_gives_the_ai_the_sides_the_scenario_marks(client):
    # The hedgerow scenario marks the German 'ai: true': the table plays it, as it would locally.
    answer = api_new(client, example("vv"))
    assert answer.status_code == 200, answer.text
    made = answer.json()
    assert set(made["tokens"]) == {"american"} and made["ai_sides"] == ["german"]
    status = client.get(f"/api/games/{made['game']}").json()
    assert status["state"]["ai_sides"] == ["german"]
    # A ruleset without an AI: every side is a player's.
    asl = api_new(client, example("asl")).json()
    assert asl["ai_sides"] == [] and set(asl["tokens"]) == {"american", "german"}


def test_ai_sides_of_a_vv_game_are_played_and_their_tokens_kept(client):
    answer = api_new(client, example("vv"), ai_sides=["american"])
    assert answer.status_code == 200, answer.text
    made = answer.json()
    assert set(made["tokens"]) == {"german"}
    status = client.get(f"/api/games/{made['game']}").json()
    assert status["state"]["ai_sides"] == ["american"]
    unknown = api_new(client, example("vv"), ai_sides=["french"])
    assert unknown.status_code == 422 and "not a side" in unknown.json()["message"]
    # None: the scenario's own 'ai: true' is replaced, and every token is the players'.
    none = api_new(client, example("vv"), ai_sides=[]).json()
    assert set(none["tokens"]) == {"german", "american"}
    assert client.get(f"/api/games/{none['game']}").json()["state"]["ai_sides"] == []
