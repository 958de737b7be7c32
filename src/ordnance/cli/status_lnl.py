"""``game status`` of a Lock 'n Load game: the shell pools per side, the markers on the map, the
units, an open action and a landing waiting for the enemy's choice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.cli.status_text import Renderables, add_row, line, table, words, yes_no


def sections(state: Mapping[str, Any]) -> Renderables:
    out: Renderables = []
    pools = table("Shell pools (LNL.S-pool)", ("side", "Smoke shells", "WP shells"))
    for side, kinds in state["pools"].items():
        add_row(pools, side, _pool(kinds["smoke"]), _pool(kinds["wp"]))
    out.append(pools)
    markers = [f"{hex}: {words(names)}" for hex, names in state["markers"].items()]
    out.append(line(f"Markers on the map: {'; '.join(markers) or 'none'}."))
    units = table("Units", ("unit", "side", "kind", "hex", "shells", "acquired", "acted", "fired"))
    for unit_id, unit in state["units"].items():
        kind = unit["kind"] + (", open" if unit["open"] else "")
        if unit.get("lm") is not None:
            kind += f", LM {unit['lm']}"
        add_row(
            units,
            unit_id,
            unit["side"],
            kind,
            unit["hex"],
            " ".join(unit["shells"]) or "-",
            unit["acquired"] or "-",
            yes_no(unit["acted"]),
            ", ".join(unit["fired"]) or "-",
        )
    out.append(units)
    out.append(line(f"Impulse: {state['impulse']}; passes in a row: {state['passes']}."))
    action = state.get("action")
    if action is not None:
        out.append(
            line(
                f"The action of {action['unit']} is open after its {action['shell']} shell: its"
                " MGs may still fire, or end closes it (LNL.S-mg)."
            )
        )
    pending = state.get("pending")
    if pending is not None:
        out.append(
            line(
                f"Waiting: {pending['chooser']} chooses where the {pending['kind']} shell of"
                f" {pending['unit']} lands ({pending['result']}), among"
                f" {words(pending['candidates'])} (LNL.S-los)."
            )
        )
    return out


def _pool(pool: Mapping[str, Any]) -> str:
    number = pool.get("depletion_number")
    return f"{pool['left']} left" + ("" if number is None else f", Depletion {number}")
