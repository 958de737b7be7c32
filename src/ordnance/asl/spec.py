"""ASL as the program knows it (:class:`~ordnance.core.spec.GameSpec`); registered by name in
``game/registry.py``. Each part is imported when it is first used.

>>> SPEC.name, SPEC.title, sorted(f.value for f in SPEC.features)[:3]
('asl', 'ASL', ['commands', 'counters', 'event text'])
"""

from __future__ import annotations

from typing import Any

from ordnance.core.maps import LosJudge
from ordnance.core.ruleset import Ruleset
from ordnance.core.spec import Feature, GameSettings, GameSpec


def _ruleset() -> Ruleset[Any]:
    from ordnance.asl.game import AslRuleset  # noqa: PLC0415 (on use: the spec is light)

    return AslRuleset()


def _judge() -> LosJudge:
    from ordnance.asl.los import JUDGE  # noqa: PLC0415

    return JUDGE


def _settings() -> GameSettings:
    from ordnance.asl.settings import Settings  # noqa: PLC0415

    return Settings()


SPEC = GameSpec(
    name="asl",
    title="ASL",
    ruleset=_ruleset,
    judge=_judge,
    maps=True,
    package="ordnance.asl",
    status="ordnance.cli.status_asl:sections",
    settings=_settings,
    features=frozenset(
        {
            Feature.ODDS,
            Feature.COMMANDS,
            Feature.EVENT_TEXT,
            Feature.MAP,
            Feature.COUNTERS,
            Feature.OFFERS,
            Feature.STORED_FOLD,
        }
    ),
)
