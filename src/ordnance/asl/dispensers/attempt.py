"""One smoke dispenser usage attempt: refusals, the usage DR, its DRMs and what follows (D13.2-.34).

The Final DR (Original plus every DRM) is compared with the Usage Number: at most it, the
dispenser fires (D13.3). No Depletion Number is involved (C8.9-scope) and Elite status changes
nothing (D13.1).

>>> from ordnance.core.hexgrid import Hex
>>> from ordnance.asl.dispensers.state import Mount
>>> state = AfvState(hex=Hex(0, 0), tca=Corner.NNE, mount=Mount.T, mp_allowance=16)
>>> aim = SmokeMortarAim(target=Hex(2, -1), in_los=True, hindrance=1, facing=Corner.E)
>>> r = resolve_dispenser(state, Dispenser(Family.SMOKE_MORTAR, 8), DR(2, 3), aim=aim)
>>> [str(d) for d in r.drms]
['+1 the AFV is buttoned up', '+1 Case A: the TCA turns 1 hexspine (T mount) to fire', ...]
>>> r.final_dr, r.fired, r.mp_cost, r.new_facing, r.state_after.tca, r.state_after.mp_spent
(8, True, 1, Corner.E, Corner.E, 1)

Readings (where the text leaves a choice, see the package docstring for the full list):

* Smoke dispensers are AFV equipment (D13.1 speaks of AFVs): an unarmored vehicle is refused.
* In its own MPh an AFV with a known MP allowance and no MP left is refused (D13.2-mp).
* The sN's HE use in Close Combat (``he_in_cc``) is a CCPh use of a weapon (D13.1 EXC): no BU
  DRM (D13.3 EXC), the AFV must be BU (D13.34), crew checks apply; the once-per-Player-Turn
  and fired-already limits of D13.2 govern smoke placement in the MPh, not this. The attack
  itself is Close Combat (A11.622), outside this engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ordnance.asl.dispensers.aim import SmokeMortarAim, case_a_drm, check_aim, turn_of
from ordnance.asl.dispensers.checks import check_common, check_crew
from ordnance.asl.dispensers.outcome import LaterFire, Outcome, cc_outcome, smoke_outcome
from ordnance.asl.dispensers.placement import SmokePlacement
from ordnance.asl.dispensers.state import AfvState, plain
from ordnance.asl.dispensers.usage import Dispenser
from ordnance.asl.notation import Family
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.asl.smoke import Phase
from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Corner
from ordnance.core.rulings import DRM, Ruling, total

__all__ = [
    "DispenserRuling",
    "LaterFire",
    "check_dispenser",
    "dispenser_drms",
    "resolve_dispenser",
]


@dataclass(frozen=True, kw_only=True)
class DispenserRuling(Ruling):
    """One usage attempt (see the module docstring); ``state_after`` is the state to keep."""

    dispenser: str
    token: str
    usage_number: int
    dice: DR
    original_dr: int
    final_dr: int
    drms: tuple[DRM, ...]
    fired: bool
    he_in_cc: bool
    placement: SmokePlacement | None
    mp_cost: int
    new_facing: Corner | None
    later_fire: LaterFire | None
    state_after: AfvState

    def to_json(self) -> dict[str, Any]:
        """Corners by name and hexes as ``q,r,s`` (see :func:`plain`)."""
        result = plain(self)
        assert isinstance(result, dict)
        return result


def check_dispenser(
    state: AfvState,
    dispenser: Dispenser,
    *,
    aim: SmokeMortarAim | None = None,
    he_in_cc: bool = False,
) -> None:
    """Refuse an attempt the rules forbid (IllegalAction with the clause); quiet otherwise.

    A game calls this before rolling, so that no dice are spent on a refused attempt.
    """
    family = dispenser.family
    if (aim is not None) != (family is Family.SMOKE_MORTAR and not he_in_cc):
        problem = "an sM needs a target hex" if aim is None else "only an sM is aimed at a hex"
        raise BadInput("sM target", "" if aim is None else str(aim.target), problem)
    if not state.armored:
        raise IllegalAction(
            "D13.1", "smoke dispensers are fitted to AFVs; an unarmored vehicle has none"
        )
    if he_in_cc:
        _check_he_in_cc(state, family)
        return
    check_common(state, "dispenser")
    if family is Family.SMOKE_POT and not state.ce:
        raise IllegalAction("D13.33", "an sP is used only by a CE crew; this AFV is BU")
    if family is Family.NAHVERTEIDIGUNGSWAFFE and not state.buttoned_up:
        raise IllegalAction("D13.34", "an sN is used only by a BU AFV; this crew is CE")
    if aim is not None:
        check_aim(state, aim)


def _check_he_in_cc(state: AfvState, family: Family) -> None:
    if family is not Family.NAHVERTEIDIGUNGSWAFFE:
        raise IllegalAction("D13.34", "only an sN has an HE use, and only in Close Combat")
    if state.phase is not Phase.CCPH:
        raise IllegalAction("D13.34", f"the sN fires HE only in the CCPh, not the {state.phase}")
    check_crew(state)
    if not state.buttoned_up:
        raise IllegalAction("D13.34", "an sN is used only by a BU AFV; this crew is CE")


def dispenser_drms(
    state: AfvState,
    dispenser: Dispenser,
    *,
    aim: SmokeMortarAim | None = None,
    he_in_cc: bool = False,
    settings: Settings = DEFAULT,
) -> tuple[DRM, ...]:
    """Every DRM of the usage DR, each with its reason and clause.

    >>> [str(d) for d in dispenser_drms(AfvState(), Dispenser(Family.SMOKE_DISCHARGER, 7))]
    ['+1 the AFV is buttoned up']
    >>> dispenser_drms(AfvState(), Dispenser(Family.NAHVERTEIDIGUNGSWAFFE, 7), he_in_cc=True)
    ()
    """
    drms: list[DRM] = []
    if state.buttoned_up and not he_in_cc:
        drms.append(DRM(1, "the AFV is buttoned up", "D13.3"))
    if aim is None:
        return tuple(drms)
    _, hexspines = turn_of(state, aim)
    if hexspines:
        arc = "TCA" if state.mount.turreted else "VCA"
        drms.append(
            DRM(
                case_a_drm(state.mount, hexspines, settings),
                f"Case A: the {arc} turns {hexspines} hexspine{'s' * (hexspines > 1)}"
                f" ({state.mount} mount) to fire",
                "D13.32-drm",
            )
        )
    if state.moving_or_motion:
        drms.append(DRM(2, f"the AFV is {_motion_words(state)}", "D13.32-drm"))
    if aim.hindrance:
        drms.append(DRM(aim.hindrance, "LOS Hindrance to the target hex", "D13.32-drm"))
    if aim.dust:
        drms.append(DRM(aim.dust, "Dust dr (F11.7)", "D13.32-drm"))
    return tuple(drms)


def _motion_words(state: AfvState) -> str:
    if state.moving and state.in_motion:
        return "moving and in Motion"
    return "moving" if state.moving else "in Motion"


def resolve_dispenser(
    state: AfvState,
    dispenser: Dispenser,
    roll: DR,
    *,
    aim: SmokeMortarAim | None = None,
    he_in_cc: bool = False,
    settings: Settings = DEFAULT,
) -> DispenserRuling:
    """Check, roll-compare and rule one usage attempt; refused attempts raise IllegalAction.

    >>> r = resolve_dispenser(AfvState(ce=True), Dispenser(Family.SMOKE_POT, 5), DR(3, 3))
    >>> r.fired, r.mp_cost, r.placement, r.state_after.dispenser_attempted
    (False, 0, None, True)
    """
    check_dispenser(state, dispenser, aim=aim, he_in_cc=he_in_cc)
    drms = dispenser_drms(state, dispenser, aim=aim, he_in_cc=he_in_cc, settings=settings)
    final = roll.total + total(drms)
    fired = final <= dispenser.usage_number
    outcome = (
        cc_outcome(state, fired)
        if he_in_cc
        else smoke_outcome(state, dispenser, aim, fired, drms, settings=settings)
    )
    return _ruling(dispenser, roll, drms, final, fired, he_in_cc=he_in_cc, outcome=outcome)


def _ruling(
    dispenser: Dispenser,
    roll: DR,
    drms: tuple[DRM, ...],
    final: int,
    fired: bool,
    *,
    he_in_cc: bool,
    outcome: Outcome,
) -> DispenserRuling:
    head = _comparison(dispenser, roll, drms, final, fired)
    sentences = [head, *outcome.sentences]
    if dispenser.elite:
        sentences.append(
            "Elite status leaves a Usage Number as printed (D13.1; C8.2-elite raises only"
            " Depletion Numbers)."
        )
    clauses = ("D13.1", "C8.9-scope", *outcome.clauses)
    return DispenserRuling(
        dispenser=dispenser.kind,
        token=dispenser.token or f"{dispenser.kind}{dispenser.usage_number}",
        usage_number=dispenser.usage_number,
        dice=roll,
        original_dr=roll.total,
        final_dr=final,
        drms=drms,
        fired=fired,
        he_in_cc=he_in_cc,
        placement=outcome.placement,
        mp_cost=outcome.mp_cost,
        new_facing=outcome.new_facing,
        later_fire=outcome.later_fire,
        state_after=outcome.state_after,
        clauses=tuple(dict.fromkeys(clauses)),
        explanation=" ".join(sentences),
    )


def _comparison(
    dispenser: Dispenser, roll: DR, drms: tuple[DRM, ...], final: int, fired: bool
) -> str:
    modifiers = "".join(f" {d.value:+d} ({d.reason})" for d in drms)
    relation = "<=" if fired else ">"
    return (
        f"{dispenser.kind} usage DR {roll} = {roll.total}{modifiers}: Final DR {final}"
        f" {relation} Usage Number {dispenser.usage_number} (D13.3; a Usage Number, no"
        " Depletion Number, C8.9-scope)."
    )
