"""Two tables (as two server processes) on one database and one AI key file; a database away."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.web.conftest import EXAMPLES

from ordnance.game.storage import StorageError
from ordnance.web.pages import _scenario
from ordnance.web.table import Table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_a_process_plays_the_ai_side_of_a_game_another_process_started(tmp_path: Path) -> None:
    scenario, ai_sides = _scenario(
        (EXAMPLES / "vv-hedgerow-ambush.yaml").read_text(encoding="utf-8"), "", "american"
    )
    # Both exist before the game does: the second learns of its AI side from the shared file.
    one = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    two = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    try:
        made = one.create(scenario, ai_sides)
        # German acts through the second table until the AI's side is to move there.
        for _ in range(30):
            status = two.call(lambda s: s.status(made.game))
            if status["to_move"] != "german" or made.game in two.ai_moves:
                break
            action = status["legal_actions"]["german"][0].split()
            two.do(made.game, "german", made.tokens["german"], action, expect=None)
        moves = two.ai_moves.get(made.game, [])
        assert moves and {m.side for m in moves} == {"american"}
        assert two.call(lambda s: s.status(made.game))["version"] == moves[-1].version
    finally:
        one.close()
        two.close()


def test_an_event_stream_opened_while_the_database_is_away_asks_the_browser_to_retry(
    client, monkeypatch
):
    def away(_action: object) -> object:
        raise StorageError("postgresql://db/ordnance", "connection refused")

    monkeypatch.setattr(client.app.state.table, "call", away)
    answer = client.get("/games/0123abcd/events")
    # 200 and a retry interval: EventSource reconnects (it gives up for good on a 4xx/5xx).
    assert answer.status_code == 200 and answer.text == "retry: 2000\n\n"
