"""The layers of DESIGN.md hold: imports point down only, and no ruleset imports another.

core  <-  rulesets (asl, lnl, vv)  <-  game  <-  cli, web    (the web never imports the cli)
The program meets the games by name in one place only: ``game/registry.py``, which names each
game's spec module as text and imports none of them itself (so the service imports no
ruleset), and no face lists the games (see :func:`test_no_face_names_a_game`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ordnance.core.spec import Feature
from ordnance.game.registry import SPECS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ordnance"
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
        return {"core", "game"}  # the registry names the games' spec modules, as text
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


# Where a game's name may stand as a string of its own in the code of a face (cli/, web/),
# of the service (game/) or of the docs generator (scripts/): in that game's own modules (a
# file whose name has the game's name as a part: cli/asl_ammo.py, cli/lnl.py,
# cli/status_vv.py), in the registry, and in the CLI's command tree (cli/app.py, cli/groups.py),
# where ``asl`` is the name of the ``ordnance asl`` command group. Docstrings and doctests
# are prose and examples, not switches, and are not read.
GAMES = set(SPECS)
COMMAND_TREE = {PACKAGE / "cli" / "app.py", PACKAGE / "cli" / "groups.py", REGISTRY}
FACES = sorted(
    path
    for folder in (PACKAGE / "cli", PACKAGE / "web", PACKAGE / "game", ROOT / "scripts")
    for path in folder.rglob("*.py")
    if path not in COMMAND_TREE and not GAMES & set(path.stem.split("_"))
)
# The web's page templates and scripts quote no game's name either.
TEMPLATES = sorted(
    path
    for path in (PACKAGE / "web").rglob("*")
    if path.suffix in (".html", ".js") and path.parent.name in ("templates", "static")
)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def games_named(source: str) -> list[str]:
    """Each string literal in ``source`` that is exactly a game's name, as ``line: 'name'``.

    >>> games_named("def f(x):\\n    'Plays asl.'\\n    return x == 'vv' or x in ('asl', 'a')")
    ["3: 'vv'", "3: 'asl'"]
    """
    tree = ast.parse(source)
    prose = _docstrings(tree)
    return [
        f"{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in GAMES and id(node) not in prose
    ]


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("path", FACES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_face_names_a_game(path):
    """No face, service module or docs script switches on a game by name: they ask the
    registry (a fourth game then touches its own package and one registry line)."""
    assert games_named(path.read_text(encoding="utf-8")) == []


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_no_page_template_names_a_game(path):
    quoted = re.compile(r"""["']({})["']""".format("|".join(sorted(GAMES))))
    assert quoted.findall(path.read_text(encoding="utf-8")) == []


def test_the_game_check_sees_the_faces():
    assert len(FACES) > 40 and PACKAGE / "web" / "pages.py" in FACES
    assert PACKAGE / "web" / "templates" / "lobby.html" in TEMPLATES
    assert PACKAGE / "web" / "static" / "table.js" in TEMPLATES
    assert PACKAGE / "cli" / "asl_ammo.py" not in FACES
    assert PACKAGE / "cli" / "status_vv.py" not in FACES


# A face asks a game's spec for an optional feature (core/spec.py): the spec's claim was held to
# the ruleset once, at registration. Probing the ruleset again at use, by a protocol's
# ``isinstance`` (which looks up each member) or by ``getattr``/``hasattr``, is refused.
FEATURE_PROTOCOLS = {feature.protocol.__name__ for feature in Feature}


def feature_probes(source: str) -> list[str]:
    """Each probe of a ruleset for a feature in ``source``, as ``line: call``.

    >>> feature_probes("ok = isinstance(x, int)\\nbad = isinstance(game.rules, AiPlayer)")
    ['2: isinstance(game.rules, AiPlayer)']
    >>> feature_probes("a = getattr(rules, 'ai_command', None)\\nb = hasattr(self, 'x')")
    ["1: getattr(rules, 'ai_command', None)"]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or not node.args:
            continue
        first = ast.unparse(node.args[0])
        probed = first == "rules" or first.endswith(".rules")
        if node.func.id == "isinstance" and len(node.args) == 2:
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if names & FEATURE_PROTOCOLS:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif node.func.id in ("getattr", "hasattr") and probed:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("path", FACES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_face_probes_a_ruleset_for_a_feature(path):
    assert feature_probes(path.read_text(encoding="utf-8")) == []


def test_the_probe_check_knows_every_feature():
    assert {"AiPlayer", "ChanceOutcomes", "MapRules", "BoardOffers"} <= FEATURE_PROTOCOLS
