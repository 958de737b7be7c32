"""Rally in a V&V game (r. 14.7-14.8): the phasing side's After-Action roll, helped by an
unpinned leader in the hex; passengers rally with their vehicle."""

from __future__ import annotations

from collections.abc import Mapping

from ordnance.core.dice import DiceSource
from ordnance.core.errors import IllegalAction
from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.vv.board import Board
from ordnance.vv.game.rulings import ruling
from ordnance.vv.game.state import Phase, VvState
from ordnance.vv.numbers import RULES
from ordnance.vv.units import Kind


def rally(state: VvState, command: Command, dice: DiceSource) -> Resolution:
    if state.phase is not Phase.AFTER_ACTION or command.side != state.player:
        raise IllegalAction(
            "V&V r. 14.8", "the phasing side rolls to rally in its After-Action phase"
        )
    board = state.board
    unit_id = str(command.args["units"][0])
    unit, status = board.unit(unit_id), board.status[unit_id]
    if unit.side != command.side:
        raise IllegalAction("SYS.record", f"{unit_id} belongs to {unit.side}")
    if status.eliminated or not status.pinned:
        raise IllegalAction("V&V r. 14.8", f"{unit_id} is not a pinned unit")
    if status.aboard is not None:
        raise IllegalAction("V&V r. 14.8", f"{unit_id} rallies with {status.aboard}")
    if status.rally_tried:
        raise IllegalAction("V&V r. 14.8", f"{unit_id} has tried to rally this phase")
    modifier, leader = 0, command.args.get("leader")
    if leader is not None:
        _check_rally_leader(board, command.side, unit_id, str(leader))
        modifier = board.unit(str(leader)).leadership
    number = RULES.rally[rally_class(unit.kind, unit.elite)]
    roll = dice.roll_dr(f"rally roll for {unit_id}")
    rallied = roll.total + modifier <= number
    words = (
        f"{unit_id}: DR {roll} = {roll.total} {modifier:+d} against {number}:"
        f" {'rallied' if rallied else 'still pinned'}."
    )
    event = Event("rally", {"unit": unit_id, "rallied": rallied, "auto": False})
    verdict = ruling(
        command,
        ("V&V r. 14.8",),
        words,
        dice=roll,
        number=number,
        modifier=modifier,
        rallied=rallied,
    )
    return Resolution((event,), verdict)


def rally_class(kind: Kind, elite: bool) -> str:
    """Which rally number a unit rolls against (r. 14.8).

    >>> [RULES.rally[rally_class(k, e)] for k, e in
    ...  [(Kind.SQUAD, False), (Kind.SQUAD, True), (Kind.LEADER, False), (Kind.GUN, False)]]
    [6, 7, 7, 7]
    """
    if kind is Kind.LEADER:
        return "leader"
    if kind.infantry:
        return "elite" if elite else "regular"
    return "gun" if kind is Kind.GUN else "vehicle"


def _check_rally_leader(board: Board, side: str, unit_id: str, leader: str) -> None:
    lead, status = board.unit(leader), board.status[leader]
    if (
        lead.side != side
        or lead.kind is not Kind.LEADER
        or leader == unit_id
        or status.pinned
        or status.eliminated
        or board.hex_of(leader) != board.hex_of(unit_id)
    ):
        raise IllegalAction("V&V r. 14.8", f"{leader} is not an unpinned leader in {unit_id}'s hex")


def leaders_for(board: Board, unit_id: str) -> Mapping[str, int]:
    """The unpinned leaders who could help ``unit_id`` rally, with their modifiers."""
    side = board.unit(unit_id).side
    found: dict[str, int] = {}
    for other in board.side_units(side):
        try:
            _check_rally_leader(board, side, unit_id, other)
        except IllegalAction:
            continue
        found[other] = board.unit(other).leadership
    return found
