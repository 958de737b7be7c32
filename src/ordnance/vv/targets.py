"""Valid AP targets for a selection of units (VV.AP-select): what the PC game marks with a
cross-hair, with the final modifiers and the odds each attack would get.

Every enemy-held hex of the map is tried with :func:`~ordnance.vv.groups.check_attack`, the
same check a fire command passes, so a hex is listed exactly when firing at it would be
accepted; the others come back with the refusal that rules them out.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> from ordnance.vv.board import Board, Status
>>> from ordnance.vv.counters import Counter
>>> from ordnance.vv.units import Kind, Unit
>>> grid = GridLabels(columns=8, rows=8)
>>> m = GameMap("demo", "vv", grid, "open", {grid.parse("C4"): "woods", grid.parse("E2"): "woods"})
>>> c = Counter.parse
>>> units = {"a": Unit("a", "us", Kind.SQUAD, counter=c("4-6-5")),
...          "g": Unit("g", "de", Kind.SQUAD, counter=c("4-6-5")),
...          "h": Unit("h", "de", Kind.SQUAD, counter=c("4-6-5"))}
>>> board = Board(m, units, {"a": Status(grid.parse("C6")), "g": Status(grid.parse("C4")),
...                          "h": Status(grid.parse("C1"))})
>>> found = valid_targets(board, "us", ("a",))
>>> [(board.label(t.attack.order.target), t.attack.drm) for t in found.targets]
[('C4', 2)]
>>> [(board.label(hex), refusal.clause) for hex, refusal in found.refused]
[('C1', 'VV.AP-select')]
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

from ordnance.core.errors import IllegalAction
from ordnance.core.hexgrid import Hex
from ordnance.vv.board import Board
from ordnance.vv.groups import Attack, FireOrder, Pool, check_attack, check_group
from ordnance.vv.odds import expected_cp


@dataclass(frozen=True)
class Target:
    """One valid target hex: the attack as it would be made and its expected CP."""

    attack: Attack
    expected: Fraction


@dataclass(frozen=True)
class Targets:
    """The valid targets, nearest first, and each refused enemy hex with its refusal."""

    targets: tuple[Target, ...]
    refused: tuple[tuple[Hex, IllegalAction], ...]


def enemy_hexes(board: Board, side: str) -> tuple[Hex, ...]:
    """Hexes holding a unit of another side, in the map's order."""
    held = {board.hex_of(u) for u in board.units if board.alive(u) and board.unit(u).side != side}
    return tuple(h for h in board.game_map if h in held)


def valid_targets(
    board: Board,
    side: str,
    units: tuple[str, ...],
    *,
    movers: tuple[str, ...] | None = None,
    at: Hex | None = None,
    attacked: Collection[tuple[str, str]] = (),
    pool: Pool | None = None,
    grenades: tuple[str, ...] = (),
    satchels: tuple[str, ...] = (),
) -> Targets:
    """Where ``units`` may fire now (a refusal when they may not fire together at all).

    ``movers`` and ``at``: an Opportunity Fire window (only the entering stack in that hex is a
    target); ``attacked``: this turn's (grouping class, target label) pairs; ``grenades`` and
    ``satchels``: the units that would use one (adjacent hexes only, from ``pool``).
    """
    check_group(board, side, units)
    hexes = (at,) if at is not None else enemy_hexes(board, side)
    found: list[Target] = []
    refused: list[tuple[Hex, IllegalAction]] = []
    for hex in hexes:
        order = FireOrder(side, units, hex, grenades=grenades, satchels=satchels, movers=movers)
        try:
            attack = check_attack(board, order, attacked=attacked, pool=pool)
        except IllegalAction as refusal:
            refused.append((hex, refusal))
            continue
        found.append(Target(attack, expected_cp(attack.apfp, attack.drm, board.settings)))
    found.sort(key=lambda t: t.attack.range)
    return Targets(tuple(found), tuple(refused))
