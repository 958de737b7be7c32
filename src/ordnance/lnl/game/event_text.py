"""LnLT events as sentences, for ``game do`` and the log (kinds: :mod:`.state`).

>>> describe("marker-placed", {"hex": "H3", "marker": "wp"})
'A WP marker is placed in H3.'
>>> describe("impulse", {"side": "american", "passes": 1})
'The impulse goes to american after 1 pass in a row.'
>>> describe("pool", {"side": "german", "kind": "wp", "left": 0, "removed": True})
"german's WP pool: 0 left (the counter is removed)."
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.core.event_words import event_words, listed

_NAMES = {"wp": "WP", "smoke": "Smoke", "smoke 1": "Smoke 1", "smoke 2": "Smoke 2", "mg": "MGs"}


def _name(word: object) -> str:
    return _NAMES.get(str(word), str(word))


def describe(kind: str, data: Mapping[str, Any]) -> str:
    """One sentence for one event (any kind this module does not know: its data in words)."""
    unit = data.get("unit", "")
    if kind == "phase":
        return f"Turn {data['turn']}: the {data['phase']} phase; {data['impulse']} has the impulse."
    if kind == "impulse":
        passes = int(data["passes"])
        after = "" if passes == 0 else f" after {passes} pass{'es' if passes > 1 else ''} in a row"
        return f"The impulse goes to {data['side']}{after}."
    if kind == "fired":
        weapon = _name(data["weapon"])
        what = "its MGs" if data["weapon"] == "mg" else f"a {weapon} shell"
        return f"{unit} fired {what} at {data['at']}."
    if kind == "acquired-removed":
        return f"{unit}'s Acquired marker is removed (LNL.S-mods)."
    if kind == "pending":
        return (
            f"{data['chooser']} must choose where {unit}'s {_name(data['kind'])} shell lands"
            f" ({data['result']}): {listed(data['candidates'])}."
        )
    if kind == "chosen":
        return f"The shell lands in {data['hex']}."
    if kind == "marker-placed":
        return f"A {_name(data['marker'])} marker is placed in {data['hex']}."
    if kind == "marker-flipped":
        return f"The {_name(data['marker'])} marker in {data['hex']} becomes {_name(data['to'])}."
    if kind == "marker-removed":
        return f"The {_name(data['marker'])} marker in {data['hex']} is removed."
    if kind == "pool":
        removed = " (the counter is removed)" if data.get("removed") else ""
        return f"{data['side']}'s {_name(data['kind'])} pool: {data['left']} left{removed}."
    if kind == "wp-check":
        result = f": {data['result']}" if data.get("result") else ""
        return f"{unit} checked for the WP in {data['hex']}: total {data['total']}{result}."
    if kind == "moved":
        return f"{unit} moved into {data['hex']}."
    if kind == "over":
        return "The last turn has ended: the scenario is over."
    return event_words(kind, data)
