"""Every clause the finished issues cover has a test tagged with its ID, and no tag is a typo."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLAUSES_MD = ROOT.parent / "shared" / "rules" / "CLAUSES.md"

# Clause groups whose issues are done; a later issue adds its prefix here.
COVERED_GROUPS = ("C8.", "D13.", "LNL.", "SYS.", "VV.")


def _coverage_module():
    path = ROOT / "scripts" / "clause_coverage.py"
    spec = importlib.util.spec_from_file_location("clause_coverage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["clause_coverage"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def coverage():
    if not CLAUSES_MD.is_file():
        pytest.skip("../shared/rules/CLAUSES.md is not present")
    return _coverage_module()


def test_every_clause_of_a_finished_group_has_a_test(coverage):
    ids = coverage.clause_ids(CLAUSES_MD)
    assert len(ids) > 60  # the inventory was read, not an empty file
    found = coverage.tagged()
    missing = [i for i in ids if i.startswith(COVERED_GROUPS) and i not in found]
    assert missing == []


def test_every_tag_names_a_real_clause(coverage):
    ids = set(coverage.clause_ids(CLAUSES_MD))
    assert sorted(set(coverage.tagged()) - ids) == []
