"""Exact odds of a dispenser attempt (36 ordered DRs) and of vehicular smoke grenades (6 drs).

Each distribution runs the resolution functions themselves over every roll and labels what
they rule, so the odds cannot drift from the rulings (SYS.odds). A refused attempt is refused
before any roll, exactly as the game would refuse it.

>>> from ordnance.asl.notation import Family
>>> odds = dispenser_odds(AfvState(), Dispenser(Family.SMOKE_DISCHARGER, 7))
>>> odds[FIRED], odds[NOT_FIRED]  # BU: Final DR = Original + 1 <= 7, Original 2-6
(Fraction(5, 12), Fraction(7, 12))
>>> grenade_odds(AfvState(ce=True))[PLACED]
Fraction(1, 3)
"""

from __future__ import annotations

from ordnance.asl.dispensers.aim import SmokeMortarAim
from ordnance.asl.dispensers.attempt import check_dispenser, resolve_dispenser
from ordnance.asl.dispensers.grenades import check_grenades, resolve_grenades
from ordnance.asl.dispensers.state import AfvState
from ordnance.asl.dispensers.usage import Dispenser
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.dice import DR, DieRoll
from ordnance.core.odds import Distribution, OutcomeOdds

FIRED, NOT_FIRED = "fired", "not fired"
PLACED, NOT_PLACED = "placed", "not placed"

__all__ = [
    "FIRED",
    "NOT_FIRED",
    "NOT_PLACED",
    "PLACED",
    "dispenser_odds",
    "grenade_odds",
    "yes_no_table",
]


def dispenser_odds(
    state: AfvState,
    dispenser: Dispenser,
    *,
    aim: SmokeMortarAim | None = None,
    he_in_cc: bool = False,
    settings: Settings = DEFAULT,
) -> Distribution[str]:
    """``fired`` / ``not fired`` over the 36 ordered DRs, with every DRM of the attempt."""
    check_dispenser(state, dispenser, aim=aim, he_in_cc=he_in_cc)

    def label(roll: DR) -> str:
        ruling = resolve_dispenser(
            state, dispenser, roll, aim=aim, he_in_cc=he_in_cc, settings=settings
        )
        return FIRED if ruling.fired else NOT_FIRED

    return Distribution.dr().map(label)


def grenade_odds(state: AfvState, settings: Settings = DEFAULT) -> Distribution[str]:
    """``placed`` / ``not placed`` over the six drs."""
    check_grenades(state)

    def label(roll: DieRoll) -> str:
        return PLACED if resolve_grenades(state, roll, settings).placed else NOT_PLACED

    return Distribution.die().map(label)


def yes_no_table(distribution: Distribution[str], yes: str, no: str) -> list[OutcomeOdds]:
    """Both rows of a yes/no question, a certain or impossible one included (at 0).

    >>> [row.probability for row in yes_no_table(Distribution.certain(FIRED), FIRED, NOT_FIRED)]
    [Fraction(1, 1), Fraction(0, 1)]
    """
    return [OutcomeOdds(label, distribution[label]) for label in (yes, no)]
