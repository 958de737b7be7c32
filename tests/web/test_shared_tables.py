"""Two tables (as two server processes) on one database and one AI key file."""

from __future__ import annotations

from pathlib import Path

from tests.web.conftest import EXAMPLES

from ordnance.web.pages import _scenario
from ordnance.web.table import Table


def test_a_process_plays_the_ai_side_of_a_game_another_process_started(tmp_path: Path) -> None:
    scenario, ai_sides = _scenario(
        (EXAMPLES / "vv-hedgerow-ambush.yaml").read_text(encoding="utf-8"), "", "american"
    )
    # Both exist before the game does: the second learns of its AI side from the shared file.
    one = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    two = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    try:
        made = one.create(scenario, ai_sides)
        assert one.call(lambda s: s.status(made.game))["to_move"] == "german"
        applied = two.do(
            made.game, "german", made.tokens["german"], ["assign-cp", "--auto"], expect=None
        )
        after = two.call(lambda s: s.status(made.game))
        assert after["version"] > applied.version and after["to_move"] == "german"
        moves = two.ai_moves[made.game]
        assert moves and {m.side for m in moves} == {"american"}
    finally:
        one.close()
        two.close()
