"""The AI's fire plan is optimal: on random small positions its expected CP equals an exhaustive
search written here, independently of the AI's dynamic programme (VV.AP-phases: the AI makes
its side's attacks; every constraint of VV.AP-groups ... VV.AP-arc holds, since each planned
attack passes the same check a player's does).

The exhaustive search tries every assignment of each ready unit to a target hex or to nothing,
forms the groups the rules force (units of one grouping class at one target are one group),
asks :func:`~ordnance.vv.groups.check_attack` whether each group may fire, and values it with
its own reading of the AP Combat Table over the 36 rolls.
"""

from __future__ import annotations

import itertools
import time
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.core.errors import IllegalAction
from ordnance.vv.ai import AiPolicy, opfire_choice, plan_fire
from ordnance.vv.groups import FireOrder, check_attack, group_key
from ordnance.vv.units import Kind

BANDS = (4, 10, 18, 28, 40)  # the upper ends of the AP table's APFP rows
CP = AiPolicy.greedy()  # the first AI's objective: raw expected CP, no X weapons


def table_expectation(apfp: int, drm: int) -> Fraction:
    """Expected CP by the printed table's pattern, low rolls on the 2 column."""
    band = sum(apfp > top for top in BANDS)
    total = 0
    for white, colored in itertools.product(range(1, 7), repeat=2):
        final = white + colored + drm
        total += 0 if final >= 12 else max(0, band + 7 - max(final, 2))
    return Fraction(total, 36)


def ready(board, side):
    for unit_id, unit in board.units.items():
        status = board.status[unit_id]
        if unit.side != side or status.eliminated or status.pinned or status.fired:
            continue
        if unit.kind is Kind.GUN and status.aboard is not None:
            continue
        yield unit_id


def exhaustive(board, side, attacked=()):
    """The best total expected CP over every assignment of units to targets."""
    units = list(ready(board, side))
    targets = sorted(
        {board.hex_of(u) for u in board.units if board.unit(u).side != side and board.alive(u)},
        key=lambda h: (h.q, h.r),
    )
    values: dict[tuple[frozenset[str], object], Fraction | None] = {}

    def group_value(members, target):
        key = (frozenset(members), target)
        if key not in values:
            try:
                attack = check_attack(
                    board, FireOrder(side, tuple(members), target), attacked=attacked
                )
            except IllegalAction:
                values[key] = None
            else:
                values[key] = table_expectation(attack.apfp, attack.drm)
        return values[key]

    best = Fraction(0)
    for choice in itertools.product([None, *targets], repeat=len(units)):
        groups = defaultdict(list)
        for unit_id, target in zip(units, choice, strict=True):
            if target is not None:
                groups[(group_key(board, unit_id), target)].append(unit_id)
        total = Fraction(0)
        for (_, target), members in groups.items():
            gain = group_value(members, target)
            if gain is None:
                break
            total += gain
        else:
            best = max(best, total)
    return best


def check_plan(board, side, plan, attacked=()):
    """Every planned attack passes the player's check and is worth what the plan says."""
    used: set[str] = set()
    pairs = set()
    for planned in plan.attacks:
        attack = check_attack(board, planned.order(side), attacked=attacked)
        assert (attack.apfp, attack.drm) == (planned.apfp, planned.drm)
        assert table_expectation(attack.apfp, attack.drm) == planned.expected
        assert not used & set(planned.units)
        used |= set(planned.units)
        pair = (attack.key, board.label(planned.target))
        assert pair not in pairs
        pairs.add(pair)


# --- random positions ----------------------------------------------------------------------

FIRING_HEXES = ["C9", "E9", "G9", "D8", "F8"]
TARGET_HEXES = ["B3", "D2", "E5", "G4", "H6", "C6", "F3"]
TERRAIN = ["woods", "crops", "building", "orchard", "stream"]


@st.composite
def positions(draw, build):
    terrain = draw(
        st.dictionaries(
            st.sampled_from(["D5", "E6", "F5", "C4", *TARGET_HEXES]),
            st.sampled_from(TERRAIN),
            max_size=4,
        )
    )
    pos = build(columns=10, rows=10, terrain=terrain)
    homes = draw(st.lists(st.sampled_from(FIRING_HEXES), min_size=1, max_size=3, unique=True))
    count = draw(st.sampled_from([6, 5, 4, 3, 2, 1]))
    made = 0
    while made < count:
        hex = draw(st.sampled_from(homes))
        kind = draw(st.sampled_from(["squad", "squad", "half", "leader", "gun", "afv", "truck"]))
        name = f"u{made}"
        pinned = draw(st.booleans().map(lambda b: b and draw(st.integers(0, 9)) == 0))
        if kind == "squad":
            sw = draw(st.sampled_from([None, ("lmg", 2, 8), ("mmg", 4, 10)]))
            pos.squad(name, "us", hex, sw=sw, pinned=pinned)
        elif kind == "half":
            pos.half(name, "us", hex, sw=draw(st.sampled_from([None, ("lmg", 2, 8)])))
        elif kind == "leader":
            pos.leader(name, "us", hex, lm=draw(st.sampled_from([-1, -2])))
        elif kind == "gun":
            pos.gun(
                name,
                "us",
                hex,
                draw(st.sampled_from(["N", "NE", "S"])),
                apfp=draw(st.integers(2, 6)),
            )
        elif kind == "afv":
            pos.afv(
                name,
                "us",
                hex,
                draw(st.sampled_from(["N", "NW", "SE"])),
                gun=draw(st.sampled_from([None, 8, 12])),
                turret=draw(st.booleans()),
                mg360=draw(st.sampled_from([None, 4])),
                ffmg=draw(st.sampled_from([None, 3])),
            )
        else:
            pos.vehicle(name, "us", hex, "N", mg360=draw(st.sampled_from([None, 2])))
            riders = draw(st.integers(0, min(2, count - made - 1)))
            for rider in range(riders):
                made += 1
                pos.squad(f"u{made}", "us", None, sw=("lmg", 2, 8) if rider else None, aboard=name)
        made += 1
    width = draw(st.sampled_from([4, 3, 2, 1]))
    targets = draw(
        st.lists(st.sampled_from(TARGET_HEXES), min_size=width, max_size=width, unique=True)
    )
    for number, hex in enumerate(targets):
        what = draw(st.sampled_from(["squad", "squad", "gun", "afv", "two"]))
        if what == "afv":
            pos.afv(f"e{number}", "de", hex, "S", gun=8)
        elif what == "gun":
            pos.gun(f"e{number}", "de", hex, "S")
        else:
            pos.squad(f"e{number}", "de", hex)
            if what == "two":
                pos.half(f"f{number}", "de", hex, assault=draw(st.booleans()))
    return pos


@pytest.mark.clause("VV.AP-phases", "VV.AP-groups", "VV.AP-vehicles", "VV.AP-passengers")
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_plan_is_optimal_on_small_positions(build, data):
    pos = data.draw(positions(build))
    board = pos.board()
    plan = plan_fire(board, "us", policy=CP)
    check_plan(board, "us", plan)
    assert plan.expected == exhaustive(board, "us")


@pytest.mark.clause("VV.AP-groups")
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_plan_respects_this_turns_earlier_attacks(build, data):
    pos = data.draw(positions(build))
    board = pos.board()
    keys = sorted({group_key(board, u) for u in ready(board, "us")})
    labels = sorted({board.label(board.hex_of(u)) for u in board.units if u[0] in "ef"})
    attacked = set(
        data.draw(st.lists(st.tuples(st.sampled_from(keys), st.sampled_from(labels)), max_size=3))
        if keys
        else []
    )
    plan = plan_fire(board, "us", attacked=attacked, policy=CP)
    check_plan(board, "us", plan, attacked)
    assert plan.expected == exhaustive(board, "us", attacked)


# --- fixed positions -----------------------------------------------------------------------


@pytest.mark.clause("VV.AP-groups", "VV.AP-leader")
def test_splitting_beats_combining_when_targets_are_soft(build):
    """Two 4-6-5s and a leader: one squad at each open hex beats both at one (the table's
    rows reward APFP less than a second roll); the leader joins the better one."""
    pos = build()
    pos.squad("a", "us", "E8")
    pos.squad("b", "us", "E8")
    pos.leader("lt", "us", "E8", lm=-1)
    pos.squad("g", "de", "E6")
    pos.squad("h", "de", "G7")
    board = pos.board()
    plan = plan_fire(board, "us", policy=CP)
    groups = sorted(sorted(a.units) for a in plan.attacks)
    assert groups in ([["a", "lt"], ["b"]], [["a"], ["b", "lt"]])
    assert len({a.target for a in plan.attacks}) == 2
    # 5 APFP at -1 (81/36: a roll of 2 reads the 2 column) and 4 APFP at 0 (35/36); all
    # nine at -1 read the same 5-10 row: only 81/36.
    assert plan.expected == Fraction(116, 36)
    assert plan.expected == exhaustive(board, "us")


@pytest.mark.clause("VV.AP-phases")
def test_opportunity_fire_follows_the_threshold(build):
    pos = build(settings={"ai_opfire_threshold": "1"})
    pos.squad("a", "us", "E8")
    pos.squad("m", "de", "E6")  # open ground, range 2: the -1 for no cover
    board = pos.board()
    greedy = AiPolicy.greedy(board.settings.ai_opfire_threshold)
    choice = opfire_choice(board, "us", ("m",), pos.hex("E6"), policy=greedy)
    assert choice is not None and choice.units == ("a",) and choice.drm == -1
    assert choice.expected == table_expectation(4, -1)
    picky = build(settings={"ai_opfire_threshold": "2"})
    picky.units, picky.status = pos.units, pos.status
    assert opfire_choice(picky.board(), "us", ("m",), pos.hex("E6"), policy=CP) is not None
    greedy = AiPolicy.greedy(picky.board().settings.ai_opfire_threshold)
    assert opfire_choice(picky.board(), "us", ("m",), pos.hex("E6"), policy=greedy) is None


def company(build, hexes=7, per_hex=(3, 3, 3, 3, 3, 3, 2), targets=10):
    """20 firing units in 7 hexes (squads with MGs, leaders, a Gun, AFVs) and 10 enemy hexes."""
    pos = build(columns=14, rows=12, terrain={"F5": "woods", "H4": "building", "D6": "crops"})
    homes = ["B11", "D11", "F11", "H11", "J11", "L11", "G12"][:hexes]
    number = 0
    for home, count in zip(homes, per_hex, strict=True):
        for slot in range(count):
            name = f"u{number}"
            if slot == 0 and home == "G12":
                pos.afv(name, "us", home, "N", gun=12, turret=True, mg360=4, ffmg=3)
            elif slot == 2:
                pos.leader(name, "us", home, lm=-1)
            elif home == "L11" and slot == 1:
                pos.gun(name, "us", home, "NW", apfp=4)
            else:
                pos.squad(name, "us", home, sw=("lmg", 2, 8) if slot == 0 else None)
            number += 1
    enemy = ["B4", "D3", "F4", "H3", "J4", "L3", "C6", "E6", "I6", "K6"][:targets]
    for index, hex in enumerate(enemy):
        pos.squad(f"e{index}", "de", hex)
    return pos


@pytest.mark.clause("VV.AP-phases")
def test_a_company_decides_quickly(build):
    pos = company(build)
    board = pos.board()
    assert sum(1 for _ in ready(board, "us")) == 20
    started = time.perf_counter()
    plan = plan_fire(board, "us", policy=CP)
    elapsed = time.perf_counter() - started
    check_plan(board, "us", plan)
    assert plan.expected > 0 and elapsed < 5
