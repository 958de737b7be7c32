"""Fire arcs: the sector of the map a unit may fire into, decided by exact sign tests.

An arc is a sector from the centre of the unit's hex between two boundary rays, each ray along
a grid vector; a hex is inside when its centre is, so the only doubtful hexes are those whose
centre lies exactly on a boundary ray (the ray cuts them in two). ``boundary_inside`` decides
those, and is True by default (documented setting). The unit's own hex is in every arc.

Kinds and facings:

- ``CA`` / ``TCA`` (ASL Covered Arc, Turret Covered Arc), 60 degrees, with two readings:

  - facing a :class:`Corner` (``CA:E``): the sector opening toward that corner, bounded by the
    rays through the centres of the two hexes that share the corner. Boundary hexes are those
    straight out from the unit through those two centres. This is the reading under which the
    C8.4 canister count of five aiming points per CA comes out (see ``canister``).
  - facing a :class:`Direction` (``CA:N``): the sector opening toward that hexside, bounded by
    the rays from the centre through its two corners. A ray through a corner runs along a
    hexside, then through the centre of the hex two ranges out, and so on: boundary hexes are
    those cut in two at ranges 2, 4, 6...

- ``FFA`` (Valor & Victory Forward Firing Arc), facing a hexside, 120 degrees: bounded by the
  rays through the centres of the two front-flank neighbours (read from the rule's diagram; see
  reference/vv.md, Facing and FFA); boundary hexes inside by default.
- ``ANY``: every direction (turreted Guns, 360-degree MGs, units without facing).

>>> arc = Arc.parse("CA:E")
>>> [arc.contains(Hex(0, 0), Hex(0, 0) + v) for v in (Hex(1, -1), Hex(1, 0), Hex(0, 1))]
[True, True, False]
>>> Arc.parse("FFA:N").contains(Hex(0, 0), Hex(-2, 0)), Arc.parse("FFA:N:open")
(True, Arc.parse('FFA:N:open'))
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from ordnance.core.errors import BadInput
from ordnance.core.hexgrid.coords import Corner, Direction, Hex, cross
from ordnance.core.hexgrid.features import Vertex


class ArcKind(enum.StrEnum):
    CA = "CA"
    TCA = "TCA"
    FFA = "FFA"
    ANY = "ANY"


@dataclass(frozen=True)
class Arc:
    """A fire arc: a kind, a facing and how boundary hexes count (see the module docstring)."""

    kind: ArcKind
    facing: Direction | Corner | None = None
    boundary_inside: bool = True

    def __post_init__(self) -> None:
        if (self.kind is ArcKind.ANY) != (self.facing is None):
            raise ValueError("an ANY arc has no facing; every other arc has one")
        if self.kind is ArcKind.FFA and not isinstance(self.facing, Direction):
            raise ValueError("a Forward Firing Arc faces a hexside (a Direction)")

    @classmethod
    def covered(cls, facing: Direction | Corner, turret: bool = False) -> Arc:
        """An ASL CA (or TCA) facing a corner or a hexside."""
        return cls(ArcKind.TCA if turret else ArcKind.CA, facing)

    @classmethod
    def forward_firing(cls, facing: Direction) -> Arc:
        """A V&V Forward Firing Arc facing a hexside."""
        return cls(ArcKind.FFA, facing)

    @classmethod
    def parse(cls, text: str) -> Arc:
        """Read ``ANY``, ``KIND:FACING`` or ``KIND:FACING:open`` (boundary hexes outside)."""
        parts = text.split(":")
        try:
            kind = ArcKind(parts[0].upper())
        except ValueError:
            kinds = ", ".join(k.value for k in ArcKind)
            raise BadInput("arc", text, f"expected one of {kinds}", 0) from None
        if kind is ArcKind.ANY:
            if len(parts) != 1:
                raise BadInput("arc", text, "ANY takes no facing", len(parts[0]))
            return cls(kind)
        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2].lower() != "open"):
            raise BadInput("arc", text, "expected KIND:FACING or KIND:FACING:open", len(parts[0]))
        position = len(parts[0]) + 1
        facing = _facing(parts[1], text, position)
        if kind is ArcKind.FFA and not isinstance(facing, Direction):
            raise BadInput("arc", text, "an FFA faces a hexside: N, NE, SE, S, SW or NW", position)
        return cls(kind, facing, boundary_inside=len(parts) == 2)

    def __str__(self) -> str:
        if self.facing is None:
            return self.kind.value
        return f"{self.kind}:{self.facing}" + ("" if self.boundary_inside else ":open")

    def __repr__(self) -> str:
        return f"Arc.parse('{self}')"

    @property
    def bounds(self) -> tuple[Hex, Hex] | None:
        """Vectors along the two boundary rays, anticlockwise one first; None for ANY."""
        facing = self.facing
        if facing is None:
            return None
        if self.kind is ArcKind.FFA:
            assert isinstance(facing, Direction)
            return (facing.turned(-1).vector, facing.turned(1).vector)
        if isinstance(facing, Corner):
            first, second = facing.sides
            return (first.vector, second.vector)
        return (Corner(facing.turned(-1).value).vector, Corner(facing.value).vector)

    def contains(self, origin: Hex, place: Hex | Vertex) -> bool:
        """Whether a hex (by its centre) or a vertex lies in the arc of a unit at ``origin``."""
        bounds = self.bounds
        if bounds is None:
            return True
        if isinstance(place, Vertex):
            x, y, _ = place.thirds
            # Thirds are three times the point; scaling does not change a sign.
            offset = Hex(x - 3 * origin.q, y - 3 * origin.r)
        else:
            offset = place - origin
        left, right = bounds
        # With ``left`` anticlockwise of ``right`` (an arc under 180 degrees), the offset is
        # a * left + b * right; the signs of a and b are those of these two cross products.
        a, b = cross(offset, right), cross(left, offset)
        if self.boundary_inside:
            return a >= 0 and b >= 0
        return offset == Hex(0, 0) or (a > 0 and b > 0)

    def on_boundary(self, origin: Hex, hex: Hex) -> bool:
        """Whether a hex's centre lies exactly on a boundary ray (the ray cuts it in two)."""
        bounds = self.bounds
        if bounds is None or hex == origin:
            return False
        offset = hex - origin
        left, right = bounds
        a, b = cross(offset, right), cross(left, offset)
        return (a == 0 and b > 0) or (b == 0 and a > 0)

    def hexes(self, origin: Hex, max_range: int, min_range: int = 1) -> Iterator[Hex]:
        """The hexes in the arc at ranges ``min_range..max_range``, nearest ring first."""
        for range_ in range(min_range, max_range + 1):
            for hex in origin.ring(range_):
                if self.contains(origin, hex):
                    yield hex

    def turned(self, steps: int) -> Arc:
        """The same arc turned ``steps`` times 60 degrees clockwise."""
        if self.facing is None:
            return self
        return Arc(self.kind, self.facing.turned(steps), self.boundary_inside)


ANY_DIRECTION = Arc(ArcKind.ANY)


def _facing(text: str, whole: str, position: int) -> Direction | Corner:
    name = text.strip().upper()
    if name in Direction.__members__:
        return Direction[name]
    if name in Corner.__members__:
        return Corner[name]
    names = ", ".join([d.name for d in Direction] + [c.name for c in Corner])
    raise BadInput("arc", whole, f"facing {text!r} is not one of {names}", position)
