"""``pip install .`` into a fresh venv, no extras: every non-PostgreSQL, non-PNG command runs.

The contract of issue 18, checked from outside: a venv made here (no system site-packages, no
pip of its own: this venv's pip installs into it) gets the project built from a copy of its
sources, with the versions of requirements/lock.txt. Then the installed ``ordnance`` runs one
stateless command of each group (asl, lnl, vv, map), a game on SQLite (new, do, status), and
the commands needing an extra fail with the one line naming it.

The light install of ``make run`` is checked the same way: a venv made as the Makefile makes
it, with the extras its ``run`` stamp names, stays under RUN_VENV_LIMIT on disk and holds no
test or docs tool.

It needs the package index, or pip's cache holding the wheels (a second run is mostly cache):
deselect it with ``-m "not install"`` where neither is at hand.
"""

from __future__ import annotations

import json
import os
import re
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

# What the test and docs extras bring: none may be in the venv of `make run`.
TOOL_MODULES = ("pytest", "mypy", "ruff", "playwright", "hypothesis", "icepool", "mkdocs")
RUN_VENV_LIMIT = 250 * 1024 * 1024  # bytes on disk, as `du` counts them (issue 29)
MAKEFILE = ROOT / "Makefile"

pytestmark = pytest.mark.install


def _project_copy(base: Path) -> Path:
    # A copy: building in the work tree would leave build/ and *.egg-info behind.
    project = base / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, project / name)
    shutil.copytree(
        ROOT / "src",
        project / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"),
    )
    return project


def _make_variable(name: str) -> str:
    found = re.search(rf"^{name} := (.+)$", MAKEFILE.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None, f"the Makefile sets no {name}"
    return found.group(1).strip()


def _disk_usage(folder: Path) -> int:
    """Bytes ``folder`` takes on disk, as ``du`` counts them (blocks, links not followed)."""
    used = 0
    for path in folder.rglob("*"):
        used += path.lstat().st_blocks * 512
    return used


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh venv with ``pip install .`` (no extras) done in it."""
    base = tmp_path_factory.mktemp("fresh-install")
    project = _project_copy(base)
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


def test_the_installed_package_reads_its_clauses(fresh, tmp_path):
    # core/clauses.json is package data: `ordnance rules` works from a wheel, not only a checkout.
    found = json.loads(ok(run(fresh, tmp_path, "rules", "C8.9-lt", "--json")))
    assert found["rules"][0]["rule"] == "C8.9" and found["rules"][0]["summary"]


def test_make_run_installs_only_the_runtime_and_make_test_adds_the_tools():
    makefile = MAKEFILE.read_text(encoding="utf-8")
    run_recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert run_recipe.startswith(" $(RUN_STAMP)") and "scripts/ensure_cairo.sh" in run_recipe
    assert "\ntest: $(TEST_STAMP)" in makefile and "$(TEST_STAMP): $(RUN_STAMP)" in makefile
    assert set(_make_variable("RUN_EXTRAS").split(",")) == {"web", "png"}
    assert set(_make_variable("TEST_EXTRAS").split(",")) == {"dev", "docs"}


def test_the_venv_of_make_run_is_light(tmp_path):
    """As `make run` makes it: a venv with pip, the extras of RUN_EXTRAS, byte-compiled."""
    project = _project_copy(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    extras = _make_variable("RUN_EXTRAS")
    lock = ROOT / "requirements" / "lock.txt"
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    done = subprocess.run(
        [*pip, "-c", str(lock), "-e", f".[{extras}]"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, "pip install failed:\n" + done.stderr[-3000:]
    used = _disk_usage(venv)
    print(f"\nmake run's venv: {used / 2**20:.0f} MiB")
    assert used < RUN_VENV_LIMIT
    code = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    present = subprocess.run(
        [python, "-c", code, *TOOL_MODULES, "fastapi", "cairosvg"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert present.stdout.strip() == "['fastapi', 'cairosvg']"
