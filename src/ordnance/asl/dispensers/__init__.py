"""ASL D13: vehicular smoke dispensers (sD, sM, sP, sN) and vehicular smoke grenades.

Pure functions over an explicit state value: the game keeps an :class:`AfvState` per vehicle and
calls, for a dispenser,

1. :func:`pick_dispenser` (the counter's tokens and the scenario context -> a :class:`Dispenser`
   with its Usage Number, D13.1, D13.34);
2. :func:`check_dispenser` before rolling (refusals raise ``IllegalAction`` naming the clause);
3. :func:`resolve_dispenser` with the DR -> a :class:`DispenserRuling` (``fired``, the DRMs,
   ``placement``, ``mp_cost``, ``new_facing``, ``later_fire``, ``state_after``);

and for grenades :func:`check_grenades` then :func:`resolve_grenades` with the dr. Odds:
:func:`dispenser_odds`, :func:`grenade_odds`. Between Player Turns:
:meth:`AfvState.next_player_turn`.

>>> from ordnance.asl.dates import ScenarioDate
>>> from ordnance.asl.notation import parse_capabilities
>>> from ordnance.core.dice import DR
>>> sd = pick_dispenser(parse_capabilities("sD7"), AmmoContext(ScenarioDate(1944, 6)))
>>> ruling = resolve_dispenser(AfvState(), sd, DR(3, 3))
>>> ruling.fired, ruling.final_dr, ruling.placement.where, ruling.mp_cost
(True, 7, 'own hex', 1)
>>> resolve_dispenser(ruling.state_after, sd, DR(1, 1))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.IllegalAction: refused by D13.2 (D13.2-once): a smoke dispenser is already ...

Readings where the text leaves a choice (settings in :mod:`ordnance.asl.settings`):

* ``case_a_rst_first_hexspine`` (2): the RST row of Case A; ``grenade_smoke_gone_after_own_mph``
  (true): grenade SMOKE placed in the own MPh goes at the end of that MPh;
  ``sn_first_number_from_month`` (7, from C8): when a dated sN's 1944 number starts.

Readings built in (the text allows no other sensible one):

* dispensers are AFV equipment: an unarmored vehicle is refused (D13.1);
* grenades take no DRM: the dr numbers of D13.35 already cover BU (a +1 would make "dr 1"
  impossible), and they cost 1 MP on success in the own MPh, like a dispenser (D13.2-mp);
* one attempt of each device per Player Turn, and never both in the same MPh; since a Player
  Turn has one MPh, a vehicle makes at most one smoke attempt per Player Turn;
* with a known MP allowance, an own-MPh attempt needs 1 MP left (a success must be payable);
* sM smoke is white Dispersed SMOKE like the others (the text omits "white" there only);
* moving and in Motion together add +2 once; LOS Hindrance and Dust DRMs are given by the
  caller's map (the Dust DRM already rolled by its F11.7 dr);
* the sM's arc is the TCA (the VCA for an NT mount, which turns the hull); it turns, and the
  ruling's ``new_facing`` is set, only on success (D13.32-drm);
* sN HE in Close Combat: see :mod:`ordnance.asl.dispensers.attempt`.
"""

from ordnance.asl.capabilities import AmmoContext
from ordnance.asl.dispensers.aim import SM_RANGE, SmokeMortarAim, case_a_drm, check_aim
from ordnance.asl.dispensers.attempt import (
    DispenserRuling,
    LaterFire,
    check_dispenser,
    dispenser_drms,
    resolve_dispenser,
)
from ordnance.asl.dispensers.grenades import (
    GrenadeRuling,
    check_grenades,
    grenade_number,
    resolve_grenades,
)
from ordnance.asl.dispensers.odds import (
    FIRED,
    NOT_FIRED,
    NOT_PLACED,
    PLACED,
    dispenser_odds,
    grenade_odds,
    yes_no_table,
)
from ordnance.asl.dispensers.placement import SmokePlacement
from ordnance.asl.dispensers.state import AfvState, Crew, Mount, hexspines_between
from ordnance.asl.dispensers.usage import (
    DISPENSER_FAMILIES,
    Dispenser,
    dispenser_family,
    pick_dispenser,
)

__all__ = [
    "DISPENSER_FAMILIES",
    "FIRED",
    "NOT_FIRED",
    "NOT_PLACED",
    "PLACED",
    "SM_RANGE",
    "AfvState",
    "AmmoContext",
    "Crew",
    "Dispenser",
    "DispenserRuling",
    "GrenadeRuling",
    "LaterFire",
    "Mount",
    "SmokeMortarAim",
    "SmokePlacement",
    "case_a_drm",
    "check_aim",
    "check_dispenser",
    "check_grenades",
    "dispenser_drms",
    "dispenser_family",
    "dispenser_odds",
    "grenade_number",
    "grenade_odds",
    "hexspines_between",
    "pick_dispenser",
    "resolve_dispenser",
    "resolve_grenades",
    "yes_no_table",
]
