r"""Valor & Victory lines of sight against an oracle written from docs/maps.md's reading.

Random small maps (buildings, woods, orchard, crops, hills and slopes, Smoke 1 and 2, often on
a hill, so that one hex blocks and hinders at once) and random lines, half of them along
hexsides. The oracle (:mod:`tests.maps.los_oracle` for the geometry) reads the page:

- between the two units, buildings and woods block, orchard and crops hinder +1, Smoke 1 +1,
  Smoke 2 +2; what a hex holds hinders whether or not the hex blocks (crops on a hill);
- the firer's hex counts nothing; the target's hex only its smoke (fire goes into a blocking
  hex, not through it, and its terrain is cover);
- a pair blocks if both hexes block, else hinders by its lesser side, a blocking side counting
  as much as the other; a pair that blocks hinders by the lesser of its sides' own hindrances;
- hindrances add up; nothing blocks by accumulation;
- a wall or hedge crossed is +1 and bocage blocks, except a side of the firer's or the target's
  hex; one the line runs along always counts; crossed at a vertex into or out of a pair, the
  two hexsides combine by the pair rule; a unit above its top (ground of its higher hex, plus
  1 for bocage) and the other too sees over it;
- levels: terrain of height h on ground g is passed over when both units are above g + h
  (buildings, woods, orchard 1; crops 0); smoke reaches every level; a hex's ground at or above
  the higher unit and above the lower one is a hill; ground strictly between the two units'
  levels is a slope, crossed once: a slope hex at a second range blocks.
"""

from __future__ import annotations

import operator

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
    walk,
)

from ordnance.core.hexgrid import Hex
from ordnance.core.maps.visibility import Visibility
from ordnance.vv.los import JUDGE, vv_los

BLOCKS = {"building", "woods"}
HINDERS = {"orchard": 1, "crops": 1}
HEIGHT = {"building": 1, "woods": 1, "orchard": 1}
SMOKE = {"smoke 1": 1, "smoke 2": 2}
NOTHING = {"foxholes", "trenches", "objective"}
GAME, LOS = "vv", vv_los

MAPS = layouts(
    sorted(BLOCKS | set(HINDERS) | {"stream", "water"}),
    sorted(set(SMOKE) | NOTHING),
    3,
    sorted(HINDERS),
    hexsides=["wall", "hedge", "bocage"],
)


def oracle(layout: Layout, firer: Hex, target: Hex) -> Verdict:
    line = steps(firer, target)
    lo, hi = sorted((layout.level_of(firer), layout.level_of(target)))
    slopes: set[int] = set()

    def hex_look(hex: Hex, range_: int, is_target: bool) -> Look:
        hindrance = sum(SMOKE.get(m, 0) for m in layout.markers_of(hex))
        if is_target:
            return Look(False, hindrance)
        ground = layout.level_of(hex)
        blocks = ground >= hi and ground > lo  # a hill
        if lo < ground < hi:  # a slope: one is crossed, a second (at another range) blocks
            slopes.add(range_)
            blocks = blocks or len(slopes) > 1
        terrain = layout.terrain_of(hex)
        if not lo > ground + HEIGHT.get(terrain, 0):
            blocks = blocks or terrain in BLOCKS
            hindrance += HINDERS.get(terrain, 0)
        return Look(blocks, hindrance)

    def pair(a: Look, b: Look) -> Look:
        if a.blocks and b.blocks:
            return Look(True, min(a.hindrance, b.hindrance))
        if a.blocks or b.blocks:
            return Look(False, b.hindrance if a.blocks else a.hindrance)
        return Look(False, min(a.hindrance, b.hindrance))

    def look(index: int, step) -> Look:
        if index == 0:
            return Look()  # the firer's own hex
        seen = [hex_look(h, step.range, index == len(line) - 1) for h in step.hexes]
        return seen[0] if len(seen) == 1 else pair(*seen)

    def side_look(side: Side, lengthwise: bool) -> Look:
        name = layout.side_of(side)
        if name is None or (not lengthwise and (firer in side or target in side)):
            return Look()
        ground = max(layout.level_of(h) for h in side)
        if lo > ground + (1 if name == "bocage" else 0):
            return Look()
        return Look(True) if name == "bocage" else Look(False, 1)

    def cross(index: int, sides: list[Side]) -> Look:
        seen = [side_look(side, False) for side in sides]
        return seen[0] if len(seen) == 1 else pair(*seen)

    return walk(
        line,
        look,
        per_range=operator.add,
        limit=None,
        cross=cross,
        run_along=lambda side: side_look(side, True),
    )


@st.composite
def cases(draw: st.DrawFn) -> tuple[Layout, Hex, Hex]:
    return draw(MAPS), *ends(draw)


@pytest.mark.clause("VV.AP-resolve", "SYS.cite")
@given(cases())
def test_vv_verdict_matches_the_oracle(case):
    layout, firer, target = case
    verdict = vv_los(layout.game_map("vv"), firer, target)
    assert judged(verdict) == oracle(layout, firer, target).as_tuple()


@pytest.mark.clause("VV.AP-resolve")
@settings(max_examples=25)
@given(MAPS, st.sampled_from(list(GRID.hexes())))
def test_vv_everything_a_hex_sees_matches_the_oracle(layout, firer):
    seen = Visibility(layout.game_map("vv"), JUDGE).visible_from(firer)
    for target in GRID.hexes():
        if target != firer:
            expected = oracle(layout, firer, target)
            total = None if expected.blocked_at is not None else sum(expected.by_range.values())
            assert seen.get(target) == total, (firer, target)
