"""Fire groups and their refusals, each naming its clause (VV.AP-groups ... VV.AP-select)."""

from __future__ import annotations

import pytest

from ordnance.core.errors import BadInput, IllegalAction
from ordnance.vv.combat_table import TABLE
from ordnance.vv.groups import FireOrder, Pool, check_attack, group_key
from ordnance.vv.targets import valid_targets
from ordnance.vv.units import Mount


def fire(board, side, units, target, **options):
    return check_attack(board, FireOrder(side, tuple(units), target, **options))


def refused(clause, board, side, units, target, **options):
    with pytest.raises(IllegalAction) as caught:
        check_attack(board, FireOrder(side, tuple(units), target, **options))
    assert caught.value.clause == clause, str(caught.value)
    return caught.value


# --- VV.AP-groups ------------------------------------------------------------------------------


@pytest.mark.clause("VV.AP-groups")
def test_infantry_of_one_hex_combine_their_apfp(build):
    pos = build()
    pos.squad("a", "us", "E8")
    pos.squad("b", "us", "E8", counter="3-6-5")
    pos.half("c", "us", "E8")
    pos.squad("g", "de", "E5")
    attack = fire(pos.board(), "us", ["a", "b", "c"], pos.hex("E5"))
    assert attack.apfp == 9 and attack.contributions == {"a": 4, "b": 3, "c": 2}
    assert attack.key == "infantry@E8" and "VV.AP-groups" in attack.clauses


@pytest.mark.clause("VV.AP-groups")
def test_a_group_is_one_hex(build):
    pos = build()
    pos.squad("a", "us", "E8")
    pos.squad("b", "us", "F8")
    pos.squad("g", "de", "E5")
    refused("VV.AP-groups", pos.board(), "us", ["a", "b"], pos.hex("E5"))


@pytest.mark.clause("VV.AP-groups")
def test_units_of_one_hex_may_split_over_targets_but_not_over_one_target(build):
    pos = build()
    pos.squad("a", "us", "E8")
    pos.squad("b", "us", "E8")
    pos.squad("g", "de", "E5")
    pos.squad("h", "de", "G8")
    board = pos.board()
    first = fire(board, "us", ["a"], pos.hex("E5"))
    attacked = {(first.key, "E5")}
    check_attack(board, FireOrder("us", ("b",), pos.hex("G8")), attacked=attacked)
    with pytest.raises(IllegalAction) as caught:
        check_attack(board, FireOrder("us", ("b",), pos.hex("E5")), attacked=attacked)
    assert caught.value.clause == "VV.AP-groups" and "one group" in caught.value.sentence


@pytest.mark.clause("VV.AP-groups", "VV.AP-weapons")
def test_one_attack_per_unit_per_turn(build):
    pos = build()
    pos.squad("a", "us", "E8", fired=True)
    pos.afv("t", "us", "F8", "N", gun=12, fired=True)
    pos.squad("g", "de", "E5")
    board = pos.board()
    assert refused("V&V r. 13.1", board, "us", ["a"], pos.hex("E5")).sentence.endswith(
        "(Fire marker)"
    )
    refused("VV.AP-weapons", board, "us", ["t"], pos.hex("E5"))


def test_pinned_units_do_not_fire(build):
    pos = build()
    pos.squad("a", "us", "E8", pinned=True)
    pos.squad("g", "de", "E5")
    refused("V&V r. 14.7", pos.board(), "us", ["a"], pos.hex("E5"))


def test_fire_is_only_for_ones_own_units(build):
    pos = build()
    pos.squad("a", "us", "E8")
    pos.squad("g", "de", "E5")
    refused("SYS.record", pos.board(), "de", ["a"], pos.hex("E5"))
    with pytest.raises(BadInput):
        fire(pos.board(), "us", ["a", "a"], pos.hex("E5"))
    with pytest.raises(BadInput):
        fire(pos.board(), "us", ["zz"], pos.hex("E5"))


# --- VV.AP-leader ------------------------------------------------------------------------------


@pytest.mark.clause("VV.AP-leader", "VV.AP-resolve")
def test_golden_apfp_12_with_a_leader_into_a_building(build):
    """The reference's example: 12 APFP with a leader (-1) at a building (+3), rolled 5: 2 CP."""
    pos = build(terrain={"E5": "building"})
    pos.squad("a", "us", "E8", sw=("lmg", 4, 8))
    pos.squad("b", "us", "E8", counter="3-6-5")
    pos.leader("lt", "us", "E8", lm=-1)
    pos.squad("g", "de", "E5")
    attack = fire(pos.board(), "us", ["a", "b", "lt"], pos.hex("E5"))
    assert attack.apfp == 12 and attack.leader == "lt"
    assert [(d.value, d.clause) for d in attack.drms] == [
        (3, "VV.AP-resolve"),
        (-1, "VV.AP-leader"),
    ]
    assert TABLE.cp(attack.apfp, 5 + attack.drm) == 2


@pytest.mark.clause("VV.AP-leader")
def test_one_leadership_modifier_per_attack(build):
    pos = build()
    pos.squad("a", "us", "E8")
    pos.leader("l1", "us", "E8", lm=-1)
    pos.leader("l2", "us", "E8", lm=-2)
    pos.squad("g", "de", "E6")
    board = pos.board()
    best = fire(board, "us", ["a", "l1", "l2"], pos.hex("E6"))
    assert best.leader == "l2" and best.drm == -2 and best.apfp == 6
    chosen = fire(board, "us", ["a", "l1", "l2"], pos.hex("E6"), leader="l1")
    assert chosen.drm == -1
    refused("VV.AP-leader", board, "us", ["a", "l1"], pos.hex("E6"), leader="l2")


@pytest.mark.clause("VV.AP-leader")
def test_a_lone_leader_uses_his_own_modifier(build):
    pos = build()
    pos.leader("lt", "us", "E8", lm=-1)
    pos.squad("g", "de", "E6")
    attack = fire(pos.board(), "us", ["lt"], pos.hex("E6"))
    assert attack.apfp == 1 and attack.drm == -1


@pytest.mark.clause("VV.AP-leader", "VV.AP-range")
def test_a_leader_out_of_range_lends_his_modifier_by_default(build):
    pos = build()
    pos.squad("a", "us", "E9")
    pos.leader("lt", "us", "E9", lm=-1)
    pos.squad("g", "de", "E4")  # range 5: beyond the leader's 3
    attack = fire(pos.board(), "us", ["a", "lt"], pos.hex("E4"))
    assert attack.contributions == {"a": 4, "lt": 0} and attack.drm == -1
    strict = build(settings={"leader_lends_out_of_range": "false"})
    strict.units, strict.status = pos.units, pos.status
    refused("VV.AP-range", strict.board(), "us", ["a", "lt"], pos.hex("E4"))
    refused("VV.AP-range", pos.board(), "us", ["lt"], pos.hex("E4"))  # no APFP at all


# --- VV.AP-passengers ----------------------------------------------------------------------------


@pytest.fixture
def convoy(build):
    """A truck carrying a squad (with an MMG) and a half squad; a second truck with a squad;
    a squad on foot in the same hex; a towed Gun; the enemy three hexes north."""
    pos = build()
    pos.vehicle("truck", "us", "E8", "N", mg360=2)
    pos.squad("p1", "us", None, sw=("mmg", 4, 10), aboard="truck")
    pos.half("p2", "us", None, sw=("lmg", 2, 8), aboard="truck")
    pos.vehicle("lorry", "us", "E8", "N")
    pos.squad("p3", "us", None, aboard="lorry")
    pos.gun("pak", "us", None, aboard="lorry")
    pos.squad("foot", "us", "E8")
    pos.squad("g", "de", "E5")
    pos.squad("h", "de", "E7")
    return pos


@pytest.mark.clause("VV.AP-passengers")
def test_passengers_group_with_their_transport_using_light_mgs(convoy):
    board = convoy.board()
    attack = fire(board, "us", ["truck", "p1", "p2"], convoy.hex("E5"))
    assert attack.contributions == {"truck": 2, "p1": 4, "p2": 4}  # p1's MMG stays silent
    assert attack.key == group_key(board, "p1") == "unit:truck"
    assert "VV.AP-passengers" in attack.clauses
    assert fire(board, "us", ["p1", "p2"], convoy.hex("E5")).apfp == 8


@pytest.mark.clause("VV.AP-passengers")
def test_passengers_do_not_group_outside_their_vehicle(convoy):
    board = convoy.board()
    refused("VV.AP-passengers", board, "us", ["p1", "foot"], convoy.hex("E5"))
    refused("VV.AP-passengers", board, "us", ["p1", "p3"], convoy.hex("E5"))
    refused("VV.AP-passengers", board, "us", ["p3", "truck"], convoy.hex("E5"))


@pytest.mark.clause("VV.AP-passengers")
def test_passengers_and_their_transport_must_combine_on_one_target(convoy):
    board = convoy.board()
    first = fire(board, "us", ["truck"], convoy.hex("E5"))
    attacked = {(first.key, "E5")}
    with pytest.raises(IllegalAction) as caught:
        check_attack(board, FireOrder("us", ("p1",), convoy.hex("E5")), attacked=attacked)
    assert caught.value.clause == "VV.AP-passengers"
    check_attack(board, FireOrder("us", ("p1",), convoy.hex("E7")), attacked=attacked)
    # The squad on foot in the same hex is another class: it may fire at E5 on its own.
    check_attack(board, FireOrder("us", ("foot",), convoy.hex("E5")), attacked=attacked)


@pytest.mark.clause("VV.AP-passengers")
def test_a_transported_gun_never_fires(convoy):
    refused("VV.AP-passengers", convoy.board(), "us", ["pak"], convoy.hex("E5"))


@pytest.mark.clause("VV.AP-passengers")
def test_passengers_may_throw_grenades(build):
    pos = build()
    pos.vehicle("truck", "us", "E8", "N")
    pos.squad("p1", "us", None, aboard="truck")
    pos.squad("g", "de", "E7")
    attack = check_attack(
        pos.board(),
        FireOrder("us", ("p1",), pos.hex("E7"), grenades=("p1",)),
        pool=Pool(grenades=1),
    )
    assert attack.drm == -1


# --- VV.AP-vehicles, VV.AP-weapons ----------------------------------------------------------------


@pytest.mark.clause("VV.AP-vehicles")
def test_vehicles_and_guns_never_form_fire_groups(build):
    pos = build()
    pos.afv("t1", "us", "E8", "N", gun=8)
    pos.afv("t2", "us", "E8", "N", mg360=4)
    pos.gun("pak", "us", "F8", "N")
    pos.squad("a", "us", "F8")
    pos.squad("g", "de", "E5")
    board = pos.board()
    refused("VV.AP-vehicles", board, "us", ["t1", "t2"], pos.hex("E5"))
    refused("VV.AP-vehicles", board, "us", ["pak", "a"], pos.hex("E5"))
    # Separately, each may attack the same hex (they never group, so they need not combine).
    first = fire(board, "us", ["a"], pos.hex("E5"))
    check_attack(board, FireOrder("us", ("pak",), pos.hex("E5")), attacked={(first.key, "E5")})


@pytest.mark.clause("VV.AP-weapons")
def test_a_vehicle_combines_its_weapons_into_one_attack(build):
    pos = build()
    pos.afv("t", "us", "E8", "N", gun=12, turret=True, mg360=4, ffmg=3)
    pos.squad("g", "de", "E5")
    board = pos.board()
    assert fire(board, "us", ["t"], pos.hex("E5")).apfp == 19
    only = fire(board, "us", ["t"], pos.hex("E5"), weapons=(Mount.GUN, Mount.FFMG))
    assert only.apfp == 15 and only.weapons == (Mount.GUN, Mount.FFMG)
    gun_only = build()
    gun_only.afv("t", "us", "E8", "N", gun=12)
    gun_only.squad("g", "de", "E5")
    with pytest.raises(BadInput, match="no mg360"):
        fire(gun_only.board(), "us", ["t"], pos.hex("E5"), weapons=(Mount.MG360,))


# --- VV.AP-range, VV.AP-arc: the M4A3E8 ----------------------------------------------------------

FRONT_NEAR, FRONT_FAR, REAR_NEAR, REAR_FAR = "F10", "F3", "F20", "F27"
M4A3E8 = [
    # weapons, APFP, targets it may attack (from F15 facing N)
    ((Mount.GUN,), 12, {FRONT_NEAR, FRONT_FAR, REAR_NEAR, REAR_FAR}),
    ((Mount.GUN, Mount.MG360), 16, {FRONT_NEAR, REAR_NEAR}),
    ((Mount.GUN, Mount.MG360, Mount.FFMG), 19, {FRONT_NEAR}),
    ((Mount.GUN, Mount.FFMG), 15, {FRONT_NEAR}),
    ((Mount.MG360,), 4, {FRONT_NEAR, REAR_NEAR}),
    ((Mount.FFMG,), 3, {FRONT_NEAR}),
]


@pytest.mark.clause("VV.AP-range", "VV.AP-arc", "VV.AP-weapons")
def _case_id(value: object) -> str:
    """A set by its sorted members: ids must not depend on hash order (pytest -n compares them)."""
    return str(sorted(value)) if isinstance(value, set) else str(value)


@pytest.mark.parametrize(("weapons", "apfp", "allowed"), M4A3E8, ids=_case_id)
def test_golden_m4a3e8_combinations(build, weapons, apfp, allowed):
    """reference/vv.md section 5: Gun 12 (turreted), 360-degree MG 4, FF MG 3."""
    pos = build(columns=12, rows=30)
    pos.afv("sherman", "us", "F15", "N", gun=12, turret=True, mg360=4, ffmg=3)
    for number, label in enumerate((FRONT_NEAR, FRONT_FAR, REAR_NEAR, REAR_FAR)):
        pos.squad(f"g{number}", "de", label)
    board = pos.board()
    for label in (FRONT_NEAR, FRONT_FAR, REAR_NEAR, REAR_FAR):
        order = FireOrder("us", ("sherman",), pos.hex(label), weapons)
        if label in allowed:
            assert check_attack(board, order).apfp == apfp
        else:
            with pytest.raises(IllegalAction) as caught:
                check_attack(board, order)
            far = label in (FRONT_FAR, REAR_FAR)
            assert caught.value.clause == ("VV.AP-range" if far else "VV.AP-arc")


@pytest.mark.clause("VV.AP-range", "VV.AP-arc")
def test_without_named_weapons_every_weapon_that_reaches_fires(build):
    pos = build(columns=12, rows=30)
    pos.afv("sherman", "us", "F15", "N", gun=12, turret=True, mg360=4, ffmg=3)
    for label in (FRONT_NEAR, FRONT_FAR, REAR_NEAR):
        pos.squad(f"g{label}", "de", label)
    board = pos.board()
    reach = {
        label: fire(board, "us", ["sherman"], pos.hex(label)).apfp
        for label in (FRONT_NEAR, FRONT_FAR, REAR_NEAR)
    }
    assert reach == {FRONT_NEAR: 19, FRONT_FAR: 12, REAR_NEAR: 16}


@pytest.mark.clause("VV.AP-arc")
def test_an_unturreted_gun_fires_into_its_ffa_only(build):
    pos = build()
    pos.gun("pak", "us", "F6", "S", apfp=4)
    pos.squad("g", "de", "F9")
    pos.squad("h", "de", "F3")
    board = pos.board()
    assert fire(board, "us", ["pak"], pos.hex("F9")).apfp == 4
    refused("VV.AP-arc", board, "us", ["pak"], pos.hex("F3"))


@pytest.mark.clause("VV.AP-range")
def test_guns_have_unlimited_range_mgs_eight_hexes(build):
    pos = build(columns=6, rows=30)
    pos.gun("atg", "us", "C28", "N", apfp=3)
    pos.vehicle("truck", "us", "D28", "N", mg360=2)
    pos.squad("far", "de", "C2")
    pos.squad("nine", "de", "D19")
    board = pos.board()
    assert fire(board, "us", ["atg"], pos.hex("C2")).range == 26
    refused("VV.AP-range", board, "us", ["truck"], pos.hex("D19"))


@pytest.mark.clause("VV.AP-range")
def test_each_member_must_reach_with_its_own_or_its_weapons_range(build):
    pos = build()
    pos.squad("a", "us", "E9", sw=("lmg", 2, 8))
    pos.squad("b", "us", "E9")
    pos.squad("g", "de", "E2")  # range 7
    board = pos.board()
    assert fire(board, "us", ["a"], pos.hex("E2")).apfp == 2  # the LMG alone
    refused("VV.AP-range", board, "us", ["a", "b"], pos.hex("E2"))
    lenient = build(settings={"member_must_reach": "false"})
    lenient.units, lenient.status = pos.units, pos.status
    assert fire(lenient.board(), "us", ["a", "b"], pos.hex("E2")).apfp == 2


# --- VV.AP-targets, VV.AP-select -----------------------------------------------------------------


@pytest.mark.clause("VV.AP-targets")
def test_ap_fire_affects_every_eligible_unit_but_no_afv(build):
    pos = build()
    pos.squad("a", "us", "E8")
    pos.squad("g", "de", "E5")
    pos.gun("pak", "de", "E5", "S")
    pos.vehicle("truck", "de", "E5", "S")
    pos.half("rider", "de", None, aboard="truck")
    pos.afv("tiger", "de", "E5", "S", gun=16, transport="T1")
    pos.squad("tankrider", "de", None, aboard="tiger")
    pos.afv("panther", "de", "G6", "S", gun=16)
    board = pos.board()
    attack = fire(board, "us", ["a"], pos.hex("E5"))
    assert set(attack.victims) == {"g", "pak", "truck", "rider"}
    refusal = refused("VV.AP-targets", board, "us", ["a"], pos.hex("G6"))
    assert "no effect" in refusal.sentence
    refused("VV.AP-targets", board, "us", ["a"], pos.hex("C5"))


@pytest.mark.clause("VV.AP-select")
def test_valid_targets_are_exactly_the_hexes_fire_would_accept(build):
    pos = build(terrain={"E5": "woods", "E4": "building"}, smoke={"G7": 2})
    pos.squad("a", "us", "E8")
    pos.leader("lt", "us", "E8", lm=-1)
    pos.squad("g", "de", "E5")  # woods: valid, cover +2
    pos.squad("h", "de", "E3")  # behind the woods: no LOS
    pos.squad("i", "de", "G7")  # smoke 2 in its hex: +2
    pos.afv("j", "de", "C8", "N", gun=8)  # AFV only: not a target
    board = pos.board()
    found = valid_targets(board, "us", ("a", "lt"))
    listed = {board.label(t.attack.order.target): t.attack.drm for t in found.targets}
    assert listed == {"E5": 1, "G7": 1}
    assert {board.label(h): r.clause for h, r in found.refused} == {
        "E3": "VV.AP-select",
        "C8": "VV.AP-targets",
    }
    for target in found.targets:
        assert target.expected > 0


@pytest.mark.clause("VV.AP-select")
def test_valid_targets_refuse_a_group_that_cannot_fire_together(build):
    pos = build()
    pos.squad("a", "us", "E8")
    pos.afv("t", "us", "E8", "N", gun=8)
    pos.squad("g", "de", "E5")
    with pytest.raises(IllegalAction) as caught:
        valid_targets(pos.board(), "us", ("a", "t"))
    assert caught.value.clause == "VV.AP-vehicles"


# --- X weapons, hindrances -----------------------------------------------------------------------


def test_grenades_and_satchels(build):
    pos = build()
    pos.squad("a", "us", "E8")
    pos.squad("b", "us", "E8")
    pos.leader("lt", "us", "E8")
    pos.squad("g", "de", "E7")
    pos.squad("h", "de", "E5")
    board = pos.board()
    pool = Pool(grenades=2, satchels=1, satchel_apfp=6)
    both = check_attack(
        board,
        FireOrder("us", ("a", "b", "lt"), pos.hex("E7"), grenades=("a",), satchels=("b",)),
        pool=pool,
    )
    assert both.contributions == {"a": 4, "b": 10, "lt": 1} and both.drm == -2
    for order, clause in [
        (FireOrder("us", ("a",), pos.hex("E5"), grenades=("a",)), "V&V r. 12.51"),
        (FireOrder("us", ("a",), pos.hex("E7"), grenades=("a",), satchels=("a",)), "V&V r. 12.51"),
        (
            FireOrder("us", ("a", "b", "lt"), pos.hex("E7"), grenades=("a", "b", "lt")),
            "V&V r. 12.1",
        ),
    ]:
        with pytest.raises(IllegalAction) as caught:
            check_attack(board, order, pool=pool)
        assert caught.value.clause == clause
    once = build(settings={"grenade_each": "false"})
    once.units, once.status = pos.units, pos.status
    one = check_attack(
        once.board(), FireOrder("us", ("a", "b"), pos.hex("E7"), grenades=("a", "b")), pool=pool
    )
    assert one.drm == -1


@pytest.mark.clause("VV.AP-resolve")
def test_hindrances_and_hedges_add_to_the_roll(build):
    pos = build(
        terrain={"E6": "crops"}, hexsides={"E5/S": "hedge"}, fortifications={"E5": "trenches"}
    )
    pos.squad("a", "us", "E8")
    pos.squad("g", "de", "E5")
    attack = fire(pos.board(), "us", ["a"], pos.hex("E5"))
    reasons = [(d.value, d.reason.split(":")[0]) for d in attack.drms]
    assert reasons == [(1, "cover"), (2, "trenches"), (1, "hindrance")]
