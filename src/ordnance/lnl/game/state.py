"""The LnLT game state and its fold: turn and phase, impulses, pools, markers, units, a pending
choice.

The state changes only through events (:func:`apply`), each a plain fact:

===================  ====================================  =======================================
kind                 data                                  effect
===================  ====================================  =======================================
``phase``            turn, phase, impulse                  a new phase (a new turn clears what
                                                           units did)
``impulse``          side, passes                          the impulse goes to ``side``; an open
                                                           action closes
``fired``            unit, weapon, at                      the unit acted; a shell opens its
                                                           action (its MGs may follow, LNL.S-mg)
``acquired-removed`` unit                                  its Acquired marker is gone (LNL.S-mods)
``pending``          unit, side, chooser, kind, result,    the landing hex waits for the enemy's
                     candidates                            choice (LNL.S-los)
``chosen``           hex                                   the choice is made
``marker-placed``    hex, marker                           a Smoke 1 or WP marker is put down
``marker-flipped``   hex, marker, to                       Smoke 1 becomes Smoke 2 (LNL.S-cycle)
``marker-removed``   hex, marker                           a marker goes (LNL.W-remove)
``pool``             side, kind, left (and the depletion   the side's pool after a shot
                     roll, for the log)                    (LNL.S-pool, LNL.S-deplete)
``wp-check``         unit, hex, total (and the check)      the unit checked for that WP marker
``moved``            unit, hex                             the unit entered ``hex``
``over``             (none)                                the last turn has ended
===================  ====================================  =======================================

>>> from ordnance.lnl.game.scenario import Sheet, load_scenario
>>> sheet = Sheet.of(load_scenario({"map": "lnl-farm", "sides": {
...     "german": {"smoke_shells": 1, "units": {}},
...     "american": {"units": {"sq1": {"kind": "squad", "hex": "E6"}}}}}))
>>> state = initial_state(sheet)
>>> state.turn, state.phase, state.impulse, state.pools["german"]["smoke"].count
(1, <Phase.RALLY: 'rally'>, 'german', 1)
>>> state = apply(state, "marker-placed", {"hex": "E6", "marker": "wp"})
>>> state.game_map.markers_in(sheet.hex("E6")), state.units_in(sheet.hex("E6"))
(('wp',), ('sq1',))
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ordnance.core.cached import cached_property
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Hex
from ordnance.core.maps import GameMap
from ordnance.lnl.game.scenario import Sheet
from ordnance.lnl.pool import Pool


class Phase(enum.StrEnum):
    """An LnLT turn: Rally, Operations (alternating impulses), Administrative."""

    RALLY = "rally"
    OPERATIONS = "operations"
    ADMIN = "admin"


@dataclass(frozen=True)
class UnitStatus:
    """Where a unit is, the Acquired marker it holds, and what it did this turn."""

    hex: Hex
    acquired: Hex | None = None
    acted: bool = False
    fired: tuple[str, ...] = ()  # "smoke", "wp", "mg", in order


@dataclass(frozen=True)
class Action:
    """A vehicle's action still open after its shell: its MGs may still fire (LNL.S-mg)."""

    unit: str
    shell: str


@dataclass(frozen=True)
class Pending:
    """A shell whose landing hex the enemy side has to choose (LNL.S-los)."""

    unit: str
    side: str
    chooser: str
    kind: str
    result: str
    candidates: tuple[Hex, ...]


@dataclass(frozen=True)
class LnlState:
    """The game between events (``sheet`` is fixed; everything else changes by events)."""

    sheet: Sheet
    turn: int
    phase: Phase
    impulse: str
    pools: Mapping[str, Mapping[str, Pool]]
    markers: Mapping[Hex, tuple[str, ...]]
    units: Mapping[str, UnitStatus]
    passes: int = 0
    action: Action | None = None
    pending: Pending | None = None
    checked: frozenset[tuple[str, Hex]] = field(default_factory=frozenset)
    over: bool = False

    @cached_property
    def game_map(self) -> GameMap:
        """The scenario's map with the markers now on it (for LOS and pictures)."""
        return replace(self.sheet.game_map, markers=dict(self.markers))

    def units_in(self, hex: Hex) -> tuple[str, ...]:
        """The units in ``hex``, by id (the log keeps mappings sorted, so ids give the order
        in which their checks are rolled)."""
        return tuple(sorted(u for u, status in self.units.items() if status.hex == hex))

    def pool(self, side: str, kind: str) -> Pool:
        return self.pools[side][kind]

    def has_marker(self, hex: Hex, marker: str) -> bool:
        return marker in self.markers.get(hex, ())


def initial_state(sheet: Sheet) -> LnlState:
    """Turn 1's Rally Phase, the pools full, the map's own markers on it."""
    return LnlState(
        sheet=sheet,
        turn=1,
        phase=Phase.RALLY,
        impulse=sheet.first,
        pools=sheet.pools,
        markers=dict(sheet.game_map.markers),
        units={u.id: UnitStatus(u.hex, u.acquired) for u in sheet.units.values()},
    )


def apply(state: LnlState, kind: str, data: Mapping[str, Any]) -> LnlState:
    """The state after one event (see the module docstring for the kinds)."""
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise BadInput("event", kind, "not an LnLT event")
    return handler(state, data)


def _phase(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    turn = int(data["turn"])
    units = state.units
    if turn != state.turn:
        units = {u: replace(s, acted=False, fired=()) for u, s in units.items()}
    return replace(
        state,
        turn=turn,
        phase=Phase(str(data["phase"])),
        impulse=str(data["impulse"]),
        passes=0,
        action=None,
        units=units,
    )


def _impulse(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    return replace(state, impulse=str(data["side"]), passes=int(data["passes"]), action=None)


def _unit(state: LnlState, unit: str, **changes: Any) -> dict[str, UnitStatus]:
    return {**state.units, unit: replace(state.units[unit], **changes)}


def _fired(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    unit, weapon = str(data["unit"]), str(data["weapon"])
    status = state.units[unit]
    units = _unit(state, unit, acted=True, fired=(*status.fired, weapon))
    action = state.action if weapon == "mg" else Action(unit, weapon)
    return replace(state, units=units, action=action)


def _acquired_removed(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    return replace(state, units=_unit(state, str(data["unit"]), acquired=None))


def _pending(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    hexes = tuple(state.sheet.hex(str(h)) for h in data["candidates"])
    pending = Pending(
        str(data["unit"]),
        str(data["side"]),
        str(data["chooser"]),
        str(data["kind"]),
        str(data["result"]),
        hexes,
    )
    return replace(state, pending=pending)


def _chosen(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    return replace(state, pending=None)


def _markers(state: LnlState, hex: Hex, names: tuple[str, ...]) -> dict[Hex, tuple[str, ...]]:
    markers = dict(state.markers)
    if names:
        markers[hex] = names
    else:
        markers.pop(hex, None)
    return markers


def _placed(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    hex, marker = state.sheet.hex(str(data["hex"])), str(data["marker"])
    names = state.markers.get(hex, ())
    # A marker already in the hex stays one marker: the cycle restarts from the new one.
    names = names if marker in names else (*names, marker)
    return replace(state, markers=_markers(state, hex, names))


def _flipped(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    hex = state.sheet.hex(str(data["hex"]))
    old, new = str(data["marker"]), str(data["to"])
    names = tuple(new if n == old else n for n in state.markers.get(hex, ()))
    return replace(state, markers=_markers(state, hex, tuple(dict.fromkeys(names))))


def _removed(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    hex, marker = state.sheet.hex(str(data["hex"])), str(data["marker"])
    names = tuple(n for n in state.markers.get(hex, ()) if n != marker)
    checked = state.checked
    if marker == "wp":
        checked = frozenset(c for c in checked if c[1] != hex)
    return replace(state, markers=_markers(state, hex, names), checked=checked)


def _pool(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    side, kind = str(data["side"]), str(data["kind"])
    pool = replace(state.pools[side][kind], count=int(data["left"]))
    return replace(state, pools={**state.pools, side: {**state.pools[side], kind: pool}})


def _checked(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    key = (str(data["unit"]), state.sheet.hex(str(data["hex"])))
    return replace(state, checked=state.checked | {key})


def _moved(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    hex = state.sheet.hex(str(data["hex"]))
    return replace(state, units=_unit(state, str(data["unit"]), hex=hex, acted=True))


def _over(state: LnlState, data: Mapping[str, Any]) -> LnlState:
    return replace(state, over=True)


_HANDLERS = {
    "phase": _phase,
    "impulse": _impulse,
    "fired": _fired,
    "acquired-removed": _acquired_removed,
    "pending": _pending,
    "chosen": _chosen,
    "marker-placed": _placed,
    "marker-flipped": _flipped,
    "marker-removed": _removed,
    "pool": _pool,
    "wp-check": _checked,
    "moved": _moved,
    "over": _over,
}
