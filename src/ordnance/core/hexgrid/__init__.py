"""Hex-grid geometry on exact integers: hexes, hexsides, vertices, labels, LOS, arcs, canister.

Knows no game: rulesets bring their terrain answers (:class:`Terrain`) and their choices
(:class:`SightRule`); this package brings exact geometry. No floats, no epsilons.

- ``coords``: :class:`Hex` (cube coordinates), :class:`Direction` (hexsides), :class:`Corner`
  (vertices), distance, rotations, rings.
- ``features``: :class:`Hexside` and :class:`Vertex` as canonical, hashable values.
- ``labels``: board labels (:class:`GeomorphicLabels` ``4G5``, :class:`GridLabels` ``C7``).
- ``los``: :class:`SightLine`, the exact hexes (and hexside pairs) a line of sight passes.
- ``sight``: :func:`trace`, blocked or clear and hindrances by range, against a terrain.
- ``arcs``: :class:`Arc` (ASL CA/TCA, V&V FFA, any direction).
- ``along``: :func:`one_short` and :func:`one_beyond` the target along the LOS.
- ``canister``: :func:`canister_aims`, the C8.4 aiming vertices and their clusters.

>>> labels = GeomorphicLabels.of("4,3")
>>> firer, target = labels.parse("4G5"), labels.parse("4K3")
>>> distance(firer, target), [labels.label(h) for h in SightLine.between(firer, target).hexes]
(4, ['4G5', '4H4', '4I4', '4J3', '4K3'])
"""

from ordnance.core.hexgrid.along import one_beyond, one_short
from ordnance.core.hexgrid.arcs import ANY_DIRECTION, Arc, ArcKind
from ordnance.core.hexgrid.canister import CanisterAim, adjacent_toward, canister_aims
from ordnance.core.hexgrid.coords import ORIGIN, Corner, Direction, Hex, cross, distance
from ordnance.core.hexgrid.features import Hexside, Vertex
from ordnance.core.hexgrid.labels import (
    GeomorphicLabels,
    GridLabels,
    LabelScheme,
    Shift,
    column_letters,
    hex_to_offset,
    offset_to_hex,
)
from ordnance.core.hexgrid.los import Crossing, Passage, SightLine, Step, sight_line
from ordnance.core.hexgrid.sight import (
    CLEAR,
    DEFAULT_RULE,
    Blocked,
    Hindrance,
    PairRule,
    SameRange,
    Sight,
    Sighting,
    SightRule,
    Terrain,
    TerrainTable,
    both_block_max,
    either_blocks_max,
    trace,
)

__all__ = [
    "ANY_DIRECTION",
    "CLEAR",
    "DEFAULT_RULE",
    "ORIGIN",
    "Arc",
    "ArcKind",
    "Blocked",
    "CanisterAim",
    "Corner",
    "Crossing",
    "Direction",
    "GeomorphicLabels",
    "GridLabels",
    "Hex",
    "Hexside",
    "Hindrance",
    "LabelScheme",
    "PairRule",
    "Passage",
    "SameRange",
    "Shift",
    "Sight",
    "SightLine",
    "SightRule",
    "Sighting",
    "Step",
    "Terrain",
    "TerrainTable",
    "Vertex",
    "adjacent_toward",
    "both_block_max",
    "canister_aims",
    "column_letters",
    "cross",
    "distance",
    "either_blocks_max",
    "hex_to_offset",
    "offset_to_hex",
    "one_beyond",
    "one_short",
    "sight_line",
    "trace",
]
