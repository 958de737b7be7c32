"""What a successful attempt puts on the map, and where, as a value the game can place.

* sD, sP, sN: white Dispersed SMOKE in the AFV's own hex, at its Base Level (D13.31, D13.33,
  D13.34).
* sM: Dispersed SMOKE in the chosen target hex, at its Base Level (D13.32-place). The text does
  not say "white" for the sM; a smoke mortar fires SMOKE, not WP, so the engine reads it as white
  like the others.
* grenades: a half-inch SMOKE counter in the vehicle's own Location (D13.35); placed in the
  opponent's MPh it goes at the end of that MPh; placed in the vehicle's own MPh the setting
  ``grenade_smoke_gone_after_own_mph`` decides (A24.11).

>>> p = dispenser_placement("sD", own_hex=Hex(0, 0))
>>> p.counter, p.where, p.level, p.white
('Dispersed SMOKE', 'own hex', 'Base Level', True)
>>> grenade_placement(None, own_turn=False).removal
'end of this MPh'
"""

from __future__ import annotations

from dataclasses import dataclass

from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.hexgrid import Hex

DISPERSED = "Dispersed SMOKE"
GRENADE = "half-inch SMOKE"
END_OF_MPH = "end of this MPh"
OWNER_NEXT_PFPH = "owner's next PFPh"

_CLAUSE = {"sD": "D13.31", "sM": "D13.32-place", "sP": "D13.33", "sN": "D13.34"}


@dataclass(frozen=True, kw_only=True)
class SmokePlacement:
    """One SMOKE counter to place.

    ``where`` is ``own hex``, ``target hex`` or ``own Location``; ``hex`` is that hex when the
    caller's state gave positions (None otherwise); ``range`` is 0 for the own hex. ``removal``
    names when the counter goes, when D13 says so (None: the normal SMOKE rules, A24).
    """

    counter: str
    white: bool
    dispersed: bool
    where: str
    hex: Hex | None
    range: int
    level: str
    removal: str | None
    clause: str


def dispenser_placement(
    kind: str, *, own_hex: Hex | None, target: Hex | None = None, reach: int = 0
) -> SmokePlacement:
    """The smoke a dispenser of ``kind`` places when it fires (sM: in ``target``).

    >>> dispenser_placement("sM", own_hex=None, target=Hex(0, -2), reach=2).where
    'target hex'
    """
    mortar = kind == "sM"
    return SmokePlacement(
        counter=DISPERSED,
        white=True,
        dispersed=True,
        where="target hex" if mortar else "own hex",
        hex=target if mortar else own_hex,
        range=reach if mortar else 0,
        level="Base Level",
        removal=None,
        clause=_CLAUSE[kind],
    )


def grenade_placement(
    own_hex: Hex | None, *, own_turn: bool, settings: Settings = DEFAULT
) -> SmokePlacement:
    """The half-inch SMOKE counter of successful vehicular smoke grenades (D13.35).

    >>> grenade_placement(None, own_turn=True).removal
    'end of this MPh'
    >>> grenade_placement(None, own_turn=True,
    ...                   settings=Settings(grenade_smoke_gone_after_own_mph=False)).removal
    "owner's next PFPh"
    """
    if own_turn and not settings.grenade_smoke_gone_after_own_mph:
        removal = OWNER_NEXT_PFPH
    else:
        removal = END_OF_MPH
    return SmokePlacement(
        counter=GRENADE,
        white=True,
        dispersed=False,
        where="own Location",
        hex=own_hex,
        range=0,
        level="the vehicle's Location",
        removal=removal,
        clause="D13.35",
    )
