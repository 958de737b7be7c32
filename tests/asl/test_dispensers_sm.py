"""D13.32: the smoke mortar's target, its DRMs, the Case A table by mount and the CA change."""

from __future__ import annotations

import dataclasses
import re

import pytest

from ordnance.asl.dispensers import (
    AfvState,
    Dispenser,
    Mount,
    SmokeMortarAim,
    case_a_drm,
    check_dispenser,
    hexspines_between,
    resolve_dispenser,
)
from ordnance.asl.notation import Family
from ordnance.asl.settings import Settings
from ordnance.core.clauses import cite
from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Corner, Hex

SM9 = Dispenser(Family.SMOKE_MORTAR, 9, "sM9")
HERE = Hex(0, 0)
# A CE AFV (no BU DRM) at the origin, turret facing the E corner.
AFV = AfvState(ce=True, hex=HERE, vca=Corner.E, tca=Corner.E, mp_allowance=16)
TWO_EAST = Hex(2, -1)  # straight through the E corner, range 2
TWO_WEST = Hex(-2, 1)  # straight through the W corner, range 2


def refused(clause: str):
    return pytest.raises(IllegalAction, match=rf"^refused by {re.escape(cite(clause))}:")


def aim(target: Hex = TWO_EAST, **more) -> SmokeMortarAim:
    return SmokeMortarAim(target=target, in_los=more.pop("in_los", True), **more)


# --- D13.32-place -------------------------------------------------------------------------------


@pytest.mark.clause("D13.32-place")
@pytest.mark.parametrize("reach", [1, 2, 3])
def test_sm_places_dispersed_smoke_in_a_target_hex_at_range_1_to_3(reach):
    target = Hex(reach, 0) if reach == 1 else Hex(reach, -1) if reach == 2 else Hex(3, -1)
    ruling = resolve_dispenser(AFV, SM9, DR(1, 1), aim=aim(target))
    placement = ruling.placement
    assert placement is not None and ruling.fired
    assert (placement.where, placement.hex, placement.level) == ("target hex", target, "Base Level")
    assert placement.range == reach and placement.dispersed and placement.white
    assert placement.clause == "D13.32-place"


@pytest.mark.clause("D13.32-place")
@pytest.mark.parametrize("target", [HERE, Hex(4, -2), Hex(3, 1)])
def test_sm_target_out_of_range_is_refused(target):
    with refused("D13.32-place") as error:
        check_dispenser(AFV, SM9, aim=aim(target))
    assert "range" in str(error.value)


@pytest.mark.clause("D13.32-place")
def test_sm_target_outside_the_tca_is_refused():
    with refused("D13.32-place") as error:
        check_dispenser(AFV, SM9, aim=aim(TWO_WEST))
    assert "outside the TCA:E" in str(error.value)


@pytest.mark.clause("D13.32-place")
def test_sm_target_not_in_los_is_refused():
    with refused("D13.32-place") as error:
        check_dispenser(AFV, SM9, aim=aim(in_los=False))
    assert "LOS" in str(error.value)


@pytest.mark.clause("D13.32-place")
def test_the_arc_tested_is_the_one_the_sm_turns_to():
    # Turning the TCA to W brings the western hex in and the eastern one out.
    check_dispenser(AFV, SM9, aim=aim(TWO_WEST, facing=Corner.W))
    with refused("D13.32-place"):
        check_dispenser(AFV, SM9, aim=aim(TWO_EAST, facing=Corner.W))


@pytest.mark.clause("D13.32-place")
def test_nt_mount_aims_with_its_vca():
    nt = dataclasses.replace(AFV, mount=Mount.NT, tca=None, vca=Corner.W)
    check_dispenser(nt, SM9, aim=aim(TWO_WEST))
    with refused("D13.32-place") as error:
        check_dispenser(nt, SM9, aim=aim(TWO_EAST))
    assert "CA:W" in str(error.value)


def test_sm_aim_needs_positions_and_only_an_sm_is_aimed():
    with pytest.raises(BadInput, match="hex"):
        check_dispenser(dataclasses.replace(AFV, hex=None), SM9, aim=aim())
    with pytest.raises(BadInput, match="TCA"):
        check_dispenser(dataclasses.replace(AFV, tca=None), SM9, aim=aim())
    with pytest.raises(BadInput, match="needs a target"):
        check_dispenser(AFV, SM9)
    with pytest.raises(BadInput, match="only an sM"):
        check_dispenser(AFV, Dispenser(Family.SMOKE_DISCHARGER, 7), aim=aim())
    with pytest.raises(BadInput):
        aim(hindrance=-1)


# --- D13.32-drm: Case A, motion, Hindrance, Dust -----------------------------------------------

# The C5.1 Case A table by mount (reference/asl.md section 2), written out independently:
# (first hexspine, each further hexspine).
CASE_A = {Mount.T: (1, 1), Mount.ST: (2, 1), Mount.NT: (3, 1), Mount.RST: (2, 1)}


@pytest.mark.clause("D13.32-drm")
@pytest.mark.parametrize("mount", list(Mount))
@pytest.mark.parametrize("hexspines", [0, 1, 2, 3])
def test_case_a_table_per_mount(mount, hexspines):
    first, further = CASE_A[mount]
    expected = 0 if hexspines == 0 else first + further * (hexspines - 1)
    assert case_a_drm(mount, hexspines) == expected


@pytest.mark.clause("D13.32-drm")
@pytest.mark.parametrize(
    ("mount", "facing", "drm"),
    [
        (Mount.T, Corner.SSE, 1),
        (Mount.ST, Corner.SSE, 2),
        (Mount.RST, Corner.SSW, 3),
        (Mount.NT, Corner.SSW, 4),
        (Mount.T, Corner.W, 3),
        (Mount.NT, Corner.NNW, 4),
    ],
)
def test_case_a_drm_applies_to_the_usage_dr_when_the_ca_turns(mount, facing, drm):
    state = dataclasses.replace(AFV, mount=mount, tca=None if mount is Mount.NT else Corner.E)
    target = HERE + facing.vector  # range 2, straight through the new corner
    ruling = resolve_dispenser(state, SM9, DR(1, 1), aim=aim(target, facing=facing))
    (case_a,) = ruling.drms
    assert case_a.value == drm and case_a.clause == "D13.32-drm"
    assert f"{hexspines_between(Corner.E, facing)} hexspine" in case_a.reason
    assert f"({mount} mount)" in case_a.reason
    assert ruling.final_dr == 2 + drm


@pytest.mark.clause("D13.32-drm")
def test_rst_row_is_a_setting():
    settings = Settings().override({"case_a_rst_first_hexspine": "3"})
    assert case_a_drm(Mount.RST, 2, settings) == 4
    state = dataclasses.replace(AFV, mount=Mount.RST)
    ruling = resolve_dispenser(
        state,
        SM9,
        DR(1, 1),
        aim=aim(HERE + Corner.SSE.vector, facing=Corner.SSE),
        settings=settings,
    )
    assert [d.value for d in ruling.drms] == [3]
    assert ruling.later_fire is not None and ruling.later_fire.drm == 3


@pytest.mark.clause("D13.32-drm")
@pytest.mark.parametrize(
    ("moving", "in_motion", "words"),
    [(True, False, "moving"), (False, True, "in Motion"), (True, True, "moving and in Motion")],
)
def test_moving_or_motion_adds_two_once(moving, in_motion, words):
    state = dataclasses.replace(AFV, moving=moving, in_motion=in_motion)
    ruling = resolve_dispenser(state, SM9, DR(1, 1), aim=aim())
    assert [(d.value, d.reason) for d in ruling.drms] == [(2, f"the AFV is {words}")]


@pytest.mark.clause("D13.32-drm", "D13.3")
def test_moving_does_not_modify_other_dispensers():
    state = dataclasses.replace(AFV, moving=True, in_motion=True)
    ruling = resolve_dispenser(state, Dispenser(Family.SMOKE_DISCHARGER, 7), DR(1, 1))
    assert ruling.drms == ()


@pytest.mark.clause("D13.32-drm")
def test_hindrance_and_dust_between_the_afv_and_the_target_add_to_the_dr():
    bu = dataclasses.replace(AFV, ce=False)
    ruling = resolve_dispenser(bu, SM9, DR(2, 2), aim=aim(hindrance=2, dust=1))
    assert [(d.value, d.clause) for d in ruling.drms] == [
        (1, "D13.3"),
        (2, "D13.32-drm"),
        (1, "D13.32-drm"),
    ]
    assert ruling.final_dr == 8 and ruling.fired
    assert "LOS Hindrance" in ruling.drms[1].reason and "Dust" in ruling.drms[2].reason


@pytest.mark.clause("D13.32-drm")
def test_the_ca_changes_only_when_the_sm_fires():
    target = HERE + Corner.SSE.vector
    hit = resolve_dispenser(AFV, SM9, DR(3, 4), aim=aim(target, facing=Corner.SSE))
    assert hit.fired and hit.new_facing is Corner.SSE and hit.state_after.tca is Corner.SSE
    miss = resolve_dispenser(AFV, SM9, DR(4, 5), aim=aim(target, facing=Corner.SSE))
    assert not miss.fired and miss.new_facing is None and miss.state_after.tca is Corner.E
    assert miss.later_fire is None


@pytest.mark.clause("D13.32-drm")
def test_nt_mount_turns_its_vca():
    nt = dataclasses.replace(AFV, mount=Mount.NT, tca=None)
    ruling = resolve_dispenser(nt, SM9, DR(1, 1), aim=aim(TWO_WEST, facing=Corner.W))
    assert ruling.state_after.vca is Corner.W and ruling.drms[0].value == 5
    assert "VCA" in ruling.drms[0].reason


@pytest.mark.clause("D13.32-drm", "D13.2-mp")
def test_own_mph_case_a_is_not_paid_again_by_later_bounding_first_fire():
    ruling = resolve_dispenser(AFV, SM9, DR(1, 1), aim=aim(TWO_WEST, facing=Corner.W))
    later = ruling.later_fire
    assert later is not None
    assert (later.facing, later.drm, later.applies, later.fire) == (
        Corner.W,
        3,
        False,
        "Bounding First Fire",
    )
    assert ruling.mp_cost == 1


@pytest.mark.clause("D13.32-drm", "D13.2-defensive")
def test_opponents_mph_case_a_applies_to_later_defensive_first_fire():
    state = dataclasses.replace(AFV, own_turn=False, enemy_expended_in_los=True)
    ruling = resolve_dispenser(state, SM9, DR(1, 1), aim=aim(TWO_WEST, facing=Corner.W))
    later = ruling.later_fire
    assert later is not None
    assert (later.drm, later.applies, later.fire) == (3, True, "Defensive First Fire")
    assert ruling.mp_cost == 0 and ruling.state_after.tca is Corner.W


@pytest.mark.clause("D13.32-drm")
def test_no_turn_no_case_a_and_no_later_fire_note():
    ruling = resolve_dispenser(AFV, SM9, DR(1, 1), aim=aim(facing=Corner.E))
    assert ruling.drms == () and ruling.new_facing is None and ruling.later_fire is None


def test_hexspines_are_counted_the_short_way_round():
    assert [hexspines_between(Corner.NNE, c) for c in Corner] == [0, 1, 2, 3, 2, 1]


def test_ruling_json_names_corners_and_hexes():
    data = resolve_dispenser(AFV, SM9, DR(1, 1), aim=aim(TWO_WEST, facing=Corner.W)).to_json()
    assert data["new_facing"] == "W" and data["state_after"]["tca"] == "W"
    assert data["placement"]["hex"] == "-2,1,1"
    assert data["drms"][0] == {
        "value": 3,
        "reason": "Case A: the TCA turns 3 hexspines (T mount) to fire",
        "clause": "D13.32-drm",
    }
