"""docs/architecture.md's steps for adding a fourth game still work: the example game they show
(tests/fourth_game/, built on the kit: RulesetBase and GameSettings) registers as step 4 says
and then, as step 5 says, plays through the game service (a new game, legal actions, a roll
with its exact odds, status, a replay equal to the live game), the command line (``game new``,
``game do``, ``game status``, ``verify``) and the web table (its API, a side's page and the
preview's odds); step 6's conformance test passes on it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from tests.fourth_game.rules import RaceSettings
from tests.test_conformance import plays_conforming

from ordnance.cli.status_text import status_renderables
from ordnance.core.errors import BadInput
from ordnance.core.ruleset import Command
from ordnance.game import registry
from ordnance.game.logfile import verify
from ordnance.game.scenario import scenario_from_mapping
from ordnance.game.service import GameService

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
SECTION = PAGE.read_text(encoding="utf-8").split("## Adding a fourth game", 1)[-1]


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> str:
    """The example registered as step 4 says, in a registry this test alone changes."""
    monkeypatch.setattr(registry, "SPECS", dict(registry.SPECS))
    call = re.search(r'registry\.register\("(\w+)", "([\w.]+)"\)', SECTION)
    assert call is not None, "step 4 shows the register call"
    registry.register(call[1], call[2])
    return call[1]


def _scenario() -> dict[str, object]:
    shown = re.search(r"```yaml\n(.*?)```", SECTION, re.S)
    assert shown is not None, "step 5 shows a scenario"
    data: dict[str, object] = yaml.safe_load(shown[1])
    return data


def test_the_page_is_in_the_navigation_and_shows_the_example_files():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "architecture.md" in nav
    included = re.findall(r'--8<-- "([^"]+)"', SECTION)
    assert included == ["tests/fourth_game/rules.py", "tests/fourth_game/spec.py"]
    assert all((ROOT / path).is_file() for path in included)


@pytest.mark.clause("SYS.record", "SYS.dice", "SYS.odds")
def test_a_fourth_game_registers_and_plays_as_the_page_says(race: str, tmp_path: Path):
    spec = registry.spec(race)
    assert race in registry.names() and spec.title == "Dice race"
    scenario = scenario_from_mapping(_scenario())
    assert scenario.ruleset == race and scenario.sides == ("red", "blue")
    service = GameService(str(tmp_path / "games.db"))
    try:
        made = service.create(scenario)
        status = service.status(made.game, "red")
        assert status["legal_actions"] == {"red": ["roll", "rest"]}
        rules = service.game(made.game).rules
        odds = spec.odds(rules)
        assert odds is not None  # the spec claims odds, and registration checked the claim
        distribution = odds.chance_outcomes(
            service.game(made.game).state, Command("red", "roll", {}, "roll")
        )
        assert sum(p for _, p in distribution.items()) == 1 and len(distribution) == 6
        version = made.version
        while not service.status(made.game)["over"]:
            side = service.status(made.game)["to_move"]
            version = service.do(made.game, side, made.tokens[side], ["roll"]).version
        status = service.status(made.game)
        assert status["state"]["result"]["winner"] in ("red", "blue")
        assert max(status["state"]["positions"].values()) >= 12
        assert status["version"] == version
        printed = " ".join(str(part) for part in status_renderables(status))
        assert "the game is over" in printed and "positions: red" in printed
        live = service.game(made.game).state
        exported = service.export(made.game)
    finally:
        service.close()
    report = verify(exported.encode())
    assert report.ok, report.failure
    replayed = GameService(str(tmp_path / "games.db"))  # a new service folds the stored log
    try:
        assert replayed.game(made.game).state == live
    finally:
        replayed.close()
    assert len(json.loads(exported)["entries"]) == version  # every entry, in the file


def test_the_registry_line_of_step_4_matches_the_registry():
    shown = re.search(r"SPECS: dict\[str, str\] = \{\n(.*?)\}", SECTION, re.S)
    assert shown is not None
    first = re.search(r'"(\w+)": "([\w.]+)"', shown[1])
    assert first is not None and registry.SPECS[first[1]] == first[2]


@pytest.mark.clause("SYS.record", "SYS.odds")
@pytest.mark.parametrize("seed", (1, 2, 3))
def test_step_6_the_conformance_test_passes_on_the_example(race: str, seed: int, tmp_path: Path):
    plays_conforming(scenario_from_mapping(_scenario()), race, seed, tmp_path)


@pytest.mark.clause("SYS.record")
def test_the_example_reads_its_settings_through_the_kit(race: str, tmp_path: Path):
    """Step 3's spec names the settings; a scenario's ``settings:`` is read by GameSettings."""
    make = registry.spec(race).settings
    assert make is not None and make() == RaceSettings()
    assert [row["name"] for row in make().describe()] == ["exact_finish"]
    exact = scenario_from_mapping({**_scenario(), "settings": {"exact_finish": True}})
    service = GameService(str(tmp_path / "games.db"))
    try:
        made = service.create(exact)
        assert service.game(made.game).state.settings.exact_finish is True
    finally:
        service.close()
    with pytest.raises(BadInput, match="exact_finish=maybe"):
        scenario_from_mapping({**_scenario(), "settings": {"exact_finish": "maybe"}})


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_step_5_the_command_line_plays_the_example(race: str, cli, token_file, tmp_path: Path):
    scenario = tmp_path / "race.yaml"
    scenario.write_text(yaml.safe_dump(_scenario()), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'games.db'}"
    made = cli("game", "new", str(scenario), "--db", db, "--json")
    assert made.code == 0, made.err
    game, tokens = made.json["game"], made.json["tokens"]
    files = {side: token_file(token) for side, token in tokens.items()}

    def do(side: str, word: str):
        return cli(
            "game", "do", game, "--side", side, "--token-file", files[side], "--db", db, word
        )

    rested = do("red", "rest")
    assert rested.code == 0 and "red rests." in rested.out  # RulesetBase's event sentence
    for _ in range(200):
        status = cli("game", "status", game, "--db", db, "--json").json
        if status["over"]:
            break
        rolled = do(status["to_move"], "roll")
        assert rolled.code == 0 and " moves " in rolled.out, rolled.err
    else:
        pytest.fail("the race did not end")
    shown = cli("game", "status", game, "--db", db)
    assert shown.code == 0 and "the game is over" in shown.out
    refused = do("red", "roll")
    assert refused.code == 1 and "RACE.turn" in refused.err  # no one moves after the end
    out = tmp_path / "race.json"
    assert cli("game", "export", game, "--out", str(out), "--db", db).code == 0
    assert cli("game", "verify", str(out), "--json").json["ok"] is True


@pytest.mark.clause("SYS.record", "SYS.odds")
def test_step_5_the_web_table_plays_the_example(race: str, tmp_path: Path):
    from tests.web.conftest import TestClient  # noqa: PLC0415  (the web's test client)

    from ordnance.web.app import create_app  # noqa: PLC0415

    app = create_app(str(tmp_path / "games.db"), ai_keys=tmp_path / "ai.json")
    with TestClient(app) as client:
        made = client.post("/api/games", json={"scenario": yaml.safe_dump(_scenario())})
        assert made.status_code == 200, made.text
        game, tokens = made.json()["game"], made.json()["tokens"]
        joined = client.get(f"/join/{game}/red/{tokens['red']}")
        assert joined.status_code == 200 and "A short race" in joined.text
        page = client.get(f"/games/{game}/red")
        # Its legal actions as the board's buttons: roll (with a preview), rest (sent at once).
        assert page.status_code == 200 and 'data-side-action="roll"' in page.text
        assert '<button type="submit" title="rest">Rest</button>' in page.text
        preview = client.get(f"/games/{game}/red/preview", params={"action": "roll"})
        assert preview.status_code == 200 and "1/6" in preview.text
        bearer = {"Authorization": f"Bearer {tokens['red']}"}
        body = {"side": "red", "words": ["roll"]}
        done = client.post(f"/api/games/{game}/do", json=body, headers=bearer)
        assert done.status_code == 200, done.text
        assert done.json()["to_move"] == "blue" and done.json()["ruleset"] == race
        again = client.post(f"/api/games/{game}/do", json=body, headers=bearer)
        assert again.status_code == 409 and again.json()["error"] == "refused"
