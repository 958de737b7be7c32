"""The V&V units as counters on the map picture (:class:`~ordnance.core.maps.CounterView`).

Each living unit shows its printed numbers (a reduced squad its half-squad side), a vehicle or
Gun its AP weapons (``G12 M4 F3``: gun, 360-degree MG, forward-firing MG) and Casualty Rating,
its facing, and its markers as badges: ``PIN`` pinned, ``F`` Fire marker, ``M`` Move marker,
``AM`` Assault Movement, ``RED`` reduced, ``RIDE`` aboard a vehicle (drawn in its hex).

>>> from ordnance.vv.game.scenario import Sheet, load_scenario
>>> from ordnance.vv.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"map": "vv-hedgerows", "sides": {
...     "us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C7"}}},
...     "de": {"units": {"g": {"kind": "squad", "counter": "4-6-5", "hex": "C4"}}}}})))
>>> [(c.unit, c.notation, c.glyph) for c in counters(state)]
[('a', '4-6-5', 'squad'), ('g', '4-6-5', 'squad')]
"""

from __future__ import annotations

from ordnance.core.maps import Badge, CounterView
from ordnance.vv.game.state import VvState
from ordnance.vv.units import Kind, Mount, Unit

_GLYPHS = {
    Kind.SQUAD: "squad",
    Kind.HALF_SQUAD: "half-squad",
    Kind.LEADER: "leader",
    Kind.GUN: "gun",
    Kind.AFV: "tank",
    Kind.VEHICLE: "vehicle",
}
_MOUNTS = {Mount.GUN: "G", Mount.MG360: "M", Mount.FFMG: "F"}


def counters(state: VvState) -> tuple[CounterView, ...]:
    """Every living unit on its hex (passengers in their vehicle's), in scenario order."""
    board = state.board
    views: list[CounterView] = []
    for unit_id, unit in board.units.items():
        status = board.status[unit_id]
        hex = board.hex_of(unit_id)
        if status.eliminated or hex is None:
            continue
        kind = unit.plays_as(status.reduced)
        flags = (
            (status.pinned, "pinned", "PIN"),
            (status.fired, "fired", "F"),
            (status.moved, "moved", "M"),
            (status.assault, "assault", "AM"),
            (status.reduced, "reduced", "RED"),
            (status.aboard is not None, "aboard", "RIDE"),
        )
        views.append(
            CounterView(
                unit=unit_id,
                hex=hex,
                side=unit.side,
                label=unit_id,
                notation=_numbers(unit, status.reduced),
                glyph=_GLYPHS[kind],
                facing=status.facing,
                badges=tuple(Badge(key, text) for on, key, text in flags if on),
                name=unit.name or unit_id,
            )
        )
    return tuple(views)


def _numbers(unit: Unit, reduced: bool) -> str:
    """What the counter prints: APFP-Range-Casualty, a leader's modifier, a vehicle's weapons."""
    counter = unit.printed(reduced)
    if unit.kind is Kind.LEADER and counter is not None:
        return f"{counter} L{unit.leadership:+d}"
    if counter is not None:
        return str(counter) + ("" if unit.sw is None else f" +{unit.sw.kind}")
    weapons = " ".join(f"{_MOUNTS[w.mount]}{w.apfp}" for w in unit.weapons)
    rating = f" CR{unit.casualty}" if unit.casualty else ""  # an AFV prints none
    return f"{weapons}{rating}".strip()
