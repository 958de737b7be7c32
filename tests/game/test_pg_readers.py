"""PostgreSQL reads on kept autocommit connections (game/appender.py): each sees the newest
commit of any process, and a server restart costs no read (SYS.record)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ordnance.game.scenario import load_scenario_file
from ordnance.game.service import GameService

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "asl-c8-demo.yaml"


@pytest.mark.clause("SYS.record")
def test_reads_see_every_writer_and_survive_a_restart(postgres: Any, tmp_path: Path) -> None:
    url = postgres.create_database()
    one = GameService(url, keys=tmp_path / "keys")
    two = GameService(url, keys=tmp_path / "keys")  # another server process, in effect
    appender = None
    try:
        made = one.create(load_scenario_file(EXAMPLE))
        game, side = made.game, one.game(made.game).rules.to_move(one.game(made.game).state)
        assert side is not None
        assert two.store.tip(game)[0] == made.version
        one.do(game, side, made.tokens[side], ["phase", "next"])
        # Each read is a statement of its own: the other process's commit is seen at once.
        assert two.store.tip(game)[0] == made.version + 1
        assert two.game(game).version == made.version + 1
        appender = two.store._the_appender()
        assert len(appender._readers) == 1  # one connection, kept and reused
        postgres.restart()  # every connection the server had is cut
        assert two.store.tip(game)[0] == made.version + 1  # the first read after it is served
        assert two.store.version(game) == made.version + 1
    finally:
        one.close()
        two.close()
    assert appender._readers == []  # closed with the store
