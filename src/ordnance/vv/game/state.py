"""The V&V game state and its fold: turn and phase, the board, pending decisions, this turn's fire.

A Game Turn is the first side's Player Turn, then the other's; each runs six phases (r. 5,
reference/vv.md section 8): Command, Fire, Movement, Defensive Fire (the other side's), Advance
& Assault, After-Action. Two decisions interrupt the phase owner: Casualty Points waiting for
the defender (:class:`~ordnance.vv.casualties.Pending`) and a stack that just entered a hex,
which the other side may Opportunity Fire at (:class:`Window`).

The state changes only through events (:func:`apply`):

==================  =========================================  ==================================
kind                data                                       effect
==================  =========================================  ==================================
``phase``           turn, player, phase                        a new phase
``rally``           unit, rallied (bool), auto (bool)          unpinned (with its passengers)
``fired``           side, units, key, target, grenades,        Fire markers; the class attacked
                    satchels                                   the target; the X weapons spent
``attack``          side, defender, target, cp, units,         CP > 0: they wait for the defender
                    shield (a Gun whose shield took 1 CP)
``casualty``        unit, result (pinned, reduced,             the unit's new state
                    reduced+pinned, eliminated)
``allocated``       (none)                                     the CP are fulfilled
``moved``           units, to, mp (unit -> MP), assault,       Move markers, the new hex, the MP
                    facing                                     spent
``window``          hex, movers                                the other side may Opportunity Fire
``window-closed``   (none)                                     the mover goes on
``cleanup``         (none)                                     After-Action: markers off both
                                                               sides, Smoke 2 -> 1, Smoke 1 gone
``over``            result (points, objectives, casualties,    the last Player Turn has ended;
                    winner)                                    the scenario's victory read
==================  =========================================  ==================================

>>> from ordnance.vv.game.scenario import Sheet, load_scenario
>>> sheet = Sheet.of(load_scenario({"map": "vv-hedgerows", "sides": {
...     "us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C7"}}},
...     "de": {"units": {"g": {"kind": "squad", "counter": "4-6-5", "hex": "C4"}}}}}))
>>> state = initial_state(sheet)
>>> state.phase, state.to_move, [str(p) for p in PHASES][3]
(<Phase.COMMAND: 'command'>, 'us', 'defensive-fire')
>>> state = apply(state, "phase", {"turn": 1, "player": "us", "phase": "defensive-fire"})
>>> state.phase_owner
'de'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Direction, Hex
from ordnance.vv.board import Board, Status, smoke_on
from ordnance.vv.casualties import Pending
from ordnance.vv.game.scenario import Sheet
from ordnance.vv.game.victory import start_control
from ordnance.vv.groups import Pool


class Phase(enum.StrEnum):
    COMMAND = "command"
    FIRE = "fire"
    MOVEMENT = "movement"
    DEFENSIVE_FIRE = "defensive-fire"
    ADVANCE = "advance"
    AFTER_ACTION = "after-action"


PHASES: tuple[Phase, ...] = tuple(Phase)


@dataclass(frozen=True)
class Window:
    """A stack (``movers``) just entered ``hex``: the non-moving side may fire at it (r. 13.8)."""

    hex: Hex
    movers: tuple[str, ...]


@dataclass(frozen=True)
class VvState:
    """The game between events."""

    sheet: Sheet
    board: Board
    turn: int
    player: str
    phase: Phase
    pools: Mapping[str, Pool]
    pending: Pending | None = None
    window: Window | None = None
    attacked: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    over: bool = False
    control: Mapping[Hex, str] = field(default_factory=dict)
    result: Mapping[str, Any] | None = None

    @property
    def phase_owner(self) -> str:
        """Defensive Fire belongs to the side that is not moving; every other phase to the
        phasing side."""
        return self.other(self.player) if self.phase is Phase.DEFENSIVE_FIRE else self.player

    def other(self, side: str) -> str:
        return self.sheet.other(side)

    @property
    def to_move(self) -> str | None:
        """Who decides now: the defender of pending CP, the side that may Opportunity Fire at a
        stack that entered a hex, else the phase owner."""
        if self.over:
            return None
        if self.pending is not None:
            return self.pending.defender
        if self.window is not None:
            return self.other(self.player)
        return self.phase_owner


def initial_state(sheet: Sheet) -> VvState:
    """Game Turn 1, the first side's Command Phase."""
    board = Board(
        sheet.game_map,
        sheet.units,
        dict(sheet.start),
        sheet.fortifications,
        smoke_on(sheet.game_map),
        sheet.settings,
    )
    control = start_control(sheet.victory, board)
    return VvState(sheet, board, 1, sheet.first, Phase.COMMAND, dict(sheet.pools), control=control)


def next_segment(state: VvState) -> tuple[int, str] | None:
    """The turn and phasing side after this Player Turn; None when the scenario ends."""
    second = state.player != state.sheet.first
    turn = state.turn + 1 if second else state.turn
    if state.sheet.turns is not None and turn > state.sheet.turns:
        return None
    return turn, state.other(state.player)


def _status(state: VvState, unit_id: str, **changes: Any) -> dict[str, Status]:
    return {unit_id: replace(state.board.status[unit_id], **changes)}


def apply(state: VvState, kind: str, data: Mapping[str, Any]) -> VvState:
    """The state after one event (see the module docstring for the kinds)."""
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise BadInput("event", kind, "not a V&V event")
    return handler(state, data)


def _phase(state: VvState, data: Mapping[str, Any]) -> VvState:
    return replace(
        state,
        turn=int(data["turn"]),
        player=str(data["player"]),
        phase=Phase(data["phase"]),
        window=None,
    )


def _rally(state: VvState, data: Mapping[str, Any]) -> VvState:
    unit_id = str(data["unit"])
    rallied = bool(data["rallied"])
    changes = _status(state, unit_id, pinned=not rallied, rally_tried=True)
    if rallied:
        for rider in state.board.passengers(unit_id):
            changes.update(_status(state, rider, pinned=False))
    return replace(state, board=state.board.with_status(changes))


def _fired(state: VvState, data: Mapping[str, Any]) -> VvState:
    changes: dict[str, Status] = {}
    for unit_id in data["units"]:
        changes.update(_status(state, str(unit_id), fired=True))
    side = str(data["side"])
    pool = state.pools[side]
    spent = replace(
        pool,
        grenades=pool.grenades - len(data["grenades"]),
        satchels=pool.satchels - len(data["satchels"]),
    )
    return replace(
        state,
        board=state.board.with_status(changes),
        attacked=state.attacked | {(str(data["key"]), str(data["target"]))},
        pools={**state.pools, side: spent},
    )


def _attack(state: VvState, data: Mapping[str, Any]) -> VvState:
    if int(data["cp"]) <= 0:
        return state
    pending = Pending(
        state.board.parse(str(data["target"])),
        int(data["cp"]),
        str(data["side"]),
        str(data["defender"]),
        tuple(str(u) for u in data["units"]),
        None if data.get("shield") is None else str(data["shield"]),
    )
    return replace(state, pending=pending)


def _casualty(state: VvState, data: Mapping[str, Any]) -> VvState:
    unit_id, result = str(data["unit"]), str(data["result"])
    status = state.board.status[unit_id]
    if result == "eliminated":
        new = replace(status, eliminated=True)
    elif result == "pinned":
        new = replace(status, pinned=True)
    elif result in ("reduced", "reduced+pinned"):
        new = replace(status, reduced=True, pinned=status.pinned or result == "reduced+pinned")
    else:
        raise BadInput("event", result, "not a casualty result")
    return replace(state, board=state.board.with_status({unit_id: new}))


def _allocated(state: VvState, data: Mapping[str, Any]) -> VvState:
    return replace(state, pending=None)


def _moved(state: VvState, data: Mapping[str, Any]) -> VvState:
    to = state.board.parse(str(data["to"]))
    facing = data.get("facing")
    changes: dict[str, Status] = {}
    for unit_id in data["units"]:
        status = state.board.status[str(unit_id)]
        changes[str(unit_id)] = replace(
            status,
            hex=to,
            moved=True,
            assault=status.assault or bool(data["assault"]),
            mp_used=status.mp_used + int(data["mp"][str(unit_id)]),
            facing=status.facing
            if facing is None or status.facing is None
            else Direction.parse(str(facing)),
        )
    control = dict(state.control)
    if state.board.game_map.label(to) in state.sheet.victory.get("objectives", {}):
        control[to] = state.board.unit(str(data["units"][0])).side
    return replace(state, board=state.board.with_status(changes), control=control)


def _window(state: VvState, data: Mapping[str, Any]) -> VvState:
    hex = state.board.parse(str(data["hex"]))
    return replace(state, window=Window(hex, tuple(str(u) for u in data["movers"])))


def _window_closed(state: VvState, data: Mapping[str, Any]) -> VvState:
    return replace(state, window=None)


def _cleanup(state: VvState, data: Mapping[str, Any]) -> VvState:
    board = state.board
    status = {
        u: replace(s, fired=False, moved=False, assault=False, mp_used=0, rally_tried=False)
        for u, s in board.status.items()
    }
    smoke = {hex: level - 1 for hex, level in board.smoke.items() if level > 1}
    return replace(state, board=replace(board, status=status, smoke=smoke), attacked=frozenset())


def _over(state: VvState, data: Mapping[str, Any]) -> VvState:
    return replace(state, over=True, result=data.get("result"))


_HANDLERS = {
    "phase": _phase,
    "rally": _rally,
    "fired": _fired,
    "attack": _attack,
    "casualty": _casualty,
    "allocated": _allocated,
    "moved": _moved,
    "window": _window,
    "window-closed": _window_closed,
    "cleanup": _cleanup,
    "over": _over,
}
