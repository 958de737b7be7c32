"""The fan sweep (core/maps/fan.py): its geometry is the exact walk, its verdicts the judge's.

- The vectorised walk gives, step by step, the same hexes and hexside pairs as the exact
  per-line walk (``step_offsets``) for every displacement up to 18 hexes each way.
- A line between two hexes of a map meets only hexes of the map's ring (visibility.py reads
  no other cell's terrain), on grids of any size and either column shift.
- On random small maps of each game (terrain, markers, hills and levels, walls and hedges),
  every line of ``all_pairs`` and of ``visible_from`` equals the judge's own verdict on it.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ordnance.asl.los import JUDGE as ASL
from ordnance.core.hexgrid import GridLabels, Hexside, SightLine
from ordnance.core.hexgrid.coords import Direction
from ordnance.core.hexgrid.labels import Shift
from ordnance.core.hexgrid.los import step_offsets
from ordnance.core.maps import GameMap, LosJudge
from ordnance.core.maps.fan import CORNER_PAIRS, INNER, PAIR, _advance, walk_from
from ordnance.core.maps.visibility import Visibility, _Box
from ordnance.lnl.los import JUDGE as LNL
from ordnance.vv.los import JUDGE as VV

JUDGES = {"asl": ASL, "lnl": LNL, "vv": VV}


def test_the_vectorised_walk_is_the_exact_walk():
    span = 18
    wanted = [(dq, dr) for dq in range(-span, span + 1) for dr in range(-span, span + 1)]
    wanted.remove((0, 0))
    dq = np.array([d[0] for d in wanted], dtype=np.int64)
    dr = np.array([d[1] for d in wanted], dtype=np.int64)
    walk = walk_from(dq, dr)
    corner = walk.corner
    exact = [step_offsets(a, b) for a, b in wanted]
    live = list(range(len(wanted)))
    k = 0
    while live:
        k += 1
        q, r, tid = _advance(walk)
        for at, i in enumerate(live):
            step = exact[i][k]
            assert (int(q[at]), int(r[at])) == step[0], (wanted[i], k)
            if len(step) == 2:
                assert tid[at] == PAIR + corner[at], (wanted[i], k)
                (aq, ar), (bq, br) = CORNER_PAIRS[corner[at]]
                assert (step[1][0] - step[0][0], step[1][1] - step[0][1]) == (bq - aq, br - ar)
            else:
                assert tid[at] == INNER, (wanted[i], k)
        walk = walk.moved((q, r, tid))
        going = [at for at, i in enumerate(live) if k + 1 < len(exact[i])]
        walk = walk.take(np.array(going, dtype=np.int64))
        corner = walk.corner
        live = [live[at] for at in going]
    assert all(len(steps) <= 4 * span for steps in exact)


@given(
    st.integers(1, 9),
    st.integers(1, 7),
    st.sampled_from(list(Shift)),
    st.data(),
)
def test_a_line_of_the_map_meets_only_hexes_of_its_ring(columns, rows, shift, data):
    grid = GridLabels(columns=columns, rows=rows, shift=shift)
    hexes = list(grid.hexes())
    box = _Box(hexes)
    firer = data.draw(st.sampled_from(hexes))
    target = data.draw(st.sampled_from(hexes))
    for h in SightLine.between(firer, target).hexes:
        assert box.ring[box.cell(h)], (firer, target, h)


@st.composite
def small_maps(draw, judge: LosJudge) -> GameMap:
    chart = judge.chart()
    grid = GridLabels(
        columns=draw(st.integers(1, 6)),
        rows=draw(st.integers(1, 5)),
        shift=draw(st.sampled_from(list(Shift))),
    )
    hexes = list(grid.hexes())
    places = st.sampled_from(hexes)
    terrains = draw(st.dictionaries(places, st.sampled_from(sorted(chart.hexes)), max_size=12))
    markers = draw(
        st.dictionaries(
            places, st.sampled_from(sorted(chart.markers)).map(lambda n: (n,)), max_size=4
        )
    )
    levels = draw(st.dictionaries(places, st.integers(0, 2), max_size=draw(st.integers(0, 6))))
    sides = draw(
        st.dictionaries(
            st.builds(Hexside.of, places, st.sampled_from(list(Direction))),
            st.sampled_from(sorted(chart.hexsides)),
            max_size=draw(st.integers(0, 4)),
        )
    )
    return GameMap("random", judge.game, grid, "open", terrains, levels, sides, markers)


def check_against_the_judge(game_map: GameMap, judge: LosJudge) -> None:
    sight = Visibility(game_map, judge)
    pairs = sight.all_pairs()
    hexes = list(game_map)
    clear = hindrance = 0
    for firer in hexes:
        visible = sight.visible_from(firer)
        for target in hexes:
            if firer == target:
                continue
            truth = sight.judged(firer, target)
            assert pairs[firer, target] == truth, (game_map.label(firer), game_map.label(target))
            assert visible.get(target) == truth, (game_map.label(firer), game_map.label(target))
            if truth is not None:
                clear += 1
                hindrance += truth
    assert (pairs.pairs, pairs.clear, pairs.hindrance) == (
        len(hexes) * (len(hexes) - 1),
        clear,
        hindrance,
    )


@pytest.mark.clause("C8.5-effect")
@settings(max_examples=25)
@given(st.data())
def test_asl_all_pairs_are_the_judges_verdicts(data):
    check_against_the_judge(data.draw(small_maps(ASL)), ASL)


@settings(max_examples=15)
@given(st.data())
def test_lnl_all_pairs_are_the_judges_verdicts(data):
    check_against_the_judge(data.draw(small_maps(LNL)), LNL)


@settings(max_examples=15)
@given(st.data())
def test_vv_all_pairs_are_the_judges_verdicts(data):
    check_against_the_judge(data.draw(small_maps(VV)), VV)


@pytest.mark.parametrize("game", sorted(JUDGES))
def test_a_long_flat_map_with_lines_along_hexsides_matches_the_judge(game):
    # Long lines, corner directions and vertices on a map with no special hex: all by the fan.
    judge = JUDGES[game]
    chart = judge.chart()
    grid = GridLabels(columns=13, rows=4)
    names = sorted(n for n in chart.hexes if n != "open")
    hexes = list(grid.hexes())
    terrains = {h: names[(3 * h.q + 7 * h.r) % len(names)] for h in hexes if (h.q + h.r) % 4 == 0}
    game_map = GameMap("long", judge.game, grid, "open", terrains)
    check_against_the_judge(game_map, judge)
