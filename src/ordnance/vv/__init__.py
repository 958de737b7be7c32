"""Valor & Victory: terrain and line of sight on maps, and anti-personnel fire.

Counters and units (``counters``, ``units``), where they stand (``board``), fire groups and
their checks (``groups``), the DRMs of a target (``modifiers``), valid targets (``targets``),
the AP Combat Table (``combat_table``, data in ``data/ap_combat_table.toml``), exact odds
(``odds``), Casualty Points (``casualties``), the numbers around them (``numbers``, data in
``data/fire_rules.toml``), the AI (``ai``), the engine's readings (``settings``), and the
ruleset in play (``game``).
"""
