"""``ordnance rules``: a clause, a rule's clauses or a word search, in our own words, with the
rulebook number beside our ID; and every citation the CLI prints puts that number first."""

from __future__ import annotations

import re

import pytest

from ordnance.core import clauses
from ordnance.core.clauses import cite, cite_all
from ordnance.core.errors import IllegalAction


def ids_in(out: str) -> list[str]:
    """The clause IDs of the text output, in order: each entry's first line is indented two
    spaces and starts ``RULE (ID): `` or ``ID: `` (its wrapped lines are indented four)."""
    heads = [line[2:].split(": ", 1)[0] for line in out.splitlines() if re.match("  [^ ]", line)]
    return [head.rsplit(" (", 1)[-1].removesuffix(")") for head in heads]


@pytest.mark.clause("SYS.cite")
def test_one_clause_by_its_id(cli):
    result = cli("rules", "C8.9-lt")
    assert result.code == 0 and result.err == ""
    lines = result.out.splitlines()
    assert lines[0] == "ASL C8 — Special Ammunition"
    assert lines[1].startswith("  C8.9 (C8.9-lt): Original To Hit")
    assert ids_in(result.out) == ["C8.9-lt"]
    assert lines[-1] == "Clause C8.9-lt."


@pytest.mark.clause("SYS.cite")
def test_a_rule_prints_every_clause_of_it_and_only_those(cli):
    result = cli("rules", "C8.9")
    assert result.code == 0
    # C8.91 and C8.92 are rules of their own, not parts of C8.9.
    assert ids_in(result.out) == ["C8.9-lt", "C8.9-eq", "C8.9-gt", "C8.9-scope"]
    d13 = cli("rules", "d13")  # any case
    expected = [c.id for c in clauses.clauses() if c.id.startswith("D13.")]
    assert len(expected) == 12 and ids_in(d13.out) == expected


@pytest.mark.clause("SYS.cite", "LNL.W-check", "VV.AP-arc")
def test_the_other_games_rule_numbers(cli):
    lnl = cli("rules", "LnL", "14.2.3")  # the rule number, even unquoted
    assert ids_in(lnl.out) == [c.id for c in clauses.clauses() if c.id.startswith("LNL.W-")]
    assert "  LnL 14.2.3 (LNL.W-check): Every Leg unit" in lnl.out
    vv = cli("rules", "VV.AP-arc")
    assert "  V&V r. 14.4 (VV.AP-arc): A turreted Gun" in vv.out
    sys_clause = cli("rules", "SYS.dice")  # the system's own clauses have no rulebook number
    assert sys_clause.out.splitlines()[1].startswith("  SYS.dice: Dice rolls")


@pytest.mark.clause("SYS.cite", "D13.1")
def test_words_are_anded_case_insensitive_over_id_rule_section_and_summary(cli):
    result = cli("rules", "Smoke", "DISPENSER")
    found = ids_in(result.out)
    assert result.code == 0
    assert [i for i in found if i.startswith("D13.")] == [
        c.id for c in clauses.clauses() if c.id.startswith("D13.")
    ]
    # Every word in every clause found; the other clauses miss at least one.
    for c in clauses.clauses():
        text = f"{c.id} {c.rule} {c.section} {c.summary}".lower()
        assert (c.id in found) == ("smoke" in text and "dispenser" in text)
    narrower = ids_in(cli("rules", "smoke", "dispenser", "OBA").out)
    assert narrower == ["C8.9-scope"]


@pytest.mark.clause("SYS.cite")
def test_several_ids_and_rules_at_once(cli):
    result = cli("rules", "D13.31", "c8.9", "--json")
    assert result.json["found"] == "several"
    assert result.json["clauses"] == ["C8.9-lt", "C8.9-eq", "C8.9-gt", "C8.9-scope", "D13.31"]
    # One word that is neither makes it a word search (here: nothing holds them all).
    assert cli("rules", "D13.31", "hedgehog").code == 2


@pytest.mark.clause("SYS.cite")
def test_no_argument_lists_every_clause(cli):
    result = cli("rules")
    assert ids_in(result.out) == [c.id for c in clauses.clauses()]
    assert result.out.splitlines()[-1] == f"Every clause: {len(clauses.clauses())}."


@pytest.mark.clause("SYS.cite")
def test_every_line_fits_80_columns(cli):
    result = cli("rules")
    assert max(len(line) for line in result.out.splitlines()) <= 80
    # Wrapped lines are indented under their clause; IDs are never broken at a hyphen.
    assert "C8.9-\n" not in result.out and "(C8.9-scope)" in result.out


@pytest.mark.clause("SYS.cite")
def test_json_gives_each_clause_with_its_rule(cli):
    data = cli("rules", "D13.32", "--json").json
    assert data["query"] == "D13.32" and data["found"] == "rule"
    assert data["clauses"] == ["D13.32-place", "D13.32-drm"]
    assert [(r["id"], r["rule"]) for r in data["rules"]] == [
        ("D13.32-place", "D13.32"),
        ("D13.32-drm", "D13.32"),
    ]
    assert data["rules"][0]["section"].startswith("ASL D13") and data["rules"][0]["summary"]
    assert data["explanation"] == "2 clauses of rule D13.32."


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("query", [("no-such-rule",), ("smoke", "zebra"), ("  ",)])
def test_nothing_found_is_one_line_exit_2(cli, query):
    result = cli("rules", *query)
    assert result.code == 2 and result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: bad clause ")


@pytest.mark.clause("SYS.cite")
def test_the_web_page_and_the_command_read_the_same_clauses():
    from ordnance.web import clauses as page  # noqa: PLC0415

    assert page.clauses() is clauses.clauses()


@pytest.mark.clause("SYS.cite")
def test_a_citation_puts_the_rulebook_number_first():
    assert cite("C8.9-lt") == "C8.9 (C8.9-lt)"
    assert cite("C8.91") == "C8.91"  # the ID is the rule number: said once
    assert cite("LNL.S-hex") == "LnL 14.2.2 (LNL.S-hex)"
    assert cite("VV.AP-passengers") == "V&V r. 14.3 (VV.AP-passengers)"
    assert cite("SYS.odds") == "SYS.odds"
    assert cite("V&V r. 13.1") == "V&V r. 13.1"  # a rule number already
    assert cite_all(["C8.4", "C8.4-halve", "SYS.odds", "C8.4-noth"]) == (
        "C8.4 (C8.4-halve, C8.4-noth), SYS.odds"
    )
    refusal = IllegalAction("D13.2-once", "one attempt per Player Turn")
    assert str(refusal) == "refused by D13.2 (D13.2-once): one attempt per Player Turn"


@pytest.mark.clause("SYS.cite", "LNL.S-hex")
def test_a_refusal_the_cli_prints_names_the_rule_number_first(cli):
    result = cli("lnl", "shell", "lnl-farm", "--from", "B5", "--to", "J5", "--kind", "smoke",
                 "--to-hit", "9", "--dice", "3,4")  # fmt: skip
    assert result.code == 1
    assert result.err.startswith("ordnance: refused by LnL 14.2.2 (LNL.S-hex): ")


@pytest.mark.clause("SYS.cite", "C8.9-lt", "C8.9-eq", "C8.9-gt")
def test_a_ruling_the_cli_prints_names_the_rule_number_first(cli):
    odds = cli("asl", "odds", "depletion", "--number", "6")
    assert "Rules: SYS.odds, C8.9 (C8.9-lt, C8.9-eq, C8.9-gt)" in odds.out
    depleted = cli("asl", "deplete", "--number", "6", "--dice", "3,3")
    assert "Rules: C8.9 (C8.9-eq)" in depleted.out
