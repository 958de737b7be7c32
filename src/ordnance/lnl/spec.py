"""Lock 'n Load Tactical as the program knows it (:class:`~ordnance.core.spec.GameSpec`);
registered by name in ``game/registry.py``. Each part is imported when it is first used.

>>> SPEC.name, SPEC.title
('lnl', "Lock 'n Load Tactical")
"""

from __future__ import annotations

from ordnance.core.spec import Feature, GameSpec, on_use

SPEC = GameSpec(
    name="lnl",
    title="Lock 'n Load Tactical",
    ruleset=on_use("ordnance.lnl.game:LnlRuleset", make=True),
    judge=on_use("ordnance.lnl.los:JUDGE"),
    maps=True,
    package="ordnance.lnl",
    status="ordnance.cli.status_lnl:sections",
    settings=on_use("ordnance.lnl.settings:LnlSettings", make=True),
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
