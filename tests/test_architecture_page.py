"""docs/architecture.md's steps for adding a fourth game still work: the example game they show
(tests/fourth_game/) registers as the page says and plays through the game service: a new
game, legal actions, a roll with its exact odds, status, and a replay equal to the live game.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from ordnance.cli.status_text import status_renderables
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
