"""``game status`` of a Valor & Victory game: the units with their steps and markers, the fire
groups each side could form now, the X-weapon pools, smoke, and the decision waiting."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.cli.status_text import Renderables, add_row, line, table, words
from ordnance.game.registry import victory_of


def sections(state: Mapping[str, Any]) -> Renderables:
    out: Renderables = []
    sides = dict.fromkeys(unit["side"] for unit in state["units"].values())
    for side in sides:
        units = table(f"{side} units", ("unit", "counter", "hex", "steps", "markers", "MP"))
        for unit_id, unit in state["units"].items():
            if unit["side"] != side:
                continue
            add_row(
                units,
                unit_id,
                _counter(unit),
                _where(unit),
                _steps(unit),
                _markers(unit),
                str(unit["mp_used"]) if unit["mp_used"] else "-",
            )
        out.append(units)
    groups = state.get("fire_groups", {})
    for side, classes in groups.items():
        lines = [" + ".join(group["units"]) for group in classes]
        shown = "; ".join(lines) if lines else "none (every unit pinned, fired or gone)"
        out.append(line(f"{side} may fire now in groups from: {shown} (VV.AP-groups)."))
    pools = [
        f"{side} {pool['grenades']} grenade(s), {pool['satchels']} satchel(s)"
        for side, pool in state["pools"].items()
    ]
    out.append(line(f"X weapons left: {'; '.join(pools)}."))
    smoke = [f"{hex} smoke {level}" for hex, level in state["smoke"].items()]
    out.append(line(f"Smoke: {', '.join(smoke) or 'none'}."))
    forts = [f"{hex} {kind}" for hex, kind in state.get("fortifications", {}).items()]
    if forts:
        out.append(line(f"Fortifications: {', '.join(forts)}."))
    victory = victory_of("vv", state)
    if victory is not None:
        out.append(line(victory))
    pending = state.get("pending")
    if pending is not None:
        out.append(
            line(
                f"Waiting: {pending['cp']} CP in {pending['hex']} from the attack of"
                f" {pending['attacker']}, for {pending['defender']} to assign (assign-cp)."
            )
        )
    window = state.get("opportunity")
    if window is not None:
        out.append(
            line(
                f"Opportunity Fire: {words(window['movers'])} just entered {window['hex']};"
                " the other side may fire at them or pass."
            )
        )
    if state.get("ai_sides"):
        out.append(line(f"Played by the AI: {words(state['ai_sides'])} (game ai)."))
    return out


def _counter(unit: Mapping[str, Any]) -> str:
    if unit["counter"] is not None:
        text = str(unit["counter"])
        if unit.get("leadership") is not None:
            text += f" L{unit['leadership']:+d}"
        return f"{unit['kind']} {text}"
    parts = [f"{w['mount']} {w['apfp']}" for w in unit["weapons"]]
    if unit["casualty_rating"]:
        parts.append(f"CR {unit['casualty_rating']}")
    return f"{unit['kind']}: {', '.join(parts)}"


def _where(unit: Mapping[str, Any]) -> str:
    if unit["eliminated"]:
        return "eliminated"
    hex = unit["hex"] or "-"
    if unit["aboard"]:
        return f"{hex} on {unit['aboard']}"
    if unit["facing"]:
        return f"{hex} facing {unit['facing']}"
    return hex


def _steps(unit: Mapping[str, Any]) -> str:
    if unit["eliminated"]:
        return "0"
    if unit["reduced"]:
        return "1 (reduced)"
    return "2" if unit["kind"] == "squad" else "1"


def _markers(unit: Mapping[str, Any]) -> str:
    flags = [
        ("pinned", "pinned"),
        ("fire_marker", "Fire"),
        ("move_marker", "Move"),
    ]
    shown = [word for key, word in flags if unit.get(key)]
    return ", ".join(shown) or "-"
