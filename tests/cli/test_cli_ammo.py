"""``ordnance asl ammo`` and ``ordnance asl roster``: JSON fields, tables, one-line errors."""

from __future__ import annotations

import pytest

from ordnance.asl.capabilities import AmmoContext
from ordnance.asl.dates import ScenarioDate
from ordnance.asl.vasl_templates import roster

FIELDS = {
    "family",
    "ammo",
    "token",
    "available",
    "depletion_number",
    "usage_number",
    "number",
    "second",
    "note",
    "rule",
    "clauses",
    "explanation",
}


@pytest.mark.clause("C8.91", "SYS.cite")
def test_ammo_json_reads_the_t34_85_example(cli):
    result = cli("asl", "ammo", "A5(4)/6(5)", "--date", "1945-03", "--json")
    assert result.code == 0, result.err
    data = result.json
    (capability,) = data["capabilities"]
    assert set(capability) >= FIELDS
    assert capability["family"] == "A" and capability["ammo"] == "APCR"
    assert capability["token"] == "A5(4)/6(5)"
    assert (capability["available"], capability["depletion_number"]) == (True, 6)
    assert capability["usage_number"] is None and capability["rule"] == "C8.1"
    assert "C8.91" in capability["clauses"] and "C8.91" in data["clauses"]
    assert data["explanation"] and data["date"] == "1945-03"


@pytest.mark.clause("C8.2-elite", "D13.1", "D13.34", "C8.9-scope")
def test_ammo_reads_several_tokens_with_context(cli):
    result = cli(
        "asl",
        "ammo",
        "A5(4)/6(5), sD7",
        "sN7(4)/8(5)",
        "C7",
        "--date",
        "1944-07",
        "--elite",
        "--theater",
        "pto",
        "--nationality",
        "American",
        "--json",
    )
    assert result.code == 0, result.err
    data = result.json
    numbers = {c["token"]: (c["depletion_number"], c["usage_number"]) for c in data["capabilities"]}
    assert numbers == {
        "A5(4)/6(5)": (6, None),
        "sD7": (None, 7),
        "sN7(4)/8(5)": (None, 7),
        "C7": (11, None),
    }
    assert (data["elite"], data["theater"], data["nationality"]) == (True, "PTO", "american")
    assert {"C8.2-elite", "D13.34"} <= set(data["clauses"])


def test_ammo_table_for_people(cli):
    result = cli(
        "asl",
        "--set",
        "sn_first_number_from_month=6",
        "ammo",
        "sN7(4)/8(5)",
        "IR",
        "--date",
        "1944-06",
    )
    assert result.code == 0, result.err
    assert "sN7(4)/8(5)" in result.out and "Usage 7" in result.out
    assert "Rules:" in result.out and "D13.34" in result.out
    assert "Illuminating Rounds" in result.out


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (("A5(4",), "bad notation 'A5(4' at position 4"),
        (("A5(4)/6",), "bad notation"),
        (("Q7",), "expected a capability symbol"),
        (("A5", "--date", "1944-13"), "bad date '1944-13'"),
        (("A5", "--date", "June 44"), "bad date"),
        (("A5", "--theater", "mars"), "bad theater 'mars'"),
        (("A5", "--nationality", "klingon"), "bad nationality 'klingon'"),
        (("A5", "--date", "1944-06", "--date"), "--date"),
    ],
)
def test_ammo_bad_input_is_one_line_and_exit_2(cli, args, fault):
    full = ("asl", "ammo", *args)
    if "--date" not in args:
        full += ("--date", "1944-06")
    result = cli(*full)
    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0]
    assert "Traceback" not in result.err


def test_ammo_needs_a_date(cli):
    result = cli("asl", "ammo", "A5")
    assert result.code == 2 and "--date" in result.err


@pytest.mark.clause("C8.0", "C8.91")
def test_roster_json(cli, vasl_templates):
    result = cli(
        "asl",
        "roster",
        "--vasl-templates",
        str(vasl_templates),
        "--nationality",
        "german",
        "--date",
        "1944-06",
        "--json",
    )
    assert result.code == 0, result.err
    data = result.json
    assert data["nationality"] == "german" and data["date"] == "1944-06"
    assert len(data["units"]) == 160
    for unit in data["units"]:
        assert {"name", "id", "kind", "capabilities"} <= set(unit)
        assert all(set(c) >= FIELDS for c in unit["capabilities"])
    assert data["clauses"] and data["explanation"]
    # The same value as the library's ruling.
    expected = roster(vasl_templates, "german", AmmoContext(ScenarioDate(1944, 6)))
    assert data == expected.to_json()


def test_roster_table_for_people(cli, vasl_templates):
    result = cli(
        "asl",
        "roster",
        "--vasl-templates",
        str(vasl_templates),
        "--nationality",
        "polish",
        "--date",
        "1939-09",
        "--theater",
        "ETO",
        "--elite",
    )
    assert result.code == 0, result.err
    assert "Roster: polish" in result.out and "Rules:" in result.out


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (("--vasl-templates", "/nonexistent/dir"), "bad vasl-templates directory"),
        (("--nationality", "klingon"), "bad nationality 'klingon'"),
        (("--date", "1944"), "bad date '1944'"),
        (("--theater", "Mars"), "bad theater 'Mars'"),
    ],
)
def test_roster_bad_input_is_one_line_and_exit_2(cli, vasl_templates, args, fault):
    options = {
        "--vasl-templates": str(vasl_templates),
        "--nationality": "german",
        "--date": "1944-06",
    }
    options.update(dict(zip(args[::2], args[1::2], strict=True)))
    result = cli("asl", "roster", *(part for pair in options.items() for part in pair))
    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0]


def test_roster_names_a_bad_file(cli, tmp_path):
    (tmp_path / "vehicles").mkdir()
    (tmp_path / "vehicles" / "german.json").write_text("[{", encoding="utf-8")
    result = cli(
        "asl",
        "roster",
        "--vasl-templates",
        str(tmp_path),
        "--nationality",
        "german",
        "--date",
        "1944-06",
    )
    assert result.code == 2
    assert "vehicles/german.json" in result.err and "invalid JSON" in result.err
    assert len(result.err.strip().splitlines()) == 1


# --- finding a counter by name, nationality aliases -----------------------------------------


def _one_line_exit_2(result, fault):
    assert result.code == 2 and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0] and "Traceback" not in result.err
    return lines[0]


@pytest.mark.clause("C8.0", "C8.91")
def test_ammo_by_vehicle_name_answers_as_its_notation(cli, vasl_templates):
    where = ("--vasl-templates", str(vasl_templates), "--date", "1945-01")
    by_name = cli("asl", "ammo", "--vehicle", "m4a3(76)w", *where, "--nationality", "us", "--json")
    assert by_name.code == 0, by_name.err
    listed = cli("asl", "roster", "--vasl-templates", str(vasl_templates), "--nationality",
                 "american", "--date", "1945-01", "--name", "M4A3(76)W", "--json").json  # fmt: skip
    [unit] = listed["units"]
    notation = " ".join(c["token"] for c in unit["capabilities"])
    by_notation = cli("asl", "ammo", notation, "--nationality", "american", "--date", "1945-01",
                      "--json")  # fmt: skip
    assert by_name.json == by_notation.json
    assert by_name.json["capabilities"][0]["ammo"] == "APCR"
    text = cli("asl", "ammo", "--vehicle", "M4A3(76)W", "--vasl-templates", str(vasl_templates),
               "--nationality", "us", "--date", "1945-01")  # fmt: skip
    assert text.code == 0 and "M4A3(76)W" in text.out


def test_ammo_by_vehicle_name_lists_several_matches_and_exits_2(cli, vasl_templates):
    base = ("asl", "ammo", "--vasl-templates", str(vasl_templates), "--date", "1945-01")
    line = _one_line_exit_2(
        cli(*base, "--nationality", "american", "--vehicle", "M4A3("), "3 american units match"
    )
    assert "M4A3(75)W" in line and "M4A3(76)W" in line and "M4A3(105)" in line
    _one_line_exit_2(cli(*base, "--nationality", "german", "--vehicle", "zzz"), "no german")
    _one_line_exit_2(cli(*base, "--vehicle", "M4A3"), "needs --vasl-templates DIR and")
    _one_line_exit_2(cli(*base, "A5", "--nationality", "american", "--vehicle", "M4A3"), "not both")
    _one_line_exit_2(cli("asl", "ammo", "--date", "1945-01"), "--vehicle NAME")


def test_an_exact_name_wins_over_longer_names_containing_it(cli, vasl_templates):
    result = cli("asl", "ammo", "--vehicle", "M4A3", "--vasl-templates", str(vasl_templates),
                 "--nationality", "usa", "--date", "1945-01")  # fmt: skip
    assert result.code == 0 and "M4A3 (" in result.out


@pytest.mark.clause("C8.0")
def test_roster_name_filter_is_a_case_insensitive_substring(cli, vasl_templates):
    args = ("asl", "roster", "--vasl-templates", str(vasl_templates), "--date", "1944-06")
    every = cli(*args, "--nationality", "german", "--json").json["units"]
    some = cli(*args, "--nationality", "ge", "--name", "PZKPFW iv", "--json").json["units"]
    expected = [u for u in every if "pzkpfw iv" in u["name"].lower()]
    assert some == expected and 0 < len(some) < len(every)
    assert (
        cli(*args, "--nationality", "german", "--name", "no such tank", "--json").json["units"]
        == []
    )


@pytest.mark.parametrize(
    ("alias", "nationality"),
    [
        ("us", "american"), ("USA", "american"), ("u.s.", "american"), ("ge", "german"),
        ("de", "german"), ("ru", "russian"), ("su", "russian"), ("br", "british"),
        ("uk", "british"), ("it", "italian"), ("jp", "japanese"), ("nz", "new-zealand"),
    ],
)  # fmt: skip
def test_nationality_aliases(cli, alias, nationality):
    chart = ("asl", "chart", "--gun", "76L", "--date", "1944-09", "--json")
    by_alias = cli(*chart, "--nationality", alias)
    assert by_alias.code == 0, by_alias.err
    assert by_alias.json == cli(*chart, "--nationality", nationality).json
    ammo = ("asl", "ammo", "A5(4)/6(5)", "--date", "1945-03", "--json")
    assert cli(*ammo, "--nationality", alias).json == cli(*ammo, "--nationality", nationality).json


@pytest.mark.parametrize("gun", ["999", "75", "12LL"])
def test_a_gun_size_the_chart_does_not_list_exits_2(cli, gun):
    result = cli("asl", "chart", "--nationality", "german", "--gun", gun, "--date", "1944-06")
    _one_line_exit_2(result, f"bad gun size '{gun}'")
    assert "75L" in result.err  # it names the sizes the chart lists
    counted = cli("asl", "chart", "--nationality", "german", "--gun", gun, "--date", "1944-06",
                  "--counter", "5", "--json")  # fmt: skip
    assert counted.code == 0 and counted.json["depletion_number"] == 5
    listed_elsewhere = cli("asl", "chart", "--nationality", "german", "--gun", "90L", "--date",
                           "1944-06", "--json")  # fmt: skip
    assert listed_elsewhere.code == 0 and not listed_elsewhere.json["available"]
