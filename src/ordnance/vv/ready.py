"""The units of a side that may fire now, by the class they group in (VV.AP-groups).

The AI plans per class (:mod:`ordnance.vv.ai`), and the ruleset lists the classes in its
state's JSON; both read them from here, so neither needs the other.
"""

from __future__ import annotations

from collections.abc import Iterator

from ordnance.vv.board import Board
from ordnance.vv.groups import group_key
from ordnance.vv.units import Kind


def ready_units(board: Board, side: str) -> Iterator[str]:
    """Units of ``side`` that may fire now: alive, unpinned, no Fire marker, not a towed Gun."""
    for unit_id in board.side_units(side):
        status, unit = board.status[unit_id], board.unit(unit_id)
        if status.pinned or status.fired:
            continue
        if unit.kind is Kind.GUN and status.aboard is not None:
            continue
        yield unit_id


def classes(board: Board, side: str) -> dict[str, tuple[str, ...]]:
    """The side's ready units by grouping class."""
    found: dict[str, list[str]] = {}
    for unit_id in ready_units(board, side):
        found.setdefault(group_key(board, unit_id), []).append(unit_id)
    return {key: tuple(units) for key, units in found.items()}
