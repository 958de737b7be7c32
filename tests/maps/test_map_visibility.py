"""All-pairs visibility (core/maps/visibility.py) gives each game's own per-pair LOS verdict.

Every answer is checked against the ruleset's judge, line by line (``judge.los``, the exact
per-pair LOS), on random maps of each game: flat with terrain and markers, with hills and
levels, with walls and hedges, and on a geomorphic board (sampled).
"""

from __future__ import annotations

import random

import pytest

from ordnance.asl.los import JUDGE as ASL
from ordnance.core.hexgrid import GeomorphicLabels, GridLabels, Hexside, SameRange
from ordnance.core.hexgrid.coords import Direction
from ordnance.core.maps import GameMap, LosJudge
from ordnance.core.maps.visibility import Visibility, _plan
from ordnance.lnl.los import JUDGE as LNL
from ordnance.vv.los import JUDGE as VV

JUDGES = {"asl": ASL, "lnl": LNL, "vv": VV}


def random_map(
    judge: LosJudge,
    labels: GridLabels | GeomorphicLabels,
    seed: int,
    *,
    levels: bool = False,
    walls: bool = False,
) -> GameMap:
    chart = judge.chart()
    rng = random.Random(seed)
    hexes = list(labels.hexes())
    names = sorted(chart.hexes)
    markers = sorted(chart.markers)
    terrains = {h: rng.choice(names) for h in hexes if rng.random() < 0.35}
    placed = {h: (rng.choice(markers),) for h in hexes if rng.random() < 0.08}
    elevations = {h: rng.choice([1, 1, 2]) for h in hexes if levels and rng.random() < 0.2}
    sides = {}
    if walls:
        for h in hexes:
            if rng.random() < 0.1:
                side = Hexside.of(h, rng.choice(list(Direction)))
                sides[side] = rng.choice(sorted(chart.hexsides))
    return GameMap(
        "random", judge.game, labels, "open", terrains, elevations, sides, placed, source="test"
    )


def check_every_pair(game_map: GameMap, judge: LosJudge) -> None:
    sight = Visibility(game_map, judge)
    pairs = sight.all_pairs()
    hexes = list(game_map)
    clear = 0
    for firer in hexes:
        visible = sight.visible_from(firer)
        for target in hexes:
            if firer == target:
                continue
            truth = sight.judged(firer, target)
            assert pairs[firer, target] == truth, (firer, target)
            assert sight.seen(firer, target) == truth, (firer, target)
            assert visible.get(target) == truth, (firer, target)
            clear += truth is not None
    assert pairs.pairs == len(hexes) * (len(hexes) - 1)
    assert pairs.clear == clear


@pytest.mark.parametrize("game", sorted(JUDGES))
@pytest.mark.parametrize("seed", [1, 2])
def test_flat_maps_match_the_judge(game, seed):
    judge = JUDGES[game]
    check_every_pair(random_map(judge, GridLabels(columns=8, rows=6), seed), judge)


@pytest.mark.parametrize("game", sorted(JUDGES))
def test_levels_and_hexside_features_match_the_judge(game):
    judge = JUDGES[game]
    grid = GridLabels(columns=7, rows=6)
    check_every_pair(random_map(judge, grid, 3, levels=True, walls=True), judge)


@pytest.mark.clause("C8.5-effect")
def test_a_geomorphic_board_matches_the_judge_on_a_sample():
    labels = GeomorphicLabels.of("4")
    game_map = random_map(ASL, labels, 4)
    sight = Visibility(game_map, ASL)
    pairs = sight.all_pairs()
    hexes = list(game_map)
    rng = random.Random(5)
    for _ in range(1500):
        firer, target = rng.sample(hexes, 2)
        truth = sight.judged(firer, target)
        assert pairs[firer, target] == truth == sight.seen(firer, target)
    assert pairs.pairs == len(hexes) * (len(hexes) - 1)


def test_a_game_without_a_sweep_is_judged_line_by_line():
    plain = LosJudge(ASL.game, ASL.chart, ASL.los)
    game_map = random_map(ASL, GridLabels(columns=4, rows=3), 6)
    check_every_pair(game_map, plain)


def test_two_steps_at_one_range_are_merged_and_ranges_then_grow():
    # The largest-per-range rule relies on at most two single hexes sharing a range.
    for dq in range(-15, 16):
        for dr in range(-15, 16):
            if (dq, dr) == (0, 0):
                continue
            ranges = [
                max(abs(q), abs(r), abs(q + r))
                for _, q, r, _, _ in _plan(dq, dr, per_range_max=True, target_counts=True)
            ]
            assert ranges == sorted(set(ranges))
    assert ASL.sweep is not None
    assert ASL.sweep.rule.same_range is SameRange.MAX
