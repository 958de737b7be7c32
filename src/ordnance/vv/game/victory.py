"""A V&V scenario's victory conditions, read from its file, and the winner at the end.

V&V scenarios state their own conditions (objective hexes held at the end, casualties
inflicted; r. 2 [unverified: the bundled scenarios are invented]); a scenario file gives them
under ``victory``::

    victory:
      objectives: {E5: 2, F6: 1}   # hex: victory points to the side controlling it at the end
      control: {E5: german}        # who controls it at the start (default: the side with
                                   # units there, else nobody)
      casualties: true             # each side also scores the casualties it inflicted
      tie: german                  # who wins on equal points (default: a draw)

Readings [default]: a side takes control of an objective by entering it (its units' ``moved``
event; an enemy-held hex cannot be entered, r. 6.10); at the end a hex held by one side's units
alone is that side's. Casualties score each eliminated enemy unit's full Casualty Rating (its
half squad's plus the reduction if it was reduced first: the same total) and each reduced
squad's reduction. The side with more points wins; equal points go to ``tie``.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> m = GameMap("m", "vv", GridLabels(columns=6, rows=6), "open")
>>> rules = read_victory({"objectives": {"c3": 2}, "tie": "de"}, m, ("us", "de"))
>>> rules
{'objectives': {'C3': 2}, 'control': {}, 'casualties': False, 'tie': 'de'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ordnance.core import fields
from ordnance.core.hexgrid import Hex
from ordnance.core.maps import GameMap
from ordnance.vv.board import Board

VICTORY = "V&V r. 2"


def read_victory(
    body: Mapping[str, Any], game_map: GameMap, sides: Sequence[str]
) -> dict[str, Any]:
    """Check the ``victory`` block (see the module docstring; its keys and types passed the
    scenario schema) into its JSON form: objectives on the map, sides that exist."""
    objectives: dict[str, int] = {}
    for label, points in body.get("objectives", {}).items():
        where = f"victory.objectives.{label}"
        hex = fields.checked(where, game_map.parse, str(label))
        objectives[game_map.label(hex)] = points
    control: dict[str, str] = {}
    for label, side in body.get("control", {}).items():
        where = f"victory.control.{label}"
        name = game_map.label(fields.checked(where, game_map.parse, str(label)))
        if name not in objectives:
            raise fields.fault(where, "control is given for objective hexes only")
        if side not in sides:
            raise fields.fault(where, f"names no side; sides: {', '.join(sides)}")
        control[name] = str(side)
    tie = body.get("tie")
    if tie is not None and tie not in sides:
        raise fields.fault("victory.tie", f"names no side; sides: {', '.join(sides)}")
    return {
        "objectives": objectives,
        "control": control,
        "casualties": body.get("casualties", False),
        "tie": tie,
    }


def start_control(victory: Mapping[str, Any], board: Board) -> dict[Hex, str]:
    """Who controls each objective at the start: as the file says, else the side alone there."""
    control: dict[Hex, str] = {}
    for label in victory.get("objectives", {}):
        hex = board.parse(label)
        given = victory.get("control", {}).get(label)
        held = _held_by(board, hex)
        if given is not None:
            control[hex] = given
        elif held is not None:
            control[hex] = held
    return control


def _held_by(board: Board, hex: Hex) -> str | None:
    sides = {board.unit(u).side for u in board.at(hex)}
    return sides.pop() if len(sides) == 1 else None


def inflicted(board: Board, on: str) -> int:
    """The casualties inflicted on side ``on``: eliminated units' full ratings, reductions."""
    total = 0
    for unit_id, unit in board.units.items():
        if unit.side != on:
            continue
        status = board.status[unit_id]
        full = unit.casualty_rating(False)
        if status.eliminated:
            total += full
        elif status.reduced:
            total += full - unit.casualty_rating(True)
    return total


def result(
    victory: Mapping[str, Any],
    board: Board,
    control: Mapping[Hex, str],
    sides: Sequence[str],
) -> dict[str, Any]:
    """The points of each side at the end, how they were made, and the winner (or a draw)."""
    points = dict.fromkeys(sides, 0)
    held: dict[str, str | None] = {}
    for label, value in victory.get("objectives", {}).items():
        hex = board.parse(label)
        owner = _held_by(board, hex) or control.get(hex)
        held[label] = owner
        if owner is not None:
            points[owner] += value
    casualties: dict[str, int] = {}
    if victory.get("casualties"):
        for side in sides:
            other = next(s for s in sides if s != side)
            casualties[side] = inflicted(board, other)
            points[side] += casualties[side]
    first, second = sides
    if points[first] != points[second]:
        winner: str | None = first if points[first] > points[second] else second
    else:
        winner = victory.get("tie")
    return {
        "points": points,
        "objectives": held,
        "casualties": casualties,
        "winner": winner,
        "clause": VICTORY,
    }


def victory_words(victory: Mapping[str, Any], control: Mapping[str, str], result: object) -> str:
    """The victory conditions in words: what wins, who holds each objective now, and the
    final points once the game is over (``game status`` and the web table show it).

    >>> rules = {"objectives": {"H2": 4, "I3": 2}, "casualties": True, "tie": "german"}
    >>> victory_words(rules, {"H2": "american"}, None)[:58]
    'Victory: objectives H2 4 VP (american), I3 2 VP (nobody); '
    >>> victory_words(rules, {}, {"points": {"american": 4, "german": 6}, "winner": "german"})[-48:]
    'Final points: american 4, german 6; german wins.'
    """
    held = [
        f"{hex} {points} VP ({control.get(hex, 'nobody')})"
        for hex, points in victory.get("objectives", {}).items()
    ]
    parts = [f"objectives {', '.join(held)}"] if held else []
    if victory.get("casualties"):
        parts.append("casualties count")
    if victory.get("tie"):
        parts.append(f"a tie goes to {victory['tie']}")
    text = f"Victory: {'; '.join(parts) or 'no conditions given'}."
    if not isinstance(result, Mapping):
        return text
    points = ", ".join(f"{side} {value}" for side, value in result.get("points", {}).items())
    winner = result.get("winner")
    return f"{text} Final points: {points}; {f'{winner} wins' if winner else 'a draw'}."
