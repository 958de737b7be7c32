"""Movement in a V&V game, kept small, and the Opportunity Fire windows it opens (r. 6, 7, 13.8).

One hex per command for a stack that starts in one hex; MP by terrain and hexside feature
(``fire_rules.toml``), climbing +1; Assault Movement at double cost (half the MP, +1 cover);
a first hex always allowed; vehicles forward into the hex they face or in reverse at double
cost, then turning up to three hexsides, the first free. Passengers ride along. After each step
the other side may Opportunity Fire at the stack (a window) if any of its units could.
Loading and unloading, moving Guns and stacking limits are not modelled.
"""

from __future__ import annotations

from typing import Any

from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Direction, Hex, Hexside
from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.vv.board import Board
from ordnance.vv.game.rulings import PHASES_CLAUSE, RESOLVE, SEQUENCE, ruling
from ordnance.vv.game.state import Phase, VvState, apply
from ordnance.vv.groups import FireOrder, check_attack
from ordnance.vv.numbers import RULES
from ordnance.vv.units import Kind


def can_opfire(state: VvState) -> bool:
    """Whether some unit of the non-moving side could fire at the stack in the window now."""
    window = state.window
    if window is None:
        return False
    side = state.other(state.player)
    for unit_id in state.board.side_units(side):
        order = FireOrder(side, (unit_id,), window.hex, movers=window.movers)
        try:
            check_attack(state.board, order, attacked=state.attacked)
        except (IllegalAction, BadInput):
            continue
        return True
    return False


def pass_fire(state: VvState, command: Command, dice: DiceSource) -> Resolution:
    """The non-moving side holds its fire at the stack in the window: the mover goes on."""
    if state.window is None or command.side == state.player:
        raise IllegalAction(PHASES_CLAUSE, "there is no Opportunity Fire to pass up")
    words = f"{command.side} holds its fire; {state.player} may move on."
    return Resolution((Event("window-closed"),), ruling(command, (PHASES_CLAUSE,), words))


def allowance(board: Board, unit_id: str) -> int:
    """MP per turn: leaders 6, other infantry 4, a vehicle its counter's (r. 6.1)."""
    unit = board.unit(unit_id)
    if unit.kind is Kind.LEADER:
        return RULES.leader_mp
    return RULES.infantry_mp if unit.kind.infantry else unit.mp


def step_cost(board: Board, unit_id: str, start: Hex, to: Hex) -> int:
    """MP to enter ``to`` from ``start``: terrain, hexside feature, climbing (r. 6, 10)."""
    unit = board.unit(unit_id)
    game_map = board.game_map
    terrain = game_map.terrain(to)
    cost = RULES.hex_cost(terrain, vehicle=not unit.kind.infantry)
    if cost is None:
        raise IllegalAction("V&V r. 6", f"{unit_id} may not enter {terrain}")
    feature = game_map.hexside(Hexside.between(start, to))
    if feature is not None:
        cost += RULES.hexside_costs.get(feature, 0)
    if game_map.elevation(to) > game_map.elevation(start):
        cost += RULES.uphill_mp
    return cost


def check_move(state: VvState, command: Command) -> dict[str, Any]:
    """The ``moved`` event's data of a step, or the refusal: every check of :func:`move`.

    Whether the step opens a window does not change whether it may be taken, so the legal
    actions ask only this (a window's check looks at every enemy unit's shot:
    bench_web, 100 games, 6.5% of the server's CPU went to it for steps no one took).
    """
    if state.phase is not Phase.MOVEMENT or command.side != state.player:
        raise IllegalAction(SEQUENCE, "units move only in their own side's Movement phase")
    board = state.board
    units = tuple(command.args["units"])
    if len(set(units)) != len(units):
        raise BadInput("units", ",".join(units), "a unit is named twice")
    for unit_id in units:
        _check_mover(board, command.side, unit_id)
    starts = {board.hex_of(u) for u in units}
    if len(starts) != 1:
        raise IllegalAction("V&V r. 6", "a stack that moves together starts in one hex")
    start = starts.pop()
    assert start is not None
    to = board.parse(str(command.args["to"]))
    direction = start.direction_to(to)
    if direction is None:
        raise IllegalAction("V&V r. 6", f"{board.label(to)} is not next to {board.label(start)}")
    if any(board.unit(u).side != command.side for u in board.at(to)):
        raise IllegalAction("V&V r. 6.10", f"{board.label(to)} holds enemy units")
    assault = bool(command.args.get("assault"))
    facing = command.args.get("facing")
    step = (start, to, direction)
    costs = {u: _charge(board, u, step, assault=assault, facing=facing) for u in units}
    return {
        "units": list(units),
        "to": board.label(to),
        "mp": costs,
        "assault": assault,
        "facing": facing,
    }


def move(state: VvState, command: Command, dice: DiceSource) -> Resolution:
    """One step of a stack (see the module docstring); a window opens behind it if the other
    side could Opportunity Fire at it."""
    data = check_move(state, command)
    board = state.board
    units, to, costs = data["units"], data["to"], data["mp"]
    events = [Event("moved", data)]
    movers = tuple(units) + tuple(r for u in units for r in board.passengers(u))
    after = apply(state, "moved", data)
    window = {"hex": to, "movers": list(movers)}
    after = apply(after, "window", window)
    opens = can_opfire(after)
    if opens:
        events.append(Event("window", window))
    spent = ", ".join(f"{u} {c} MP" for u, c in costs.items())
    words = f"{', '.join(units)} entered {to} ({spent})."
    if opens:
        words += f" {state.other(command.side)} may Opportunity Fire (opfire) or pass."
    clauses = (PHASES_CLAUSE,) if opens else (SEQUENCE,)
    return Resolution(tuple(events), ruling(command, clauses, words, mp=costs, window=opens))


def _check_mover(board: Board, side: str, unit_id: str) -> None:
    unit, status = board.unit(unit_id), board.status[unit_id]
    if unit.side != side:
        raise IllegalAction("SYS.record", f"{unit_id} belongs to {unit.side}, not {side}")
    if status.eliminated:
        raise IllegalAction(RESOLVE, f"{unit_id} has been eliminated")
    if status.pinned:
        raise IllegalAction("V&V r. 14.7", f"{unit_id} is pinned and may not move")
    if status.fired:
        raise IllegalAction("V&V r. 5.33", f"{unit_id} fired this turn and may not move")
    if status.aboard is not None:
        raise IllegalAction("V&V r. 8.2", f"{unit_id} rides {status.aboard}; it moves with it")
    if unit.kind is Kind.GUN:
        raise IllegalAction("V&V r. 6.32", f"{unit_id}: moving Guns is not modelled")


def _charge(
    board: Board,
    unit_id: str,
    step: tuple[Hex, Hex, Direction],
    *,
    assault: bool,
    facing: str | None,
) -> int:
    """The MP ``unit_id`` spends on ``step`` (from, to, direction), or the refusal."""
    start, to, direction = step
    unit, status = board.unit(unit_id), board.status[unit_id]
    cost = step_cost(board, unit_id, start, to)
    if unit.kind.infantry:
        if facing is not None:
            raise BadInput("facing", facing, "infantry has no facing (r. 7.1)")
    else:
        if assault:
            raise BadInput("assault", unit_id, "Assault Movement is for infantry (r. 6.4)")
        cost = _vehicle_cost(unit_id, status.facing, direction, facing, cost)
    if assault:
        cost *= 2  # half the MP: every step costs double
    left = allowance(board, unit_id) - status.mp_used
    if status.moved and cost > left:
        raise IllegalAction(
            "V&V r. 6.1", f"{unit_id} needs {cost} MP to enter {board.label(to)}; {left} left"
        )
    return cost


def _vehicle_cost(
    unit_id: str, facing: Direction | None, direction: Direction, turn_to: str | None, cost: int
) -> int:
    """Forward into the faced hex, or in reverse at double cost; then turn up to three
    hexsides, the first free (r. 7.2-7.3)."""
    if facing is None or direction == facing:
        pass
    elif direction == facing.opposite:
        cost *= 2
    else:
        raise IllegalAction(
            "V&V r. 7.2",
            f"{unit_id} faces {facing}: it moves {facing} or reverses {facing.opposite}",
        )
    if turn_to is not None and facing is not None:
        new = Direction.parse(turn_to)
        turns = min((new - facing) % 6, (facing - new) % 6)
        cost += max(0, turns - 1)
    return cost
