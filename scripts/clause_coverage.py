"""List the clause IDs of ../shared/rules/CLAUSES.md and the tests that name each one.

Usage: python scripts/clause_coverage.py [--missing]
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLAUSES_MD = ROOT.parent / "shared" / "rules" / "CLAUSES.md"
_ROW = re.compile(r"^\| ([A-Z][A-Za-z0-9.\-]+) \|", re.M)


def clause_ids(path: Path = CLAUSES_MD) -> list[str]:
    """Every clause ID in the inventory, in its order."""
    return [i for i in _ROW.findall(path.read_text(encoding="utf-8")) if i != "ID"]


def tagged(tests: Path = ROOT / "tests") -> dict[str, list[str]]:
    """Clause ID -> the tests whose ``pytest.mark.clause(...)`` names it."""
    found: dict[str, list[str]] = defaultdict(list)
    for file in sorted(tests.rglob("test_*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            for decorator in node.decorator_list:
                if (
                    isinstance(decorator, ast.Call)
                    and isinstance(decorator.func, ast.Attribute)
                    and decorator.func.attr == "clause"
                ):
                    for arg in decorator.args:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            found[arg.value].append(f"{file.relative_to(ROOT)}::{node.name}")
    return found


def main() -> int:
    ids = clause_ids()
    found = tagged()
    missing_only = "--missing" in sys.argv
    for clause in ids:
        tests = found.get(clause, [])
        if missing_only and tests:
            continue
        print(f"{clause:18} {len(tests):3} {'(no test yet)' if not tests else tests[0]}")
    unknown = sorted(set(found) - set(ids))
    if unknown:
        print("tagged but not in CLAUSES.md:", ", ".join(unknown))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # piped into head
        sys.exit(0)
