"""``ordnance game ...``: JSON contracts, one-line errors that leave the log untouched, the tour."""

from __future__ import annotations

import contextlib
import io
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console

from ordnance.cli import tour
from ordnance.core.clauses import cite

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "asl-c8-demo.yaml"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def game(cli, db, token_file):
    result = cli("game", "new", str(EXAMPLE), "--db", db, "--json")
    assert result.code == 0 and result.err == ""
    made = result.json
    made["files"] = {side: token_file(token) for side, token in made["tokens"].items()}
    return made


def do(cli, db, game, side, *words, json=True):
    args = ["game", "do", game["game"], "--side", side, "--token-file", game["files"][side]]
    return cli(*args, "--db", db, *(["--json"] if json else []), *words)


def log_of(cli, db, game):
    return cli("game", "log", game["game"], "--db", db, "--json").json["entries"]


def one_line(result, code):
    assert result.code == code and result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: ") and "Traceback" not in result.err
    return lines[0]


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_new_prints_the_game_id_and_a_token_per_side(game):
    assert set(game) >= {"game", "tokens", "version", "commitment"}
    assert set(game["tokens"]) == {"german", "russian"} and len(game["commitment"]) == 64


@pytest.mark.clause("C8.0", "C8.9-eq")
def test_do_fire_status_and_log(cli, db, game):
    assert do(cli, db, game, "german", "phase", "next").code == 0
    shot = do(cli, db, game, "german", "fire", "pak", "--ammo", "APCR").json
    assert shot["seq"] == 2 and shot["rolls"][0]["purpose"] == "To Hit DR (APCR) for pak"
    assert shot["ruling"]["clauses"] and shot["ruling"]["explanation"]
    status = cli("game", "status", game["game"], "--db", db, "--json").json
    assert status["version"] == 3 and status["state"]["phase"] == "PFPh"
    rows = {r["ammo"]: r for r in status["state"]["units"]["pak"]["ammunition"]}
    outcome = shot["ruling"]["depletion"]["outcome"]
    assert rows["APCR"]["exhausted"] == (outcome != "used")
    assert [e["type"] for e in log_of(cli, db, game)] == ["start", "command", "command"]
    human = do(cli, db, game, "german", "fire", "pz4", "--ammo", "AP", json=False)
    assert human.code == 0 and "To Hit DR (AP) for pz4" in human.out


def test_the_token_may_come_from_the_environment(cli, db, game, monkeypatch):
    monkeypatch.setenv("ORDNANCE_TOKEN", game["tokens"]["german"])
    result = cli("game", "do", game["game"], "--side", "german", "--db", db, "phase", "next")
    assert result.code == 0


def test_the_default_database_comes_from_ordnance_db(cli, db, monkeypatch):
    monkeypatch.setenv("ORDNANCE_DB", db)
    made = cli("game", "new", str(EXAMPLE), "--json").json
    assert cli("game", "status", made["game"], "--db", db, "--json").code == 0
    assert made["game"] in cli("game", "list", "--json").out


@pytest.mark.parametrize(
    "case",
    [
        (("fire", "tiger", "--ammo", "AP"), 2, "no such unit"),
        (("charge", "pak"), 2, "unknown command"),
        (("fire", "pak", "--ammo", "AP", "--dice", "3,4"), 1, "SYS.dice"),
        (("fire", "pak", "--ammo", "SMOKE", "--own-hex"), 1, "C8.52"),
        (("fire", "t34", "--ammo", "AP"), 1, "SYS.record"),
        (("fire", "pak", "--ammo", "AP", "--to-hit"), 2, "needs a value"),
    ],
)
def test_bad_commands_are_one_line_and_leave_the_log_untouched(cli, db, game, case):
    words, code, fault = case
    do(cli, db, game, "german", "phase", "next")
    before = log_of(cli, db, game)
    assert fault in one_line(do(cli, db, game, "german", *words), code)
    assert log_of(cli, db, game) == before


def test_unknown_game_wrong_token_and_stale_version_are_one_line(cli, db, game):
    before = log_of(cli, db, game)
    assert "no such game" in one_line(cli("game", "status", "nope", "--db", db), 2)
    files = game["files"]
    wrong = ["game", "do", game["game"], "--side", "german", "--token-file", files["russian"]]
    assert "not authorized" in one_line(cli(*wrong, "--db", db, "phase", "next"), 2)
    stale = ["game", "do", game["game"], "--side", "german", "--token-file", files["german"]]
    line = one_line(cli(*stale, "--expect-version", "7", "--db", db, "phase", "next"), 2)
    assert "stale state" in line
    assert log_of(cli, db, game) == before


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("ruleset: asl\nname: x\n", "date"),
        ("ruleset: chess\n", "unknown ruleset"),
        ("[1, 2", "not valid YAML"),
        (
            "ruleset: asl\nname: x\ndate: 1944-06\nsides: {german: {units: {g: {notation: A5(}}},"
            " russian: {}}\n",
            "sides.german.units.g.notation",
        ),
    ],
)
def test_a_malformed_scenario_is_one_line_and_creates_nothing(cli, db, tmp_path, text, fault):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert fault in one_line(cli("game", "new", str(path), "--db", db), 2)
    assert cli("game", "list", "--db", db, "--json").json == {"games": []}
    assert "cannot be read" in one_line(
        cli("game", "new", str(tmp_path / "none.yaml"), "--db", db), 2
    )


@pytest.mark.clause("SYS.dice")
def test_undo_seed_and_reveal(cli, db, game):
    gid, german, russian = game["game"], game["files"]["german"], game["files"]["russian"]
    as_german = ["--side", "german", "--token-file", german, "--db", db]
    seed = cli("game", "seed", gid, "luck", *as_german, "--json")
    assert seed.json["type"] == "seed"
    do(cli, db, game, "german", "phase", "next")
    undo = cli("game", "undo", gid, *as_german, "--json")
    assert undo.json["type"] == "undo"
    assert "SYS.dice" in one_line(cli("game", "undo", gid, *as_german), 1)
    cli("game", "reveal", gid, *as_german)
    both = cli(
        "game", "reveal", gid, "--side", "russian", "--token-file", russian, "--db", db, "--json"
    )
    assert both.json["also"] == ["reveal"]


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_export_verify_and_import(cli, db, game, tmp_path):
    do(cli, db, game, "german", "phase", "next")
    do(cli, db, game, "german", "fire", "pak", "--ammo", "AP")
    out = tmp_path / "log.json"
    assert cli("game", "export", game["game"], "--out", str(out), "--db", db).code == 0
    report = cli("game", "verify", str(out), "--json")
    assert report.code == 0 and report.json["ok"] and report.json["rolls"] == 1
    assert report.json["verdict"] == "partly verified"  # the seed is not revealed yet
    assert "1 rolls are UNVERIFIED" in cli("game", "verify", str(out)).out
    text = out.read_text()
    out.write_text(text.replace('"ammo":"AP"', '"ammo":"HE"', 1))
    line = one_line(cli("game", "verify", str(out)), 2)
    assert "entry 2" in line
    out.write_text(text)
    other = f"sqlite:///{tmp_path / 'other.db'}"
    imported = cli("game", "import", str(out), "--db", other, "--json").json
    assert imported["game"] == game["game"] and set(imported["tokens"]) == {"german", "russian"}
    assert "cannot be read" in one_line(cli("game", "verify", str(tmp_path / "none.json")), 2)


def test_status_and_log_read_for_people(cli, db, game):
    status = cli("game", "status", game["game"], "--db", db, "--side", "german")
    assert status.code == 0 and "Side record (C8.0)" in status.out and "german may" in status.out
    log = cli("game", "log", game["game"], "--db", db)
    assert log.code == 0 and "starts" in log.out


@dataclass(frozen=True)
class TourRun:
    code: int
    output: str  # what the CLI commands printed on stdout
    narration: str  # what the tour itself wrote on its console


@pytest.fixture(scope="module")
def tour_run(tmp_path_factory: pytest.TempPathFactory) -> TourRun:
    """One run of the tour at 80 columns, read by both tour tests (it plays three whole games).
    Its pictures go to a folder of this run, not the shared ``ordnance-tour/`` in /tmp."""
    sink, out = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.setenv("COLUMNS", "80")
        patch.setattr(tempfile, "tempdir", str(tmp_path_factory.mktemp("tour")))
        code = tour.run(Console(file=sink, width=80))
    return TourRun(code, out.getvalue(), sink.getvalue())


def test_the_tour_plays_all_three_games_and_shows_its_refusals(tour_run):
    # The tour wraps long lines for its reader: compare the words, not where lines break.
    output = " ".join(tour_run.output.split())
    narration = " ".join(tour_run.narration.split())
    assert tour_run.code == 0
    assert "VERIFIED: all" in output and "rolls were recomputed" in output
    assert "+2 dispersed smoke at 4I5" in output  # the D13 leg's SMOKE hinders the map's LOS
    for game in ("ASL", "Lock 'n Load Tactical", "Valor & Victory"):
        assert game in narration
    # Each refusal's one-line message is in the tour's own output, not only on stderr.
    shown = [
        line for line in tour_run.narration.splitlines() if "[refused" in line or "[error" in line
    ]
    # The C8 leg rolls fair dice: when the PzKpfw IVH's AP shot malfunctions it (an Original DR
    # of 12, 1 in 36), its SMOKE is refused by that first (C8.9), not by C8.5-phase. The shot's
    # events are the command's own output, not the tour's narration.
    phase = "C8.9-gt" if "pz4's Gun malfunctioned" in output else "C8.5-phase"
    for clause in (phase, "SYS.dice", "D13.2-once", "LNL.S-fire", "V&V r. 13.1"):
        assert f"refused by {cite(clause)}" in narration, shown
    # A long picture path may break anywhere: look for the file names with the breaks taken out.
    unbroken = "".join(output.split())
    for example in ("asl-d13-demo", "lnl-smoke-wp", "vv-hedgerow-ambush"):
        assert f"{example}.svg" in unbroken and "units" in output
    assert "Units" in output or "american units" in output  # the status tables


@pytest.mark.clause("C8.5-phase")
def test_the_tour_reads_at_80_columns(tour_run):
    """Explanations wrap at word boundaries; only JSON (long hex keys) may run past 80."""
    assert tour_run.code == 0
    lines = tour_run.output.splitlines()
    long = [line for line in lines if len(line) > 80 and not line.lstrip().startswith('"')]
    assert long == []
    assert any(line.startswith("Rules: C8.5 (C8.5-phase") for line in lines)
