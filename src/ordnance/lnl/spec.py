"""Lock 'n Load Tactical as the program knows it (:class:`~ordnance.core.spec.GameSpec`);
registered by name in ``game/registry.py``. Each part is imported when it is first used.

>>> SPEC.name, SPEC.title
('lnl', "Lock 'n Load Tactical")
"""

from __future__ import annotations

from typing import Any

from ordnance.core.maps import LosJudge
from ordnance.core.ruleset import Ruleset
from ordnance.core.spec import Feature, GameSettings, GameSpec


def _ruleset() -> Ruleset[Any]:
    from ordnance.lnl.game import LnlRuleset  # noqa: PLC0415 (on use: the spec is light)

    return LnlRuleset()


def _judge() -> LosJudge:
    from ordnance.lnl.los import JUDGE  # noqa: PLC0415

    return JUDGE


def _settings() -> GameSettings:
    from ordnance.lnl.settings import LnlSettings  # noqa: PLC0415

    return LnlSettings()


SPEC = GameSpec(
    name="lnl",
    title="Lock 'n Load Tactical",
    ruleset=_ruleset,
    judge=_judge,
    maps=True,
    package="ordnance.lnl",
    status="ordnance.cli.status_lnl:sections",
    settings=_settings,
    features=frozenset(
        {
            Feature.ODDS,
            Feature.COMMANDS,
            Feature.EVENT_TEXT,
            Feature.MAP,
            Feature.COUNTERS,
            Feature.STORED_FOLD,
        }
    ),
)
