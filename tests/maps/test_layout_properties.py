"""Property tests of the picture's layout: whatever stands in the hexes (stacks of up to 16
counters with up to 10 badges each, up to three markers, a LOS with its end and hindrance tags),
no marker, badge or tag box overlaps another, and every counter stays inside its hex."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.maps.test_counters_render import SVG, _shift, boxes, overlapping

from ordnance.cli.map_games import judge_for, open_map
from ordnance.core.hexgrid import Direction
from ordnance.core.maps import Badge, CounterView
from ordnance.core.maps.svg import render_svg
from ordnance.core.maps.svg_counters import grid_slots

FARM = open_map("lnl-farm")
HEXES = sorted(FARM, key=FARM.label)
CHART = judge_for(FARM).chart()
MARKERS = sorted(CHART.vocabulary.markers)
WORDS = ("F", "M", "CE", "BU", "PIN", "RED", "sD✓", "GREN", "MALF", "A✗", "STUN", "ACQ")

hexes = st.sampled_from(HEXES)
badges = st.lists(st.sampled_from(WORDS), max_size=10).map(
    lambda texts: tuple(Badge(f"k{i}", t) for i, t in enumerate(texts))
)
# Up to 16 counters a hex each keep a slot of their own (more are fanned in the last slot).
stacks = st.dictionaries(hexes, st.lists(badges, min_size=1, max_size=16), max_size=4)
markers = st.dictionaries(hexes, st.lists(st.sampled_from(MARKERS), max_size=3), max_size=6)


def _inside_hex(x: float, y: float, size: float) -> bool:
    """A point relative to a flat-topped hex's centre lies inside it (a little slack)."""
    return abs(y) <= size * math.sqrt(3) / 2 + 0.5 and (
        math.sqrt(3) * abs(x) + abs(y) <= math.sqrt(3) * size + 0.5
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stacks, markers, hexes, hexes, st.sampled_from([None, *Direction]))
def test_nothing_drawn_in_a_hex_hides_anything_else(stacks, placed, firer, target, facing):
    game_map = replace(FARM, markers={h: tuple(dict.fromkeys(m)) for h, m in placed.items()})
    counters = [
        CounterView(
            f"u{n}-{i}",
            hex,
            "us" if i % 2 else "de",
            f"u{i}",
            "4-6-5",
            "squad",
            facing=facing,
            badges=b,
        )
        for n, (hex, stack) in enumerate(stacks.items())
        for i, b in enumerate(stack)
    ]
    verdict = None if firer == target else judge_for(game_map).los(game_map, firer, target)
    root = ET.fromstring(render_svg(game_map, CHART, counters=counters, los=verdict))
    assert overlapping(boxes(root)) == []
    size = 48.0
    for group in root.iter(f"{SVG}g"):
        if not group.get("data-unit"):
            continue
        body = group.find(f"{SVG}g[@class='counter-body']")
        assert body is not None
        ox, oy = _shift(body)
        face = body.find(f"{SVG}rect[@class='counter-face']")
        assert face is not None
        half = float(face.get("width")) / 2
        for dx, dy in itertools.product((-half, half), repeat=2):
            assert _inside_hex(ox + dx, oy + dy, size)


@given(st.integers(min_value=1, max_value=16))
def test_stack_slots_do_not_overlap_and_stay_in_the_hex(count):
    slots = grid_slots(count)
    assert len(slots) == count
    for (x1, y1, s1), (x2, y2, s2) in itertools.combinations(slots, 2):
        assert abs(x1 - x2) >= (s1 + s2) / 2 - 1e-9 or abs(y1 - y2) >= (s1 + s2) / 2 - 1e-9
    for x, y, side in slots:
        for dx, dy in itertools.product((-side / 2, side / 2), repeat=2):
            assert _inside_hex(x + dx, y + dy, 1.0)
            assert -0.56 <= y + dy <= 0.58  # below the label, above the markers' row
            assert abs(x + dx) <= 0.55  # clear of the edge tags
