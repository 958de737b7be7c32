"""``ordnance game do GAME ... COMMAND --help``: each game's commands and their options, from
the ruleset's command table once GAME is looked up; typos get a suggestion; ``--out -``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.cli import game_do
from ordnance.game.registry import ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "asl": (ROOT / "examples" / "asl-d13-demo.yaml", "american"),
    "lnl": (ROOT / "examples" / "lnl-smoke-wp.yaml", "german"),
    "vv": (ROOT / "examples" / "vv-hedgerow-ambush.yaml", "american"),
}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def new_game(cli, db, name):
    made = cli("game", "new", str(EXAMPLES[name][0]), "--db", db, "--json")
    assert made.code == 0, made.err
    return made.json


def one_line(result, code):
    assert result.code == code and result.out == "", result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: ") and "Traceback" not in result.err
    return lines[0]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_command_of_every_game_prints_its_options(cli, db, token_file, name):
    made = new_game(cli, db, name)
    side = EXAMPLES[name][1]
    act = ["--side", side, "--token-file", token_file(made["tokens"][side])]
    table = ruleset(name).commands
    for verb, spec in table.verbs.items():
        shown = cli("game", "do", made["game"], *act, "--db", db, verb, "--help")
        assert shown.code == 0 and shown.err == "", (verb, shown.err)
        assert f"game do {made['game']} --side SIDE {verb}" in shown.out
        assert spec.help.split()[0] in shown.out
        for option_name, option in spec.options.items():
            assert option_name in shown.out, (verb, option_name)
            assert option.help.split()[0] in shown.out, (verb, option_name)


@pytest.mark.clause("SYS.record")
def test_fire_help_needs_the_game_but_no_side_or_token_and_changes_nothing(cli, db):
    made = new_game(cli, db, "asl")
    before = cli("game", "log", made["game"], "--db", db, "--json").json
    shown = cli("game", "do", made["game"], "--db", db, "fire", "pak", "--help")
    assert shown.code == 0
    assert "--ammo A" in shown.out and "The ammunition fired" in shown.out
    assert "[required]" in shown.out and "Repeatable." in shown.out
    wrong = cli("game", "do", made["game"], "--side", "german", "--token", "nope", "--db", db,
                "fire", "--help")  # fmt: skip
    assert wrong.code == 0 and "--to-hit N" in wrong.out
    assert cli("game", "log", made["game"], "--db", db, "--json").json == before
    assert "no such game" in one_line(cli("game", "do", "nope", "--db", db, "fire", "--help"), 2)


def test_help_after_game_lists_the_game_commands_and_before_it_is_game_do_help(cli, db):
    made = new_game(cli, db, "vv")
    listed = cli("game", "do", made["game"], "--db", db, "--help")
    assert listed.code == 0
    for verb in ("assign-cp", "opfire", "rally"):
        assert verb in listed.out
    own = cli("game", "do", "--help")
    assert own.code == 0 and "--side" in own.out and "--expect-version" in own.out


@pytest.mark.clause("SYS.record")
def test_a_mistyped_command_gets_a_suggestion_and_changes_nothing(cli, db, token_file):
    made = new_game(cli, db, "asl")
    act = ["--side", "american", "--token-file", token_file(made["tokens"]["american"])]
    before = cli("game", "log", made["game"], "--db", db, "--json").json
    typo = cli("game", "do", made["game"], *act, "--db", db, "dispence", "m24")
    assert "did you mean 'dispense'?" in one_line(typo, 2)
    option = cli("game", "do", made["game"], *act, "--db", db, "dispense", "m24", "--trget", "4I5")
    assert "did you mean '--target'?" in one_line(option, 2)
    helped = cli("game", "do", made["game"], "--db", db, "dispence", "--help")
    assert "did you mean 'dispense'?" in one_line(helped, 2)
    assert cli("game", "log", made["game"], "--db", db, "--json").json == before


def test_game_do_options_still_stand_anywhere_among_the_words(cli, db, token_file):
    made = new_game(cli, db, "lnl")
    token = token_file(made["tokens"]["german"])
    done = cli("game", "do", made["game"], "phase", "next", "--side", "german", "--json",
               "--token-file", token, "--db", db)  # fmt: skip
    assert done.code == 0 and json.loads(done.out)["version"] == 2


def test_remote_help_asks_the_table_for_the_ruleset(monkeypatch):
    asked = []

    def status(server, game, side):
        asked.append((server, game, side))
        return {"game": game, "ruleset": "lnl"}

    monkeypatch.setattr("ordnance.cli.remote.status", status)
    text = game_do.game_help("g1", ["smoke-shell"], db=None, server="http://127.0.0.1:9")
    assert "--opportunity" in text and asked == [("http://127.0.0.1:9", "g1", None)]


def test_scan_finds_game_verb_and_help():
    found = game_do.scan(["g", "--db=x", "--side", "s", "fire", "--help"], {"--side", "--db"})
    assert (found.game, found.verb, found.help) == ("g", 4, 5)
    assert found.values == {"--db": "x", "--side": "s"}


@pytest.mark.clause("SYS.record")
def test_export_to_standard_output(cli, db, tmp_path):
    made = new_game(cli, db, "asl")
    out = cli("game", "export", made["game"], "--db", db, "--out", "-")
    assert out.code == 0 and out.out.startswith('{"format":"ordnance-log"')
    assert "to standard output" in out.err
    assert not (Path.cwd() / "-").exists()
    written = tmp_path / "log.json"
    assert cli("game", "export", made["game"], "--db", db, "--out", str(written)).code == 0
    assert written.read_text(encoding="utf-8") == out.out
    assert "--out -" in one_line(
        cli("game", "export", made["game"], "--db", db, "--out", "-", "--json"), 2
    )


def test_the_game_commands_page_matches_the_tables():
    path = ROOT / "scripts" / "game_commands_doc.py"
    spec = importlib.util.spec_from_file_location("game_commands_doc", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0, "run: python scripts/game_commands_doc.py"
    text = module.OUT.read_text(encoding="utf-8")
    for name in ("asl", "lnl", "vv"):
        for verb in ruleset(name).commands.verbs:
            assert f"### {name}: {verb}\n" in text


def test_help_with_an_option_short_of_its_value_is_clicks_one_line(cli, db):
    made = new_game(cli, db, "asl")
    short = cli("game", "do", made["game"], "fire", "--help", "--db")
    assert "'--db' requires an argument" in one_line(short, 2)
    assert game_do.scan(["g", "--help", "--db"], {"--db"}).incomplete


WORDS = ["fire", "dispense", "dispence", "phase", "next", "mark", "pak", "pz4", "m24", "--ammo",
         "AP", "--drm", "-1", "--to-hit", "--target", "4I5", "--ce", "--help", "--", "-", "",
         "--ammo=HE", "--amo", "é", "\x00", "9" * 40]  # fmt: skip


@pytest.mark.clause("SYS.record")
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(words=st.lists(st.sampled_from(WORDS), max_size=6))
def test_any_words_are_answered_in_one_line_or_help(cli, tmp_path_factory, token_file, words):
    db = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'games.sqlite3'}"
    made = new_game(cli, db, "asl")
    act = ["--side", "german", "--token-file", token_file(made["tokens"]["german"])]
    before = cli("game", "log", made["game"], "--db", db, "--json").json
    result = cli("game", "do", made["game"], *act, "--db", db, *words)
    assert result.code in (0, 1, 2) and "Traceback" not in result.err
    if result.code != 0:
        one_line(result, result.code)
        assert cli("game", "log", made["game"], "--db", db, "--json").json == before
