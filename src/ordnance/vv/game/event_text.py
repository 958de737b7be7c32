"""V&V events as sentences, for ``game do`` and the log (kinds: :mod:`.state`).

>>> describe("fired", {"side": "american", "units": ["a1", "a2", "sgt"], "key": "infantry@D8",
...     "target": "E5", "grenades": [], "satchels": []})
'a1, a2 and sgt (american) fired at E5: Fire markers on them.'
>>> describe("moved", {"units": ["a1", "a2"], "to": "E10", "mp": {"a1": 1, "a2": 1}})
'a1 and a2 moved into E10 (1 MP each).'
>>> describe("casualty", {"unit": "g1", "result": "reduced+pinned"})
'g1 is reduced and pinned.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.core.event_words import event_words, listed

_RESULTS = {
    "pinned": "is pinned",
    "reduced": "is reduced",
    "reduced+pinned": "is reduced and pinned",
    "eliminated": "is eliminated",
}


def describe(kind: str, data: Mapping[str, Any]) -> str:
    """One sentence for one event (any kind this module does not know: its data in words)."""
    unit = data.get("unit", "")
    if kind == "phase":
        return f"Turn {data['turn']}, {data['player']} Player Turn: the {data['phase']} phase."
    if kind == "rally":
        how = "rallies by itself" if data.get("auto") else "rolls to rally"
        result = "and is unpinned" if data["rallied"] else "and stays pinned"
        return f"{unit} {how} {result}."
    if kind == "fired":
        extra = [f"grenades from {listed(data['grenades'])}"] if data.get("grenades") else []
        extra += [f"satchels from {listed(data['satchels'])}"] if data.get("satchels") else []
        spent = f", using {' and '.join(extra)}" if extra else ""
        units = listed(data["units"])
        return f"{units} ({data['side']}) fired at {data['target']}{spent}: Fire markers on them."
    if kind == "attack":
        if int(data["cp"]) <= 0:
            return f"The attack on {data['target']} has no effect."
        return (
            f"{data['cp']} CP in {data['target']} for {data['defender']} to fulfil"
            f" (units there: {listed(data['units'])})."
        )
    if kind == "casualty":
        return f"{unit} {_RESULTS.get(str(data['result']), str(data['result']))}."
    if kind == "allocated":
        return "The Casualty Points are fulfilled."
    if kind == "moved":
        mp = data.get("mp", {})
        # One number when every unit spent the same: "(1 MP)", "(2 MP each)".
        same = len(set(mp.values())) == 1
        each = " each" if len(mp) > 1 else ""
        spent = (
            f"{next(iter(mp.values()))} MP{each}"
            if same
            else ", ".join(f"{u} {n} MP" for u, n in mp.items())
        )
        how = "by Assault Movement " if data.get("assault") else ""
        facing = f", facing {data['facing']}" if data.get("facing") else ""
        spent = f" ({spent})" if spent else ""
        return f"{listed(data['units'])} moved {how}into {data['to']}{spent}{facing}."
    if kind == "window":
        return f"{listed(data['movers'])} entered {data['hex']}: the other side may fire at them."
    if kind == "window-closed":
        return "No more Opportunity Fire at that hex: the move goes on."
    if kind == "cleanup":
        return "After-Action: Fire and Move markers come off; Smoke 2 thins, Smoke 1 goes."
    if kind == "over":
        return "The last Player Turn has ended: the scenario is over."
    return event_words(kind, data)
