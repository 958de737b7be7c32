"""Shared test fixtures: clause tags and the real counter data beside the project."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
VASL_TEMPLATES = SHARED / "data" / "vasl-templates"
CLAUSES_MD = SHARED / "rules" / "CLAUSES.md"

settings.register_profile("ci", max_examples=300, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci")


@pytest.fixture
def vasl_templates() -> Path:
    """The vasl-templates data folder; tests that need it skip when it is absent."""
    if not VASL_TEMPLATES.is_dir():
        pytest.skip("../shared/data/vasl-templates is not present")
    return VASL_TEMPLATES
