"""LnLT games through the game service: what the log keeps (the pool, the depletion roll, the
checks), export and verify, and replay of random legal play (SYS.record, SYS.dice)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.lnl.hamlet import HAMLET, hamlet_scenario

from ordnance.core.errors import OrdnanceError
from ordnance.core.maps import MapFiles
from ordnance.game import fold
from ordnance.game.logfile import verify
from ordnance.game.scenario import scenario_from_mapping
from ordnance.game.service import GameService


@pytest.fixture
def service(tmp_path: Path):
    games = GameService(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield games
    games.close()


@pytest.mark.clause("SYS.record", "SYS.dice", "LNL.W-deplete", "LNL.W-pool")
def test_the_log_keeps_the_pool_count_and_the_depletion_roll(service, hamlet_dir):
    made = service.create(scenario_from_mapping(hamlet_scenario(), MapFiles.folder(hamlet_dir)))
    german, american = made.tokens["german"], made.tokens["american"]
    service.do(made.game, "german", german, ["phase", "next"])
    words = shlex.split("wp-shell pz4 --at E3 --dice 3,4 --dice 4 --dice 2,5 --dice 2")
    done = service.do(made.game, "german", german, words)
    assert done.ruling["hex"] == "E3" and done.ruling["pool"]["removed"]
    entry = service.log(made.game)[-1]
    purposes = [roll["purpose"] for roll in entry.body["rolls"]]
    assert purposes == [
        "To Hit DR (WP Shell) for pz4",
        "WP damage check for ht",
        "WP damage check for sq1",
        "Depletion dr (WP Shell, german)",
    ]
    pool = next(e["data"] for e in entry.body["events"] if e["kind"] == "pool")
    assert pool == {
        "side": "german",
        "kind": "wp",
        "before": 1,
        "left": 0,
        "depletion_number": 4,
        "die": 2,
        "removed": True,
    }
    service.do(made.game, "german", german, ["end"])
    service.do(made.game, "american", american, shlex.split("move sq2 --to E3 --dice 1,1"))
    status = service.status(made.game)
    assert status["state"]["pools"]["german"]["wp"]["left"] == 0
    assert status["state"]["markers"]["E3"] == ["wp"]
    report = verify(service.export(made.game).encode())
    summary = report.to_json()
    assert report.ok and summary["commands"] == 4 and summary["rolls_physical"] == 5


def test_a_missing_map_file_is_a_scenario_fault(tmp_path):
    with pytest.raises(OrdnanceError, match="map"):
        scenario_from_mapping(hamlet_scenario(), MapFiles.folder(tmp_path))
    (tmp_path / "hamlet.yaml").write_text(HAMLET.replace("game: lnl", "game: vv"))
    with pytest.raises(OrdnanceError, match="not for lnl"):
        scenario_from_mapping(hamlet_scenario(), MapFiles.folder(tmp_path))


def play(service: GameService, made, choices: list[int]) -> None:
    """Send the commands ``choices`` pick among everything legal now."""
    for choice in choices:
        game = service.game(made.game)
        if game.rules.is_over(game.state):
            return
        options = [
            (side, text)
            for side in game.sides
            for text in game.rules.legal_actions(game.state, side)
        ]
        # Odd choices prefer shells and choices of landing hex, so random play reaches them.
        shots = [o for o in options if "shell" in o[1] or o[1].startswith("choose")]
        pool = shots if shots and choice % 2 else options
        side, text = pool[choice // 2 % len(pool)]
        try:
            service.do(made.game, side, made.tokens[side], shlex.split(text))
        except OrdnanceError:
            assert service.game(made.game).version == game.version  # nothing half-done


@pytest.mark.clause("SYS.record")
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=25))
def test_folding_the_log_of_random_play_gives_the_live_state(tmp_path_factory, choices):
    folder = tmp_path_factory.mktemp("replay")
    (folder / "hamlet.yaml").write_text(HAMLET, encoding="utf-8")
    url = f"sqlite:///{folder / 'games.sqlite3'}"
    live_service, fresh = GameService(url), GameService(url)
    try:
        sides = hamlet_scenario()["sides"]
        sides["german"]["units"]["stug"]["shells"] = ["smoke"]
        sides["german"]["units"]["pz4"]["hex"] = "A3"  # along hexsides to E3: choices
        data = hamlet_scenario(dice="fair", sides=sides, settings={"passes_end_operations": 2})
        made = live_service.create(scenario_from_mapping(data, MapFiles.folder(folder)))
        play(live_service, made, choices)
        live, stored = live_service.game(made.game), fresh.game(made.game)
        log = live_service.log(made.game)
        folded = fold.start(log[0])
        for entry in log[1:]:
            folded = fold.apply_entry(folded, entry)
        assert live.state == stored.state == folded.state
        assert verify(live_service.export(made.game).encode()).ok
    finally:
        live_service.close()
        fresh.close()
