"""SMOKE the game puts on the map (D13): where it lies, who placed it, and when it goes.

A marker is named as the ASL terrain table names it (``dispersed smoke``, ``grenade smoke``),
so a map with the game's markers on it hinders lines of sight exactly as a map file's markers
do (:func:`ordnance.asl.los.asl_los`) and is drawn the same way.

When a marker goes (readings; README, Games):

* ``end of this MPh``: vehicular grenade SMOKE, when the MPh it was placed in ends (D13.35;
  in the vehicle's own MPh only under the setting ``grenade_smoke_gone_after_own_mph``);
* ``owner's next PFPh``: Dispersed SMOKE from a dispenser (and grenade SMOKE when that setting
  is false), and Dispersed SMOKE or WP from ordnance, goes at the start of its owner's next
  Prep Fire Phase, as A24.4 removes a player's Dispersed SMOKE;
* ``flips at owner's next PFPh``: full SMOKE or WP from ordnance (C8.51, C8.6) turns into its
  Dispersed side at the start of its owner's next PFPh (A24.4; WP too, as VASL flips it, or
  removed under the setting ``ordnance_wp_flips``), and then goes at the PFPh after.

>>> full = SmokeMarker(Hex(2, -1), "smoke", "pak", "german", FLIP_OWNER_NEXT_PFPH)
>>> flipped = full.after(Phase.RPH, "german", Phase.PFPH)
>>> flipped.marker, flipped.removal
('dispersed smoke', "owner's next PFPh")
>>> full.after(Phase.RPH, "russian", Phase.PFPH) is full
True

>>> from ordnance.core.hexgrid import Hex
>>> from ordnance.asl.dispensers.placement import END_OF_MPH
>>> m = SmokeMarker(Hex(2, -1), "grenade smoke", "m4", "american", END_OF_MPH)
>>> m.expires(Phase.MPH, "american", Phase.DFPH), m.expires(Phase.PFPH, "american", Phase.MPH)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ordnance.asl.dispensers.placement import END_OF_MPH, OWNER_NEXT_PFPH
from ordnance.asl.smoke import Phase
from ordnance.core.hexgrid import Hex
from ordnance.core.maps import GameMap

DISPERSED_SMOKE = "dispersed smoke"
GRENADE_SMOKE = "grenade smoke"
FLIP_OWNER_NEXT_PFPH = "flips at owner's next PFPh"
REMOVALS = (END_OF_MPH, OWNER_NEXT_PFPH, FLIP_OWNER_NEXT_PFPH)
# A full marker's Dispersed side (the terrain table's names).
DISPERSED_SIDE = {"smoke": DISPERSED_SMOKE, "wp": "dispersed wp"}


@dataclass(frozen=True)
class SmokeMarker:
    """One SMOKE counter: its hex (None when the scenario gives no positions), the terrain
    table's name for it, the unit and side that placed it, and when it goes."""

    hex: Hex | None
    marker: str
    unit: str
    side: str
    removal: str

    def expires(self, ending: Phase, player: str, beginning: Phase) -> bool:
        """Whether it goes (or flips) when ``ending`` ends and ``player``'s ``beginning``
        phase begins."""
        if self.removal == END_OF_MPH:
            # Placed during an MPh: the first phase change after it is that MPh's end.
            return ending is Phase.MPH
        return beginning is Phase.PFPH and player == self.side

    def after(
        self, ending: Phase, player: str, beginning: Phase, *, wp_flips: bool = True
    ) -> SmokeMarker | None:
        """This marker once that phase change is made: itself, its Dispersed side, or None."""
        if not self.expires(ending, player, beginning):
            return self
        if self.removal != FLIP_OWNER_NEXT_PFPH or (self.marker == "wp" and not wp_flips):
            return None
        return replace(self, marker=DISPERSED_SIDE[self.marker], removal=OWNER_NEXT_PFPH)


def on_map(game_map: GameMap, markers: Iterable[SmokeMarker]) -> GameMap:
    """The map with the game's SMOKE added to the markers its file already has."""
    merged = dict(game_map.markers)
    for marker in markers:
        if marker.hex is not None:
            merged[marker.hex] = (*merged.get(marker.hex, ()), marker.marker)
    return replace(game_map, markers=merged)
