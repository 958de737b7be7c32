"""``game status`` of an ASL game: each Gun's and vehicle's record as a small table.

Per unit: its counter in notation, each special ammunition's state (available with its
Depletion Number, fired this phase, none left, or why not now), a vehicle's smoke dispensers
with their Usage Numbers and smoke grenades with their usage dr (tried this Player Turn or
not), crew (CE/BU and its state), motion, MP left, what it did this Player Turn. Then the SMOKE
on the map and the latest MP/MF expenditure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.cli.status_text import Renderables, kv, line, yes_no


def sections(state: Mapping[str, Any]) -> Renderables:
    out: Renderables = [line(f"Side record (C8.0), {state['date']}:", style="bold")]
    fired = {(s["unit"], s["ammo"]) for s in state.get("fired_this_phase", ())}
    for unit_id, unit in state["units"].items():
        out.append(kv(_rows(unit_id, unit, fired), _title(unit_id, unit)))
    shots = [f"{s['unit']} {s['ammo']}" for s in state.get("fired_this_phase", ())]
    out.append(line(f"Fired this phase: {', '.join(shots) or 'nothing'}."))
    if state.get("non_smoke_fired_by"):
        sides = " and ".join(state["non_smoke_fired_by"])
        out.append(line(f"Fired other than SMOKE this phase: {sides} (C8.5-phase)."))
    smoke = [
        f"{s['hex'] or '?'} {s['marker']} ({s['unit']}, {s['side']}; {s['removal']})"
        for s in state.get("smoke", ())
    ]
    out.append(line(f"SMOKE the game placed: {'; '.join(smoke) or 'none'}."))
    spent = state.get("expenditure")
    if spent is not None:
        seen = " and ".join(spent["seen_by"]) or "no opposing vehicle"
        out.append(
            line(f"Latest MP/MF expenditure: {spent['unit']} in {spent['hex']}, seen by {seen}.")
        )
    return out


def _title(unit_id: str, unit: Mapping[str, Any]) -> str:
    where = f" in {unit['hex']}" if unit.get("hex") else ""
    arc = ""
    afv = unit.get("afv")
    if afv is not None and afv.get("tca"):
        arc = f", TCA {afv['tca']}" + (f", VCA {afv['vca']}" if afv.get("vca") else "")
    elif unit.get("ca"):
        arc = f", {'VCA' if afv is not None else 'CA'} {unit['ca']}"
    return f"{unit_id}: {unit['name']} ({unit['side']} {unit['kind']}){where}{arc}"


def _rows(
    unit_id: str, unit: Mapping[str, Any], fired: set[tuple[str, str]]
) -> list[tuple[str, str]]:
    rows = [("counter", unit["notation"])] if unit.get("notation") else []
    for row in unit.get("ammunition", ()):
        ammo = row["ammo"]
        if row.get("why", "").startswith(f"{ammo}: not fired as ammunition"):
            continue  # a dispenser: shown with its Usage Number below
        rows.append((ammo, _ammo_state(row, (unit_id, ammo) in fired)))
    devices = unit.get("smoke_devices")
    if devices is not None:
        for device in devices["dispensers"]:
            number = device["usage_number"]
            usage = f"Usage {number}" if number is not None else "not on this date"
            tried = "tried" if device["attempted"] else "not tried"
            rows.append((device["token"], f"{usage}; {tried} this Player Turn"))
        grenades = devices["grenades"]
        if grenades["carried"]:
            needed = grenades["usage"]
            usage = f"usage dr 1-{needed}" if needed and needed > 1 else "usage dr 1"
            if needed is None:
                usage = f"not now: {grenades['why']}"
            tried = "tried" if grenades["attempted"] else "not tried"
            rows.append(("grenades", f"{usage}; {tried} this Player Turn"))
    afv = unit.get("afv")
    if afv is not None:
        rows += _afv_rows(afv)
    done = ["fired this phase"] if any(u == unit_id for u, _ in fired) else []
    done += [word for word in ("moved", "manned") if unit.get(word)]
    if unit.get("malfunctioned"):
        done.append("malfunctioned")
    rows.append(("this turn", ", ".join(done) or "nothing yet"))
    return rows


def _ammo_state(row: Mapping[str, Any], fired_now: bool) -> str:
    if row["exhausted"]:
        return "none left (C8.9)"
    number = row.get("depletion_number")
    with_number = f", Depletion {number}" if number is not None else ""
    if fired_now:
        return f"fired this phase{with_number}"
    if row["usable"]:
        return f"available{with_number}"
    return f"not now: {row.get('why') or '-'}"


def _afv_rows(afv: Mapping[str, Any]) -> list[tuple[str, str]]:
    if not afv["armored"]:
        crew = "unarmored (never BU)"
    else:
        crew = "CE" if afv["ce"] else "BU"
        if afv["open_topped"]:
            crew += ", open-topped"
    crew += f"; crew {afv['crew']}" + (", Abandoned" if afv["abandoned"] else "")
    if afv["mp"] is not None:
        mp = f"{afv['mp_left']} of {afv['mp']} left"
    else:
        mp = f"{afv['mp_spent']} spent (no allowance in the scenario)"
    rows = [
        ("crew", crew),
        ("motion", "in Motion" if afv["motion"] else "stopped"),
        ("MP", mp),
        ("weapon fired", f"{yes_no(afv['fired'])} (this Player Turn)"),
    ]
    note = afv.get("later_fire")
    if note is not None:
        adds = "adds" if note["applies"] else "does not add"
        arc = f"{note['fire']} in the arc facing {note['facing']}"
        rows.append(("sM Case A", f"{arc} {adds} {note['drm']:+d}"))
    return rows
