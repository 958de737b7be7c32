"""Shared test fixtures: clause tags and the real counter data beside the project."""

from __future__ import annotations

import atexit
import importlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# An error the CLI did not expect propagates to the test instead of becoming one line (exit 70).
os.environ.setdefault("ORDNANCE_TRACEBACK", "1")

# The tests' key stores and receipts stay out of the user's own data folder: one private folder
# per test process (each pytest-xdist worker has its own), which its subprocesses inherit.
_PRIVATE = Path(tempfile.mkdtemp(prefix="ordnance-tests-"))
atexit.register(shutil.rmtree, _PRIVATE, ignore_errors=True)
os.environ.setdefault("ORDNANCE_KEYS", str(_PRIVATE / "keys"))
os.environ.setdefault("ORDNANCE_RECEIPTS", str(_PRIVATE / "receipts"))

from ordnance.cli.app import main  # noqa: E402 (after the environment above)

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
VASL_TEMPLATES = SHARED / "data" / "vasl-templates"
CLAUSES_MD = SHARED / "rules" / "CLAUSES.md"

settings.register_profile("ci", max_examples=300, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci")


# The modules whose tests take longest (`pytest --durations`), started first: with `pytest -n`
# (make unit) the workers then end together instead of one of them finishing a long test alone.
SLOW_FIRST = (
    "tests/web/test_multiprocess.py",
    "tests/game/test_concurrency.py",
    "tests/game/test_crash.py",
    "tests/game/test_serve_crash.py",
    "tests/game/test_no_dead_ends.py",
    "tests/web/test_web_failures.py",
    "tests/web/test_browser_notices.py",
    "tests/web/test_browser_play.py",
    "tests/web/test_browser_play_ai.py",
    "tests/web/test_browser.py",
    "tests/test_benchmarks.py",
    "tests/test_fuzz.py",
    "tests/test_docs.py",
    "tests/web/test_cli_server.py",
    "tests/cli/test_cli_vv.py",
    "tests/cli/test_cli_game_help.py",
    "tests/test_fresh_install.py",
    "tests/cli/test_cli_game.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: index for index, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(SLOW_FIRST)))


@pytest.fixture
def vasl_templates() -> Path:
    """The vasl-templates data folder; tests that need it skip when it is absent."""
    if not VASL_TEMPLATES.is_dir():
        pytest.skip("../shared/data/vasl-templates is not present")
    return VASL_TEMPLATES


class CliResult:
    """What one CLI call printed and returned."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def json(self) -> Any:
        return json.loads(self.out)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run ``ordnance ARGS...`` in-process: ``cli("asl", "deplete", "--number", "7", ...)``."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


@pytest.fixture
def token_file(tmp_path: Path) -> Callable[[str], str]:
    """``token_file(token)``: the path of a file (mode 600) holding ``token``, for
    ``--token-file`` (a token on the command line draws a warning)."""

    def write(token: str) -> str:
        path = tmp_path / f"token-{abs(hash(token))}"
        path.touch(mode=0o600)
        path.write_text(token + "\n", encoding="utf-8")
        return str(path)

    return write


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    """A PostgreSQL server of the test module's own (``benchmarks/web_harness.py``, durable):
    its tests may stop, restart or crash it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    harness: Any = importlib.import_module("web_harness")
    server = harness.Postgres()
    try:
        yield server
    finally:
        server.stop()
