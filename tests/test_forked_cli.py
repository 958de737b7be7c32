"""The docs test's fork server (tests/forked_cli.py) answers as the installed `ordnance` script
does: the same stdout, stderr and exit status, in the caller's folder, with its environment and
its stdin."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.forked_cli import ForkServer

MAP = Path(__file__).resolve().parents[1] / "src/ordnance/asl/data/maps/asl-village.yaml"
COMMANDS = [
    "ordnance asl ammo 'A5(4)/6(5)' --date 1945-03 --json",
    "ordnance asl chart --nationality german --gun 999 --date 1944-06",  # exit 2, one line
    "ordnance game list --json",  # the database named by $ORDNANCE_DB, in the caller's folder
    "ordnance no-such-command",
    f"ordnance map los /dev/stdin 4E5 4M5 --json < {MAP}",  # stdin is the caller's
]


def run(command: str, env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    done = subprocess.run(
        ["bash", "-c", command], env=env, cwd=cwd, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_a_forked_command_answers_as_a_fresh_process(command: str, tmp_path: Path):
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path),
        "ORDNANCE_DB": "games.sqlite3",
        "COLUMNS": "100",
    }
    fresh = run(command, env, tmp_path)
    server = ForkServer(tmp_path / "fork", env)
    try:
        shimmed = f"{server.bin_dir}{os.pathsep}{env['PATH']}"
        assert shutil.which("ordnance", path=shimmed) == str(server.bin_dir / "ordnance")
        forked = run(command, {**env, "PATH": shimmed}, tmp_path)
    finally:
        server.close()
    assert forked == fresh
    assert fresh[0] in (0, 2) and (fresh[1] or fresh[2])
    assert (tmp_path / "games.sqlite3").exists() == ("game list" in command)
