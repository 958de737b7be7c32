"""``asl ammo NAME``: a vehicle's name where the notation goes reads its counter when counter
data is at hand (``--vasl-templates`` or ``$ORDNANCE_VASL_TEMPLATES``), and says how to give it
when not (issue 29: ``asl ammo "M4A3(76)W Sherman"`` said only "bad notation")."""

from __future__ import annotations

import pytest

DATE = ("--date", "1945-01")


def _one_line_exit_2(result) -> str:
    assert result.code == 2 and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: ") and "Traceback" not in result.err
    return lines[0]


@pytest.mark.clause("C8.0", "C8.91")
def test_a_vehicles_name_without_counter_data_says_how_to_give_it(cli, monkeypatch):
    monkeypatch.delenv("ORDNANCE_VASL_TEMPLATES", raising=False)
    line = _one_line_exit_2(cli("asl", "ammo", "M4A3(76)W Sherman", *DATE))
    assert "--vasl-templates DIR" in line and "$ORDNANCE_VASL_TEMPLATES" in line
    assert "--nationality" in line
    with_side = _one_line_exit_2(cli("asl", "ammo", "M4A3(76)W", "--nationality", "us", *DATE))
    assert "--vasl-templates DIR" in with_side and "--nationality" not in with_side


@pytest.mark.clause("C8.0", "C8.91")
def test_a_vehicles_name_reads_its_counter_when_the_data_is_at_hand(
    cli, vasl_templates, monkeypatch
):
    by_option = cli("asl", "ammo", "--vehicle", "M4A3(76)W", "--vasl-templates",
                    str(vasl_templates), "--nationality", "us", *DATE, "--json")  # fmt: skip
    assert by_option.code == 0, by_option.err
    by_name = cli("asl", "ammo", "M4A3(76)W Sherman", "--vasl-templates", str(vasl_templates),
                  "--nationality", "us", *DATE, "--json")  # fmt: skip
    assert by_name.code == 0, by_name.err
    assert by_name.json == by_option.json
    monkeypatch.setenv("ORDNANCE_VASL_TEMPLATES", str(vasl_templates))
    from_env = cli("asl", "ammo", "m4a3(76)w", "--nationality", "american", *DATE)
    assert from_env.code == 0 and from_env.out.startswith("M4A3(76)W (")
    line = _one_line_exit_2(cli("asl", "ammo", "M4A3(76)W Sherman", *DATE))
    assert "give --nationality" in line and "--vasl-templates" not in line


def test_neither_notation_nor_a_name_is_one_line(cli, vasl_templates):
    where = ("--vasl-templates", str(vasl_templates), "--nationality", "american", *DATE)
    line = _one_line_exit_2(cli("asl", "ammo", "A5(4", *where))
    assert "expected ')' at position 4" in line and "nor the name of any american" in line
    several = _one_line_exit_2(cli("asl", "ammo", "M4A3(", *where))
    assert "3 american units match" in several
    notation = cli("asl", "ammo", "A5(4)/6(5)", *where, "--json")
    assert notation.code == 0 and notation.json["capabilities"][0]["ammo"] == "APCR"
