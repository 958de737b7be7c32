"""Game maps: the generic map model, its YAML file format, terrain-table shape, LOS verdicts, SVG.

Knows no game: a map stores terrain *names*; each ruleset (``ordnance.asl``, ``ordnance.lnl``,
``ordnance.vv``) owns the table that says what a name does and judges lines of sight with it.

- ``model``: :class:`GameMap`, and how places are named by labels (``4G5``, ``4G5/NE``).
- ``loader``: :func:`load_map`, the YAML format, :class:`MapFileError` (file, line, key, fault).
- ``terrain``: :class:`TerrainChart`, the common shape of a ruleset's ``data/terrain.toml``.
- ``source``: :class:`MapFiles`, which maps a scenario may name (bundled, a file, an upload).
- ``levels``: :class:`Ends`, the simple, symmetric rule for elevation.
- ``verdict``: :class:`LosVerdict`, clear or blocked with hindrances by range, as JSON.
- ``counters``: :class:`CounterView`, a unit as the picture shows it (rulesets build these).
- ``svg`` and ``png``: drawing a map with its units, a LOS and an arc.
"""

from ordnance.core.maps.counters import Badge, CounterView
from ordnance.core.maps.levels import Ends
from ordnance.core.maps.loader import MapFileError, load_map, load_map_text
from ordnance.core.maps.model import (
    GameMap,
    Labels,
    Place,
    label_or_none,
    parse_hexside,
    place_label,
    vertex_label,
)
from ordnance.core.maps.source import (
    BUNDLED_ONLY,
    MapFiles,
    MapSource,
    MapUnreadable,
    bundled_maps,
)
from ordnance.core.maps.terrain import Feature, TerrainChart, Vocabulary
from ordnance.core.maps.verdict import (
    Cover,
    LosJudge,
    LosVerdict,
    Obstruction,
    RangeHindrance,
    build_verdict,
)

__all__ = [
    "BUNDLED_ONLY",
    "Badge",
    "CounterView",
    "Cover",
    "Ends",
    "Feature",
    "GameMap",
    "Labels",
    "LosJudge",
    "LosVerdict",
    "MapFileError",
    "MapFiles",
    "MapSource",
    "MapUnreadable",
    "Obstruction",
    "Place",
    "RangeHindrance",
    "TerrainChart",
    "Vocabulary",
    "build_verdict",
    "bundled_maps",
    "label_or_none",
    "load_map",
    "load_map_text",
    "parse_hexside",
    "place_label",
    "vertex_label",
]
