"""Blocked or clear, and the hindrances met: a line of sight judged by the caller's terrain.

What blocks or hinders is not geometry: each ruleset owns a terrain table and answers, for one
hex or one hexside, with a :class:`Sight` (a hindrance DRM, whether it blocks, and why). This
module walks the exact :class:`~ordnance.core.hexgrid.los.SightLine` from the firer, asks the
:class:`Terrain` about every hex and hexside met, and adds the hindrances up by range.

The :class:`SightRule` says how to combine what geometry leaves open; its defaults are:

- the firer's and the target's own hexes are not asked (their terrain is cover, not a
  hindrance between); a ruleset that counts them (SMOKE in the firer's hex) switches them on;
- a pair (the line runs along the hexside between two hexes) counts once, through ``pair``:
  by default it blocks only if both hexes block (the line runs between them, inside neither)
  and it hinders by the larger of the two; :func:`either_blocks_max` is the stricter choice;
- two hexes crossed one after the other at the same range both count (``SameRange.EACH``);
  ``SameRange.MAX`` keeps only the largest hindrance per range instead;
- a hexside's hindrance counts at the range of the step the line enters after it, or of the
  pair it runs along;
- the line stops at the first thing that blocks, looking out from the firer; a hexside it
  crosses is met before the step beyond, while the hexes of a step and the hexside a pair runs
  along are met together, so a pair's hindrance counts whether or not the pair blocks.

Verdicts are reciprocal whenever the terrain answers the same both ways and ``pair`` is
symmetric, because the line from the target is the same line reversed.

>>> grain, woods = Sight(1, reason="grain"), Sight(blocks=True, reason="woods")
>>> terrain = TerrainTable({Hex(1, -1): grain, Hex(3, -2): woods, Hex(3, -1): woods})
>>> sighting = trace(Hex(0, 0), Hex(4, -2), terrain)
>>> sighting.line.steps[1]
Step(hexes=(Hex(1, -1), Hex(1, 0)), range=1, along=Hexside.parse('1,0,-1/N'))
>>> str(sighting)
'blocked at range 3 by woods (3,-2,-1 and 3,-1,-2); hindrance +1 before it'
>>> del terrain.hexes[Hex(3, -1)]  # one side of that hexside open: the default rule lets it by
>>> str(trace(Hex(0, 0), Hex(4, -2), terrain))
'clear; hindrance +1: +1 grain at range 1 (1,-1,0 and 1,0,-1)'
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ordnance.core.hexgrid.coords import Hex
from ordnance.core.hexgrid.features import Hexside
from ordnance.core.hexgrid.los import Passage, SightLine, Step, _template


@dataclass(frozen=True, slots=True)
class Sight:
    """What one hex or hexside does to a line of sight: a hindrance DRM and/or a block."""

    hindrance: int = 0
    blocks: bool = False
    reason: str = ""

    def __post_init__(self) -> None:
        if self.hindrance < 0:
            raise ValueError("a hindrance cannot be negative")


CLEAR = Sight()


class Terrain(Protocol):
    """A ruleset's answer for the hexes and hexsides a line meets.

    ``line`` gives the context (firer, target, the whole path), e.g. to ignore a wall next to
    the firer, or to count SMOKE only in some hexes.
    """

    def hex_sight(self, hex: Hex, line: SightLine) -> Sight: ...

    def hexside_sight(self, side: Hexside, passage: Passage, line: SightLine) -> Sight: ...


def has_hexsides(terrain: Terrain) -> bool:
    """Whether ``terrain`` may answer anything but CLEAR for a hexside.

    A terrain says it has none with a false ``has_hexsides`` attribute (a map without walls or
    hedges); :func:`trace` then asks about hexes only. Without the attribute: assume it may.
    """
    return bool(getattr(terrain, "has_hexsides", True))


class TerrainTable:
    """The simplest terrain: fixed answers per hex and per hexside, clear elsewhere.

    >>> table = TerrainTable({Hex(1, 0): Sight(2, reason="brush")})
    >>> table.hex_sight(Hex(1, 0), SightLine.between(Hex(0, 0), Hex(2, 0)))
    Sight(hindrance=2, blocks=False, reason='brush')
    """

    def __init__(
        self,
        hexes: Mapping[Hex, Sight] | None = None,
        hexsides: Mapping[Hexside, Sight] | None = None,
    ) -> None:
        self.hexes = dict(hexes or {})
        self.hexsides = dict(hexsides or {})

    @property
    def has_hexsides(self) -> bool:
        return bool(self.hexsides)

    def hex_sight(self, hex: Hex, line: SightLine) -> Sight:
        return self.hexes.get(hex, CLEAR)

    def hexside_sight(self, side: Hexside, passage: Passage, line: SightLine) -> Sight:
        return self.hexsides.get(side, CLEAR)


PairRule = Callable[[Sight, Sight], Sight]


def both_block_max(a: Sight, b: Sight) -> Sight:
    """Default pair rule: blocks only if both block; hinders by the larger hindrance.

    >>> both_block_max(Sight(blocks=True, reason="woods"), Sight(1, reason="grain"))
    Sight(hindrance=1, blocks=False, reason='grain')
    """
    if a.blocks and b.blocks:
        return Sight(max(a.hindrance, b.hindrance), True, _both(a, b))
    worse = a if a.hindrance >= b.hindrance else b
    return Sight(worse.hindrance, False, worse.reason)


def either_blocks_max(a: Sight, b: Sight) -> Sight:
    """Stricter pair rule: blocks if either side blocks; otherwise the larger hindrance.

    >>> either_blocks_max(Sight(blocks=True, reason="woods"), CLEAR).blocks
    True
    """
    if a.blocks or b.blocks:
        blocking = [s.reason for s in (a, b) if s.blocks]
        return Sight(max(a.hindrance, b.hindrance), True, " and ".join(blocking))
    return both_block_max(a, b)


def _both(a: Sight, b: Sight) -> str:
    return a.reason if a.reason == b.reason else f"{a.reason} and {b.reason}"


class SameRange(enum.StrEnum):
    """How hindrances met at the same range add up."""

    EACH = "each"  # every hex and hexside crossed counts
    MAX = "max"  # only the largest hindrance per range counts


@dataclass(frozen=True)
class SightRule:
    """The choices a ruleset makes on top of the geometry (see the module docstring)."""

    pair: PairRule = both_block_max
    same_range: SameRange = SameRange.EACH
    firer_hex: bool = False
    target_hex: bool = False


DEFAULT_RULE = SightRule()

Place = Hex | Hexside


@dataclass(frozen=True, slots=True)
class Hindrance:
    """A hindrance met at ``range`` from the firer, in one hex, a pair or at a hexside."""

    range: int
    value: int
    at: tuple[Place, ...]
    reason: str

    def __str__(self) -> str:
        where = " and ".join(str(place) for place in self.at)
        return f"+{self.value} {self.reason} at range {self.range} ({where})"


@dataclass(frozen=True, slots=True)
class Blocked:
    """Where a line of sight is blocked, and why."""

    range: int
    at: tuple[Place, ...]
    reason: str

    def __str__(self) -> str:
        where = " and ".join(str(place) for place in self.at)
        return f"blocked at range {self.range} by {self.reason} ({where})"


@dataclass(frozen=True)
class Sighting:
    """The verdict on one line of sight: blocked or clear, and the hindrances met on the way.

    When blocked, ``hindrances`` are those met before the block.
    """

    line: SightLine
    hindrances: tuple[Hindrance, ...]
    blocked: Blocked | None = None
    rule: SightRule = field(default=DEFAULT_RULE, repr=False)

    @property
    def clear(self) -> bool:
        return self.blocked is None

    def by_range(self) -> tuple[tuple[int, int], ...]:
        """The hindrance counted at each range from the firer, nearest first."""
        totals: dict[int, int] = {}
        for hindrance in self.hindrances:
            before = totals.get(hindrance.range, 0)
            if self.rule.same_range is SameRange.MAX:
                totals[hindrance.range] = max(before, hindrance.value)
            else:
                totals[hindrance.range] = before + hindrance.value
        return tuple(sorted(totals.items()))

    @property
    def total(self) -> int:
        """The whole hindrance DRM met (before the block, when blocked)."""
        return sum(value for _, value in self.by_range())

    def __str__(self) -> str:
        if self.blocked is not None:
            return f"{self.blocked}; hindrance +{self.total} before it"
        if not self.hindrances:
            return "clear; no hindrance"
        listed = ", ".join(str(h) for h in self.hindrances)
        return f"clear; hindrance +{self.total}: {listed}"


def trace(firer: Hex, target: Hex, terrain: Terrain, rule: SightRule = DEFAULT_RULE) -> Sighting:
    """Judge the line of sight from ``firer`` to ``target`` against ``terrain``."""
    line = SightLine(firer, target)
    # Work on the cached template and move only what the terrain is asked about.
    steps, crossings = _template(target.q - firer.q, target.r - firer.r)
    if not has_hexsides(terrain):
        return _trace_hexes(line, steps, terrain, rule)
    met: list[Hindrance] = []
    last = len(steps) - 1
    for index, step in enumerate(steps):
        if index > 0:
            crossing = crossings[index - 1]
            sides = tuple(Hexside(s.hex + firer, s.direction) for s in crossing.sides)
            sights = [terrain.hexside_sight(side, crossing.passage, line) for side in sides]
            blocked = _meet(met, step.range, [(_combine(sights, rule), sides)])
            if blocked is not None:
                return Sighting(line, tuple(met), blocked, rule)
        # Once inside a step, everything in it counts together: a pair's hexes and the hexside
        # it runs along hinder as they would if nothing there blocked (README, Maps).
        found: list[tuple[Sight, tuple[Place, ...]]] = []
        if step.along is not None:
            along = Hexside(step.along.hex + firer, step.along.direction)
            found.append((terrain.hexside_sight(along, Passage.ALONG, line), (along,)))
        if (index != 0 or rule.firer_hex) and (index != last or rule.target_hex):
            hexes = tuple(h + firer for h in step.hexes)
            found.append((_combine([terrain.hex_sight(h, line) for h in hexes], rule), hexes))
        blocked = _meet(met, step.range, found)
        if blocked is not None:
            return Sighting(line, tuple(met), blocked, rule)
    return Sighting(line, tuple(met), None, rule)


def _trace_hexes(
    line: SightLine, steps: tuple[Step, ...], terrain: Terrain, rule: SightRule
) -> Sighting:
    """:func:`trace` for a terrain without hexside features: only the hexes are asked."""
    firer = line.firer
    met: list[Hindrance] = []
    first = 0 if rule.firer_hex else 1
    last = len(steps) if rule.target_hex else len(steps) - 1
    for index in range(first, last):
        step = steps[index]
        if len(step.hexes) == 1:
            hex = step.hexes[0] + firer
            sight = terrain.hex_sight(hex, line)
            at: tuple[Place, ...] = (hex,)
        else:
            a, b = step.hexes[0] + firer, step.hexes[1] + firer
            sight = rule.pair(terrain.hex_sight(a, line), terrain.hex_sight(b, line))
            at = (a, b)
        if sight.hindrance:
            met.append(Hindrance(step.range, sight.hindrance, at, sight.reason))
        if sight.blocks:
            return Sighting(line, tuple(met), Blocked(step.range, at, sight.reason), rule)
    return Sighting(line, tuple(met), None, rule)


def _meet(
    met: list[Hindrance], range_: int, found: list[tuple[Sight, tuple[Place, ...]]]
) -> Blocked | None:
    """Record every hindrance found at one place; the first block there, if any."""
    blocked: Blocked | None = None
    for sight, at in found:
        if sight.hindrance:
            met.append(Hindrance(range_, sight.hindrance, at, sight.reason))
        if sight.blocks and blocked is None:
            blocked = Blocked(range_, at, sight.reason)
    return blocked


def _combine(sights: list[Sight], rule: SightRule) -> Sight:
    return sights[0] if len(sights) == 1 else rule.pair(sights[0], sights[1])
