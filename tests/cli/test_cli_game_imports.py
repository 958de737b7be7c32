"""A game command imports only what it uses (issue 28): ``game status`` and ``game do`` on a
SQLite file import no SQLAlchemy (the CLI's service reads the file through sqlite3, see
game/sqlite_file.py), no numpy, Jinja2, Alembic or web code, and not the other rulesets.

Each command runs in a fresh interpreter (as a user runs it) that prints the modules it
imported. Its time is measured by benchmarks/bench_cli.py, not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ordnance.game.scenario import load_scenario_file
from ordnance.game.service import GameService

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vv-meeting-engagement.yaml"
HEAVY = ("sqlalchemy", "alembic", "numpy", "jinja2", "starlette", "ordnance.web")
OTHER_RULESETS = ("ordnance.asl.game", "ordnance.lnl.game")

RUN = """
import io, json, sys, contextlib
from ordnance.cli.app import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str, str]:
    """A V&V game of a few commands in a SQLite file: the environment, its id, a side's token."""
    folder = tmp_path_factory.mktemp("imports")
    env = {
        **os.environ,
        "ORDNANCE_DB": str(folder / "games.sqlite3"),
        "ORDNANCE_KEYS": str(folder / "keys"),
        "ORDNANCE_RECEIPTS": str(folder / "receipts"),
    }
    service = GameService(env["ORDNANCE_DB"], keys=env["ORDNANCE_KEYS"])
    try:
        made = service.create(load_scenario_file(EXAMPLE))
        game = service.game(made.game)
        side = game.rules.to_move(game.state)
        assert side is not None
    finally:
        service.close()
    return env, made.game, f"{side}={made.tokens[side]}"


def imported(env: dict[str, str], *argv: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, *argv], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["code"] == 0, done.stderr
    return list(answer["modules"])


def heavy_in(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(m == n or m.startswith(f"{n}.") for m in modules))


@pytest.mark.clause("SYS.record")
def test_game_status_and_do_import_no_sqlalchemy_numpy_jinja_or_web(played):
    env, game, side_token = played
    side, token = side_token.split("=", 1)
    status = imported(env, "game", "status", game)
    assert heavy_in(status, HEAVY) == []
    assert "ordnance.vv.game" in status  # the game's own ruleset, which it does use
    do = imported(
        {**env, "ORDNANCE_TOKEN": token}, "game", "do", game, "phase", "next", "--side", side
    )
    assert heavy_in(do, HEAVY) == []


@pytest.mark.clause("SYS.record")
def test_game_status_imports_only_its_own_ruleset(played):
    env, game, _ = played
    assert heavy_in(imported(env, "game", "status", game), OTHER_RULESETS) == []
