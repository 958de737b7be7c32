"""What an AP attack is worth to the AI: the expected loss of enemy value, exactly (AI policy).

Raw Casualty Points overrate a hex that cannot take them: 13 APFP at a lone leader may roll 5 CP,
but a leader is eliminated by one. The AI's evaluation (setting ``ai_evaluation=value``) counts
only what lands, as the defender would take it (r. 14.6-14.65, VV.AP-resolve):

- each unit has a value: its Casualty Rating (a squad 5, its half squad 3, a Gun or vehicle
  its rating), a leader ``ai_leader_value``; a vehicle eliminated takes its riders along;
- a pin costs ``ai_pin_fraction`` of the pinned unit's value, a reduction the difference of
  the two sides' values, an elimination the whole value; a vehicle or Gun taking N CP survives
  pinned on a die at most its rating (r. 14.64), so its loss is the exact mixture of the two;
- for k CP the defender answers with the valid allocation (:func:`~ordnance.vv.casualties
  .check_allocation`, Gun Shield included) that loses him the least value: :func:`hex_loss`;
- an attack's worth is the sum over its CP results of their probability times that loss
  (:func:`attack_worth`), a Fraction, exact.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> from ordnance.vv.board import Status
>>> from ordnance.vv.counters import Counter
>>> grid = GridLabels(columns=6, rows=6)
>>> units = {"lt": Unit("lt", "de", Kind.LEADER, counter=Counter.parse("1-3-1"), leadership=-1),
...          "a": Unit("a", "us", Kind.SQUAD, counter=Counter.parse("4-6-5"))}
>>> here, there = grid.parse("C3"), grid.parse("C5")
>>> board = Board(GameMap("m", "vv", grid, "open"), units, {"lt": Status(here), "a": Status(there)})
>>> [hex_loss(board, Pending(here, cp, "us", "de", ("lt",))) for cp in (1, 5)]
[Fraction(1, 4), Fraction(1, 1)]
>>> attack_worth(board, there, here, ("lt",), apfp=13, drm=-1)
Fraction(3, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ordnance.core.hexgrid import Hex
from ordnance.vv.board import Board, Status
from ordnance.vv.casualties import Action, Allocation, Pending, best_allocation, gun_shield
from ordnance.vv.odds import cp_odds, expected_cp
from ordnance.vv.units import Kind, Unit

_LOSSES: dict[object, Fraction] = {}
_CACHE_LIMIT = 200_000


def unit_value(board: Board, unit_id: str, *, reduced: bool | None = None) -> Fraction:
    """The unit's value to the AI (see the module docstring); ``reduced`` asks for a side."""
    unit = board.unit(unit_id)
    if unit.kind is Kind.LEADER:
        return board.settings.ai_leader_value
    if reduced is None:
        reduced = board.status[unit_id].reduced
    return Fraction(unit.casualty_rating(reduced))


def _carried(board: Board, vehicle: str, named: frozenset[str]) -> Fraction:
    return sum(
        (unit_value(board, p) for p in board.passengers(vehicle) if p not in named), Fraction(0)
    )


def allocation_loss(board: Board, allocations: Sequence[Allocation]) -> Fraction:
    """The value the defender loses by this allocation (survival rolls as exact odds)."""
    pin = board.settings.ai_pin_fraction
    named = frozenset(a.unit for a in allocations)
    loss = Fraction(0)
    for allocation in allocations:
        unit_id, action = allocation.unit, allocation.action
        value = unit_value(board, unit_id)
        if action is Action.PIN:
            loss += pin * value
        elif action in (Action.REDUCE, Action.REDUCE_PIN):
            half = unit_value(board, unit_id, reduced=True)
            loss += value - half + (pin * half if action is Action.REDUCE_PIN else 0)
        elif action is Action.ELIMINATE:
            loss += value + _carried(board, unit_id, named)
        else:
            # r. 14.64: a die at most the rating keeps it, pinned (its riders pinned too).
            survive = Fraction(min(board.casualty_rating(unit_id), 6), 6)
            riders = [p for p in board.passengers(unit_id) if p not in named]
            pinned = pin * (
                value
                + sum(
                    (unit_value(board, p) for p in riders if not board.status[p].pinned),
                    Fraction(0),
                )
            )
            dead = value + _carried(board, unit_id, named)
            loss += survive * pinned + (1 - survive) * dead
    return loss


def _key(board: Board, pending: Pending) -> object:
    units = set(pending.units)
    for unit_id in pending.units:
        units.update(board.passengers(unit_id))
    state: list[tuple[str, Unit, Status]] = [
        (u, board.unit(u), board.status[u]) for u in sorted(units)
    ]
    return (board.settings, tuple(state), pending.cp, pending.units, pending.shield)


def hex_loss(board: Board, pending: Pending) -> Fraction:
    """The least value the defender can lose fulfilling ``pending`` (remembered by the hex's
    units and their states)."""
    if pending.cp <= 0:
        return Fraction(0)
    key = _key(board, pending)
    found = _LOSSES.get(key)
    if found is None:
        found = best_allocation(board, pending, lambda chosen: allocation_loss(board, chosen))[0]
        if len(_LOSSES) > _CACHE_LIMIT:
            _LOSSES.clear()
        _LOSSES[key] = found
    return found


def least_loss_allocation(board: Board, pending: Pending) -> tuple[Allocation, ...]:
    """The allocation the AI answers CP with when it defends: its least loss of value."""
    return best_allocation(board, pending, lambda chosen: allocation_loss(board, chosen))[1]


def attack_worth(
    board: Board, firer: Hex, target: Hex, victims: tuple[str, ...], *, apfp: int, drm: int
) -> Fraction:
    """The expected loss of enemy value of an attack of ``apfp`` at ``drm`` on ``victims``
    (setting ``ai_evaluation``: or its expected CP)."""
    settings = board.settings
    if apfp <= 0 or not victims:
        return Fraction(0)
    if settings.ai_evaluation == "cp":
        return expected_cp(apfp, drm, settings)
    defender = board.unit(victims[0]).side
    attacker = next((s for s in board.sides() if s != defender), defender)
    shield = gun_shield(board, firer, victims)
    odds = cp_odds(apfp, drm, settings)
    total = Fraction(0)
    for cp in odds:
        if cp <= 0:
            continue
        landed = cp - (1 if shield is not None else 0)
        pending = Pending(target, landed, attacker, defender, victims, shield)
        total += odds[cp] * hex_loss(board, pending)
    return total
