"""``pip install .`` into a fresh venv, no extras: every non-PostgreSQL, non-PNG command runs.

The contract of issue 18, checked from outside: a venv made here (no system site-packages, no
pip of its own: this venv's pip installs into it) gets the project built from a copy of its
sources, with the versions of requirements/lock.txt. Then the installed ``ordnance`` runs one
stateless command of each group (asl, lnl, vv, map), a game on SQLite (new, do, status), and
the commands needing an extra fail with the one line naming it.

It needs the package index, or pip's cache holding the wheels (a second run is mostly cache):
deselect it with ``-m "not install"`` where neither is at hand.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "asl-c8-demo.yaml"
# Top-level modules of the extras: none may be importable in the fresh venv.
EXTRA_MODULES = ("psycopg", "cairosvg", "fastapi", "starlette", "uvicorn", "jinja2")

pytestmark = pytest.mark.install


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh venv with ``pip install .`` (no extras) done in it."""
    base = tmp_path_factory.mktemp("fresh-install")
    project = base / "project"
    project.mkdir()
    # A copy: building in the work tree would leave build/ and *.egg-info behind.
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, project / name)
    shutil.copytree(
        ROOT / "src",
        project / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"),
    )
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    started = time.perf_counter()
    lock = ROOT / "requirements" / "lock.txt"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    # --no-compile: byte-compiling every dependency was half of the install's time.
    done = subprocess.run(
        [*pip, "install", "--quiet", "--no-compile", "-c", str(lock), str(project)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    took = time.perf_counter() - started
    print(f"\nfresh venv: pip install . took {took:.1f} s")
    assert done.returncode == 0, "pip install . failed:\n" + done.stderr[-3000:]
    return venv / "bin"


def run(bin_dir: Path, home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """The installed ``ordnance`` with only the venv on PATH (no rsvg-convert) and no settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ORDNANCE_", "PYTHON"))}
    env.update(PATH=str(bin_dir), HOME=str(home), XDG_DATA_HOME=str(home / "data"))
    return subprocess.run(
        [str(bin_dir / "ordnance"), *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, (result.args, result.stderr)
    return result.stdout


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2 and result.stdout == "", (result.args, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: "), result.stderr
    return lines[0]


def test_no_extra_is_installed(fresh):
    code = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    done = subprocess.run(
        [str(fresh / "python"), "-c", code, *EXTRA_MODULES],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"


def test_the_stateless_commands_and_a_sqlite_game_run(fresh, tmp_path):
    assert "Usage: ordnance" in ok(run(fresh, tmp_path, "--help"))
    ammo = json.loads(
        ok(run(fresh, tmp_path, "asl", "ammo", "A5(4)/6(5)", "--date", "1945-03", "--json"))
    )
    assert ammo["date"] == "1945-03"
    lnl = json.loads(ok(run(fresh, tmp_path, "lnl", "odds", "wp-check", "--closed", "--json")))
    assert lnl
    vv = json.loads(ok(run(fresh, tmp_path, "vv", "odds", "--apfp", "12", "--drm", "2", "--json")))
    assert vv
    los = json.loads(ok(run(fresh, tmp_path, "map", "los", "asl-village", "4E5", "4M5", "--json")))
    assert los
    svg = tmp_path / "hedgerows.svg"
    drawn = json.loads(
        ok(run(fresh, tmp_path, "map", "render", "vv-hedgerows", "--out", str(svg), "--json"))
    )
    assert drawn["png"] is None and svg.read_text().lstrip().startswith("<")

    db = str(tmp_path / "games.sqlite3")
    made = json.loads(ok(run(fresh, tmp_path, "game", "new", str(EXAMPLE), "--db", db, "--json")))
    token = tmp_path / "german.token"
    token.touch(mode=0o600)
    token.write_text(made["tokens"]["german"] + "\n", encoding="utf-8")
    side = ["--side", "german", "--token-file", str(token), "--db", db]
    ok(run(fresh, tmp_path, "game", "do", made["game"], *side, "phase", "next"))
    status = json.loads(
        ok(run(fresh, tmp_path, "game", "status", made["game"], "--db", db, "--json"))
    )
    assert status["version"] == 2 and status["state"]["phase"] == "PFPh"


def test_each_missing_extra_is_one_line_naming_it(fresh, tmp_path):
    png = one_line(
        run(fresh, tmp_path, "map", "render", "lnl-farm", "--out", str(tmp_path / "f.png"))
    )
    assert "pip install 'ordnance[png]'" in png and (tmp_path / "f.svg").is_file()
    pg = one_line(run(fresh, tmp_path, "game", "list", "--db", "postgresql://u@127.0.0.1:1/g"))
    assert "pip install 'ordnance[postgres]'" in pg
    assert "--port" in ok(run(fresh, tmp_path, "serve", "--help"))  # its help needs no extra
    serve = one_line(run(fresh, tmp_path, "serve", "--db", str(tmp_path / "s.sqlite3")))
    assert serve == (
        "ordnance: ordnance serve needs the 'web' extra (no module 'fastapi'):"
        " pip install 'ordnance[web]'"
    )
