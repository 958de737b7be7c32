"""The games by name: the one place the program meets them (DESIGN.md, "a game plugs in once").

Each game is one line of :data:`SPECS`: its name (what scenario files give in ``ruleset:``)
and the module that builds its :class:`~ordnance.core.spec.GameSpec` as ``SPEC``. A spec is
imported on first use, so asking for one game loads that game only (``game status`` of a V&V
game never imports ASL). Registering a spec (its first use) checks it once: the module must
build a spec of that name, whose ruleset offers exactly the optional features it claims;
otherwise :class:`~ordnance.core.spec.SpecError` says what is wrong.

Every face and the docs read the games here: the names, each game's spec, its ruleset, the
line-of-sight judge of a map and the victory words of a state.

>>> names()
('asl', 'lnl', 'vv')
>>> spec("vv").title
'Valor & Victory'
>>> spec("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad ruleset 'chess': unknown ruleset; known: asl, ...
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from importlib.resources.abc import Traversable
from typing import Any

from ordnance.core.errors import BadInput
from ordnance.core.maps import GameMap, LosJudge, Vocabulary
from ordnance.core.maps.source import bundled_maps
from ordnance.core.ruleset import Ruleset
from ordnance.core.spec import GameSpec, SpecError, check

__all__ = [
    "SPECS",
    "judge_for",
    "judge_of",
    "maps_of",
    "names",
    "register",
    "ruleset",
    "spec",
    "spec_of",
    "victory_of",
    "vocabulary_for",
]

# Name -> the module whose SPEC is that game's spec: the one line a game adds here.
SPECS: dict[str, str] = {
    "asl": "ordnance.asl.spec",
    "lnl": "ordnance.lnl.spec",
    "vv": "ordnance.vv.spec",
}
# Registered specs by module: a spec is checked once per process. Keyed by the module, so a
# name pointed elsewhere (a test's example game) is never answered with a stale spec.
_LOADED: dict[str, GameSpec] = {}


def names() -> tuple[str, ...]:
    """The games a scenario may name (nothing is imported to list them)."""
    return tuple(SPECS)


def spec(name: str) -> GameSpec:
    """The spec of the game ``name``, registered (imported and checked) on first use."""
    module = SPECS.get(name)
    if module is None:
        raise BadInput("ruleset", name, f"unknown ruleset; known: {', '.join(SPECS)}")
    found = _LOADED.get(module)
    if found is None:
        found = _LOADED[module] = _load(name, module)
    return found


def spec_of(rules: Ruleset[Any]) -> GameSpec:
    """The spec of the game ``rules`` plays: what a face asks for the ruleset's optional
    features (each claim was checked against the ruleset when the spec was registered).

    >>> spec_of(ruleset("lnl")).odds(ruleset("lnl")) is not None
    True
    >>> spec_of(ruleset("lnl")).ai(ruleset("lnl")) is None
    True
    """
    return spec(rules.name)


def register(name: str, module: str) -> GameSpec:
    """Add the game ``name`` whose spec ``module`` builds (a game shipped outside this
    package), checked now; refused (:class:`SpecError`) if the name is taken or the spec is
    wrong, and then nothing is added."""
    if name in SPECS:
        raise SpecError(name, f"the name is taken (by {SPECS[name]})")
    made = _load(name, module)
    SPECS[name] = module
    _LOADED[module] = made
    return made


def _load(name: str, module: str) -> GameSpec:
    try:
        made = importlib.import_module(module).SPEC
    except ImportError as error:
        raise SpecError(name, f"cannot import {module}: {error}") from None
    except AttributeError:
        raise SpecError(name, f"{module} builds no SPEC") from None
    if not isinstance(made, GameSpec):
        raise SpecError(name, f"{module}.SPEC is a {type(made).__name__}, not a GameSpec")
    if made.name != name:
        raise SpecError(name, f"{module}.SPEC is named {made.name!r}")
    check(made, made.ruleset())
    return made


def ruleset(name: str) -> Ruleset[Any]:
    """The ruleset a scenario (or a log) names.

    >>> ruleset("asl").name
    'asl'
    >>> ruleset("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad ruleset 'chess': unknown ruleset; known: asl, ...
    """
    return spec(name).ruleset()


def judge_of(name: str) -> LosJudge | None:
    """The line-of-sight judge of the game ``name`` (None: unknown, or a game without maps)."""
    if name not in SPECS:
        return None
    judge = spec(name).judge
    return None if judge is None else judge()


def vocabulary_for(name: str) -> Vocabulary | None:
    """The terrain words of ``name``'s maps (None: no game with map rules has that name)."""
    judge = judge_of(name)
    return None if judge is None else judge.chart().vocabulary


def judge_for(game_map: GameMap) -> LosJudge:
    """The line-of-sight judge of the game ``game_map`` belongs to (its ``game`` field).

    >>> from ordnance.core.maps import load_map_text
    >>> entry = maps_of("vv")["vv-hedgerows"]
    >>> judge_for(load_map_text(entry.read_text(), entry.name, vocabulary_for)).game
    'vv'
    """
    judge = judge_of(game_map.game)
    if judge is None:
        raise BadInput("map", game_map.game, "no game with line-of-sight rules has this name")
    return judge


def maps_of(name: str) -> Mapping[str, Traversable]:
    """The maps the game ``name`` ships (``data/maps/*.yaml`` of its package) by short name.

    >>> sorted(maps_of("lnl"))
    ['lnl-farm']
    """
    made = spec(name)
    return bundled_maps(made.package) if made.maps else {}


def victory_of(name: str, state: Mapping[str, Any]) -> str | None:
    """The scenario's victory conditions in words, as the game ``name`` states them in its
    view, with who holds each objective now; None for a game (or a state) without them
    (``game status`` and the web table print the same words).

    >>> victory_of("vv", {"victory": {"objectives": {"H2": 4}}, "control": {"H2": "german"}})
    'Victory: objectives H2 4 VP (german).'
    >>> victory_of("asl", {"turn": 1}) is None
    True
    """
    return spec(name).victory(state)
