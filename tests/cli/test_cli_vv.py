"""``ordnance vv ...`` and ``ordnance game ai``: JSON contracts, one-line errors, a whole game
through the service with fair dice and the AI, verified afterwards."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from ordnance.vv.odds import expected_cp
from ordnance.vv.settings import VvSettings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vv-hedgerow-ambush.yaml"
ASL_EXAMPLE = ROOT / "examples" / "asl-c8-demo.yaml"


def one_line(result, code):
    assert result.code == code and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: ") and "Traceback" not in result.err
    return lines[0]


@pytest.mark.clause("SYS.odds", "VV.AP-resolve")
def test_odds_json(cli):
    result = cli("vv", "odds", "--apfp", "12", "--drm", "2", "--json")
    assert result.code == 0
    data = result.json
    assert data["row"] == "11-18" and data["expected_cp"] == "35/36"
    outcomes = {o["cp"]: o for o in data["outcomes"]}
    assert set(outcomes[2]) == {"cp", "probability", "percent", "at_least", "at_least_percent"}
    assert outcomes[2]["probability"] == "1/9"
    assert data["expected"] == "35/36"
    assert sum(Fraction(o["probability"]) for o in data["outcomes"]) == 1
    assert data["clauses"] and data["explanation"]


@pytest.mark.clause("SYS.odds", "VV.AP-resolve")
@pytest.mark.parametrize(("apfp", "drm"), [(1, 0), (6, 1), (12, 2), (30, -3), (3, -4)])
def test_at_least_and_expected_are_sums_of_the_exact_distribution(cli, apfp, drm):
    from ordnance.vv.odds import cp_odds  # noqa: PLC0415

    data = cli("vv", "odds", "--apfp", str(apfp), "--drm", str(drm), "--json").json
    exact = cp_odds(apfp, drm)
    for row in data["outcomes"]:
        direct = sum((p for cp, p in exact.items() if cp >= row["cp"]), Fraction(0))
        assert Fraction(row["at_least"]) == direct
        assert row["at_least_percent"] == pytest.approx(float(direct * 100))
    assert data["outcomes"][0]["at_least"] == "1/1"  # no effect or more: certain
    assert Fraction(data["expected"]) == sum(cp * p for cp, p in exact.items())
    text = cli("vv", "odds", "--apfp", str(apfp), "--drm", str(drm))
    assert "CP or more" in text.out


@pytest.mark.clause("SYS.odds")
def test_odds_low_rolls_follow_the_setting(cli):
    clamp = cli("vv", "odds", "--apfp", "3", "--drm", "-4", "--json").json
    extend = cli("vv", "--set", "low_roll=extend", "odds", "--apfp", "3", "--drm", "-4", "--json")
    assert max(o["cp"] for o in clamp["outcomes"]) == 5
    assert max(o["cp"] for o in extend.json["outcomes"]) == 9  # final -2: 5 + 4
    human = cli("vv", "odds", "--apfp", "3")
    assert human.code == 0 and "Expected CP" in human.out


@pytest.mark.parametrize(
    "args",
    [
        ("vv", "odds", "--apfp", "0"),
        ("vv", "odds", "--apfp", "x"),
        ("vv", "--set", "nonsense=1", "odds", "--apfp", "3"),
        ("vv", "--set", "low_roll=up", "odds", "--apfp", "3"),
    ],
)
def test_bad_input_is_one_line_exit_2(cli, args):
    one_line(cli(*args), 2)


def test_settings_list_their_provenance(cli):
    data = cli("vv", "settings", "--json").json
    names = {row["name"]: row for row in data["settings"]}
    assert names["low_roll"]["default"] == "clamp" and names["low_roll"]["tag"] == "[default]"
    assert all(row["doc"] and row["rule"] for row in data["settings"])
    assert cli("vv", "settings").code == 0


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def game(cli, db, token_file):
    result = cli("game", "new", str(EXAMPLE), "--db", db, "--json")
    assert result.code == 0, result.err
    made = result.json
    made["files"] = {side: token_file(token) for side, token in made["tokens"].items()}
    return made


def do(cli, db, game, side, *words):
    args = ["game", "do", game["game"], "--side", side, "--token-file", game["files"][side]]
    return cli(*args, "--db", db, "--json", *words)


def ai(cli, db, game, side="german"):
    args = ["game", "ai", game["game"], "--side", side, "--token-file", game["files"][side]]
    return cli(*args, "--db", db, "--json")


@pytest.mark.clause("VV.AP-select")
def test_targets_json(cli, db, game):
    assert do(cli, db, game, "american", "phase", "next").code == 0
    result = cli(
        "vv", "targets", game["game"], "--hex", "D8", "--units", "a1,a2,sgt", "--db", db, "--json"
    )
    assert result.code == 0, result.err
    data = result.json
    assert data["side"] == "american" and not data["opportunity_fire"]
    rows = {row["hex"]: row for row in data["targets"]}
    assert set(rows) == {"E5", "F6", "J8"} and data["refused"] == []
    e5 = rows["E5"]
    assert e5["apfp"] == 10 and e5["drm"] == 2 and e5["leader"] == "sgt"
    assert [d["reason"].split(":")[0] for d in e5["drms"]] == [
        "cover",
        "foxholes",
        "hindrance",
        "leader sgt",
    ]
    assert Fraction(e5["expected_cp"]) > 0 and e5["affects"] == ["g1", "lt"]
    thrown = cli(
        "vv",
        "targets",
        game["game"],
        "--hex",
        "D8",
        "--units",
        "a1,a2,sgt",
        "--grenades",
        "a1",
        "--db",
        db,
        "--json",
    ).json
    assert thrown["targets"] == [] and {r["clause"] for r in thrown["refused"]} == {"V&V r. 12.51"}
    far = cli("vv", "targets", game["game"], "--hex", "B8", "--units", "a3", "--db", db, "--json")
    assert [r["clause"] for r in far.json["refused"]] == ["VV.AP-range"]
    human = cli("vv", "targets", game["game"], "--hex", "H8", "--units", "sherman", "--db", db)
    assert human.code == 0 and "F6" in human.out


@pytest.mark.clause("VV.AP-select", "VV.AP-resolve")
def test_targets_honour_set_over_the_games_settings(cli, db, game):
    """``vv --set NAME=VALUE targets GAME``: the listing reads the game's settings with the
    override on top (what-if), says so, and the game itself is left as it was."""
    do(cli, db, game, "american", "phase", "next")
    args = ["targets", game["game"], "--hex", "D8", "--units", "a1,a2,sgt", "--db", db, "--json"]
    plain = cli("vv", *args).json
    extended = cli("vv", "--set", "low_roll=extend", *args).json
    assert plain["settings"]["low_roll"] == "clamp" and extended["settings"]["low_roll"] == "extend"
    assert "--set low_roll=extend" in extended["explanation"]
    extend = VvSettings(low_roll="extend")
    for row in extended["targets"]:  # every attack's odds read with the override
        assert Fraction(row["expected_cp"]) == expected_cp(row["apfp"], row["drm"], extend)
    assert cli("vv", *args).json["settings"]["low_roll"] == "clamp"  # the game is unchanged
    one_line(cli("vv", "--set", "nonsense=1", *args[:-1]), 2)


def test_targets_errors(cli, db, game):
    base = ["vv", "targets", game["game"], "--db", db]
    do(cli, db, game, "american", "phase", "next")
    do(cli, db, game, "american", "fire", "a1", "--at", "E5")
    assert "Fire marker" in one_line(cli(*base, "--hex", "D8", "--units", "a1,a2"), 1)
    one_line(cli(*base, "--hex", "D8", "--units", "sherman"), 2)  # not in D8
    one_line(cli(*base, "--hex", "Z99", "--units", "a1"), 2)
    one_line(cli(*base, "--hex", "D8", "--units", "nobody"), 2)
    asl = cli("game", "new", str(ASL_EXAMPLE), "--db", db, "--json").json
    one_line(cli("vv", "targets", asl["game"], "--hex", "A1", "--units", "pak", "--db", db), 2)


@pytest.mark.clause("VV.AP-phases")
def test_the_ai_answers_for_its_side_only(cli, db, game):
    assert ai(cli, db, game).json["commands"] == []  # the Americans' Command phase
    line = one_line(ai(cli, db, game, "american"), 1)
    assert "does not have the AI play american" in line
    do(cli, db, game, "american", "phase", "next")
    do(cli, db, game, "american", "fire", "a1,a2,sgt", "--at", "E5")
    sent = ai(cli, db, game).json
    texts = [c["ruling"]["command"] for c in sent["commands"]]
    # Depending on the fair dice: no CP, or the allocation losing the Germans the least value.
    assert texts == [] or (len(texts) == 1 and texts[0].startswith("assign-cp "))
    assert sent["to_move"] == "american"
    # It cites the sequence of play first, then each command's own clauses, once each.
    cited = [c for one in sent["commands"] for c in one["ruling"]["clauses"]]
    assert sent["clauses"] == list(dict.fromkeys(["VV.AP-phases", *cited]))


@pytest.mark.clause("SYS.cite")
def test_an_asl_game_has_no_ai(cli, db, token_file):
    asl = cli("game", "new", str(ASL_EXAMPLE), "--db", db, "--json").json
    side = next(iter(asl["tokens"]))
    files = {s: token_file(t) for s, t in asl["tokens"].items()}
    args = ["game", "ai", asl["game"], "--side", side, "--token-file", files[side]]
    assert "the asl ruleset has no AI" in one_line(cli(*args, "--db", db), 2)


@pytest.mark.clause("VV.AP-phases", "SYS.record", "SYS.dice")
def test_a_whole_game_with_the_ai_verifies(cli, db, game, tmp_path):
    """The Americans only end phases and take the engine's CP choice; the AI plays the
    Germans; the exported log then verifies, every roll recomputed from the revealed seed.

    Five Game Turns of phases, passes and CP choices, as many as the fair dice make: the bound
    only stops a game that never ends."""
    for _ in range(600):
        status = cli("game", "status", game["game"], "--db", db, "--json").json
        if status["over"]:
            break
        if status["to_move"] == "german":
            assert ai(cli, db, game).code == 0
            continue
        words = ["assign-cp", "--auto"] if status["state"]["pending"] else ["phase", "next"]
        if status["state"]["opportunity"]:
            words = ["pass"]
        assert do(cli, db, game, "american", *words).code == 0
    else:
        pytest.fail("the game did not end")
    human = cli("game", "status", game["game"], "--db", db)
    assert human.code == 0 and "over" in human.out
    out = tmp_path / "game.json"
    assert cli("game", "export", game["game"], "--out", str(out), "--db", db).code == 0
    report = cli("game", "verify", str(out), "--json").json
    assert report["ok"] and report["rolls_recomputed"] == report["rolls"]
    log = cli("game", "log", game["game"], "--db", db, "--json").json["entries"]
    german = [
        e["body"]["command"]["text"]
        for e in log
        if e["type"] == "command" and e["side"] == "german"
    ]
    assert any(text.startswith("fire ") for text in german)


@pytest.fixture
def physical(cli, db, token_file, tmp_path):
    """The ambush with 'dice: physical' (the AI plays the Germans)."""
    scenario = tmp_path / "physical.yaml"
    text = EXAMPLE.read_text(encoding="utf-8")
    scenario.write_text(text.replace("dice: fair", "dice: physical", 1), encoding="utf-8")
    made = cli("game", "new", str(scenario), "--db", db, "--json").json
    made["files"] = {side: token_file(token) for side, token in made["tokens"].items()}
    return made


def _ai_until_it_rolls(cli, db, game):
    """The Americans end phases until the German AI stops at a command that rolls."""
    for _ in range(12):
        result = ai(cli, db, game)
        if result.code != 0:
            return result
        assert do(cli, db, game, "american", "phase", "next").code == 0
    pytest.fail("the AI never had to roll")


@pytest.mark.clause("SYS.dice", "VV.AP-phases")
def test_the_ai_asks_for_its_physical_dice_and_plays_with_them(cli, db, physical):
    stopped = _ai_until_it_rolls(cli, db, physical)
    # Input is missing: exit 2; the JSON on stdout names the command and each roll, in order;
    # one line on stderr says the same.
    assert stopped.code == 2 and "Traceback" not in stopped.err
    data = stopped.json
    waiting = data["waiting"]
    assert waiting["side"] == "german" and data["to_move"] == "german"
    assert data["needs_dice"] == waiting["needs_dice"] and data["needs_dice"]
    for roll in data["needs_dice"]:
        assert set(roll) == {"purpose", "dice"} and roll["dice"] in (1, 2) and roll["purpose"]
    line = stopped.err.strip()
    assert len(line.splitlines()) == 1 and line.startswith("ordnance: dice needed: ")
    assert f"The AI (german) wants to play '{waiting['command']}'" in line
    assert "roll 1 - " in line and "--dice W,C" in line
    version = data["version"]
    base = ["game", "ai", physical["game"], "--side", "german"]
    base += ["--token-file", physical["files"]["german"], "--db", db]
    # Dice of the wrong kind, or too many: refused in one line, nothing stored.
    wrong = cli(*base, "--dice", "7,1")
    assert wrong.code == 2 and "a die shows 1 to 6" in wrong.err
    many = ["--dice", "3,4"] * (len(data["needs_dice"]) + 1)
    assert "more dice were entered" in cli(*base, *many).err
    status = cli("game", "status", physical["game"], "--db", db, "--json").json
    assert status["version"] == version
    dice = [("--dice", "3,4" if r["dice"] == 2 else "5") for r in data["needs_dice"]]
    played = cli(*base, "--json", *[w for pair in dice for w in pair])
    assert played.code in (0, 2), played.err  # 2: a later command of its turn rolls too
    first = played.json["commands"][0]
    assert first["ruling"]["command"] == waiting["command"] and first["seq"] == version
    assert [r["faces"] for r in first["rolls"]] == [
        [3, 4] if value == "3,4" else [5] for _, value in dice
    ]
    assert all(r["source"] == "physical" for r in first["rolls"])


@pytest.mark.clause("SYS.dice")
def test_ai_dice_are_refused_where_they_have_no_use(cli, db, game, physical):
    fair = ["game", "ai", game["game"], "--side", "german", "--token-file", game["files"]["german"]]
    assert "fair dice" in one_line(cli(*fair, "--db", db, "--dice", "3,4"), 2)
    # The Americans are to act: the AI has nothing to roll for.
    idle = ["game", "ai", physical["game"], "--side", "german"]
    idle += ["--token-file", physical["files"]["german"], "--db", db, "--dice", "3,4"]
    assert "no decision" in one_line(cli(*idle), 2)
