"""A vehicle's smoke devices as ``game status`` shows them: each dispenser's Usage Number today,
and the smoke grenades' usage dr, with whether they were tried this Player Turn (D13).

>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"date": "1945-03", "sides": {
...     "german": {"units": {"pz4": {"kind": "vehicle", "notation": "s8 sD5", "ce": True}}},
...     "russian": {"units": {}}}})))
>>> devices = smoke_devices(state, state.sheet.units["pz4"])
>>> devices["dispensers"][0]["usage_number"], devices["grenades"]["usage"]
(5, 2)
"""

from __future__ import annotations

from typing import Any

from ordnance.asl.capabilities import evaluate
from ordnance.asl.dispensers import grenade_number
from ordnance.asl.game.dispense import afv_state
from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.state import AslState
from ordnance.core.errors import IllegalAction


def smoke_devices(state: AslState, unit: Unit) -> dict[str, Any] | None:
    """``dispensers`` (each ``type``, ``token``, ``available``, ``usage_number``,
    ``attempted``) and ``grenades`` (``carried``, ``usage``: the highest dr that places them
    now or null, ``why`` when null, ``attempted``); None for a unit that is not a vehicle."""
    status = state.status[unit.id].afv
    if unit.afv is None or status is None:
        return None
    context = state.sheet.context(unit)
    dispensers = []
    for token in unit.tokens:
        if not token.family.is_dispenser:
            continue
        capability = evaluate(token, context, state.sheet.settings)
        dispensers.append(
            {
                "type": token.family.value,
                "token": str(token),
                "available": capability.available,
                "usage_number": capability.usage_number if capability.available else None,
                "attempted": status.dispenser_attempted,
            }
        )
    usage: int | None = None
    why = None
    carried = unit.afv.main_armament
    if not carried:
        why = "no Main Armament on the counter (D13.35)"
    else:
        try:
            usage = grenade_number(afv_state(state, unit))
        except IllegalAction as refusal:
            why = str(refusal)
    grenades = {
        "carried": carried,
        "usage": usage,
        "why": why,
        "attempted": status.grenades_attempted,
    }
    return {"dispensers": dispensers, "grenades": grenades}
