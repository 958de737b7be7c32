"""A game map as data: which hexes exist, their terrain names, elevations, hexsides and markers.

The map knows no game. It stores the *names* a ruleset's terrain table defines (``woods``,
``wall``, ``dispersed smoke``) and the ruleset decides what they do. Hexes not listed have the
map's default terrain at elevation 0 and no markers.

Places are named at the edges by the map's board labels: a hex as ``4G5``, a hexside as a hex
and one of its sides (``4G5/NE``) or as its two hexes (``4G5|4H5``), a vertex as a hex and one
of its corners (``4G5/E``).

>>> from ordnance.core.hexgrid import GridLabels
>>> grid = GridLabels(columns=6, rows=5)
>>> side = parse_hexside(grid, "B2|C2")
>>> place_label(grid, side), place_label(grid, parse_hexside(grid, "C2/SW"))
('B2/NE', 'B2/NE')
>>> m = GameMap("demo", "vv", grid, "open", {grid.parse("C3"): "woods"}, hexsides={side: "wall"})
>>> m.terrain(grid.parse("C3")), m.terrain(grid.parse("A1")), m.hexside(side)
('woods', 'open', 'wall')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields

from ordnance.core.cached import cached_property
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import (
    Corner,
    Direction,
    GeomorphicLabels,
    GridLabels,
    Hex,
    Hexside,
    Vertex,
)

Labels = GeomorphicLabels | GridLabels
Place = Hex | Hexside


@dataclass(frozen=True, eq=False)
class GameMap:
    """One map: its label scheme, the game whose terrain names it uses, and what lies where.

    ``source`` names where it came from (a file path, or ``<memory>``), for messages.
    """

    name: str
    game: str
    labels: Labels
    default_terrain: str
    terrains: Mapping[Hex, str] = field(default_factory=dict)
    elevations: Mapping[Hex, int] = field(default_factory=dict)
    hexsides: Mapping[Hexside, str] = field(default_factory=dict)
    markers: Mapping[Hex, tuple[str, ...]] = field(default_factory=dict)
    description: str = ""
    source: str = "<memory>"

    # A map is a value: one read again (a cache dropped it, another process read it) equals
    # the one a live game holds, so a game folded again equals the live game. The same object,
    # the common case, answers at once; the hash reads only the map's names, once.
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, GameMap):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(self))

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.name, self.game, self.default_terrain, self.source))

    def terrain(self, hex: Hex) -> str:
        return self.terrains.get(hex, self.default_terrain)

    @cached_property
    def terrain_names(self) -> frozenset[str]:
        """Every hex terrain the map uses (a map's legend lists them)."""
        return frozenset(self.terrain(h) for h in self)

    def elevation(self, hex: Hex) -> int:
        return self.elevations.get(hex, 0)

    def hexside(self, side: Hexside) -> str | None:
        """The feature on a hexside (``wall``, ``hedge``...), or None."""
        return self.hexsides.get(side)

    def markers_in(self, hex: Hex) -> tuple[str, ...]:
        return self.markers.get(hex, ())

    def between(self, a: Hex, b: Hex) -> str | None:
        """The feature on the hexside between two adjacent hexes (in either order), or None:
        :meth:`hexside` without naming the hexside (a move's search asks for thousands).

        >>> grid = GridLabels(columns=4, rows=4)
        >>> a, b = grid.parse("B2"), grid.parse("C2")
        >>> m = GameMap("demo", "vv", grid, "open", hexsides={Hexside.between(a, b): "wall"})
        >>> m.between(a, b), m.between(b, a), m.between(a, grid.parse("B3"))
        ('wall', 'wall', None)
        """
        return self._between.get((a, b))

    @cached_property
    def _between(self) -> dict[tuple[Hex, Hex], str]:
        pairs: dict[tuple[Hex, Hex], str] = {}
        for side, name in self.hexsides.items():
            a, b = side.hexes
            pairs[a, b] = pairs[b, a] = name
        return pairs

    def __contains__(self, hex: object) -> bool:
        return hex in self.labels

    def __iter__(self) -> Iterator[Hex]:
        return self.labels.hexes()

    def __len__(self) -> int:
        return len(self.labels)

    def label(self, hex: Hex) -> str:
        return self.labels.label(hex)

    def parse(self, text: str) -> Hex:
        """A hex of this map from its label (``4G5``, ``C7``)."""
        return self.labels.parse(text.strip())

    def place_label(self, place: Place) -> str:
        return place_label(self.labels, place)


def label_or_none(labels: Labels, hex: Hex) -> str | None:
    """The hex's label, or None when it lies off the map."""
    return labels.label(hex) if hex in labels else None


def place_label(labels: Labels, place: Place) -> str:
    """A hex's label, or a hexside as ``LABEL/DIRECTION`` from a hex of it that is on the map.

    >>> grid = GridLabels(columns=4, rows=4)
    >>> place_label(grid, Hexside.of(grid.parse("A1"), Direction.N))
    'A1/N'
    """
    if isinstance(place, Hex):
        return labels.label(place) if place in labels else str(place)
    owner, other = place.hexes
    if owner in labels:
        return f"{labels.label(owner)}/{place.direction}"
    if other in labels:
        return f"{labels.label(other)}/{place.direction.opposite}"
    return str(place)


def parse_hexside(labels: Labels, text: str) -> Hexside:
    """A hexside from ``LABEL/DIRECTION`` (``4G5/NE``) or from two adjacent hexes (``4G5|4H4``)."""
    if "|" in text:
        first, _, second = text.partition("|")
        a, b = labels.parse(first.strip()), labels.parse(second.strip())
        if a.direction_to(b) is None:
            raise BadInput(
                "hexside", text, f"{first.strip()} and {second.strip()} are not adjacent"
            )
        return Hexside.between(a, b)
    label, slash, name = text.rpartition("/")
    if not slash:
        raise BadInput("hexside", text, "expected LABEL/DIRECTION (4G5/NE) or LABEL|LABEL")
    hex = labels.parse(label.strip())
    try:
        direction = Direction.parse(name)
    except BadInput as err:
        raise BadInput("hexside", text, err.problem, len(label) + 1) from None
    return Hexside.of(hex, direction)


def vertex_label(labels: Labels, vertex: Vertex) -> str:
    """A vertex as ``LABEL/CORNER`` from one of its hexes on the map (its owner if it can).

    >>> grid = GridLabels(columns=4, rows=4)
    >>> vertex_label(grid, Vertex.of(grid.parse("B2"), Corner.NNE))
    'C2/W'
    """
    candidates = [vertex.hex, *(h for h in vertex.hexes if h != vertex.hex)]
    for hex in candidates:
        if hex not in labels:
            continue
        for corner in Corner:
            if Vertex.of(hex, corner) == vertex:
                return f"{labels.label(hex)}/{corner}"
    return str(vertex)
