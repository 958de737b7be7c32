"""The README's library examples run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_examples_run():
    results = doctest.testfile(str(README), module_relative=False)
    assert results.attempted >= 8
    assert results.failed == 0
