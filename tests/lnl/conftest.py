"""Fixtures of the LnLT tests (the helpers are in ``tests.lnl.hamlet``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.lnl.hamlet import HAMLET


@pytest.fixture
def hamlet_dir(tmp_path: Path) -> Path:
    """A folder holding the hamlet map, for scenarios that name ``map: hamlet.yaml``."""
    (tmp_path / "hamlet.yaml").write_text(HAMLET, encoding="utf-8")
    return tmp_path
