"""A serving process paces its garbage collector (web/collector.py) once it is warm, and still
collects cycles; the test's own process keeps Python's defaults."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Builds the app as ``ordnance serve``'s worker does, then reports on its collector.
PROBE = """
import gc, json, sys
from ordnance.web.app import from_environment
from ordnance.web.collector import OLDER, YOUNG
app = from_environment()
frozen = gc.get_freeze_count()
class Knot:
    pass
knot = Knot(); knot.self = knot; del knot
print(json.dumps({
    "threshold": gc.get_threshold(),
    "expected": [YOUNG, OLDER, OLDER],
    "frozen": frozen,
    "warm": "ordnance.core.maps.visibility" in sys.modules,
    "collected": gc.collect(),
}))
"""


@pytest.mark.clause("SYS.record")
def test_a_served_process_is_warmed_frozen_and_paced_and_still_collects_cycles(
    tmp_path: Path,
) -> None:
    config = {
        "db": f"sqlite:///{tmp_path / 'games.db'}",
        "ai_keys": str(tmp_path / "ai.json"),
        "limits": {"actions": 0, "games": 0, "uploads": 0},
        "trusted_proxies": [],
        "threads": 1,
    }
    env = {**os.environ, "ORDNANCE_SERVE": json.dumps(config)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["threshold"] == seen["expected"]
    assert seen["threshold"][0] > 700  # spaced out from Python's default
    assert seen["frozen"] > 10_000  # the modules, classes and functions loaded at start
    assert seen["warm"]  # warmed before the freeze, not in the background after it
    assert seen["collected"] >= 1  # the cycle made after the freeze


def test_the_test_process_keeps_pythons_collector() -> None:
    assert gc.get_threshold()[0] == 700
    assert gc.get_freeze_count() == 0
