"""Fulfilling Casualty Points: the defender's choice, checked (r. 14.6-14.65, VV.AP-resolve).

An attack's CP fall on the target hex; the defending side answers with an allocation, one
action per unit (reference/vv.md section 2):

=============  ===============================================================================
``pin``        1 CP: an unpinned unit, infantry or a vehicle or Gun (not a passenger)
``reduce``     a squad to its half squad: the difference of their Casualty Ratings
``reduce+pin`` the same, and the half squad pinned: one more CP
``eliminate``  the unit's Casualty Rating; a vehicle's also counts what rides in it
``N``          a vehicle or Gun takes N CP (2 up to its rating): it survives pinned on a die
               at most its rating, else it is eliminated (the survival roll)
=============  ===============================================================================

and checks it:

- the units are the attack's eligible units; a Gun being towed shares its tow's fate and is not
  named; passengers of an unarmored vehicle may be reduced or eliminated, never pinned (r. 14.65);
- an already pinned unit may only be eliminated, and only once every unpinned unit is down
  (pinned or eliminated by this result, setting ``unpinned_first_until``) (r. 14.62); a pinned
  vehicle is eliminated without a roll (r. 14.64);
- after a Gun Shield ignored the first CP (:func:`gun_shield`), the rest go to that Gun first:
  it is named, and other units only once it is eliminated (r. 14.63);
- the total meets the CP, with no action left over that could be dropped (r. 14.61: meet or
  exceed, then stop [inferred]); a vehicle's N is what remains; a hex that cannot absorb all
  the CP loses everything and the rest is ignored (open point 8).

:func:`auto_allocation` is the engine's choice for the AI and for anyone who asks (open point
7 [default]): the fewest Casualty Rating points lost for sure, then the fewest expected from
survival rolls, then the fewest pins.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> from ordnance.vv.board import Status
>>> from ordnance.vv.counters import Counter
>>> grid = GridLabels(columns=4, rows=4)
>>> here = grid.parse("B2")
>>> units = {"a": Unit("a", "de", Kind.SQUAD, counter=Counter.parse("4-6-4")),
...          "b": Unit("b", "de", Kind.SQUAD, counter=Counter.parse("4-6-5"))}
>>> board = Board(GameMap("m", "vv", grid, "open"), units, {"a": Status(here), "b": Status(here)})
>>> pending = Pending(here, 3, "us", "de", ("a", "b"))
>>> [str(a) for a in check_allocation(board, pending, parse_allocations(["a:reduce", "b:pin"]))]
['a:reduce', 'b:pin']
>>> check_allocation(board, pending, parse_allocations(["a:eliminate", "b:pin"]))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.IllegalAction: refused by V&V r. 14.5 (VV.AP-resolve): b:pin is more than ...
>>> [str(a) for a in auto_allocation(board, pending)]
['b:reduce+pin']
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Arc, Hex
from ordnance.vv.board import Board
from ordnance.vv.units import Kind, Unit

RESOLVE = "VV.AP-resolve"


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


CostT = TypeVar("CostT", bound=_Ordered)


class Action(enum.StrEnum):
    PIN = "pin"
    REDUCE = "reduce"
    REDUCE_PIN = "reduce+pin"
    ELIMINATE = "eliminate"
    ABSORB = "absorb"  # written as the number of CP


@dataclass(frozen=True)
class Allocation:
    """One unit's part of fulfilling the CP; ``cp`` is the N of a vehicle's ``absorb``."""

    unit: str
    action: Action
    cp: int = 0

    @classmethod
    def parse(cls, text: str) -> Allocation:
        """``UNIT:ACTION`` or ``UNIT:N``."""
        unit, colon, what = text.strip().partition(":")
        if not colon or not unit:
            raise BadInput("allocation", text, "expected UNIT:ACTION, e.g. a1:pin or truck:3")
        if what.isascii() and what.isdigit() and len(what) <= 3:
            return cls(unit, Action.ABSORB, int(what))
        try:
            action = Action(what.strip().lower())
        except ValueError:
            names = "pin, reduce, reduce+pin, eliminate or a number of CP"
            raise BadInput("allocation", text, f"the action is one of {names}") from None
        if action is Action.ABSORB:
            raise BadInput("allocation", text, "give a vehicle's CP as a number, e.g. truck:3")
        return cls(unit, action)

    def __str__(self) -> str:
        what = str(self.cp) if self.action is Action.ABSORB else self.action.value
        return f"{self.unit}:{what}"


def parse_allocations(words: Sequence[str]) -> tuple[Allocation, ...]:
    return tuple(Allocation.parse(w) for w in words)


@dataclass(frozen=True)
class Pending:
    """CP waiting for the defender: where, how many, who attacked, who answers, and the units
    the attack affects."""

    hex: Hex
    cp: int
    attacker: str
    defender: str
    units: tuple[str, ...]
    shield: str | None = None  # a Gun whose shield took the first CP: the rest go to it first


def gun_shield(board: Board, firer: Hex, victims: Sequence[str]) -> str | None:
    """The Gun whose Gun Shield ignores the attack's first CP (r. 13.5, 14.63): a shielded Gun
    among the units hit, not moving (not towed, no Move marker), the firer inside its Forward
    Firing Arc. One shield per attack: the first CP is ignored once."""
    for unit_id in victims:
        unit, status = board.unit(unit_id), board.status[unit_id]
        if unit.kind is not Kind.GUN or not unit.shield or status.aboard or status.moved:
            continue
        where = board.hex_of(unit_id)
        if where is None or status.facing is None:
            continue
        if Arc.forward_firing(status.facing).contains(where, firer):
            return unit_id
    return None


def allocatable(board: Board, pending: Pending) -> tuple[str, ...]:
    """The affected units the defender may name: not a Gun being towed (it shares its fate)."""
    return tuple(
        u
        for u in pending.units
        if board.alive(u)
        and not (board.unit(u).kind is Kind.GUN and board.status[u].aboard is not None)
    )


def value(board: Board, allocation: Allocation, named: frozenset[str] = frozenset()) -> int:
    """The CP an action fulfils (a vehicle eliminated counts riders not named themselves)."""
    unit_id, action = allocation.unit, allocation.action
    rating = board.casualty_rating(unit_id)
    if action is Action.PIN:
        return 1
    if action is Action.ABSORB:
        return allocation.cp
    if action is Action.ELIMINATE:
        riders = [p for p in board.passengers(unit_id) if p not in named]
        return rating + sum(board.casualty_rating(p) for p in riders)
    difference = rating - board.unit(unit_id).casualty_rating(reduced=True)
    return difference + (1 if action is Action.REDUCE_PIN else 0)


def _check_action(board: Board, allocation: Allocation) -> None:
    unit_id, action = allocation.unit, allocation.action
    unit, status = board.unit(unit_id), board.status[unit_id]
    vehicle = not unit.kind.infantry
    passenger = status.aboard is not None
    if status.pinned and action is not Action.ELIMINATE:
        raise IllegalAction(RESOLVE, f"{unit_id} is already pinned: it can only be eliminated")
    if action in (Action.PIN, Action.REDUCE_PIN) and passenger:
        raise IllegalAction(
            RESOLVE, f"{unit_id} rides a vehicle: it may be reduced or eliminated, not pinned"
        )
    if action in (Action.REDUCE, Action.REDUCE_PIN) and (
        unit.kind is not Kind.SQUAD or status.reduced
    ):
        raise IllegalAction(RESOLVE, f"only a full squad is reduced; {unit_id} is not one")
    if action is Action.ABSORB:
        rating = board.casualty_rating(unit_id)
        if not vehicle:
            raise IllegalAction(RESOLVE, f"only a vehicle or Gun takes a number of CP ({unit_id})")
        if not 2 <= allocation.cp <= rating:
            raise IllegalAction(
                RESOLVE,
                f"{unit_id} takes 2 to {rating} CP with a survival roll; 1 is a pin, more is"
                " eliminate (r. 14.64)",
            )


def check_allocation(
    board: Board, pending: Pending, allocations: Sequence[Allocation]
) -> tuple[Allocation, ...]:
    """Check the defender's allocation (see the module docstring); returns it unchanged."""
    eligible = allocatable(board, pending)
    named = [a.unit for a in allocations]
    if len(set(named)) != len(named):
        raise BadInput("allocation", " ".join(map(str, allocations)), "a unit is named twice")
    for allocation in allocations:
        if allocation.unit not in eligible:
            raise IllegalAction(
                RESOLVE,
                f"{allocation.unit} is not a unit this attack affects; choose among"
                f" {', '.join(eligible) or 'none'}",
            )
        _check_action(board, allocation)
    gone = _eliminated(board, allocations)
    for allocation in allocations:
        carrier = board.status[allocation.unit].aboard
        if carrier is not None and carrier in gone:
            raise IllegalAction(
                RESOLVE,
                f"{allocation.unit} shares the fate of {carrier}: do not name it (r. 14.64)",
            )
    _check_shield(board, pending, allocations)
    if not _order_ok(board, eligible, allocations):
        standing = [u for u in eligible if not board.status[u].pinned]
        state = (
            "pinned or eliminated"
            if board.settings.unpinned_first_until == "pinned"
            else ("eliminated")
        )
        raise IllegalAction(
            RESOLVE,
            f"pinned units take CP only once every unpinned one is {state} by this result"
            f" ({', '.join(standing)}) (r. 14.62)",
        )
    _check_total(board, pending, eligible, allocations, gone)
    return tuple(allocations)


def _check_shield(board: Board, pending: Pending, allocations: Sequence[Allocation]) -> None:
    """After a Gun Shield ignored the first CP, the rest go to that Gun first (r. 14.63): it
    must be named, and another unit only once the Gun is eliminated."""
    gun = pending.shield
    if gun is None or not board.alive(gun) or pending.cp <= 0:
        return
    mine = [a for a in allocations if a.unit == gun]
    if not mine:
        raise IllegalAction(
            RESOLVE, f"the Gun Shield of {gun} took the first CP: the rest go to {gun} first"
        )
    if len(allocations) > 1 and mine[0].action is not Action.ELIMINATE:
        raise IllegalAction(
            RESOLVE, f"other units take CP only once {gun}, whose shield took the first, is gone"
        )


def _eliminated(board: Board, allocations: Sequence[Allocation]) -> set[str]:
    """Units the allocation eliminates for sure, riders of an eliminated vehicle included."""
    gone = {a.unit for a in allocations if a.action is Action.ELIMINATE}
    for unit_id in list(gone):
        gone.update(board.passengers(unit_id))
    return gone


def _order_ok(board: Board, eligible: Sequence[str], allocations: Sequence[Allocation]) -> bool:
    """Unpinned units take CP before pinned ones (r. 14.62): a unit already pinned is touched
    only once every unpinned one is down, that is pinned or eliminated by this result (setting
    ``unpinned_first_until``: or eliminated only)."""
    if not any(board.status[a.unit].pinned for a in allocations):
        return True
    down = _eliminated(board, allocations)
    if board.settings.unpinned_first_until == "pinned":
        for allocation in allocations:
            if allocation.action in (Action.PIN, Action.REDUCE_PIN, Action.ABSORB):
                down.add(allocation.unit)
                down.update(board.passengers(allocation.unit))
    return all(board.status[u].pinned or u in down for u in eligible)


def _total(board: Board, allocations: Sequence[Allocation]) -> int:
    named = frozenset(a.unit for a in allocations)
    return sum(value(board, a, named) for a in allocations)


def _check_total(
    board: Board,
    pending: Pending,
    eligible: Sequence[str],
    allocations: Sequence[Allocation],
    gone: set[str],
) -> None:
    """Meet the CP and stop (r. 14.61): no action may be dropped with the rest still valid."""
    total = _total(board, allocations)
    if total < pending.cp:
        if all(u in gone for u in eligible):
            return  # the hex absorbs what it can; the rest is ignored (open point 8)
        raise IllegalAction(
            RESOLVE, f"the allocation fulfils {total} of {pending.cp} CP (r. 14.61)"
        )
    for allocation in allocations:
        rest = [a for a in allocations if a is not allocation]
        if _total(board, rest) >= pending.cp and _order_ok(board, eligible, rest):
            raise IllegalAction(
                RESOLVE,
                f"{allocation} is more than needed: the CP are met without it (r. 14.61)",
            )
        excess = total - pending.cp
        if allocation.action is Action.ABSORB and excess and allocation.cp > excess:
            remain = allocation.cp - excess
            raise IllegalAction(
                RESOLVE,
                f"{allocation.unit} takes only the {remain} CP that remain"
                + (" (a pin)" if remain == 1 else ""),
            )


# --- the engine's own choice ----------------------------------------------------------------


def _options(board: Board, unit_id: str) -> Iterator[Allocation]:
    unit: Unit = board.unit(unit_id)
    for action in (Action.PIN, Action.REDUCE, Action.REDUCE_PIN, Action.ELIMINATE):
        yield Allocation(unit_id, action)
    if not unit.kind.infantry:
        for cp in range(2, board.casualty_rating(unit_id) + 1):
            yield Allocation(unit_id, Action.ABSORB, cp)


def _cost(board: Board, allocations: Sequence[Allocation]) -> tuple[Fraction, Fraction, int]:
    named = frozenset(a.unit for a in allocations)
    certain, expected, pins = Fraction(0), Fraction(0), 0
    for allocation in allocations:
        if allocation.action is Action.PIN:
            pins += 1
        elif allocation.action is Action.ABSORB:
            rating = board.casualty_rating(allocation.unit)
            at_risk = value(board, Allocation(allocation.unit, Action.ELIMINATE), named)
            expected += Fraction(max(0, 6 - rating), 6) * at_risk
            pins += 1
        else:
            certain += value(board, allocation, named) - (
                1 if allocation.action is Action.REDUCE_PIN else 0
            )
            pins += allocation.action is Action.REDUCE_PIN
    return certain, expected, pins


def auto_allocation(board: Board, pending: Pending) -> tuple[Allocation, ...]:
    """The valid allocation losing the least (see the module docstring), in unit order."""
    return best_allocation(board, pending, lambda chosen: _cost(board, chosen))[1]


def best_allocation(
    board: Board, pending: Pending, cost: Callable[[tuple[Allocation, ...]], CostT]
) -> tuple[CostT, tuple[Allocation, ...]]:
    """The valid allocation of least ``cost`` (the first found among equals) and its cost."""
    # Unpinned units first: pinned ones may only follow them (r. 14.62).
    eligible = sorted(allocatable(board, pending), key=lambda u: board.status[u].pinned)
    best: tuple[CostT, tuple[Allocation, ...]] | None = None

    def search(index: int, chosen: tuple[Allocation, ...], total: int) -> None:
        nonlocal best
        if total >= pending.cp or index == len(eligible):
            try:
                check_allocation(board, pending, chosen)
            except IllegalAction:
                return
            price = cost(chosen)
            if best is None or price < best[0]:
                best = (price, chosen)
            return
        search(index + 1, chosen, total)
        for option in _options(board, eligible[index]):
            search(index + 1, (*chosen, option), total + value(board, option))

    search(0, (), 0)
    if best is None:
        raise IllegalAction(RESOLVE, "no valid allocation exists for this hex")
    return best
