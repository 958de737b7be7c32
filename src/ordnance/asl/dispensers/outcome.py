"""What follows a usage DR: the smoke placed, the MP spent, the arc turned, the state after.

Split from :mod:`ordnance.asl.dispensers.attempt`, which checks and rolls; this module only
builds the consequences of a Final DR that did or did not fire (D13.2-mp, D13.3, D13.31-.34).
"""

from __future__ import annotations

from dataclasses import dataclass

from ordnance.asl.dispensers.aim import SmokeMortarAim, case_a_drm, turn_of
from ordnance.asl.dispensers.placement import SmokePlacement, dispenser_placement
from ordnance.asl.dispensers.state import AfvState
from ordnance.asl.dispensers.usage import Dispenser
from ordnance.asl.settings import Settings
from ordnance.core.hexgrid import Corner, distance
from ordnance.core.rulings import DRM


@dataclass(frozen=True, kw_only=True)
class LaterFire:
    """What a successful sM turn means for the AFV's later fire in the new arc (D13.32-drm).

    In the AFV's own MPh the turn was paid for: later Bounding First Fire in that arc does not
    add the Case A DRM again (C5.13). In the opponent's MPh it does apply to later Defensive
    First Fire there (D3.51). The game keeps this and applies ``drm`` when ``applies``.
    """

    facing: Corner
    drm: int
    applies: bool
    fire: str
    explanation: str


@dataclass(frozen=True)
class Outcome:
    """The consequences of one usage DR, for the ruling."""

    placement: SmokePlacement | None
    mp_cost: int
    new_facing: Corner | None
    later_fire: LaterFire | None
    state_after: AfvState
    clauses: tuple[str, ...]
    sentences: tuple[str, ...]


def smoke_outcome(
    state: AfvState,
    dispenser: Dispenser,
    aim: SmokeMortarAim | None,
    fired: bool,
    drms: tuple[DRM, ...],
    *,
    settings: Settings,
) -> Outcome:
    """A smoke attempt's consequences: failure costs nothing; success places, pays, turns."""
    timing = ("D13.2-once",) if state.own_turn else ("D13.2-once", "D13.2-defensive")
    clauses = (*timing, "D13.2-state", "D13.3")
    if aim is not None:
        # The target was checked (range, arc, LOS) and its DRMs were weighed.
        clauses += ("D13.32-place", "D13.32-drm")
    attempted = state.changed(dispenser_attempted=True)
    if not fired:
        return Outcome(
            None,
            0,
            None,
            None,
            attempted,
            (*clauses, "D13.2-mp"),
            (
                "Not fired: no smoke and no MP spent; the AFV may try again in another Player"
                " Turn (D13.3, D13.2-mp).",
            ),
        )
    placement = _placement(state, dispenser, aim)
    mp_cost = 1 if state.own_turn else 0
    after = attempted.changed(mp_spent=state.mp_spent + mp_cost)
    sentences = [f"Fired: {_where(placement)} ({placement.clause})."]
    sentences.append(
        "That costs 1 MP in the AFV's own MPh, spent for this alone (D13.2-mp)."
        if mp_cost
        else "No MP: it fired in the opponent's MPh, as Defensive First Fire would (D13.2-mp,"
        " D13.2-defensive)."
    )
    new_facing, later = _turn(state, aim, settings)
    if new_facing is not None and later is not None:
        after = after.facing_to(new_facing)
        sentences.append(later.explanation)
    return Outcome(
        placement,
        mp_cost,
        new_facing,
        later,
        after,
        (*clauses, placement.clause, "D13.2-mp"),
        tuple(sentences),
    )


def _placement(state: AfvState, dispenser: Dispenser, aim: SmokeMortarAim | None) -> SmokePlacement:
    if aim is None:
        return dispenser_placement(dispenser.kind, own_hex=state.hex)
    reach = distance(state.hex, aim.target) if state.hex is not None else 0
    return dispenser_placement(dispenser.kind, own_hex=state.hex, target=aim.target, reach=reach)


def _where(placement: SmokePlacement) -> str:
    where = "the AFV's own hex" if placement.where == "own hex" else "the target hex"
    if placement.where == "target hex":
        where += f" (range {placement.range})"
    return f"white {placement.counter} in {where}, at its {placement.level}"


def _turn(
    state: AfvState, aim: SmokeMortarAim | None, settings: Settings
) -> tuple[Corner | None, LaterFire | None]:
    """The new arc facing and its later-fire note, when a successful sM turned its arc."""
    if aim is None:
        return None, None
    facing, hexspines = turn_of(state, aim)
    if not hexspines:
        return None, None
    drm = case_a_drm(state.mount, hexspines, settings)
    arc = "TCA" if state.mount.turreted else "VCA"
    if state.own_turn:
        later = LaterFire(
            facing=facing,
            drm=drm,
            applies=False,
            fire="Bounding First Fire",
            explanation=(
                f"The {arc} now faces {facing.name}; later Bounding First Fire in that arc by"
                " weapons bound to a CA does not pay this Case A DRM again (D13.32-drm, C5.13)."
            ),
        )
    else:
        later = LaterFire(
            facing=facing,
            drm=drm,
            applies=True,
            fire="Defensive First Fire",
            explanation=(
                f"The {arc} now faces {facing.name}; later Defensive First Fire in that arc by"
                f" weapons bound to a CA adds this Case A DRM ({drm:+d}) (D13.32-drm, D3.51)."
            ),
        )
    return facing, later


def cc_outcome(state: AfvState, fired: bool) -> Outcome:
    """The sN's HE in Close Combat: a weapon fired (D13.1 EXC), no smoke (D13.34)."""
    clauses = ("D13.1", "D13.2-state", "D13.3", "D13.34")
    if not fired:
        return Outcome(
            None,
            0,
            None,
            None,
            state,
            clauses,
            ("Not fired: the sN's HE is not used in this Close Combat (D13.3, D13.34).",),
        )
    return Outcome(
        None,
        0,
        None,
        None,
        state.changed(fired_weapon=True),
        clauses,
        (
            "Fired: the sN attacks with HE in this Close Combat, as a weapon (D13.1); resolve"
            " that attack by the Close Combat rules (A11.622). No smoke is placed (D13.34).",
        ),
    )
