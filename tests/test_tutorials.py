"""The four tutorials, followed in order by one player in one folder with one database, leave
four playable games: each tutorial keeps its files (the side tokens, the game's id) in a folder
of its own, so a later one takes nothing from an earlier one (issue 29). The pages' `sh`
blocks run as tests/test_docs.py runs one page; then each game is sent the next command of the
side whose move it is, and takes it.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from tests.forked_cli import ForkServer
from tests.test_docs import DOCS, script

TUTORIALS = {
    "c8": DOCS / "tutorials" / "asl-c8.md",
    "d13": DOCS / "tutorials" / "asl-d13.md",
    "lnl": DOCS / "tutorials" / "lnl.md",
    "vv": DOCS / "tutorials" / "vv.md",
}


def _environment(folder: Path) -> dict[str, str]:
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "ORDNANCE_DB": str(folder / "games.sqlite3"),
        "ORDNANCE_KEYS": str(folder / "keys"),
        "ORDNANCE_RECEIPTS": str(folder / "receipts"),
        "COLUMNS": "80",
    }
    env.pop("ORDNANCE_TOKEN", None)
    return env


def _ordnance(env: dict[str, str], folder: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ordnance.cli.app", *words],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _next_command(status: dict[str, object]) -> list[str]:
    """The first command the side to move may send now (none of those left by the pages
    rolls a die: a game of entered dice would need them)."""
    side = str(status["to_move"])
    actions = status["legal_actions"]
    assert isinstance(actions, dict) and actions.get(side), status
    return shlex.split(actions[side][0])


@pytest.mark.clause("SYS.record")
def test_the_four_tutorials_in_order_leave_four_playable_games(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
):
    (tmp_path / "examples").symlink_to(DOCS.parent / "examples")
    (tmp_path / "docs").mkdir()
    env = _environment(tmp_path)
    whole = "\n".join(script(page) for page in TUTORIALS.values())
    server = ForkServer(tmp_path_factory.mktemp("fork"), env)
    try:
        done = subprocess.run(
            ["bash", "-c", whole],
            cwd=tmp_path,
            env={**env, "PATH": f"{server.bin_dir}{os.pathsep}{env['PATH']}"},
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    finally:
        server.close()
    assert done.returncode == 0, "\n".join((done.stdout + done.stderr).splitlines()[-15:])

    games = {}
    for folder in TUTORIALS:
        made = json.loads((tmp_path / folder / "new.json").read_text(encoding="utf-8"))
        assert "tokens" not in made  # the tokens are in their files, never on screen
        for side, name in made["token_files"].items():
            path = tmp_path / name
            assert path.parent == tmp_path / folder, (side, name)
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
        games[folder] = made
    assert len({made["game"] for made in games.values()}) == 4

    for folder, made in games.items():
        game = made["game"]
        shown = _ordnance(env, tmp_path, "game", "status", game, "--json")
        assert shown.returncode == 0, shown.stderr
        status = json.loads(shown.stdout)
        assert not status["over"], folder
        side = status["to_move"]
        command = _next_command(status)
        token_file = tmp_path / made["token_files"][side]
        sent = _ordnance(
            env, tmp_path, "game", "do", game, "--side", side, "--token-file", str(token_file),
            "--json", *command,
        )  # fmt: skip
        assert sent.returncode == 0, (folder, command, sent.stderr)
        assert json.loads(sent.stdout)["version"] == status["version"] + 1, folder
