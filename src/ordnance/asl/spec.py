"""ASL as the program knows it (:class:`~ordnance.core.spec.GameSpec`); registered by name in
``game/registry.py``. Each part is imported when it is first used.

>>> SPEC.name, SPEC.title, sorted(f.value for f in SPEC.features)[:3]
('asl', 'ASL', ['commands', 'counters', 'event text'])
"""

from __future__ import annotations

from ordnance.core.spec import Feature, GameSpec, on_use

SPEC = GameSpec(
    name="asl",
    title="ASL",
    ruleset=on_use("ordnance.asl.game:AslRuleset", make=True),
    judge=on_use("ordnance.asl.los:JUDGE"),
    maps=True,
    package="ordnance.asl",
    status="ordnance.cli.status_asl:sections",
    settings=on_use("ordnance.asl.settings:Settings", make=True),
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
