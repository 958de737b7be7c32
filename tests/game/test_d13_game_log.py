"""A game with D13 actions in the service: the fold of the stored log equals the live state (as in
test_replay.py), its export verifies, and the CLI shows and draws its SMOKE on the map."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.core.errors import OrdnanceError
from ordnance.core.maps import MapFiles
from ordnance.game import fold
from ordnance.game.logfile import verify
from ordnance.game.scenario import Scenario, scenario_from_mapping
from ordnance.game.service import GameService, NewGame

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO = EXAMPLES / "asl-d13-demo.yaml"

# The demo's D13 story, with the dice entered at the table.
STORY = (
    ("american", "phase next"),
    ("american", "phase next"),
    ("american", "move m24 --to 4G5 --mp 1"),
    ("american", "dispense m24 --target 4I5 --dice 1,2"),
    ("german", "dispense pz4 --dice 1,2"),
    ("american", "mark m10 --ce"),
    ("american", "move m10"),
    ("german", "mark jgdpz --bu"),
    ("german", "dispense jgdpz --dice 3,4"),
    ("american", "grenades m10 --dice 6"),
)


def demo(dice: str = "physical") -> Scenario:
    data = yaml.safe_load(DEMO.read_text())
    return scenario_from_mapping({**data, "dice": dice}, MapFiles.folder(EXAMPLES))


def folded_equals_live(service: GameService, made: NewGame, url: str) -> None:
    fresh = GameService(url)
    try:
        live, stored = service.game(made.game), fresh.game(made.game)
        log = service.log(made.game)
        replayed = fold.start(log[0])
        for entry in log[1:]:
            replayed = fold.apply_entry(replayed, entry)
        assert live.state == stored.state == replayed.state
        assert live.version == replayed.version == len(log)
        assert verify(service.export(made.game).encode()).ok
    finally:
        fresh.close()


@pytest.mark.clause("SYS.record", "D13.2-defensive", "D13.35")
def test_the_d13_story_replays_from_the_stored_log(db_url):
    service = GameService(db_url)
    try:
        made = service.create(demo())
        for side, text in STORY:
            service.do(made.game, side, made.tokens[side], shlex.split(text))
        state = service.status(made.game)["state"]
        assert [s["hex"] for s in state["smoke"]] == ["4I5", "4K3", "4J3"]
        assert state["units"]["m24"]["ca"] == "E" and state["units"]["m24"]["afv"]["mp_spent"] == 3
        assert state["units"]["m10"]["afv"]["grenades_attempted"]
        folded_equals_live(service, made, db_url)
    finally:
        service.close()


def play(service: GameService, made: NewGame, choices: list[int]) -> None:
    """Commands picked among everything legal now, as test_replay.py plays them."""
    for choice in choices:
        game = service.game(made.game)
        if game.rules.is_over(game.state):
            return
        options = [(s, t) for s in game.sides for t in game.rules.legal_actions(game.state, s)]
        side, text = options[choice % len(options)]
        try:
            service.do(made.game, side, made.tokens[side], shlex.split(text))
        except OrdnanceError:
            assert service.game(made.game).version == game.version


@pytest.mark.clause("SYS.record")
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_random_play_with_smoke_replays_from_the_stored_log(sqlite_url, choices):
    service = GameService(sqlite_url)
    try:
        made = service.create(demo("fair"))
        play(service, made, choices)
        folded_equals_live(service, made, sqlite_url)
    finally:
        service.close()


@pytest.mark.clause("SYS.record", "D13.32-place")
def test_export_verify_status_and_render_of_a_d13_game(cli, sqlite_url, tmp_path):
    made = cli("game", "new", str(DEMO), "--db", sqlite_url, "--json").json
    for side, text in STORY[:5]:
        token = made["tokens"][side]
        words = ["game", "do", made["game"], "--side", side, "--token", token, "--db", sqlite_url]
        assert cli(*words, *shlex.split(text)).code == 0
    status = cli("game", "status", made["game"], "--db", sqlite_url, "--json").json["state"]
    assert status["smoke"][0] == {
        "hex": "4I5",
        "marker": "dispersed smoke",
        "unit": "m24",
        "side": "american",
        "removal": "owner's next PFPh",
    }
    assert status["map"]["file"] == "asl-village" and len(status["map"]["sha256"]) == 64

    log = tmp_path / "d13.json"
    assert cli("game", "export", made["game"], "--out", str(log), "--db", sqlite_url).code == 0
    report = cli("game", "verify", str(log), "--json").json
    assert report["ok"] and report["rolls_physical"] == 2

    picture = tmp_path / "now.svg"
    options = ["--out", str(picture), "--db", sqlite_url, "--los", "4G5", "4J5", "--json"]
    drawn = cli("game", "render", made["game"], *options).json
    assert drawn["markers"] == 5 + 2  # the map file's five and the game's two
    assert drawn["los"]["total_hindrance"] == 3  # the sM's SMOKE in 4I5 (+2) and the grain (+1)
    svg = picture.read_text()
    assert svg.count(">S+2<") == 1 + 2 and "turn 1, american Player Turn, MPh" in svg


def test_render_refuses_a_game_without_a_map(cli, sqlite_url, tmp_path):
    # Every bundled scenario has a map: this one is the C8 demo on bare boards.
    bare = tmp_path / "bare.yaml"
    text = (EXAMPLES / "asl-c8-demo.yaml").read_text(encoding="utf-8")
    bare.write_text(text.replace("map: asl-village", 'boards: "4/3"'), encoding="utf-8")
    made = cli("game", "new", str(bare), "--db", sqlite_url, "--json")
    result = cli(
        "game", "render", made.json["game"], "--out", str(tmp_path / "x.svg"), "--db", sqlite_url
    )
    assert result.code == 2 and "no map" in result.err
