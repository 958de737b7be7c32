r"""Shared pieces of the LnLT tests, imported as ``tests.lnl.hamlet``: a plain grid, and the
hamlet map and scenario of the game tests.

The hamlet (10 x 8 plain grid, columns B, D, F... half a hex lower)::

    A1 and G4: hills (level 2), on one straight line A1 B1 C2 D2 E3 F3 G4
    E3: a building (the WP target), E7: the German tank, E2: a US squad that will enter E3

    E7 -> E3 runs straight up column E: one short of E3 is E4, one beyond is E2.
"""

from __future__ import annotations

from typing import Any

from ordnance.core.hexgrid import GridLabels, Hex
from ordnance.core.maps import GameMap

GRID = GridLabels(columns=10, rows=8)

HAMLET = """\
name: Hamlet between two hills
game: lnl
grid: {columns: 10, rows: 8}
default: open
hexes:
  E3: building
  A1: {elevation: 2}
  G4: {elevation: 2}
"""


def grid_map(
    terrain: dict[str, str] | None = None,
    markers: dict[str, tuple[str, ...]] | None = None,
    levels: dict[str, int] | None = None,
) -> GameMap:
    """A 10 x 8 LnLT grid with some terrain, markers and hills."""
    return GameMap(
        "test",
        "lnl",
        GRID,
        "open",
        {GRID.parse(k): v for k, v in (terrain or {}).items()},
        {GRID.parse(k): v for k, v in (levels or {}).items()},
        {},
        {GRID.parse(k): v for k, v in (markers or {}).items()},
    )


def hexes(*labels: str) -> tuple[Hex, ...]:
    return tuple(GRID.parse(label) for label in labels)


def hamlet_scenario(**changes: Any) -> dict[str, Any]:
    """The game tests' scenario: a Panzer IV with WP and Smoke against a squad and an open
    half-track in a building, a closed Sherman beside them, a second squad to enter."""
    data: dict[str, Any] = {
        "ruleset": "lnl",
        "name": "WP on the hamlet",
        "dice": "physical",
        "map": "hamlet.yaml",
        "turns": 2,
        "first": "german",
        "sides": {
            "german": {
                "smoke_shells": 1,
                "wp_shells": 1,
                "depletion_number": 4,
                "units": {
                    "pz4": {
                        "kind": "vehicle",
                        "hex": "E7",
                        "shells": ["smoke", "wp"],
                        "to_hit": {7: 9, 14: 7},
                        "acquired": "C5",
                    },
                    "stug": {"kind": "vehicle", "hex": "C7", "to_hit": {7: 8}},
                    "pg": {"kind": "squad", "hex": "F7"},
                },
            },
            "american": {
                "smoke_shells": 1,
                "units": {
                    "sq1": {"kind": "squad", "hex": "E3"},
                    "ht": {"kind": "vehicle", "open": True, "hex": "E3"},
                    "m4": {"kind": "vehicle", "hex": "E3"},
                    "sq2": {"kind": "squad", "hex": "E2"},
                },
            },
        },
    }
    return {**data, **changes}
