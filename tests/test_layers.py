"""The layers of DESIGN.md hold: imports point down only, and no ruleset imports another.

core  <-  rulesets (asl, lnl, vv)  <-  game  <-  cli, web    (the web never imports the cli)
The service meets the rulesets by name in one place only: ``game/registry.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ordnance"
RULESETS = {"asl", "lnl", "vv"}
REGISTRY = PACKAGE / "game" / "registry.py"


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return {name for name in found if name.startswith("ordnance.")}


def _allowed(layer: str, path: Path) -> set[str]:
    if layer == "core":
        return {"core"}
    if layer in RULESETS:
        return {"core", layer}
    if layer == "game":
        return {"core", "game"} | (RULESETS if path == REGISTRY else set())
    if layer == "web":
        # A face over the service: no ruleset directly, and never the other face (LOS judges
        # and victory words come from game/registry.py, as the CLI's do).
        return {"core", "game", "web"}
    return {"core", "game", "cli", "web", *RULESETS}  # cli serves the web face


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down_only(path):
    layer = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
    wrong = {name for name in _imports(path) if _layer(name) not in _allowed(layer, path) | {""}}
    assert wrong == set(), f"{layer} may not import {sorted(wrong)}"


def test_the_check_sees_the_tree():
    assert len(MODULES) > 50
    assert any(_imports(path) for path in MODULES)


def test_the_web_never_imports_the_cli():
    """Faces never import each other (DESIGN.md): not even inside a function."""
    web = sorted((PACKAGE / "web").rglob("*.py"))
    found = {
        str(path.relative_to(PACKAGE)): sorted(n for n in _imports(path) if _layer(n) == "cli")
        for path in web
    }
    assert {name: cli for name, cli in found.items() if cli} == {}
