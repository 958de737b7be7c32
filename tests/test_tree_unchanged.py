"""scripts/tree_unchanged.py, the step of `make test` that fails when the suite changed the
checkout: it compares before with after, so a tree dirty before is no failure by itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "tree_unchanged.py"


def _git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    _git(tmp_path, "init", "-q")
    (tmp_path / "map.yaml").write_text("version: 1\n")
    (tmp_path / ".gitignore").write_text("cache/\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "start")
    # Dirty before the command runs: an edit and a new file of the user's.
    (tmp_path / "map.yaml").write_text("version: 2\n")
    (tmp_path / "notes.txt").write_text("mine\n")
    return tmp_path


def _run(folder: Path, command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--", "sh", "-c", command],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.clause("SYS.record")
def test_a_command_that_changes_nothing_passes_on_a_dirty_tree(checkout):
    done = _run(checkout, "mkdir -p cache && echo x > cache/ignored")
    assert done.returncode == 0, done.stderr


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("echo svg > map.yaml", "changed again: map.yaml"),  # a file dirty before, changed again
        ("echo x > new.svg", "new: new.svg"),
        ("rm notes.txt", "deleted: notes.txt"),
        ("git checkout -q map.yaml", "put back as committed: map.yaml"),
    ],
)
def test_a_command_that_changes_the_checkout_fails(checkout, command, said):
    done = _run(checkout, command)
    assert done.returncode == 1
    assert said in done.stderr


@pytest.mark.clause("SYS.record")
def test_the_command_own_failure_is_kept(checkout):
    assert _run(checkout, "exit 3").returncode == 3


@pytest.mark.clause("SYS.record")
def test_outside_a_checkout_the_command_just_runs(tmp_path):
    done = _run(tmp_path, "echo x > new && exit 0")
    assert done.returncode == 0 and "not a git checkout" in done.stderr


@pytest.mark.clause("SYS.record")
def test_make_test_runs_the_suite_through_it():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "scripts/tree_unchanged.py --" in recipe and "unit" in recipe and "docs" in recipe
