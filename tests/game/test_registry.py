"""The registry of games: each spec is checked once, when it is registered, and a spec whose
ruleset does not offer exactly the features it claims is refused there, with a sentence; the
registry imports a game only when that game is asked for."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ordnance.core.errors import BadInput
from ordnance.core.spec import Feature, SpecError
from ordnance.game import registry

ROOT = Path(__file__).resolve().parents[2]
RACE = "tests.fourth_game.spec"  # the example game of docs/architecture.md


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A folder on the import path for spec modules, and a registry only this test changes."""
    monkeypatch.setattr(registry, "SPECS", dict(registry.SPECS))
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _spec_module(folder: Path, name: str, body: str) -> str:
    (folder / f"{name}.py").write_text(
        "import dataclasses\n"
        "from ordnance.core.spec import Feature\n"
        f"from {RACE} import SPEC as RACE\n" + textwrap.dedent(body),
        encoding="utf-8",
    )
    return name


@pytest.mark.clause("SYS.odds")
def test_a_spec_claiming_a_feature_its_ruleset_lacks_is_refused_at_registration(plugins):
    module = _spec_module(
        plugins,
        "claims_ai",
        "SPEC = dataclasses.replace(RACE, features=RACE.features | {Feature.AI})\n",
    )
    with pytest.raises(SpecError) as refused:
        registry.register("race", module)
    assert str(refused.value) == (
        "game spec 'race': it claims ai, but its ruleset RaceRules lacks ai_command, ai_note"
        " (AiPlayer)"
    )
    assert "race" not in registry.names()  # nothing was added


@pytest.mark.clause("SYS.odds")
def test_a_spec_hiding_a_feature_its_ruleset_offers_is_refused_at_registration(plugins):
    module = _spec_module(
        plugins, "hides_odds", "SPEC = dataclasses.replace(RACE, features=frozenset())\n"
    )
    with pytest.raises(SpecError, match=r"RaceRules offers odds \(ChanceOutcomes\), unclaimed"):
        registry.register("race", module)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("SPEC = 3\n", "{module}.SPEC is a int, not a GameSpec"),
        ("OTHER = RACE\n", "{module} builds no SPEC"),
        ("SPEC = dataclasses.replace(RACE, name='dash')\n", "{module}.SPEC is named 'dash'"),
        (
            "SPEC = dataclasses.replace(RACE, ruleset=lambda: type('R', (), {'name': 'x'})())\n",
            "its ruleset calls itself 'x'",
        ),
    ],
)
def test_a_wrong_spec_module_is_refused_with_what_is_wrong(plugins, body, problem):
    module = _spec_module(plugins, f"wrong_{len(problem)}", body)  # one module per case
    with pytest.raises(SpecError) as refused:
        registry.register("race", module)
    assert str(refused.value) == f"game spec 'race': {problem.format(module=module)}"


def test_a_name_is_registered_once(plugins):
    with pytest.raises(SpecError, match="the name is taken"):
        registry.register("vv", RACE)
    assert registry.spec("vv").title == "Valor & Victory"


def test_a_game_registered_at_run_time_is_read_like_the_others(plugins):
    made = registry.register("race", RACE)
    assert registry.spec("race") is made and registry.names()[-1] == "race"
    assert made.has(Feature.ODDS) and not made.has(Feature.AI)
    assert registry.maps_of("race") == {} and registry.judge_of("race") is None
    assert registry.victory_of("race", {"turn": 1}) is None


def test_the_built_in_specs_register():
    for name in registry.names():
        spec = registry.spec(name)
        assert spec.name == name and spec.title
        assert registry.ruleset(name).name == name
        assert sorted(registry.maps_of(name))  # each ships an example map
        assert spec.settings is not None and spec.settings().describe()
    assert registry.spec("vv").has(Feature.AI)
    assert not registry.spec("asl").has(Feature.AI)


def test_an_unknown_game_is_one_line():
    with pytest.raises(BadInput, match="unknown ruleset; known: asl, lnl, vv"):
        registry.spec("chess")


def _imported_after(code: str) -> list[str]:
    script = (
        f"import sys\n{code}\n"
        "print(sorted({m.split('.')[1] for m in sys.modules"
        " if m.startswith('ordnance.') and m.split('.')[1] in ('asl', 'lnl', 'vv')}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src")},
    )
    return list(eval(done.stdout))  # a list of names this test printed


def test_the_registry_imports_a_game_only_when_it_is_asked_for():
    assert _imported_after("from ordnance.game import registry; registry.names()") == []
    assert _imported_after("from ordnance.game import registry; registry.spec('vv')") == ["vv"]
