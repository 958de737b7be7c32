"""The CLI's contract for every command: one-line errors, exit codes, settings."""

from __future__ import annotations

import pytest


@pytest.mark.clause("SYS.cite")
def test_settings_lists_every_reading_with_provenance(cli):
    result = cli("asl", "settings", "--json")
    assert result.code == 0
    names = {row["name"]: row for row in result.json["settings"]}
    assert names["h9_he_equivalency"]["value"] == 12
    assert all(row["tag"].startswith("[") for row in names.values())


def test_set_overrides_a_reading(cli):
    result = cli("asl", "--set", "h9_he_equivalency=8", "settings", "--json")
    values = {row["name"]: row["value"] for row in result.json["settings"]}
    assert values["h9_he_equivalency"] == 8


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (("asl", "--set", "nonsense=1", "settings"), "unknown setting"),
        (("asl", "--set", "default_breakdown=x", "settings"), "whole number"),
        (("asl", "settingz"), "No such command"),
        (("asl", "settings", "--jsn"), "No such option"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args, fault):
    result = cli(*args)
    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0]
    assert "Traceback" not in result.err
