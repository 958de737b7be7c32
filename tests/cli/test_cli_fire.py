"""``ordnance asl deplete | smoke | canister``: JSON contract, dice input, errors."""

from __future__ import annotations

import pytest


@pytest.mark.clause("C8.9-eq", "SYS.dice")
def test_deplete_json_contract(cli):
    result = cli("asl", "deplete", "--number", "7", "--dice", "3,4", "--json")
    assert result.code == 0 and result.err == ""
    data = result.json
    assert data["outcome"] == "used-last"
    assert data["clauses"] == ["C8.9-eq"]
    assert data["explanation"]
    assert data["original_dr"] == 7 and data["depletion_number"] == 7
    assert data["dice"] == {"white": 3, "colored": 4, "total": 7}
    assert data["exhausted"] is True and data["malfunctioned"] is False
    assert data["seed"] is None


@pytest.mark.clause("C8.9-gt", "C8.92")
def test_deplete_with_breakdown_and_intensive_fire(cli):
    args = ("asl", "deplete", "--number", "6", "--dice", "5,5", "--breakdown", "12")
    plain = cli(*args, "--json").json
    intensive = cli(*args, "--intensive-fire", "--json").json
    assert plain["outcome"] == intensive["outcome"] == "none"
    assert not plain["malfunctioned"] and intensive["malfunctioned"]
    assert intensive["breakdown"] == 10 and "C8.92" in intensive["clauses"]


def test_deplete_reads_settings(cli):
    result = cli(
        "asl", "--set", "malf_shot_still_resolves=false",
        "deplete", "--number", "10", "--dice", "4,5", "--breakdown", "9", "--json",
    )  # fmt: skip
    assert result.json["malfunctioned"] and not result.json["resolved_with_special_ammo"]


@pytest.mark.clause("C8.9-scope")
def test_deplete_refuses_a_dispenser_with_exit_1(cli):
    result = cli("asl", "deplete", "--number", "7", "--ammo", "sD", "--dice", "3,4")
    assert result.code == 1 and result.out == ""
    assert len(result.err.strip().splitlines()) == 1 and "C8.9-scope" in result.err


@pytest.mark.clause("SYS.dice")
def test_seeded_rolls_are_reproducible(cli):
    first = cli("asl", "deplete", "--number", "7", "--seed", "42", "--json").json
    again = cli("asl", "deplete", "--number", "7", "--seed", "42", "--json").json
    assert first == again and first["seed"] == 42


@pytest.mark.clause("SYS.dice")
def test_an_unseeded_roll_reports_its_seed(cli):
    data = cli("asl", "deplete", "--number", "7", "--json").json
    assert isinstance(data["seed"], int)
    replay = cli("asl", "deplete", "--number", "7", "--seed", str(data["seed"]), "--json").json
    assert replay["dice"] == data["dice"]


@pytest.mark.parametrize("dice", ["0,7", "3", "a,b", "7,1", "3,4,5", ""])
@pytest.mark.parametrize("command", ["deplete", "canister"])
def test_bad_dice_are_one_line_and_exit_2(cli, dice, command):
    extra = ["--number", "7"] if command == "deplete" else ["--fp", "12"]
    result = cli("asl", command, *extra, "--dice", dice)
    assert result.code == 2 and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "dice" in lines[0]
    assert "Traceback" not in result.err


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (("asl", "deplete", "--number", "13", "--dice", "3,4"), "1 to 12"),
        (("asl", "deplete", "--number", "x"), "--number"),
        (("asl", "deplete", "--number", "7", "--breakdown", "1", "--dice", "3,4"), "2 to 12"),
        (("asl", "smoke", "--ammo", "HE", "--phase", "PFPh"), "SMOKE"),
        (("asl", "smoke", "--ammo", "WP", "--phase", "Fire"), "RtPh"),
        (("asl", "canister", "--fp", "twelve", "--dice", "3,4"), "FP"),
        (("asl", "canister", "--fp", "0", "--dice", "3,4"), "positive"),
        (("asl", "canister", "--fp", "12", "--adjacent", "vertex", "--dice", "3,4"), "hexside"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args, fault):
    result = cli(*args)
    assert result.code == 2 and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0]


@pytest.mark.clause("C8.5-phase", "C8.51")
def test_smoke_json_contract(cli):
    result = cli("asl", "smoke", "--ammo", "SMOKE", "--phase", "pfph", "--json")
    assert result.code == 0
    data = result.json
    assert data["allowed"] is True and data["dispersed"] is False
    assert data["phase"] == "PFPh" and data["level"] == "ground"
    assert data["clauses"] and data["explanation"]


@pytest.mark.clause("C8.5-phase")
def test_smoke_refusal_is_an_answer_not_an_error(cli):
    result = cli(
        "asl", "smoke", "--ammo", "SMOKE", "--phase", "PFPh", "--after-non-smoke-fire", "--json"
    )
    assert result.code == 0
    assert result.json["allowed"] is False and result.json["dispersed"] is None


@pytest.mark.clause("C8.6", "C8.52")
def test_smoke_flags(cli):
    wp = cli("asl", "smoke", "--ammo", "wp", "--phase", "AFPh", "--json").json
    assert wp["allowed"] and wp["dispersed"]
    own = cli("asl", "smoke", "--ammo", "WP", "--phase", "PFPh", "--own-hex", "--json").json
    assert not own["allowed"] and own["clauses"] == ["C8.52"]
    inside = cli(
        "asl", "smoke", "--ammo", "SMOKE", "--phase", "DFPh", "--interior-building", "--json"
    ).json
    assert inside["level"] == "targeted"


@pytest.mark.clause("C8.6", "C8.52")
def test_smoke_table_reads_yes_or_no(cli):
    refused = cli("asl", "smoke", "--ammo", "WP", "--phase", "PFPh", "--own-hex").out
    allowed = cli("asl", "smoke", "--ammo", "WP", "--phase", "AFPh").out
    assert "│ no" in refused and "│ yes" in allowed
    assert "True" not in refused + allowed and "False" not in refused + allowed


@pytest.mark.clause("C8.4-noth")
def test_canister_json_contract(cli):
    result = cli("asl", "canister", "--fp", "12", "--dice", "3,4", "--json")
    assert result.code == 0
    data = result.json
    assert data["fp"] == 12 and data["column"] == 12
    assert data["original_dr"] == 7 and data["final_dr"] == 7 and data["result"] == "1MC"
    assert data["drms"] == [] and data["seed"] is None


@pytest.mark.clause("C8.4-noth")
def test_canister_negative_drms_parse(cli):
    result = cli(
        "asl", "canister", "--fp", "12", "--dice", "3,4", "--drm", "-1", "--drm", "+2", "--json"
    )
    assert result.code == 0, result.err
    data = result.json
    assert [d["value"] for d in data["drms"]] == [-1, 2]
    assert data["final_dr"] == 8 and data["result"] == "1MC"
    assert (
        cli("asl", "canister", "--fp", "12", "--dice", "3,4", "--drm=-3", "--json").json["final_dr"]
        == 4
    )


@pytest.mark.clause("C8.4-halve", "C8.41")
def test_canister_area_fire_fp_is_a_json_number(cli):
    data = cli("asl", "canister", "--fp", "7", "--moved", "--dice", "2,3", "--json").json
    assert data["fp"] == 3.5 and data["column"] == 2 and data["result"] == "NMC"
    quartered = cli(
        "asl", "canister", "--fp", "16", "--adjacent", "hexside", "--dice", "1,1", "--json"
    ).json
    assert quartered["fp"] == 4 and quartered["column"] == 4


@pytest.mark.clause("C8.4-dr", "C8.4-armor")
def test_canister_depletion_breakdown_and_armor(cli):
    none = cli(
        "asl", "canister", "--fp", "12", "--depletion", "9", "--breakdown", "11",
        "--dice", "5,6", "--json",
    ).json  # fmt: skip
    assert none["depletion"] == "none" and none["malfunctioned"] and none["result"] == "-"
    armored = cli("asl", "canister", "--fp", "36", "--armored", "--dice", "1,1", "--json").json
    assert armored["result"] == "-" and "C8.4-armor" in armored["clauses"]


def test_human_output_is_a_table_and_the_explanation(cli):
    result = cli("asl", "canister", "--fp", "12", "--dice", "3,4")
    assert result.code == 0
    assert "1MC" in result.out and "C8.4-noth" in result.out
    assert "Rules:" in cli("asl", "deplete", "--number", "7", "--dice", "3,4").out
    assert "Allowed" in cli("asl", "smoke", "--ammo", "WP", "--phase", "PFPh").out
