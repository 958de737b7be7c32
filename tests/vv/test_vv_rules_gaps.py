"""Rules gaps of issue 16, each with its clause: the second slope hex of the rules' hill example
blocks LOS; an out-of-range leader lends no LM when the settings say so; the Gun Shield takes
the first CP; a transport firing apart from its passengers is refused under the passengers'
rule."""

from __future__ import annotations

import pytest

from ordnance.core.errors import IllegalAction
from ordnance.core.hexgrid import GridLabels
from ordnance.core.maps import GameMap
from ordnance.vv.ai import AiPolicy, plan_fire
from ordnance.vv.casualties import Pending, check_allocation, gun_shield, parse_allocations
from ordnance.vv.groups import FireOrder, check_attack
from ordnance.vv.los import vv_los

from .test_vv_game import small

GRID = GridLabels(columns=10, rows=10)


def hill(levels: dict[str, int]) -> GameMap:
    return GameMap("hill", "vv", GRID, "open", {}, {GRID.parse(k): v for k, v in levels.items()})


# --- hills: the slope exception covers one slope hex ---------------------------------------------


@pytest.mark.clause("VV.AP-select")
def test_a_second_level_one_hex_blocks_a_level_two_firer(build):
    """The rules' hill example: a level-2 firer (E2) looking down at a ground target (E7)
    across level-1 hexes: one slope hex (E3) is crossed, a second (E4) blocks; both ways."""
    one = hill({"E2": 2, "E3": 1})
    two = hill({"E2": 2, "E3": 1, "E4": 1})
    firer, target = GRID.parse("E2"), GRID.parse("E7")
    assert vv_los(one, firer, target).clear and vv_los(one, target, firer).clear
    blocked = vv_los(two, firer, target)
    assert not blocked.clear and not vv_los(two, target, firer).clear
    assert "slope" in blocked.explanation
    # Level-1 hexes between two level-1 ends, or a level-2 target seen from level 1: as before.
    assert vv_los(hill({"E2": 2, "E3": 2}), firer, target).clear is False
    assert vv_los(hill({"E2": 1, "E7": 1}), firer, target).clear
    # A fire group there is refused for want of LOS (VV.AP-select).
    pos = build(columns=10, rows=10)
    pos.map = two
    pos.squad("a", "us", "E2")
    pos.squad("g", "de", "E7")
    with pytest.raises(IllegalAction) as caught:
        check_attack(pos.board(), FireOrder("us", ("a",), GRID.parse("E7")))
    assert caught.value.clause == "VV.AP-select"


# --- an out-of-range leader ----------------------------------------------------------------------


@pytest.mark.clause("VV.AP-leader", "VV.AP-range")
def test_an_out_of_range_leader_lends_nothing_when_the_setting_says_so(build):
    """A 1-3-1 leader with a squad, the target at range 5: with member_must_reach=false he may
    join (adding nothing); with leader_lends_out_of_range=false he lends no LM, and naming him
    is refused; with the default he lends it."""
    settings = {"member_must_reach": "false", "leader_lends_out_of_range": "false"}
    strict = build(settings=settings)
    strict.squad("a", "us", "E8")
    strict.leader("lt", "us", "E8")
    strict.squad("g", "de", "E3")
    board = strict.board()
    attack = check_attack(board, FireOrder("us", ("a", "lt"), strict.hex("E3")))
    assert attack.contributions == {"a": 4, "lt": 0}
    assert attack.leader is None and attack.drm == 0
    with pytest.raises(IllegalAction) as caught:
        check_attack(board, FireOrder("us", ("a", "lt"), strict.hex("E3"), leader="lt"))
    assert caught.value.clause == "VV.AP-leader" and "lends no" in caught.value.sentence
    plan = plan_fire(board, "us", policy=AiPolicy.greedy())
    assert all(a.leader is None and a.drm == 0 for a in plan.attacks)
    lending = build(settings={"member_must_reach": "false"})
    lending.units, lending.status = strict.units, strict.status
    lent = check_attack(lending.board(), FireOrder("us", ("a", "lt"), strict.hex("E3")))
    assert lent.leader == "lt" and lent.drm == -1


# --- the Gun Shield ------------------------------------------------------------------------------


@pytest.mark.clause("VV.AP-resolve")
def test_the_gun_shield_ignores_the_first_cp_from_inside_its_arc(build):
    pos = build()
    unit = pos.gun("pak", "de", "E5", "S", casualty=3)
    pos.units["pak"] = type(unit)(**{**unit.__dict__, "shield": True})
    pos.squad("g", "de", "E5")
    board = pos.board()
    assert gun_shield(board, pos.hex("E7"), ("pak", "g")) == "pak"  # south: inside the FFA
    assert gun_shield(board, pos.hex("E2"), ("pak", "g")) is None  # behind it
    pending = Pending(pos.hex("E5"), 2, "us", "de", ("pak", "g"), shield="pak")
    with pytest.raises(IllegalAction, match="the rest go to pak first"):
        check_allocation(board, pending, parse_allocations(["g:reduce"]))
    with pytest.raises(IllegalAction, match="once pak"):
        check_allocation(board, pending, parse_allocations(["pak:pin", "g:pin"]))
    check_allocation(board, pending, parse_allocations(["pak:2"]))
    three = Pending(pos.hex("E5"), 4, "us", "de", ("pak", "g"), shield="pak")
    check_allocation(board, three, parse_allocations(["pak:eliminate", "g:pin"]))


@pytest.mark.clause("VV.AP-resolve")
def test_the_gun_shield_in_a_game():
    """From the Gun's front, a roll of 4 on the 1-4 row is 3 CP: the shield ignores the first,
    the 2 left go to the Gun first (here a survival roll: a die of 1 keeps it, pinned)."""
    play = small(
        {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C8"}},
        {
            "pak": {
                "kind": "gun",
                "apfp": 4,
                "casualty": 3,
                "hex": "C5",
                "facing": "S",
                "shield": True,
            },
            "g": {"kind": "squad", "counter": "4-6-5", "hex": "C5"},
        },
    )
    play.do("us", "phase next")
    fired = play.do("us", "fire a --at C5", "2,2")
    assert fired.ruling["gun_shield"] == "pak" and fired.ruling["cp"] == 2
    assert "3 CP, the first ignored by pak's Gun Shield" in fired.ruling["explanation"]
    assert play.state.pending is not None and play.state.pending.shield == "pak"
    play.refused("VV.AP-resolve", "de", "assign-cp g:reduce")
    play.do("de", "assign-cp pak:2", 1)
    assert play.status("pak").pinned and not play.status("g").pinned


# --- a transport and its passengers --------------------------------------------------------------


@pytest.mark.clause("VV.AP-passengers")
def test_a_transport_firing_apart_from_its_passengers_is_refused_under_their_rule(build):
    pos = build()
    pos.vehicle("truck", "us", "E8", "N", mg360=2)
    pos.squad("p1", "us", None, aboard="truck")
    pos.squad("g", "de", "E5")
    board = pos.board()
    attacked = {("unit:truck", "E5")}  # the passengers have attacked E5
    with pytest.raises(IllegalAction) as caught:
        check_attack(board, FireOrder("us", ("truck",), pos.hex("E5")), attacked=attacked)
    assert caught.value.clause == "VV.AP-passengers"
    assert "must combine" in caught.value.sentence
    # Another target is still free for the transport.
    pos.squad("h", "de", "E6")
    check_attack(pos.board(), FireOrder("us", ("truck",), pos.hex("E6")), attacked=attacked)
