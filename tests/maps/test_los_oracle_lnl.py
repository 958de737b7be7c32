r"""Lock 'n Load Tactical lines of sight against an oracle written from docs/maps.md's reading.

Random small maps (woods, buildings, light woods, brush, orchard, wheat, hills, Smoke 1,
Smoke 2, WP, bunkers and caves, often on a hill or in woods, so that one hex blocks and
degrades at once) and random lines, half of them along hexsides. The oracle
(:mod:`tests.maps.los_oracle` for the geometry) reads the page:

- only the hexes between the two units count: woods and buildings block, a hill blocks; light
  woods, brush, orchard, wheat, Smoke 1, Smoke 2 and WP degrade; bunkers and caves do nothing;
- a hex degrades once, whatever it holds, a blocking hex included (woods with Smoke 1, a hill
  with brush);
- walls and hedges give TM only: nothing to a line;
- a pair blocks only if both hexes block, and degrades once if either does;
- each degrading hex (or pair) is +1 and the third one blocks, where it is met;
- levels: terrain of height h on ground g is passed over when both units are above g + h
  (woods, light woods, orchard and buildings 1; brush and wheat 0); smoke reaches every level;
  a hex's ground at or above the higher unit and above the lower one is a hill.
"""

from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.maps.los_oracle import GRID, Layout, Look, Verdict, ends, judged, layouts, steps, walk

from ordnance.core.hexgrid import Hex
from ordnance.core.maps.visibility import Visibility
from ordnance.lnl.los import JUDGE, lnl_los

BLOCKS = {"woods", "building", "stone building"}
DEGRADES = {"light woods", "brush", "orchard", "wheat field"}
HEIGHT = {"woods": 1, "building": 1, "stone building": 1, "light woods": 1, "orchard": 1}
SMOKES = {"smoke 1", "smoke 2", "wp"}
OTHER_MARKERS = {"bunker", "cave"}
LIMIT = 3
GAME, LOS = "lnl", lnl_los

MAPS = layouts(
    sorted(BLOCKS | DEGRADES),
    sorted(SMOKES | OTHER_MARKERS),
    2,
    sorted(DEGRADES),
    hexsides=["wall", "hedge"],
)


def oracle(layout: Layout, firer: Hex, target: Hex) -> Verdict:
    line = steps(firer, target)
    lo, hi = sorted((layout.level_of(firer), layout.level_of(target)))

    def hex_look(hex: Hex) -> Look:
        ground = layout.level_of(hex)
        blocks = ground >= hi and ground > lo  # a hill
        terrain = layout.terrain_of(hex)
        degrades = any(m in SMOKES for m in layout.markers_of(hex))
        if not lo > ground + HEIGHT.get(terrain, 0):
            blocks = blocks or terrain in BLOCKS
            degrades = degrades or terrain in DEGRADES
        return Look(blocks, 1 if degrades else 0)

    def look(index: int, step) -> Look:
        if index in (0, len(line) - 1):
            return Look()  # the units' own hexes
        seen = [hex_look(h) for h in step.hexes]
        return Look(all(s.blocks for s in seen), max(s.hindrance for s in seen))

    return walk(line, look, per_range=operator.add, limit=LIMIT)


@st.composite
def cases(draw: st.DrawFn) -> tuple[Layout, Hex, Hex]:
    return draw(MAPS), *ends(draw)


@pytest.mark.clause("LNL.W-smoke", "LNL.S-los")
@given(cases())
def test_lnl_verdict_matches_the_oracle(case):
    layout, firer, target = case
    verdict = lnl_los(layout.game_map("lnl"), firer, target)
    assert judged(verdict) == oracle(layout, firer, target).as_tuple()


@pytest.mark.clause("LNL.S-los")
@settings(max_examples=25)
@given(MAPS, st.sampled_from(list(GRID.hexes())))
def test_lnl_everything_a_hex_sees_matches_the_oracle(layout, firer):
    seen = Visibility(layout.game_map("lnl"), JUDGE).visible_from(firer)
    for target in GRID.hexes():
        if target != firer:
            expected = oracle(layout, firer, target)
            total = None if expected.blocked_at is not None else sum(expected.by_range.values())
            assert seen.get(target) == total, (firer, target)
