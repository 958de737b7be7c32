"""``ordnance asl odds depletion | canister``: exact odds as JSON and tables."""

from __future__ import annotations

from fractions import Fraction

import pytest


def probabilities(rows):
    return {row["outcome"]: Fraction(row["probability"]) for row in rows}


@pytest.mark.clause("SYS.odds", "C8.9-lt", "C8.9-eq", "C8.9-gt")
def test_depletion_odds_json_contract(cli):
    result = cli("asl", "odds", "depletion", "--number", "7", "--json")
    assert result.code == 0 and result.err == ""
    data = result.json
    assert [row["outcome"] for row in data["outcomes"]] == ["used", "used-last", "none"]
    assert probabilities(data["outcomes"]) == {
        "used": Fraction(15, 36),
        "used-last": Fraction(6, 36),
        "none": Fraction(15, 36),
    }
    assert data["outcomes"][1] == {
        "outcome": "used-last",
        "probability": "1/6",
        "percent": pytest.approx(16.6667, abs=1e-3),
    }
    assert "SYS.odds" in data["clauses"] and data["explanation"]


@pytest.mark.clause("SYS.odds")
def test_depletion_odds_with_to_hit_negative_drm_and_breakdown(cli):
    data = cli(
        "asl", "odds", "depletion", "--number", "7", "--to-hit", "6", "--drm", "-1",
        "--breakdown", "11", "--json",
    ).json  # fmt: skip
    odds = probabilities(data["outcomes"])
    assert sum(odds.values()) == 1
    # Original 2-6 used; Final = Original - 1 <= 6 always hits there.
    assert odds["used, hit"] == Fraction(15, 36)
    assert odds["used-last, hit"] == Fraction(6, 36)
    assert odds["none"] == Fraction(12, 36) and odds["none, malfunction"] == Fraction(3, 36)
    assert data["drm"] == -1 and data["to_hit"] == 6


@pytest.mark.clause("SYS.odds", "C8.4-noth")
def test_canister_odds_json_contract(cli):
    data = cli("asl", "odds", "canister", "--fp", "12", "--json").json
    odds = probabilities(data["outcomes"])
    assert sum(odds.values()) == 1
    assert odds["1MC"] == Fraction(11, 36)
    assert "supply" not in data and data["fp"] == 12


@pytest.mark.clause("SYS.odds", "C8.4-dr", "C8.41")
def test_canister_odds_with_drms_and_depletion(cli):
    data = cli(
        "asl", "odds", "canister", "--fp", "16", "--adjacent", "hexside", "--drm", "-1",
        "--depletion", "10", "--breakdown", "12", "--json",
    ).json  # fmt: skip
    assert data["fp"] == 4 and data["base_fp"] == 16 and data["drm"] == [-1]
    supply = probabilities(data["supply"])
    # Depletion and breakdown read the Original DR; the -1 DRM moves only the IFT row.
    assert supply == {
        "used": Fraction(30, 36),
        "used-last": Fraction(3, 36),
        "none": Fraction(2, 36),
        "none, malfunction": Fraction(1, 36),
    }
    assert [row["outcome"] for row in data["supply"]] == list(supply)
    assert "C8.41" in data["clauses"] and "C8.4-dr" in data["clauses"]


def test_odds_tables_for_people(cli):
    result = cli("asl", "odds", "depletion", "--number", "7")
    assert result.code == 0 and "used-last" in result.out and "%" in result.out
    assert "1MC" in cli("asl", "odds", "canister", "--fp", "12").out


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (("asl", "odds", "depletion", "--number", "0"), "1 to 12"),
        (("asl", "odds", "depletion", "--number", "7", "--breakdown", "14"), "2 to 12"),
        (("asl", "odds", "canister", "--fp", "-3"), "positive"),
        (("asl", "odds", "canister", "--fp", "12", "--adjacent", "x"), "hexside"),
    ],
)
def test_odds_bad_input_is_one_line_and_exit_2(cli, args, fault):
    result = cli(*args)
    assert result.code == 2 and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0]
