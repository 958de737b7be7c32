"""Valor & Victory as the program knows it (:class:`~ordnance.core.spec.GameSpec`);
registered by name in ``game/registry.py``. Each part is imported when it is first used.

>>> SPEC.name, SPEC.title
('vv', 'Valor & Victory')
>>> SPEC.victory({"victory": {"objectives": {"H2": 4}}, "control": {"H2": "german"}})
'Victory: objectives H2 4 VP (german).'
>>> SPEC.victory({"turn": 1}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.core.spec import Feature, GameSpec, on_use


def _victory(state: Mapping[str, Any]) -> str | None:
    """The scenario's victory conditions in words, with who holds each objective now (the
    ruleset's view states them; ``game status`` and the web table print the same words)."""
    victory = state.get("victory")
    if not isinstance(victory, Mapping) or not victory:
        return None
    from ordnance.vv.game.victory import victory_words  # noqa: PLC0415

    control = state.get("control")
    return victory_words(
        victory, control if isinstance(control, Mapping) else {}, state.get("result")
    )


SPEC = GameSpec(
    name="vv",
    title="Valor & Victory",
    ruleset=on_use("ordnance.vv.game:VvRuleset", make=True),
    judge=on_use("ordnance.vv.los:JUDGE"),
    maps=True,
    package="ordnance.vv",
    status="ordnance.cli.status_vv:sections",
    victory=_victory,
    settings=on_use("ordnance.vv.settings:VvSettings", make=True),
    features=frozenset(
        {
            Feature.AI,
            Feature.ODDS,
            Feature.COMMANDS,
            Feature.EVENT_TEXT,
            Feature.MAP,
            Feature.COUNTERS,
            Feature.STORED_FOLD,
        }
    ),
    ai_clauses=("VV.AP-phases",),
)
