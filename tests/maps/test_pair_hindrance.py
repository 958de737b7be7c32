r"""A pair that blocks hinders exactly as a pair that does not block would (every game).

A line along a corner direction runs between the two hexes of a *pair* at every other range.
Whatever the pair holds (SMOKE, WP, Smoke 1...), its hindrance is the game's pair rule applied
to its two hexes' own hindrances (ASL and LnLT: the larger; V&V: the lesser), whether the pair
blocks (woods, or a hill, on both sides) or not (the same markers on open ground).

The oracle is written here from the README's rules, independently of the engine: the
hindrance of a hex's markers (ASL: SMOKE +3, Dispersed SMOKE +2, WP +2, Dispersed WP +1,
grenade SMOKE +2; LnLT: one degrading hex whatever it holds; V&V: Smoke 1 +1, Smoke 2 +2),
combined by the pair rule. ASL counts the largest hindrance per range, LnLT and V&V every one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ordnance.asl.los import asl_los
from ordnance.core.hexgrid import GeomorphicLabels, GridLabels, Hex
from ordnance.core.maps import GameMap, LosVerdict
from ordnance.lnl.los import lnl_los
from ordnance.vv.los import vv_los


@dataclass(frozen=True)
class Game:
    name: str
    labels: Any
    line: tuple[str, ...]  # the hexes a line along a corner direction meets, in order
    markers: dict[str, int]  # marker -> its hindrance by the README
    pair: Any  # how a pair combines its two hexes' hindrances
    los: Any

    def hex_hindrance(self, markers: tuple[str, ...]) -> int:
        values = [self.markers[m] for m in markers]
        if self.name == "lnl":
            return 1 if any(values) else 0  # a hex degrades once, whatever it holds
        return sum(values)


ASL = Game(
    "asl",
    GeomorphicLabels.of("4"),
    ("4G5", "4H4|4H5", "4I5", "4J4|4J5", "4K5", "4L4|4L5", "4M5"),
    {"smoke": 3, "dispersed smoke": 2, "wp": 2, "dispersed wp": 1, "grenade smoke": 2},
    max,
    asl_los,
)
GRID = GridLabels(columns=10, rows=6)
LNL = Game(
    "lnl",
    GRID,
    ("A3", "B2|B3", "C3", "D2|D3", "E3", "F2|F3", "G3"),
    {"smoke 1": 1, "smoke 2": 1, "wp": 1, "bunker": 0, "cave": 0},
    max,
    lnl_los,
)
VV = Game(
    "vv",
    GRID,
    ("A3", "B2|B3", "C3", "D2|D3", "E3", "F2|F3", "G3"),
    {"smoke 1": 1, "smoke 2": 2},
    min,
    vv_los,
)
GAMES = {"asl": ASL, "lnl": LNL, "vv": VV}


def build(game: Game, terrain: dict[str, str], levels: dict[str, int], markers: dict) -> GameMap:
    p = game.labels.parse
    return GameMap(
        "pairs",
        game.name,
        game.labels,
        "open",
        {p(k): v for k, v in terrain.items()},
        {p(k): v for k, v in levels.items()},
        {},
        {p(k): tuple(v) for k, v in markers.items() if v},
    )


def counted_at(verdict: LosVerdict, range_: int) -> int:
    return sum(h.drm for h in verdict.hindrances if h.range == range_)


@st.composite
def cases(draw, game: Game):
    between = [h for step in game.line[1:-1] for h in step.split("|")]
    pairs = [step.split("|") for step in game.line if "|" in step]
    names = sorted(game.markers)
    markers = {h: draw(st.lists(st.sampled_from(names), max_size=2, unique=True)) for h in between}
    # Elsewhere on the line: hindering or open ground, never blocking, so the pair decides.
    others = {h: draw(st.sampled_from(["open", "open", _hindering(game)])) for h in between}
    index = draw(st.integers(0, len(pairs) - 1))
    blocker = draw(st.sampled_from(["woods", "hill"]))
    return markers, others, pairs[index], blocker


def _hindering(game: Game) -> str:
    return {"asl": "grain", "lnl": "brush", "vv": "crops"}[game.name]


def _check(game: Game, case) -> None:
    markers, others, pair, blocker = case
    a, b = game.line[0], game.line[-1]
    pair_range = game.labels.parse(a).distance(game.labels.parse(pair[0]))
    plain = {h: t for h, t in others.items() if h not in pair}
    blocking_terrain = dict(plain)
    levels: dict[str, int] = {}
    for h in pair:
        if blocker == "woods":
            blocking_terrain[h] = "woods"
        else:
            levels[h] = 1  # a hill between two units at level 0
    blocked = game.los(build(game, blocking_terrain, levels, markers), *_ends(game, a, b))
    open_pair = game.los(build(game, plain, {}, markers), *_ends(game, a, b))
    # Only lines the pair itself blocks (LnLT's third degrading hex may come first).
    assume(blocked.blocked is not None and blocked.blocked.range == pair_range)
    assume(open_pair.blocked is None or open_pair.blocked.range >= pair_range)
    assert set(blocked.blocked.places) >= {game.labels.parse(h) for h in pair}
    # The blocking pair counts exactly what the open pair counts, at its range and before.
    for r in range(1, pair_range + 1):
        assert counted_at(blocked, r) == counted_at(open_pair, r)
    # ... and that is the game's pair rule on the two hexes' own hindrances (the oracle).
    own = game.pair(*(game.hex_hindrance(tuple(markers[h])) for h in pair))
    assert counted_at(blocked, pair_range) == own


def _ends(game: Game, a: str, b: str) -> tuple[Hex, Hex]:
    return game.labels.parse(a), game.labels.parse(b)


@pytest.mark.clause("C8.5-effect")
@given(cases(ASL))
def test_asl_a_blocking_pair_hinders_as_a_clear_pair_would(case):
    _check(ASL, case)


@pytest.mark.clause("LNL.W-smoke", "LNL.S-los")
@given(cases(LNL))
def test_lnl_a_blocking_pair_degrades_as_a_clear_pair_would(case):
    _check(LNL, case)


@pytest.mark.clause("VV.AP-resolve")
@given(cases(VV))
def test_vv_a_blocking_pair_hinders_as_a_clear_pair_would(case):
    _check(VV, case)


@pytest.mark.clause("C8.5-effect")
def test_asl_smoke_on_a_hill_pair_counts_as_beside_open_ground():
    """The issue's case: a hill hex with SMOKE beside another hill used to count nothing."""
    markers = {"4J5": ["smoke"]}
    hill = build(ASL, {}, {"4J4": 1, "4J5": 1}, markers)
    verdict = asl_los(hill, ASL.labels.parse("4G5"), ASL.labels.parse("4M5"))
    assert not verdict.clear and verdict.blocked.range == 3 and verdict.total == 3
    one_side = build(ASL, {}, {"4J5": 1}, markers)
    assert asl_los(one_side, ASL.labels.parse("4G5"), ASL.labels.parse("4M5")).total == 3


@pytest.mark.clause("LNL.W-smoke")
def test_lnl_woods_with_smoke_1_still_degrades_along_a_pair():
    woods = build(LNL, {"D2": "woods", "D3": "woods"}, {}, {"D2": ["smoke 1"], "B3": ["wp"]})
    verdict = lnl_los(woods, GRID.parse("A3"), GRID.parse("E3"))
    assert not verdict.clear and verdict.blocked.range == 3
    assert [(h.range, h.drm) for h in verdict.hindrances] == [(1, 1), (3, 1)]


# --- a hex that blocks and hinders at once (issue 29): hills with something on them ----------


@pytest.mark.clause("C8.5-effect")
def test_asl_brush_on_a_hill_hinders_a_pair_beside_it():
    """4J5 is a level-1 hill with brush, 4J4 open ground: the pair does not block (one side
    only) and counts the brush's +1, the larger of its two hexes."""
    m = build(ASL, {"4J5": "brush"}, {"4J5": 1}, {})
    verdict = asl_los(m, ASL.labels.parse("4G5"), ASL.labels.parse("4M5"))
    assert verdict.clear and [(h.range, h.drm) for h in verdict.hindrances] == [(3, 1)]


@pytest.mark.clause("C8.5-effect")
def test_asl_a_hill_with_brush_and_smoke_counts_both():
    """A hill hex (4I5, on the line) holding brush and SMOKE blocks, and hinders +1 + 3."""
    m = build(ASL, {"4I5": "brush"}, {"4I5": 1}, {"4I5": ["smoke"]})
    verdict = asl_los(m, ASL.labels.parse("4G5"), ASL.labels.parse("4M5"))
    assert verdict.blocked is not None and verdict.blocked.range == 2
    assert verdict.total == 4


@pytest.mark.clause("LNL.S-los")
def test_lnl_brush_on_a_hill_degrades_the_pair_it_blocks():
    """D2 and D3 both hills (the pair blocks); brush on D3 makes it degrade once."""
    m = build(LNL, {"D3": "brush"}, {"D2": 1, "D3": 1}, {})
    verdict = lnl_los(m, GRID.parse("A3"), GRID.parse("E3"))
    assert verdict.blocked is not None and verdict.blocked.range == 3 and verdict.total == 1


@pytest.mark.clause("LNL.S-los")
def test_lnl_the_third_degrading_hex_blocks_where_it_is_met():
    """The line A1 to B6 meets B3 and then A4, both at range 3 (it clips B3's corner). Brush
    in A2, A3, B3 and A4: the third degrading hex, B3, blocks; A4 lies beyond it and does not
    count (+3, not +4)."""
    grid = GridLabels(columns=4, rows=7)
    p = grid.parse
    m = GameMap("clip", "lnl", grid, "open", {p(h): "brush" for h in ("A2", "A3", "B3", "A4")})
    verdict = lnl_los(m, p("A1"), p("B6"))
    assert [(s.range, grid.label(s.hexes[0])) for s in verdict.line.steps[3:5]] == [
        (3, "B3"),
        (3, "A4"),
    ]
    assert verdict.blocked is not None and verdict.blocked.places == (p("B3"),)
    assert verdict.total == 3 and verdict.blocked.reason.endswith("(+3)")


@pytest.mark.clause("VV.AP-resolve")
def test_vv_crops_on_a_hill_hinders_as_beside_open_ground():
    """D2 and D3 are level-1 hills with crops, the units at level 0: the pair blocks, and
    hinders by the lesser of its sides, +1, as two crops hexes on level ground would."""
    m = build(VV, {"D2": "crops", "D3": "crops"}, {"D2": 1, "D3": 1}, {})
    verdict = vv_los(m, GRID.parse("A3"), GRID.parse("E3"))
    assert verdict.blocked is not None and verdict.blocked.range == 3 and verdict.total == 1
