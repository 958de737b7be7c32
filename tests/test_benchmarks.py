"""The benchmarks run: each with a tiny sample count, its table checked for shape, never its
times (speed is measured by the benchmarks alone, docs/benchmarks.md)."""

from __future__ import annotations

import doctest
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
STEPS = ("page ready", "counter -> hexes", "hex -> preview", "push")
NUMBER = r"\d+\.\d"


def run_bench(*args: str, bench: str = "bench_board.py") -> subprocess.CompletedProcess[str]:
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / bench), *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )


@pytest.mark.clause("SYS.odds", "SYS.record")
def test_bench_board_measures_each_step_in_a_browser_under_load() -> None:
    done = run_bench("--samples", "2", "--load", "1")
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert "1 busy processes" in lines[1] and "load average" in lines[1]
    rows = {line[:18].strip(): line for line in lines if line[:18].strip() in STEPS}
    assert set(rows) == set(STEPS), done.stdout
    # Page ready and push run on every table page; counter and preview need the board's
    # markup, and say so when it is not there.
    for step in ("page ready", "push"):
        assert re.search(rf"^{step}\s+2\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}\s+<\d+", rows[step])
        assert rows[step].rstrip().endswith(("pass", "FAIL"))
    for step in ("counter -> hexes", "hex -> preview"):
        assert re.search(rf"\s[12]\s+{NUMBER}", rows[step]) or "n/a: no [data-" in rows[step]


def test_bench_board_rows_say_pass_fail_or_why_not() -> None:
    # A row fits 80 columns and says FAIL over the target, or why a step was not measured.
    sys.path.insert(0, str(BENCHMARKS))
    bench = importlib.import_module("bench_board")
    assert doctest.testmod(bench).failed == 0
    missing = bench.Step("counter -> hexes", missing="no [data-action] hex")
    assert missing.row() == "counter -> hexes     0   n/a: no [data-action] hex"
    slow = bench.Step("push", [300.0, 310.0])
    assert slow.row().endswith("FAIL") and len(slow.row()) <= 80


@pytest.mark.clause("SYS.odds")
@pytest.mark.parametrize("warm", [False, True])
def test_bench_first_times_first_and_cached_answers_at_each_version(warm: bool) -> None:
    done = run_bench("--versions", "3", "--think", "50", *(["--warm"] if warm else []),
                     bench="bench_first.py")  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert f"warm {'on' if warm else 'off'}" in lines[0]
    rows = [line for line in lines if line.split(" ", 1)[0] in ("page", "offers", "preview")]
    # Three versions, a page after each action (the game's first page is the cold process's),
    # then the cold process's rows.
    assert re.search(rf"^page\s+3\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}", rows[0])
    assert all(row.endswith(("pass", "FAIL", "n/a")) for row in rows), rows
    sys.path.insert(0, str(BENCHMARKS))
    assert doctest.testmod(importlib.import_module("bench_first")).failed == 0


@pytest.mark.clause("SYS.record")
def test_bench_web_plays_games_through_a_server_and_counts_what_they_cost() -> None:
    # Five games (the fifth against the server's AI), each side acting twice.
    done = run_bench("--games", "5", "--actions", "2", "--think", "0.2", "--setups", "sqlite",
                     bench="bench_web.py")  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    header, row = done.stdout.splitlines()[1:3]
    assert header.split()[-3:] == ["srv", "ms/act", "load"], header
    # games, setup, act p50 and p95, push, page, preview, errors, refused, the CPUs, ms/act, load
    values = row.split()
    assert values[:2] == ["5", "sqlite"] and len(values) == 14, row
    assert values[8] == "0", done.stdout  # errors
    assert float(values[3]) > 0 and float(values[12]) > 0, row  # act p95, srv ms/act
