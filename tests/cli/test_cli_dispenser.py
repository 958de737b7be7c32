"""``ordnance asl dispenser | grenades`` and ``ordnance asl odds dispenser``: JSON and errors."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ordnance.core.clauses import cite


def one_line(result) -> bool:
    return result.out == "" and result.err.count("\n") == 1 and "Traceback" not in result.err


@pytest.mark.clause("D13.3", "D13.31", "D13.2-mp")
def test_dispenser_json_contract(cli):
    result = cli("asl", "dispenser", "sD7", "--date", "1944-06", "--dice", "3,3", "--bu", "--json")
    assert result.code == 0 and result.err == ""
    data = result.json
    assert data["fired"] is True and data["usage_number"] == 7
    assert data["original_dr"] == 6 and data["final_dr"] == 7
    assert data["drms"] == [{"value": 1, "reason": "the AFV is buttoned up", "clause": "D13.3"}]
    assert data["placement"]["where"] == "own hex" and data["placement"]["white"] is True
    assert data["mp_cost"] == 1 and data["seed"] is None
    assert {"D13.3", "D13.31"} <= set(data["clauses"]) and data["explanation"]
    # Map-bound fields are left out of the stateless answer.
    assert "state_after" not in data and "hex" not in data["placement"]


@pytest.mark.clause("D13.32-drm", "D13.32-place", "D13.3")
def test_sm_with_every_drm(cli):
    data = cli(
        "asl", "dispenser", "A5(4)/6(5) sM8(4+)", "--date", "1944-09", "--dice", "1,1",
        "--bu", "--moving", "--case-a", "2", "--mount", "ST", "--hindrance", "1",
        "--dust", "1", "--range", "3", "--json",
    ).json  # fmt: skip
    assert [d["value"] for d in data["drms"]] == [1, 3, 2, 1, 1]
    assert data["final_dr"] == 10 and data["fired"] is False
    assert data["later_fire"] is None and data["placement"] is None


@pytest.mark.clause("D13.32-drm", "D13.2-defensive")
def test_sm_defensive_success_reports_later_fire(cli):
    data = cli(
        "asl", "dispenser", "sM8", "--date", "1944-09", "--dice", "1,1", "--case-a", "1",
        "--defensive", "--json",
    ).json  # fmt: skip
    assert data["fired"] is True and data["mp_cost"] == 0
    assert data["later_fire"] == {
        "drm": 1,
        "applies": True,
        "fire": "Defensive First Fire",
        "explanation": data["later_fire"]["explanation"],
    }
    assert data["placement"]["range"] == 1


@pytest.mark.clause("D13.32-place")
def test_sm_range_out_of_bounds_is_refused(cli):
    result = cli("asl", "dispenser", "sM8", "--date", "1944-09", "--dice", "1,1", "--range", "4")
    assert result.code == 1 and one_line(result) and "D13.32-place" in result.err


@pytest.mark.clause("D13.1", "C8.2-elite")
def test_elite_is_accepted_and_changes_nothing(cli):
    args = ("asl", "dispenser", "sD7", "--date", "1945-01", "--dice", "4,4", "--json")
    plain, elite = cli(*args).json, cli(*args, "--elite").json
    assert plain["usage_number"] == elite["usage_number"] == 7
    assert plain["fired"] == elite["fired"] is False
    assert "Elite status leaves a Usage Number as printed" in elite["explanation"]
    assert "D13.1" in elite["clauses"]


@pytest.mark.clause("D13.34")
@pytest.mark.parametrize(("date", "number"), [("1944-07", 7), ("1944-12", 7), ("1945-02", 8)])
def test_dated_sn(cli, date, number):
    data = cli(
        "asl", "dispenser", "sN7(4)/8(5)", "--date", date, "--dice", "1,1", "--bu", "--json"
    ).json
    assert data["usage_number"] == number


@pytest.mark.clause("D13.34", "D13.1", "D13.33", "D13.2-once")
@pytest.mark.parametrize(
    ("args", "clause"),
    [
        (("sN7(4)/8(5)", "--date", "1944-06", "--bu"), "D13.34"),
        (("sN7(4)/8(5)", "--date", "1944-08"), "D13.34"),  # CE
        (("A5(4)/6(5) s8", "--date", "1944-08"), "D13.1"),
        (("sD7", "--date", "1944-08", "--type", "sM"), "D13.1"),
        (("sP5", "--date", "1944-08", "--bu"), "D13.33"),
    ],
)
def test_refusals_exit_1_with_the_clause(cli, args, clause):
    result = cli("asl", "dispenser", *args, "--dice", "1,1")
    assert result.code == 1 and one_line(result)
    assert result.err.startswith(f"ordnance: refused by {cite(clause)}:")


@pytest.mark.parametrize(
    "args",
    [
        ("sD7", "--date", "1944-13", "--dice", "1,1"),
        ("sD7", "--date", "1944-06", "--dice", "0,1"),
        ("sD7", "--date", "1944-06", "--dice", "1,1", "--type", "sX"),
        ("sD7 sM8", "--date", "1944-06", "--dice", "1,1"),
        ("sD7(", "--date", "1944-06", "--dice", "1,1"),
        ("sD7", "--date", "1944-06", "--dice", "1,1", "--hindrance", "2"),
        ("sM8", "--date", "1944-06", "--dice", "1,1", "--case-a", "4"),
        ("sM8", "--date", "1944-06", "--dice", "1,1", "--mount", "XT"),
        ("sM8", "--date", "1944-06", "--dice", "1,1", "--hindrance", "-1"),
        ("sD7", "--date", "1944-06", "--dice", "1,1", "--case-a", "x"),
        ("sD7", "--dice", "1,1"),
    ],
)
def test_bad_input_exits_2_with_one_line(cli, args):
    result = cli("asl", "dispenser", *args)
    assert result.code == 2 and one_line(result)


def test_dispenser_table_and_seeded_roll(cli):
    first = cli("asl", "dispenser", "sD7", "--date", "1944-06", "--seed", "11", "--json").json
    second = cli("asl", "dispenser", "sD7", "--date", "1944-06", "--seed", "11", "--json").json
    assert first == second and first["seed"] == 11
    result = cli("asl", "dispenser", "sD7", "--date", "1944-06", "--dice", "2,2")
    assert result.code == 0 and "Usage Number" in result.out and "D13.3" in result.out


@pytest.mark.clause("D13.35")
@pytest.mark.parametrize(
    ("vehicle", "dr", "placed"),
    [
        ("armed-unarmored", 1, True),
        ("armed-unarmored", 2, False),
        ("bu-ot", 1, True),
        ("bu-ot", 2, False),
        ("ce", 2, True),
        ("ce", 3, False),
        ("ce", 6, False),
    ],
)
def test_grenades_json_contract(cli, vehicle, dr, placed):
    result = cli("asl", "grenades", "--vehicle", vehicle, "--dr", str(dr), "--json")
    assert result.code == 0
    data = result.json
    assert data["placed"] is placed and data["dr"] == dr
    assert "D13.35" in data["clauses"] and data["explanation"]
    assert (data["placement"] is not None) is placed
    assert data["mp_cost"] == (1 if placed else 0)


@pytest.mark.clause("D13.35")
def test_grenades_ct_afv_must_be_ce(cli):
    refused = cli("asl", "grenades", "--vehicle", "bu-ot", "--ct", "--dr", "1")
    assert refused.code == 1 and one_line(refused) and "D13.35" in refused.err
    data = cli("asl", "grenades", "--vehicle", "ce", "--ct", "--dr", "2", "--json").json
    assert data["placed"] is True


@pytest.mark.clause("D13.35", "D13.2-defensive")
def test_grenades_in_the_opponents_mph(cli):
    data = cli("asl", "grenades", "--vehicle", "ce", "--dr", "1", "--defensive", "--json").json
    assert data["placement"]["removal"] == "end of this MPh" and data["mp_cost"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ("--vehicle", "tank", "--dr", "1"),
        ("--vehicle", "ce", "--dr", "7"),
        ("--vehicle", "armed-unarmored", "--ct", "--dr", "1"),
        ("--dr", "1"),
    ],
)
def test_grenades_bad_input(cli, args):
    result = cli("asl", "grenades", *args)
    assert result.code == 2 and one_line(result)


def probabilities(rows):
    return {row["outcome"]: Fraction(row["probability"]) for row in rows}


@pytest.mark.clause("SYS.odds", "D13.3")
def test_odds_dispenser_json_contract(cli):
    result = cli("asl", "odds", "dispenser", "sD7", "--date", "1944-06", "--bu", "--json")
    assert result.code == 0 and result.err == ""
    data = result.json
    assert [row["outcome"] for row in data["outcomes"]] == ["fired", "not fired"]
    assert probabilities(data["outcomes"]) == {
        "fired": Fraction(15, 36),
        "not fired": Fraction(21, 36),
    }
    assert data["outcomes"][0]["probability"] == "5/12"
    assert data["outcomes"][0]["percent"] == pytest.approx(41.6667, abs=1e-3)
    assert data["usage_number"] == 7 and data["drms"][0]["value"] == 1
    assert "SYS.odds" in data["clauses"] and data["explanation"]


@pytest.mark.clause("SYS.odds", "D13.32-drm")
def test_odds_dispenser_with_sm_drms_matches_brute_force(cli):
    data = cli(
        "asl", "odds", "dispenser", "sM8", "--date", "1944-06", "--moving", "--case-a", "1",
        "--hindrance", "2", "--json",
    ).json  # fmt: skip
    drm = 2 + 1 + 2
    hits = sum(1 for w in range(1, 7) for c in range(1, 7) if w + c + drm <= 8)
    assert probabilities(data["outcomes"])["fired"] == Fraction(hits, 36)
    assert "D13.32-drm" in data["clauses"]


def test_odds_dispenser_refusal_and_table(cli):
    refused = cli("asl", "odds", "dispenser", "sN7(4)/8(5)", "--date", "1944-03", "--bu")
    assert refused.code == 1 and one_line(refused) and "D13.34" in refused.err
    table = cli("asl", "odds", "dispenser", "sD12", "--date", "1944-06", "--elite")
    assert table.code == 0 and "not fired" in table.out and "Elite" in table.out
