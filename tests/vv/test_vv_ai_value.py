"""The AI's evaluation (expected loss of enemy value), its X weapons and its Opportunity Fire
look-ahead: the positions of issue 16's Why list, and the search's exactness against an
exhaustive search under the new evaluation (VV.AP-phases: the AI makes its side's attacks;
every planned attack passes the player's check, VV.AP-groups ... VV.AP-arc)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.core.errors import IllegalAction
from ordnance.vv.ai import AiPolicy, opfire_choice, plan_fire, ready_units, unmoved_stacks
from ordnance.vv.casualties import Pending
from ordnance.vv.evaluate import attack_worth, hex_loss
from ordnance.vv.groups import FireOrder, Pool, check_attack, group_key
from ordnance.vv.units import Kind

CP = AiPolicy.greedy()
VALUE = AiPolicy()


def summary(board, plan):
    return [(a.units, board.label(a.target)) for a in plan.attacks]


# --- the Why list ------------------------------------------------------------------------------


@pytest.mark.clause("VV.AP-groups", "VV.AP-leader", "VV.AP-resolve")
def test_the_lone_leader_case_splits(build):
    """13 APFP and a leader facing a lone enemy leader in the open and two squads in woods: raw
    CP sends 11 APFP and the leader at the leader (37/12 expected CP, of which one can land);
    the value evaluation splits the stack over the two squads."""
    pos = build(terrain={"G5": "woods", "C5": "woods"})
    pos.squad("a", "us", "E8", sw=("lmg", 2, 8))
    pos.squad("b", "us", "E8")
    pos.half("c", "us", "E8")
    pos.leader("lt", "us", "E8")
    pos.leader("el", "de", "E6")
    pos.squad("w1", "de", "G5")
    pos.squad("w2", "de", "C5")
    board = pos.board()
    greedy = plan_fire(board, "us", policy=CP)
    assert greedy.attacks[0].units == ("a", "b", "lt") and greedy.attacks[0].target == pos.hex("E6")
    assert greedy.attacks[0].expected == Fraction(37, 12)
    plan = plan_fire(board, "us", policy=VALUE)
    targets = {board.label(a.target): a.units for a in plan.attacks}
    assert set(targets) >= {"C5", "G5"} and targets["C5"] == ("a",) and targets["G5"] == ("b", "c")
    # What a leader in the open can absorb: one CP pins him, two or more eliminate him.
    loss = [hex_loss(board, Pending(pos.hex("E6"), cp, "us", "de", ("el",))) for cp in (1, 2, 5)]
    assert loss == [Fraction(1, 4), 1, 1]
    # The split is worth more than the raw-CP plan, valued the same way.
    first = greedy.attacks[0]
    worth = attack_worth(board, pos.hex("E8"), first.target, ("el",), apfp=11, drm=-1)
    assert plan.expected > worth


@pytest.mark.clause("VV.AP-phases", "VV.AP-groups")
def test_the_decoy_case_holds_fire_for_the_big_stack(build):
    """A half squad enters crops four hexes away while three squads that have not moved yet
    stand in the open: the greedy policy fires everything at the decoy, the look-ahead holds,
    and fires everything when the big stack comes on."""
    pos = build(terrain={"B6": "crops"})
    pos.squad("a", "us", "E9")
    pos.squad("b", "us", "E9")
    pos.leader("lt", "us", "E9")
    pos.half("decoy", "de", "B6", moved=True)
    for name in ("s1", "s2", "s3"):
        pos.squad(name, "de", "E4")
    board = pos.board()
    assert unmoved_stacks(board, "de") == [(pos.hex("E4"), ("s1", "s2", "s3"))]
    greedy = opfire_choice(board, "us", ("decoy",), pos.hex("B6"), policy=CP)
    assert greedy is not None and greedy.units == ("a", "b", "lt")
    assert opfire_choice(board, "us", ("decoy",), pos.hex("B6"), policy=VALUE) is None
    for name in ("s1", "s2", "s3"):
        pos.status[name] = replace(pos.status[name], hex=pos.hex("E6"), moved=True)
    board = pos.board()
    choice = opfire_choice(board, "us", ("s1", "s2", "s3"), pos.hex("E6"), policy=VALUE)
    assert choice is not None and choice.units == ("a", "b", "lt")
    assert choice.drm == -2  # no positive cover -1, leader -1
    check_attack(board, choice.order("us", ("s1", "s2", "s3")))


@pytest.mark.clause("VV.AP-resolve", "VV.AP-groups")
def test_the_adjacent_grenade_is_thrown(build):
    """A squad adjacent to an enemy squad in the open, a grenade in the pool: 35/36 expected
    CP without, 55/36 with; the AI throws it (the attack gains more than the grenade's kept
    value), and the order passes the player's check with the pool."""
    pos = build()
    pos.squad("a", "us", "E7")
    pos.squad("g", "de", "E6")
    board = pos.board()
    pool = Pool(grenades=1)
    plan = plan_fire(board, "us", policy=VALUE, pool=pool)
    (attack,) = plan.attacks
    assert attack.grenades == ("a",) and attack.drm == -1
    attack_checked = check_attack(board, attack.order("us"), pool=pool)
    assert attack_checked.drm == -1
    with_grenade = attack_worth(board, pos.hex("E7"), pos.hex("E6"), ("g",), apfp=4, drm=-1)
    without = attack_worth(board, pos.hex("E7"), pos.hex("E6"), ("g",), apfp=4, drm=0)
    assert attack.expected == with_grenade - board.settings.ai_grenade_value > without
    # Raw CP, or the part switched off: no grenade.
    assert not plan_fire(board, "us", policy=CP, pool=pool).attacks[0].grenades
    off = replace(VALUE, x_weapons=False)
    assert not plan_fire(board, "us", policy=off, pool=pool).attacks[0].grenades
    # A grenade kept at a high value stays in the pool.
    dear = build(settings={"ai_grenade_value": "2"})
    dear.units, dear.status = pos.units, pos.status
    assert not plan_fire(dear.board(), "us", policy=VALUE, pool=pool).attacks[0].grenades


@pytest.mark.clause("VV.AP-resolve")
def test_a_satchel_pays_against_a_stack_in_the_open(build):
    """Two squads adjacent to two enemy squads in the open, a 10-APFP satchel in the pool: the
    satchel lifts the attack from the 5-10 row to the 19-28 row; the squad without the MG
    carries it (the satchel replaces the carrier's support weapon, r. 12.52)."""
    pos = build()
    pos.squad("a", "us", "E7", sw=("lmg", 2, 8))
    pos.squad("b", "us", "E7")
    for name in ("g", "h"):
        pos.squad(name, "de", "E6")
    board = pos.board()
    pool = Pool(satchels=1, satchel_apfp=10)
    (attack,) = plan_fire(board, "us", policy=VALUE, pool=pool).attacks
    assert attack.satchels == ("b",)
    checked = check_attack(board, attack.order("us"), pool=pool)
    assert checked.apfp == attack.apfp == 6 + 4 + 10
    # Into a building the same satchel does not pay for itself: it stays in the pool.
    cover = build(terrain={"E6": "building"})
    cover.units, cover.status = pos.units, pos.status
    assert not plan_fire(cover.board(), "us", policy=VALUE, pool=pool).attacks[0].satchels


# --- exactness under the new evaluation ---------------------------------------------------------

TARGET_HEXES = ["E6", "F6", "D5", "E4"]
TERRAIN = ["woods", "crops", "building", "open"]


@st.composite
def small_positions(draw, build):
    terrain = draw(
        st.dictionaries(st.sampled_from(TARGET_HEXES), st.sampled_from(TERRAIN), max_size=3)
    )
    pos = build(columns=10, rows=10, terrain=terrain)
    homes = draw(st.lists(st.sampled_from(["E7", "F8"]), min_size=1, max_size=2, unique=True))
    for number in range(draw(st.integers(1, 4))):
        hex = draw(st.sampled_from(homes))
        kind = draw(st.sampled_from(["squad", "squad", "half", "leader", "gun"]))
        name = f"u{number}"
        if kind == "squad":
            pos.squad(name, "us", hex, sw=draw(st.sampled_from([None, ("lmg", 2, 8)])))
        elif kind == "half":
            pos.half(name, "us", hex)
        elif kind == "leader":
            pos.leader(name, "us", hex, lm=draw(st.sampled_from([-1, -2])))
        else:
            pos.gun(name, "us", hex, "N", apfp=draw(st.integers(2, 6)))
    targets = draw(st.lists(st.sampled_from(TARGET_HEXES), min_size=1, max_size=2, unique=True))
    for number, hex in enumerate(targets):
        what = draw(st.sampled_from(["squad", "leader", "gun", "two", "pinned"]))
        if what == "leader":
            pos.leader(f"e{number}", "de", hex)
        elif what == "gun":
            pos.gun(f"e{number}", "de", hex, "S", casualty=draw(st.integers(2, 4)))
        else:
            pos.squad(f"e{number}", "de", hex, pinned=what == "pinned")
            if what == "two":
                pos.half(f"f{number}", "de", hex)
    pool = Pool(grenades=draw(st.integers(0, 2)), satchels=draw(st.integers(0, 1)), satchel_apfp=6)
    return pos, pool


def exhaustive_value(board, side, pool):
    """Every assignment of each ready unit to nothing or a target, each infantry unit at an
    adjacent target with nothing, a grenade or a satchel, within the pool: the best total of
    the checked attacks' worth less the X weapons spent."""
    units = list(ready_units(board, side))
    targets = sorted(
        {board.hex_of(u) for u in board.units if board.unit(u).side != side and board.alive(u)},
        key=lambda h: (h.q, h.r),
    )
    options = []
    for unit_id in units:
        choices = [None]
        for target in targets:
            choices.append((target, None))
            adjacent = board.hex_of(unit_id).distance(target) == 1
            if board.unit(unit_id).kind.infantry and adjacent:
                choices += [(target, "grenade"), (target, "satchel")]
        options.append(choices)
    settings_ = board.settings
    best = Fraction(0)
    for choice in itertools.product(*options):
        groups = defaultdict(lambda: ([], [], []))
        for unit_id, pick in zip(units, choice, strict=True):
            if pick is None:
                continue
            target, x = pick
            members, throwers, satchels = groups[(group_key(board, unit_id), target)]
            members.append(unit_id)
            if x == "grenade":
                throwers.append(unit_id)
            elif x == "satchel":
                satchels.append(unit_id)
        spent_g = sum(len(g[1]) for g in groups.values())
        spent_s = sum(len(g[2]) for g in groups.values())
        if spent_g > pool.grenades or spent_s > pool.satchels:
            continue
        total = Fraction(0)
        for (_, target), (members, throwers, satchels) in groups.items():
            order = FireOrder(
                side, tuple(members), target, None, None, tuple(throwers), tuple(satchels)
            )
            try:
                attack = check_attack(board, order, pool=pool)
            except IllegalAction:
                break
            worth = attack_worth(
                board, attack.firer, target, attack.victims, apfp=attack.apfp, drm=attack.drm
            )
            total += (
                worth
                - len(throwers) * settings_.ai_grenade_value
                - len(satchels) * settings_.ai_satchel_value
            )
        else:
            best = max(best, total)
    return best


@pytest.mark.clause("VV.AP-phases", "VV.AP-groups", "VV.AP-leader", "VV.AP-resolve")
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_value_plan_is_optimal_on_small_positions(build, data):
    pos, pool = data.draw(small_positions(build))
    board = pos.board()
    plan = plan_fire(board, "us", policy=VALUE, pool=pool)
    spent_g = spent_s = 0
    used: set[str] = set()
    for planned in plan.attacks:
        attack = check_attack(board, planned.order("us"), pool=pool)
        assert (attack.apfp, attack.drm) == (planned.apfp, planned.drm)
        assert not used & set(planned.units)
        used |= set(planned.units)
        spent_g += len(planned.grenades)
        spent_s += len(planned.satchels)
    assert spent_g <= pool.grenades and spent_s <= pool.satchels
    assert plan.expected == exhaustive_value(board, "us", pool)


@pytest.mark.clause("VV.AP-resolve")
def test_a_gun_and_its_survival_roll_are_valued_exactly(build):
    """2 CP on a Gun of rating 3: a pin fulfils only one, so it takes the 2 with a survival
    roll, pinned on a die of 1-3 (r. 14.64): the exact mixture, 1/2 of a pin and 1/2 of the
    Gun, less than eliminating it."""
    pos = build()
    pos.gun("pak", "de", "E5", "S", casualty=3)
    board = pos.board()
    loss = hex_loss(board, Pending(pos.hex("E5"), 2, "us", "de", ("pak",)))
    pin = board.settings.ai_pin_fraction * 3
    assert loss == Fraction(1, 2) * pin + Fraction(1, 2) * 3 == Fraction(15, 8)
    assert board.unit("pak").kind is Kind.GUN
