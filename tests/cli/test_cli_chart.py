"""``ordnance asl chart``, ``heat`` and ``he-equivalency``: JSON fields, tables, one-line errors."""

from __future__ import annotations

import pytest

# ---------------------------------------------------------------------------------------------
# chart


@pytest.mark.clause("C8.2-chart", "C8.2-month")
def test_chart_json(cli):
    result = cli(
        "asl", "chart", "--nationality", "american", "--gun", "76l", "--date", "1944-08", "--json"
    )
    assert result.code == 0, result.err
    data = result.json
    assert data["ammo"] == "APCR"
    assert data["available"] is True
    assert data["depletion_number"] == 4
    assert data["row"] == "american 76L"
    assert data["clauses"] == ["C8.2-chart", "C8.2-month"]
    assert "Aug 1944" in data["explanation"]


@pytest.mark.clause("C8.2-chart")
def test_chart_json_not_available_has_nulls(cli):
    result = cli(
        "asl", "chart", "--nationality", "italian", "--gun", "47L", "--date", "1943-01", "--json"
    )
    data = result.json
    assert (data["ammo"], data["available"], data["depletion_number"]) == (None, False, None)
    assert "no row for italian" in data["explanation"]


@pytest.mark.clause("C8.2-elite", "C8.2-service")
def test_chart_elite_and_service(cli):
    result = cli(
        "asl",
        "chart",
        "--nationality",
        "canadian",
        "--gun",
        "76L",
        "--date",
        "1945-03",
        "--elite",
        "--json",
    )
    data = result.json
    assert (data["row"], data["depletion_number"]) == ("american 76L", 6)
    assert {"C8.2-elite", "C8.2-service"} <= set(data["clauses"])


@pytest.mark.clause("C8.2-chart")
def test_chart_origin(cli):
    result = cli(
        "asl",
        "chart",
        "--nationality",
        "american",
        "--gun",
        "75L",
        "--date",
        "1943-06",
        "--origin",
        "german",
        "--json",
    )
    assert (result.json["row"], result.json["depletion_number"]) == ("german 75L, 76L", 4)


@pytest.mark.clause("C8.2-counter")
def test_chart_counter(cli):
    result = cli(
        "asl",
        "chart",
        "--nationality",
        "american",
        "--gun",
        "76L",
        "--date",
        "1944-08",
        "--counter",
        "5",
        "--json",
    )
    data = result.json
    assert (data["depletion_number"], data["from_counter"]) == (5, True)
    assert data["clauses"][0] == "C8.2-counter"


@pytest.mark.clause("C8.2-chart", "SYS.cite")
def test_chart_human_output(cli):
    result = cli("asl", "chart", "--nationality", "british", "--gun", "57L", "--date", "1944-06")
    assert result.code == 0
    assert "british 57L" in result.out
    assert "APDS" in result.out
    assert "Rules: C8.2 (C8.2-chart, C8.2-month)" in result.out


# ---------------------------------------------------------------------------------------------
# heat


@pytest.mark.clause("C8.3-heat-date")
@pytest.mark.parametrize(
    ("nationality", "date", "available"),
    [("german", "1942-04", False), ("german", "1942-05", True), ("russian", "1942-12", False)],
)
def test_heat_json(cli, nationality, date, available):
    result = cli("asl", "heat", "--nationality", nationality, "--date", date, "--json")
    assert result.code == 0, result.err
    data = result.json
    assert data["available"] is available
    assert data["clauses"] == ["C8.3-heat-date"]
    assert "allowed" not in data


@pytest.mark.clause("C8.3-scw")
def test_heat_scw(cli):
    result = cli("asl", "heat", "--nationality", "american", "--date", "1942-11", "--scw", "--json")
    data = result.json
    assert (data["available"], data["depletion_number_applies"]) == (True, False)


@pytest.mark.clause("C8.3-heat-date", "C8.31-target")
@pytest.mark.parametrize(
    ("target", "tem", "allowed"),
    [("infantry", "building", True), ("cavalry", "open", False), ("vehicle", None, True)],
)
def test_heat_target_json(cli, target, tem, allowed):
    args = ["asl", "heat", "--nationality", "german", "--date", "1943-01", "--target", target]
    if tem is not None:
        args += ["--tem", tem]
    data = cli(*args, "--json").json
    assert data["allowed"] is allowed
    assert data["available"] is True
    assert data["clauses"] == ["C8.3-heat-date", "C8.31-target"]


@pytest.mark.clause("C8.31-target")
def test_heat_human_output(cli):
    result = cli(
        "asl",
        "heat",
        "--nationality",
        "german",
        "--date",
        "1943-01",
        "--target",
        "infantry",
        "--tem",
        "woods",
    )
    assert result.code == 0
    assert "allowed" in result.out and "woods" in result.out
    assert "does not qualify" in result.out
    assert "C8.31-target" in result.out


# ---------------------------------------------------------------------------------------------
# he-equivalency


@pytest.mark.clause("C8.31-heq", "C8.31-residual")
@pytest.mark.parametrize(
    ("args", "fp", "residual"),
    [
        (("AP", "--caliber", "36"), 1, False),
        (("AP", "--caliber", "37"), 2, False),
        (("apcr",), 1, False),
        (("ATR", "--caliber", "20"), 1, False),
        (("ATR", "--caliber", "14"), None, False),
        (("BAZ",), 8, True),
        (("PIAT",), 8, True),
        (("PSK",), 12, True),
        (("PFk",), 12, False),
        (("PF",), 16, False),
        (("H#[9]",), 12, False),
        (("ordnance", "--he-fp", "8"), 6, True),
        (("ordnance", "--he-fp", "1"), None, False),
    ],
)
def test_he_equivalency_json(cli, args, fp, residual):
    result = cli("asl", "he-equivalency", *args, "--json")
    assert result.code == 0, result.err
    data = result.json
    assert (data["fp"], data["residual"]) == (fp, residual)
    assert "C8.31-heq" in data["clauses"]
    assert data["explanation"]


@pytest.mark.clause("C8.31-heq", "C8.31-atr")
def test_h9_setting_override(cli):
    result = cli("asl", "--set", "h9_he_equivalency=8", "he-equivalency", "H9", "--json")
    assert result.code == 0, result.err
    assert (result.json["fp"], result.json["residual"]) == (8, False)


@pytest.mark.clause("C8.31-heq")
def test_he_equivalency_human_output(cli):
    result = cli("asl", "he-equivalency", "PSK")
    assert result.code == 0
    assert "12" in result.out
    assert "Rules: C8.31 (C8.31-heq, C8.31-residual)" in result.out


# ---------------------------------------------------------------------------------------------
# errors: exit 2, nothing on stdout, one stderr line naming the fault


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (("chart", "--nationality", "german", "--gun", "banana", "--date", "1943-01"), "gun size"),
        (("chart", "--nationality", "german", "--gun", "75X", "--date", "1943-01"), "75X"),
        (("chart", "--nationality", "klingon", "--gun", "75L", "--date", "1943-01"), "nationality"),
        (("chart", "--nationality", "german", "--gun", "75L", "--date", "1943-13"), "month"),
        (("chart", "--nationality", "german", "--gun", "75L"), "--date"),
        (
            (
                "chart",
                "--nationality",
                "german",
                "--gun",
                "75L",
                "--date",
                "1943-01",
                "--counter",
                "0",
            ),
            "counter",
        ),
        (
            (
                "chart",
                "--nationality",
                "german",
                "--gun",
                "75L",
                "--date",
                "1943-01",
                "--origin",
                "x",
            ),
            "nationality",
        ),
        (("heat", "--nationality", "german", "--date", "1943"), "date"),
        (("heat", "--nationality", "german", "--date", "1943-01", "--tem", "wall"), "--target"),
        (("heat", "--nationality", "german", "--date", "1943-01", "--target", "tank"), "target"),
        (
            ("heat", "--nationality", "german", "--date", "1943-01", "--target", "infantry"),
            "--tem",
        ),
        (
            (
                "heat",
                "--nationality",
                "german",
                "--date",
                "1943-01",
                "--target",
                "infantry",
                "--tem",
                "moon",
            ),
            "TEM",
        ),
        (("he-equivalency", "AP"), "--caliber"),
        (("he-equivalency", "ATR"), "--caliber"),
        (("he-equivalency", "ordnance"), "--he-fp"),
        (("he-equivalency", "MG"), "MGs"),
        (("he-equivalency", "railgun"), "unknown weapon"),
        (("he-equivalency", "AP", "--caliber", "big"), "--caliber"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args, fault):
    result = cli("asl", *args)
    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0]
    assert "Traceback" not in result.err
