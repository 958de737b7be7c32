"""The DRMs an AP attack gets from where it goes: cover, hindrances, smoke, Opportunity Fire.

Added to the 2d6 roll (r. 13.4, 14.5; reference/vv.md sections 5, 7, 9, 10; VV.AP-resolve):

- the target hex's cover: its terrain and the wall or hedge the line enters it by
  (:func:`ordnance.vv.los.vv_los` reports both), plus a fortification there (r. 20), plus
  Assault Movement (+1, r. 6.4; setting ``assault_cover_needs_all``);
- every hindrance the line meets, smoke in the target hex included (r. 9, 11);
- Opportunity Fire (r. 13.8): -1 when the target has no positive cover of its own (setting
  ``opfire_cover_ignores_hindrance``), -2 when it is adjacent.

The group adds its own: the Leadership Modifier and grenades (:mod:`ordnance.vv.groups`).

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> from ordnance.vv.board import Board, Status
>>> from ordnance.vv.counters import Counter
>>> from ordnance.vv.units import Kind, Unit
>>> grid = GridLabels(columns=6, rows=6)
>>> m = GameMap("demo", "vv", grid, "open", {grid.parse("C3"): "woods"})
>>> units = {"g": Unit("g", "de", Kind.SQUAD, counter=Counter.parse("4-6-5"))}
>>> board = Board(m, units, {"g": Status(grid.parse("C3"))}, {grid.parse("C3"): "foxholes"})
>>> [str(d) for d in hex_drms(board, grid.parse("C5"), grid.parse("C3"), ("g",))]
['+2 cover: woods +2', '+1 foxholes']
>>> [str(d) for d in hex_drms(board, grid.parse("C4"), grid.parse("C3"), ("g",), opfire=True)]
['+2 cover: woods +2', '+1 foxholes', '-2 Opportunity Fire: target adjacent']
"""

from __future__ import annotations

from collections.abc import Sequence

from ordnance.core.hexgrid import Hex
from ordnance.core.rulings import DRM
from ordnance.vv.board import Board
from ordnance.vv.numbers import RULES

RESOLVE = "VV.AP-resolve"
PHASES = "VV.AP-phases"


def hex_drms(
    board: Board, firer: Hex, target: Hex, victims: Sequence[str], *, opfire: bool = False
) -> tuple[DRM, ...]:
    """The DRMs the target hex and the line to it give an attack on ``victims`` from ``firer``."""
    verdict = board.los(firer, target)
    own: list[DRM] = []
    cover = verdict.cover
    if cover is not None and cover.value:
        own.append(DRM(cover.value, f"cover: {cover.reason}", RESOLVE))
    fortification = board.fortifications.get(target)
    if fortification is not None:
        own.append(DRM(RULES.fortifications[fortification], fortification, RESOLVE))
    if _assaulting(board, victims):
        own.append(DRM(RULES.assault_cover, "Assault Movement", RESOLVE))
    drms = list(own)
    if verdict.total:
        reasons = ", ".join(f"{h.reason} +{h.drm}" for h in verdict.hindrances)
        drms.append(DRM(verdict.total, f"hindrance: {reasons}", RESOLVE))
    if opfire:
        counted = sum(d.value for d in own)
        if not board.settings.opfire_cover_ignores_hindrance:
            counted += verdict.total
        if counted <= 0:
            drms.append(DRM(RULES.opfire_no_cover, "Opportunity Fire: no positive cover", PHASES))
        if firer.distance(target) == 1:
            drms.append(DRM(RULES.opfire_adjacent, "Opportunity Fire: target adjacent", PHASES))
    return tuple(drms)


def _assaulting(board: Board, victims: Sequence[str]) -> bool:
    moving = [board.status[u].assault for u in victims]
    if not moving:
        return False
    return all(moving) if board.settings.assault_cover_needs_all else any(moving)
