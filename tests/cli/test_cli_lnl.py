"""``ordnance lnl ...`` and LnLT games through ``ordnance game``, in-process.

On the bundled ``lnl-farm`` map a tank in D5 sees the farmhouse in H3 over two wheat fields
(+2); from B5 the LOS to F5 runs along hexsides, so one short of F5 is the pair E5|E6.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest


def shell(cli, *more: str):
    return cli("lnl", "shell", "lnl-farm", "--from", "D5", "--to", "H3", *more, "--json")


@pytest.mark.clause("LNL.S-hit", "LNL.W-proc", "SYS.cite")
def test_a_hit_places_the_marker_in_the_target_hex(cli):
    result = shell(cli, "--kind", "wp", "--to-hit", "9", "--dice", "3,4")
    assert result.code == 0
    data = result.json
    assert (data["result"], data["hex"], data["candidates"], data["marker"]) == (
        "hit",
        "H3",
        [],
        "wp",
    )
    assert data["final_dr"] == 9 and [d["value"] for d in data["drms"]] == [2]
    assert "LNL.W-proc" in data["clauses"] and data["explanation"]


@pytest.mark.clause("LNL.S-miss")
@pytest.mark.parametrize(
    ("dice", "result", "hex"),
    [("5,6", "short", "G4"), ("5,5", "none", None), ("6,6", "none", None)],
)
def test_odd_short_even_beyond_double_none(cli, dice, result, hex):
    data = shell(cli, "--kind", "smoke", "--to-hit", "7", "--dice", dice).json
    assert (data["result"], data["hex"]) == (result, hex)


@pytest.mark.clause("LNL.S-miss", "LNL.S-los")
def test_a_long_miss_behind_the_farmhouse_places_nothing(cli):
    """4,6 = 10, even: one beyond H3 is I3, which the stone walls of H3 hide from D5."""
    data = shell(cli, "--kind", "smoke", "--to-hit", "7", "--dice", "4,6").json
    assert (data["result"], data["hex"], data["nothing_placed"]) == ("beyond", None, "blocked")
    seen = cli("lnl", "shell", "lnl-farm", "--from", "D5", "--to", "G4", "--kind", "smoke",
               "--to-hit", "7", "--dice", "4,6", "--json").json  # fmt: skip
    assert (seen["result"], seen["hex"]) == ("beyond", "H3")


@pytest.mark.clause("LNL.S-hit")
def test_a_natural_2_hits_even_against_to_hit_2_with_modifiers(cli):
    data = shell(cli, "--kind", "smoke", "--to-hit", "2", "--dice", "1,1", "--opportunity").json
    assert (data["final_dr"], data["result"], data["hex"]) == (6, "hit", "H3")


@pytest.mark.clause("LNL.S-los")
def test_the_ambiguous_hexside_case_returns_the_candidates(cli):
    args = ["lnl", "shell", "lnl-farm", "--from", "B5", "--to", "F5", "--kind", "smoke"]
    data = cli(*args, "--to-hit", "7", "--dice", "5,6", "--json").json
    assert (data["result"], data["hex"], data["candidates"]) == ("short", None, ["E5", "E6"])
    assert data["waits_for_enemy"]
    chosen = cli(*args, "--to-hit", "7", "--dice", "5,6", "--choose", "E6", "--json").json
    assert chosen["hex"] == "E6"
    bad = cli(*args, "--to-hit", "7", "--dice", "5,6", "--choose", "H3")
    assert bad.code == 1 and "LNL.S-los" in bad.err and "lands in E5 or E6" in bad.err


@pytest.mark.clause("LNL.S-hex")
def test_a_target_out_of_los_is_refused_with_its_clause(cli):
    result = cli("lnl", "shell", "lnl-farm", "--from", "B5", "--to", "J5", "--kind", "wp",
                 "--to-hit", "9", "--dice", "3,4")  # fmt: skip
    assert result.code == 1 and result.out == ""
    assert (
        result.err.startswith("ordnance: refused by LnL 14.2.2 (LNL.S-hex):")
        and result.err.count("\n") == 1
    )


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (["--kind", "hc", "--to-hit", "9"], "one of smoke, wp"),
        (["--kind", "wp", "--to-hit", "13"], "2 to 12"),
        (["--kind", "wp", "--to-hit", "9", "--dice", "7,1"], "a die shows 1 to 6"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args, fault):
    result = shell(cli, *args)
    assert result.code == 2 and fault in result.err and "Traceback" not in result.err
    other = cli("lnl", "shell", "asl-village", "--from", "4G5", "--to", "4K5", "--kind", "wp",
                "--to-hit", "9")  # fmt: skip
    assert other.code == 2 and "an LnLT (lnl) map" in other.err


def test_a_seeded_roll_repeats_and_says_its_seed(cli):
    first = shell(cli, "--kind", "smoke", "--to-hit", "8", "--seed", "42").json
    again = shell(cli, "--kind", "smoke", "--to-hit", "8", "--seed", "42").json
    assert first == again and first["seed"] == 42


@pytest.mark.clause("LNL.W-smoke")
def test_the_picture_shows_the_marker_where_it_lands(cli, tmp_path: Path):
    out = tmp_path / "shot.svg"
    data = shell(cli, "--kind", "wp", "--to-hit", "9", "--dice", "3,4", "--svg", str(out)).json
    assert data["svg"] == str(out)
    svg = out.read_text()
    assert svg.count(">WP<") == 2  # the farm's own WP in I5 and the new one in H3
    assert ">S1<" in svg and ">S2<" in svg and "wp shell D5 -&gt; H3: hit" in svg


@pytest.mark.clause("SYS.odds", "LNL.S-los")
def test_odds_of_where_the_shell_lands(cli):
    data = cli("lnl", "odds", "shell", "lnl-farm", "--from", "B5", "--to", "F5", "--to-hit", "8",
               "--json").json  # fmt: skip
    outcomes = {row["outcome"]: row for row in data["outcomes"]}
    assert list(outcomes) == ["F5", "E5|E6", "G5|G6", "none"]
    assert outcomes["F5"]["probability"] == "13/18"
    assert outcomes["E5|E6"]["enemy_chooses"] and outcomes["E5|E6"]["result"] == "short"
    assert sum(Fraction(row["probability"]) for row in data["outcomes"]) == 1
    assert data["nothing_placed"]["double"] == "1/18" and data["nothing_placed"]["blocked"] == "0/1"
    text = cli("lnl", "odds", "shell", "lnl-farm", "--from", "B5", "--to", "F5", "--to-hit", "8")
    assert text.code == 0 and "enemy chooses" in text.out


@pytest.mark.clause("SYS.odds", "LNL.W-closed")
def test_odds_of_the_wp_check(cli):
    data = cli("lnl", "odds", "wp-check", "--closed", "--json").json
    assert [row["outcome"] for row in data["outcomes"]] == ["2", "3", "4", "5", "6", "7"]
    assert data["outcomes"][-1]["probability"] == "11/36"
    totals = {int(row["outcome"]): Fraction(row["probability"]) for row in data["outcomes"]}
    for row in data["outcomes"]:
        direct = sum((p for t, p in totals.items() if t >= int(row["outcome"])), Fraction(0))
        assert Fraction(row["at_least"]) == direct
    assert data["outcomes"][4]["at_least"] == "5/9"  # 6 or more: the higher die 5 or 6
    assert Fraction(data["expected"]) == sum(t * p for t, p in totals.items())
    vehicle = cli("lnl", "odds", "wp-check", "--unit", "open-vehicle", "--closed")
    assert vehicle.code == 2


@pytest.mark.clause("SYS.odds", "LNL.S-deplete")
def test_odds_of_a_pools_shots(cli):
    data = cli("lnl", "odds", "pool", "--count", "2", "--depletion", "4", "--json").json
    assert data["expected_shots"] == "4/1" and data["removal_chance"] == "1/2"
    capped = cli(
        "lnl", "odds", "pool", "--count", "1", "--depletion", "4", "--limit", "2", "--json"
    )
    assert capped.json["expected_shots"] == capped.json["expected"] == "3/2"
    rows = capped.json["outcomes"]
    assert [(r["outcome"], r["at_least"]) for r in rows] == [("1", "1/1"), ("2", "1/2")]
    never = cli("lnl", "odds", "pool", "--count", "1", "--depletion", "1", "--json").json
    assert never["expected_shots"] is None


def test_settings_are_listed_and_overridden(cli):
    rows = {r["name"]: r for r in cli("lnl", "settings", "--json").json["settings"]}
    assert rows["parity_of"]["tag"] == "[default]" and rows["parity_of"]["choices"]
    assert all(row["doc"] and row["tag"].startswith("[") for row in rows.values())
    args = ["lnl", "--set", "parity_of=final", "shell", "lnl-farm", "--from", "D5", "--to", "H3"]
    # 4,5 = 9 natural (odd), +2 = 11 final (odd too); 3,6 against To Hit 5: 9+2 = 11.
    data = cli(*args, "--kind", "smoke", "--to-hit", "5", "--dice", "3,5", "--json").json
    assert data["result"] == "beyond"  # 8 natural and 10 final: both even
    bad = cli("lnl", "--set", "parity_of=odd", "settings")
    assert bad.code == 2 and "one of natural, final" in bad.err


# --- a game through ``ordnance game`` ----------------------------------------------------------

SCENARIO = """
ruleset: lnl
name: CLI test
dice: physical
map: lnl-farm
turns: 1
sides:
  german:
    wp_shells: 1
    depletion_number: 4
    units:
      pz4: {kind: vehicle, hex: D5, shells: [wp], to_hit: {7: 9}}
  american:
    units:
      sq1: {kind: squad, hex: H3}
      m3: {kind: vehicle, open: true, hex: H3}
"""


@pytest.mark.clause("SYS.record", "LNL.W-check")
def test_a_wp_shell_through_game_do(cli, tmp_path: Path, token_file):
    db = str(tmp_path / "games.sqlite3")
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO)
    made = cli("game", "new", str(path), "--db", db, "--json").json
    game, token = made["game"], made["tokens"]["german"]

    def do(*words: str, side: str = "german", key: str = token):
        return cli(
            "game",
            "do",
            game,
            "--side",
            side,
            "--token-file",
            token_file(key),
            "--db",
            db,
            "--json",
            *words,
        )

    assert do("phase", "next").code == 0
    done = do("wp-shell", "pz4", "--at", "H3", "--dice", "3,4", "--dice", "2", "--dice", "5,1",
              "--dice", "6")  # fmt: skip
    assert done.code == 0, done.err
    ruling = done.json["ruling"]
    assert ruling["hex"] == "H3" and [c["unit"] for c in ruling["checks"]] == ["m3", "sq1"]
    assert ruling["pool"]["left"] == 1 and [r["purpose"] for r in done.json["rolls"]][-1] == (
        "Depletion dr (WP Shell, german)"
    )
    refused = do("wp-shell", "pz4", "--at", "H3", "--dice", "3,4")
    assert refused.code == 1 and "refused by LnL 14.2.2 (LNL.S-fire)" in refused.err
    status = cli("game", "status", game, "--db", db)
    assert status.code == 0 and "H3: wp" in status.out and "german may" in status.out
    assert "{" not in status.out and "'" not in status.out
    state = json.loads(cli("game", "status", game, "--db", db, "--json").out)["state"]
    assert state["markers"]["H3"] == ["wp"] and state["action"] == {"unit": "pz4", "shell": "wp"}
    out = tmp_path / "game.svg"
    drawn = cli("game", "render", game, "--db", db, "--out", str(out), "--json")
    assert drawn.code == 0, drawn.err
    assert ">WP<" in out.read_text()
    assert drawn.json["units"] == len(state["units"]) and drawn.json["png"] is None
    assert 'data-unit="pz4"' in out.read_text() and 'data-marker="wp"' in out.read_text()
    log = cli("game", "log", game, "--db", db)
    assert "A WP marker is placed in H3." in log.out and "{" not in log.out
