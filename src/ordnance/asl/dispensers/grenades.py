"""Vehicular smoke grenades (D13.35): who may try, the one usage dr, and the half-inch counter.

They follow the dispenser rules of D13.2-.3 (timing, crew, fire, once per Player Turn, 1 MP on
success in the own MPh) with D13.35's exceptions:

* any vehicle showing a Main Armament on its counter may try; a CT AFV only with a CE crew;
* success on a dr of 1 when the vehicle is armed but unarmored, or is an OT AFV that is BU;
  of 1-2 when it is an AFV with a CE crew;
  the dr takes no DRM (those numbers already account for BU, which a +1 would make impossible);
* a dr of 6 only fails (unlike A24.1's infantry grenades, nothing else follows);
* never grenades and a dispenser in the same MPh.

>>> grenade_number(AfvState(open_topped=True)), grenade_number(AfvState(ce=True))
(1, 2)
>>> from ordnance.core.hexgrid import Hex
>>> r = resolve_grenades(AfvState(ce=True, hex=Hex(0, 0)), DieRoll(2))
>>> r.placed, r.placement.where, r.mp_cost, r.state_after.grenades_attempted
(True, 'own Location', 1, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ordnance.asl.dispensers.checks import check_common
from ordnance.asl.dispensers.placement import SmokePlacement, grenade_placement
from ordnance.asl.dispensers.state import AfvState, plain
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.dice import DieRoll
from ordnance.core.errors import IllegalAction
from ordnance.core.rulings import Ruling

__all__ = ["GrenadeRuling", "check_grenades", "grenade_number", "resolve_grenades"]


@dataclass(frozen=True, kw_only=True)
class GrenadeRuling(Ruling):
    """One vehicular smoke grenade attempt; ``state_after`` is the state to keep."""

    dr: DieRoll
    needed: int
    placed: bool
    placement: SmokePlacement | None
    mp_cost: int
    state_after: AfvState

    def to_json(self) -> dict[str, Any]:
        """Hexes as ``q,r,s`` and the state's corners by name."""
        result = plain(self)
        assert isinstance(result, dict)
        return result


def grenade_number(state: AfvState) -> int:
    """The highest dr that places the grenades; a BU CT AFV is refused (D13.35).

    >>> grenade_number(AfvState(armored=False))
    1
    >>> grenade_number(AfvState())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.IllegalAction: refused by D13.35: a CT AFV's crew must be CE ...
    """
    if not state.armored:
        return 1
    if state.ce:
        return 2
    if state.open_topped:
        return 1
    raise IllegalAction("D13.35", "a CT AFV's crew must be CE to use smoke grenades; it is BU")


def check_grenades(state: AfvState) -> None:
    """Refuse an attempt the rules forbid; a game calls this before rolling."""
    if not state.has_ma:
        raise IllegalAction(
            "D13.35", "only a vehicle whose counter shows a Main Armament carries smoke grenades"
        )
    check_common(state, "grenades")
    grenade_number(state)


def resolve_grenades(state: AfvState, roll: DieRoll, settings: Settings = DEFAULT) -> GrenadeRuling:
    """Check and rule one attempt with its usage dr.

    >>> r = resolve_grenades(AfvState(open_topped=True), DieRoll(6))
    >>> r.placed, r.mp_cost, r.needed
    (False, 0, 1)
    """
    check_grenades(state)
    needed = grenade_number(state)
    placed = roll.value <= needed
    attempted = state.changed(grenades_attempted=True)
    clauses = ["D13.35", "D13.2-once"]
    if not state.own_turn:
        clauses.append("D13.2-defensive")
    clauses += ["D13.2-state", "D13.2-mp"]
    who = _who(state)
    head = f"Smoke grenades: usage dr {roll.value} against {_needed_words(needed)} ({who}; D13.35)."
    if not placed:
        tail = (
            "A 6 only fails; nothing else follows (D13.35)."
            if roll.value == 6
            else "Not placed; no MP spent (D13.2-mp)."
        )
        return GrenadeRuling(
            dr=roll,
            needed=needed,
            placed=False,
            placement=None,
            mp_cost=0,
            state_after=attempted,
            clauses=tuple(clauses),
            explanation=f"{head} {tail} Another try must wait for another Player Turn.",
        )
    placement = grenade_placement(state.hex, own_turn=state.own_turn, settings=settings)
    mp_cost = 1 if state.own_turn else 0
    cost = (
        "It costs 1 MP in the vehicle's own MPh (D13.2-mp)."
        if mp_cost
        else "No MP in the opponent's MPh (D13.2-mp)."
    )
    return GrenadeRuling(
        dr=roll,
        needed=needed,
        placed=True,
        placement=placement,
        mp_cost=mp_cost,
        state_after=attempted.changed(mp_spent=state.mp_spent + mp_cost),
        clauses=tuple(clauses),
        explanation=(
            f"{head} Placed: a half-inch SMOKE counter in the vehicle's own Location, removed at"
            f" the {placement.removal} (D13.35). {cost}"
        ),
    )


def _who(state: AfvState) -> str:
    if not state.armored:
        return "an armed-but-unarmored vehicle"
    if state.ce:
        return "a CE AFV"
    return "a BU OT AFV"


def _needed_words(needed: int) -> str:
    return "1" if needed == 1 else f"1-{needed}"
