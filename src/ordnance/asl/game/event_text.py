"""ASL events as sentences, for ``game do`` and the log (kinds: :mod:`.state`).

>>> describe("fired", {"unit": "pak", "ammo": "s", "smoke": True})
'pak fired SMOKE this phase.'
>>> describe("record", {"unit": "t34", "ammo": "A", "outcome": "used-last"})
'The side record: t34 used its last APCR (C8.9).'
>>> describe("smoke", {"unit": "pak", "side": "german", "hex": "4E4", "marker": "smoke",
...     "removal": "flips at owner's next PFPh"})
"Smoke placed in 4E4 by pak (german); it turns Dispersed at the start of its owner's next PFPh."
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.asl.dispensers.placement import END_OF_MPH, OWNER_NEXT_PFPH
from ordnance.asl.game.markers import FLIP_OWNER_NEXT_PFPH
from ordnance.asl.notation import Family
from ordnance.core.event_words import event_words, listed


def _ammo(symbol: object) -> str:
    try:
        return Family(str(symbol)).ammo
    except ValueError:
        return str(symbol)


def describe(kind: str, data: Mapping[str, Any]) -> str:
    """One sentence for one event (any kind this module does not know: its data in words)."""
    unit = data.get("unit", "")
    if kind == "phase":
        return (
            f"Game Turn {data['turn']}, {data['player']} Player Turn: the {data['phase']} begins."
        )
    if kind == "over":
        return "The last Player Turn has ended: the scenario is over."
    if kind == "record":
        said = {
            "used": f"{unit} used {_ammo(data['ammo'])} and has more",
            "used-last": f"{unit} used its last {_ammo(data['ammo'])}",
            "none": f"{unit} found it had no {_ammo(data['ammo'])} left",
        }.get(str(data["outcome"]), f"{unit} {data['outcome']} {_ammo(data['ammo'])}")
        return f"The side record: {said} (C8.9)."
    if kind == "fired":
        return f"{unit} fired {_ammo(data['ammo'])} this phase."
    if kind == "malfunction":
        return f"{unit}'s Gun malfunctioned: it may not fire again."
    if kind == "manned":
        return f"Infantry manned {unit} this MPh{_seen(data)}."
    if kind == "moved":
        where = f" into {data['hex']}" if data.get("hex") else ""
        turn = f", CA now {data['ca']}" if data.get("ca") else ""
        mp = f" spent {data['mp']} MP" if data.get("mp") else " moved"
        return f"{unit}{mp}{where}{turn}{_seen(data)}."
    if kind == "marked":
        marks = [_mark(key, value) for key, value in data.items() if key != "unit"]
        return f"{unit}'s markers recorded: {', '.join(marks) or 'no change'}."
    if kind == "dispensed":
        device = data.get("type") or data.get("device")
        result = "placed smoke" if data.get("fired") else "did not fire"
        if data.get("he_in_cc"):
            result = "fired HE in Close Combat" if data.get("fired") else "did not fire HE"
        mp = f", spending {data['mp']} MP" if data.get("mp") else ""
        turn = f", TCA/VCA now {data['ca']}" if data.get("ca") else ""
        return f"{unit} tried its {device}: {result}{mp}{turn}{_seen(data)}."
    if kind == "smoke":
        where = f"in {data['hex']}" if data.get("hex") else "(the scenario gives no hexes)"
        removal = str(data["removal"])
        goes = _REMOVAL.get(removal, f"it goes {removal}")
        return f"{data['marker'].capitalize()} placed {where} by {unit} ({data['side']}); {goes}."
    return event_words(kind, data)


# When a marker goes (asl.game.markers), as the end of a sentence.
_REMOVAL = {
    END_OF_MPH: "it goes at the end of this MPh",
    OWNER_NEXT_PFPH: "it goes at the start of its owner's next PFPh",
    FLIP_OWNER_NEXT_PFPH: "it turns Dispersed at the start of its owner's next PFPh",
}


def _seen(data: Mapping[str, Any]) -> str:
    seen = data.get("seen_by")
    return f"; seen by {listed(seen)}" if seen else ""


def _mark(key: str, value: object) -> str:
    if key == "ce":
        return "CE" if value else "BU"
    if key == "motion":
        return "in Motion" if value else "stopped"
    if key == "abandoned":
        return "Abandoned" if value else "crewed"
    if key == "fired":
        return "fired a weapon" if value else "no weapon fired"
    if key == "crew":
        return f"crew {value}"
    return f"{key} {value}"
