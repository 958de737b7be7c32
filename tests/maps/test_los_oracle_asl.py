r"""ASL lines of sight against an oracle written from docs/maps.md's ASL reading.

Random small maps (woods, buildings, grain, brush, orchard, hills, every kind of SMOKE, often
on a hill, so that one hex blocks and hinders at once) and random lines, half of them along
hexsides. The oracle (:mod:`tests.maps.los_oracle` for the geometry) reads the page:

- between the two ends, woods and buildings block, grain, brush and orchard hinder +1, a hill
  blocks; what a hex holds hinders whether or not the hex blocks (grain on a hill, SMOKE in
  woods), and its hindrances add (grain with SMOKE is +4);
- the ends' own terrain is not a hindrance; their SMOKE is, +1 more in the firer's hex;
- a pair blocks only if both hexes block and counts the larger of their hindrances;
- each range counts its largest hindrance; a total of 6 blocks at the range reaching it;
- walls and hedges block a line between units at one level, no higher than the ground of the
  hexes beside the wall; bocage is a one-level obstacle; none of them block when it is a side of
  the firer's or the target's hex, or, lying along the line, when it touches either; crossed at
  a vertex into or out of a pair, two hexsides block only if both do;
- levels: a thing of height h on ground g is passed over when both ends are above g + h
  (woods, buildings, orchard 1; grain, brush 0; SMOKE 2); a hex's ground at or above the
  higher end and above the lower one is a hill.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.maps.los_oracle import (
    GRID,
    Layout,
    Look,
    Side,
    Verdict,
    ends,
    judged,
    layouts,
    steps,
    touches,
    walk,
)

from ordnance.asl.los import JUDGE, asl_los
from ordnance.core.hexgrid import Hex
from ordnance.core.maps.visibility import Visibility

BLOCKS = {"woods", "building", "stone building"}
HINDERS = {"grain": 1, "brush": 1, "orchard": 1}
HEIGHT = {"woods": 1, "building": 1, "stone building": 1, "orchard": 1, "grain": 0, "brush": 0}
SMOKE = {"smoke": 3, "dispersed smoke": 2, "wp": 2, "dispersed wp": 1, "grenade smoke": 2}
SMOKE_HEIGHT = 2
GAME, LOS = "asl", asl_los
LIMIT = 6

# Hexside obstacles: walls and hedges obstruct a same-level line only, bocage is one level high.
SAME_LEVEL = {"wall", "hedge"}
SIDE_HEIGHT = {"bocage": 1}

MAPS = layouts(
    sorted(BLOCKS | set(HINDERS)),
    sorted(SMOKE),
    2,
    sorted(HINDERS),
    hexsides=sorted(SAME_LEVEL | set(SIDE_HEIGHT)),
)


def oracle(layout: Layout, firer: Hex, target: Hex) -> Verdict:
    line = steps(firer, target)
    lo, hi = sorted((layout.level_of(firer), layout.level_of(target)))

    def hex_look(hex: Hex, role: str) -> Look:
        ground = layout.level_of(hex)
        blocks, hindrance = False, 0
        if role == "between":
            blocks = ground >= hi and ground > lo  # a hill
            terrain = layout.terrain_of(hex)
            if not lo > ground + HEIGHT.get(terrain, 0):
                blocks = blocks or terrain in BLOCKS
                hindrance += HINDERS.get(terrain, 0)
        for marker in layout.markers_of(hex):
            if not lo > ground + SMOKE_HEIGHT:
                hindrance += SMOKE[marker] + (1 if role == "firer" else 0)
        return Look(blocks, hindrance)

    def pair(a: Look, b: Look) -> Look:
        return Look(a.blocks and b.blocks, max(a.hindrance, b.hindrance))

    def look(index: int, step) -> Look:
        role = "firer" if index == 0 else "target" if index == len(line) - 1 else "between"
        seen = [hex_look(h, role) for h in step.hexes]
        return seen[0] if len(seen) == 1 else pair(*seen)

    def side_look(side: Side, lengthwise: bool) -> Look:
        name = layout.side_of(side)
        if name is None:
            return Look()
        if lengthwise:
            if touches(side, firer) or touches(side, target):
                return Look()
        elif firer in side or target in side:
            return Look()
        ground = max(layout.level_of(h) for h in side)
        if name in SAME_LEVEL:
            return Look(lo == hi and lo <= ground)
        return Look(not lo > ground + SIDE_HEIGHT[name])

    def cross(index: int, sides: list[Side]) -> Look:
        seen = [side_look(side, False) for side in sides]
        return seen[0] if len(seen) == 1 else pair(*seen)

    return walk(
        line,
        look,
        per_range=max,
        limit=LIMIT,
        limit_by_range=True,
        cross=cross,
        run_along=lambda side: side_look(side, True),
    )


@st.composite
def cases(draw: st.DrawFn) -> tuple[Layout, Hex, Hex]:
    return draw(MAPS), *ends(draw)


@pytest.mark.clause("C8.5-effect", "SYS.cite")
@given(cases())
def test_asl_verdict_matches_the_oracle(case):
    layout, firer, target = case
    verdict = asl_los(layout.game_map("asl"), firer, target)
    assert judged(verdict) == oracle(layout, firer, target).as_tuple()


@pytest.mark.clause("C8.5-effect")
@settings(max_examples=25)
@given(MAPS, st.sampled_from(list(GRID.hexes())))
def test_asl_everything_a_hex_sees_matches_the_oracle(layout, firer):
    seen = Visibility(layout.game_map("asl"), JUDGE).visible_from(firer)
    for target in GRID.hexes():
        if target != firer:
            expected = oracle(layout, firer, target)
            total = None if expected.blocked_at is not None else sum(expected.by_range.values())
            assert seen.get(target) == total, (firer, target)
