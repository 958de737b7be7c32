"""The D13.2 refusals shared by dispensers and vehicular smoke grenades (D13.35 borrows D13.2-.3).

Each check raises :class:`~ordnance.core.errors.IllegalAction` naming the clause, or returns
quietly. They run in a fixed order (when, who, what was done already, MP), so the first reason a
player hears is the most basic one.

>>> check_common(AfvState(), "dispenser")
>>> check_common(AfvState(crew=Crew.STUNNED), "dispenser")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.IllegalAction: refused by D13.2 (D13.2-state): the crew is stunned; ...
"""

from __future__ import annotations

from typing import Literal

from ordnance.asl.dispensers.state import AfvState, Crew
from ordnance.asl.smoke import Phase
from ordnance.core.errors import IllegalAction

Device = Literal["dispenser", "grenades"]
_NAME: dict[Device, str] = {"dispenser": "a smoke dispenser", "grenades": "smoke grenades"}


def check_common(state: AfvState, device: Device) -> None:
    """Every D13.2 refusal, in order: phase, timing, crew, fire, attempts, MP."""
    check_timing(state, device)
    check_crew(state)
    check_not_fired(state)
    check_once(state, device)
    check_mp(state)


def check_timing(state: AfvState, device: Device) -> None:
    """Only in an MPh; in the opponent's, only after an enemy MP/MF expenditure in LOS.

    >>> check_timing(AfvState(phase=Phase.DFPH), "grenades")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.IllegalAction: refused by D13.2 (D13.2-once): smoke grenades are tried ...
    """
    if state.phase is not Phase.MPH:
        raise IllegalAction(
            "D13.2-once",
            f"{_NAME[device]} {_be(device)} tried only during an MPh, not in the {state.phase}",
        )
    if not state.own_turn and not state.enemy_expended_in_los:
        raise IllegalAction(
            "D13.2-defensive",
            "in the opponent's MPh an attempt must follow an opposing unit's MP/MF expenditure"
            " in the vehicle's LOS, as Defensive First Fire would",
        )


def check_crew(state: AfvState) -> None:
    """Not Abandoned, and the crew neither stunned, shocked nor broken (D13.2-state)."""
    if state.abandoned:
        raise IllegalAction("D13.2-state", "the vehicle is Abandoned")
    if state.crew is not Crew.OK:
        raise IllegalAction(
            "D13.2-state", f"the crew is {state.crew}; only a crew in good order may make smoke"
        )


def check_not_fired(state: AfvState) -> None:
    """No weapon fired yet this Player Turn, Bounding or Defensive First Fire included."""
    if state.fired_weapon:
        raise IllegalAction(
            "D13.2-state",
            "the vehicle has already fired a weapon this Player Turn (First Fire counts too)",
        )


def check_once(state: AfvState, device: Device) -> None:
    """One attempt of a device per Player Turn (D13.2-once), never both in one MPh (D13.35)."""
    same, other = (
        (state.dispenser_attempted, state.grenades_attempted)
        if device == "dispenser"
        else (state.grenades_attempted, state.dispenser_attempted)
    )
    if same:
        raise IllegalAction(
            "D13.2-once",
            f"{_NAME[device]} {_be(device)} already tried this Player Turn; a failed attempt"
            " may be repeated only in another Player Turn",
        )
    if other:
        tried = "smoke grenades" if device == "dispenser" else "its smoke dispenser"
        raise IllegalAction(
            "D13.35",
            f"the vehicle already tried {tried} in this MPh; it may use grenades or a dispenser,"
            " not both, in one MPh",
        )


def check_mp(state: AfvState) -> None:
    """In its own MPh the vehicle needs the 1 MP a success would cost (D13.2-mp).

    Checked only when the game gives the MP allowance.

    >>> check_mp(AfvState(mp_spent=12, mp_allowance=12))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.IllegalAction: refused by D13.2 (D13.2-mp): no MP left (12 of 12 ...
    """
    left = state.mp_left
    if state.own_turn and left is not None and left < 1:
        raise IllegalAction(
            "D13.2-mp",
            f"no MP left ({state.mp_spent} of {state.mp_allowance} spent); firing smoke costs 1"
            " MP in the vehicle's own MPh",
        )


def _be(device: Device) -> str:
    return "is" if device == "dispenser" else "are"
