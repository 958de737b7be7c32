r"""Where an LnLT Smoke or WP shell puts its marker (LNL.S-hit, LNL.S-miss, LNL.S-los, LNL.W-proc).

A hit lands in the target hex; a miss one hex short of it along the LOS (an odd roll) or one
hex beyond (an even one); a double places nothing (:mod:`ordnance.lnl.shell` reads the roll).
The hex must be on the map and seen from the firer along a clear LOS, else nothing is placed.
Where the LOS runs along a hexside next to the target two hexes tie, and the enemy player
picks one: the landing then waits for :func:`settle`. Readings (:mod:`ordnance.lnl.settings`):
which of the two the enemy may pick (``choice_among``), whether an automated opponent picks at
once (``enemy_choice``), what "clear" means (``clear_allows_degrading``) and whether a short
miss at an adjacent target lands in the firer's own hex (``short_into_own_hex``).

F in B2 fires at T in E4, three hexes down a straight row of south-east neighbours. One short
is s (D3), one beyond is b (F4). With woods in T's own hex, a hit or a short shell is placed,
but the woods block the LOS to b, so a long miss places nothing::

     __
    /F \__
    \__/. \__
       \__/s \__
          \__/T \__
             \__/b \
                \__/

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> grid = GridLabels(columns=10, rows=8)
>>> firer, target = grid.parse("B2"), grid.parse("E4")
>>> m = GameMap("demo", "lnl", grid, "open")
>>> [grid.label(h) for h in landing_hexes(m, firer, target, Result.SHORT)]
['D3']
>>> grid.label(land(m, firer, target, Result.BEYOND).hex)
'F4'
>>> wooded = GameMap("demo", "lnl", grid, "open", {target: "woods"})
>>> land(wooded, firer, target, Result.BEYOND).nothing
<Nothing.BLOCKED: 'blocked'>
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Hex, one_beyond, one_short
from ordnance.core.maps import GameMap
from ordnance.lnl.los import lnl_los
from ordnance.lnl.settings import DEFAULT, LnlSettings


class Result(enum.StrEnum):
    """What a Smoke or WP shell's To Hit roll did."""

    HIT = "hit"
    SHORT = "short"  # a miss with an odd roll
    BEYOND = "beyond"  # a miss with an even roll that is not a double
    NONE = "none"  # a miss with a double: nothing is placed


class Nothing(enum.StrEnum):
    """Why a shot places no marker."""

    DOUBLE = "double"
    BLOCKED = "blocked"  # no clear LOS from the firer to the hex
    OFF_MAP = "off map"
    OWN_HEX = "own hex"  # a short miss at an adjacent target, under short_into_own_hex=false


@dataclass(frozen=True)
class Landing:
    """Where the marker goes: ``hex``, or nothing (``nothing`` says why), or, while the enemy
    has to choose, no hex yet and the two ``candidates``."""

    result: Result
    hex: Hex | None = None
    candidates: tuple[Hex, ...] = ()
    nothing: Nothing | None = None

    @property
    def waits(self) -> bool:
        """True while the enemy side still has to pick one of the candidates."""
        return self.hex is None and self.nothing is None


def seen(game_map: GameMap, firer: Hex, hex: Hex, settings: LnlSettings = DEFAULT) -> bool:
    """Whether the firer has the clear LOS a marker needs to land in ``hex`` (LNL.S-los)."""
    if hex == firer:
        return True
    verdict = lnl_los(game_map, firer, hex)
    return verdict.clear and (settings.clear_allows_degrading or verdict.total == 0)


def _geometric(
    game_map: GameMap, firer: Hex, target: Hex, result: Result, settings: LnlSettings
) -> tuple[tuple[Hex, ...], Nothing | None]:
    """The hexes on the map a miss may land in, or why there are none."""
    step = one_short if result is Result.SHORT else one_beyond
    hexes = tuple(h for h in step(firer, target) if h in game_map)
    if not hexes:
        return (), Nothing.OFF_MAP
    if result is Result.SHORT and hexes == (firer,) and not settings.short_into_own_hex:
        return (), Nothing.OWN_HEX
    return hexes, None


def landing_hexes(
    game_map: GameMap, firer: Hex, target: Hex, result: Result, settings: LnlSettings = DEFAULT
) -> tuple[Hex, ...]:
    """The hex(es) a miss (``SHORT`` or ``BEYOND``) may put its marker in, seen from the firer;
    empty when nothing can be placed."""
    hexes, _ = _geometric(game_map, firer, target, result, settings)
    return tuple(h for h in hexes if seen(game_map, firer, h, settings))


def land(
    game_map: GameMap,
    firer: Hex,
    target: Hex,
    result: Result,
    settings: LnlSettings = DEFAULT,
) -> Landing:
    """Where a shot with this ``result`` puts its marker (see the module docstring)."""
    if result is Result.NONE:
        return Landing(result, nothing=Nothing.DOUBLE)
    if result is Result.HIT:
        # The target is in LOS (LNL.S-hex); a stricter "clear" may still refuse the marker.
        if seen(game_map, firer, target, settings):
            return Landing(result, target)
        return Landing(result, nothing=Nothing.BLOCKED)
    hexes, why = _geometric(game_map, firer, target, result, settings)
    if why is not None:
        return Landing(result, nothing=why)
    if settings.choice_among == "seen":
        hexes = tuple(h for h in hexes if seen(game_map, firer, h, settings))
    if not hexes:
        return Landing(result, nothing=Nothing.BLOCKED)
    if len(hexes) == 1:
        return _placed(game_map, firer, Landing(result), hexes[0], settings)
    waiting = Landing(result, candidates=hexes)
    if settings.enemy_choice == "lowest":
        order = {h: i for i, h in enumerate(game_map)}
        return settle(game_map, firer, waiting, min(hexes, key=order.__getitem__), settings)
    return waiting


def settle(
    game_map: GameMap, firer: Hex, landing: Landing, chosen: Hex, settings: LnlSettings = DEFAULT
) -> Landing:
    """The landing once the enemy side has picked ``chosen`` among the candidates."""
    if not landing.waits:
        raise BadInput("choice", game_map.label(chosen), "no choice of landing hex is pending")
    if chosen not in landing.candidates:
        # A hex on the map the rule does not offer is a refused choice, not bad input.
        options = " or ".join(game_map.label(h) for h in landing.candidates)
        raise IllegalAction(
            "LNL.S-los",
            f"{game_map.label(chosen)} is not a landing hex the rule allows: the shell lands in"
            f" {options}",
        )
    return _placed(game_map, firer, landing, chosen, settings)


def _placed(
    game_map: GameMap, firer: Hex, landing: Landing, hex: Hex, settings: LnlSettings
) -> Landing:
    if seen(game_map, firer, hex, settings):
        return replace(landing, hex=hex)
    return replace(landing, nothing=Nothing.BLOCKED)
