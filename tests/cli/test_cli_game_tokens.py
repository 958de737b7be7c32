"""``game new --tokens DIR``, ``game list`` and ``game undo`` in words (issue 29)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from ordnance.cli.output import wrap_sentences

ROOT = Path(__file__).resolve().parents[2]
C8 = ROOT / "examples" / "asl-c8-demo.yaml"
VV = ROOT / "examples" / "vv-hedgerow-ambush.yaml"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _games(db: str) -> int:
    import sqlite3  # noqa: PLC0415

    with sqlite3.connect(db.removeprefix("sqlite:///")) as connection:
        return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])


@pytest.mark.clause("SYS.record")
def test_new_writes_each_token_to_a_private_file_it_names(cli, db, tmp_path):
    folder = tmp_path / "c8"
    made = cli("game", "new", str(C8), "--db", db, "--tokens", str(folder))
    assert made.code == 0, made.err
    assert _mode(folder) == 0o700
    for side in ("german", "russian"):
        path = folder / f"{side}.token"
        assert _mode(path) == 0o600 and f"{side}'s token: {path} (mode 600" in made.out
        assert path.read_text(encoding="utf-8").strip() not in made.out  # never on screen
    game = made.out.split()[2]
    assert made.out.startswith(f"New game {game}\n")
    sent = cli("game", "do", game, "--side", "german", "--token-file", str(folder / "german.token"),
               "--db", db, "phase", "next")  # fmt: skip
    assert sent.code == 0, sent.err


@pytest.mark.clause("SYS.record")
def test_new_with_tokens_and_json_names_the_files_not_the_tokens(cli, db, tmp_path):
    made = cli("game", "new", str(VV), "--db", db, "--tokens", str(tmp_path / "vv"), "--json")
    assert made.code == 0, made.err
    assert "tokens" not in made.json
    assert made.json["token_files"] == {
        side: str(tmp_path / "vv" / f"{side}.token") for side in ("american", "german")
    }


@pytest.mark.clause("SYS.record")
def test_new_never_replaces_a_file_and_makes_no_game_when_it_would(cli, db, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "russian.token").write_text("another-games-token-0123456789\n", encoding="utf-8")
    for force in ([], ["--force"]):
        refused = cli("game", "new", str(C8), "--db", db, "--tokens", str(folder), *force)
        assert refused.code == 2 and refused.out == ""
        assert "russian.token" in refused.err and "never replaces" in refused.err
        assert len(refused.err.strip().splitlines()) == 1
    assert sorted(p.name for p in folder.iterdir()) == ["russian.token"]  # german's not written
    assert not Path(db.removeprefix("sqlite:///")).exists() or _games(db) == 0
    not_a_folder = cli(
        "game", "new", str(C8), "--db", db, "--tokens", str(folder / "russian.token")
    )
    assert not_a_folder.code == 2 and "is not a folder" in not_a_folder.err
    no_parent = cli("game", "new", str(C8), "--db", db, "--tokens", str(tmp_path / "a" / "b"))
    assert no_parent.code == 2 and "cannot be made" in no_parent.err


@pytest.mark.clause("SYS.record")
def test_tokens_printed_into_a_file_make_it_private(db, tmp_path):
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    out = tmp_path / "new.json"
    with out.open("w") as handle:  # the shell's umask: 0644 here
        os.chmod(out, 0o644)
        done = subprocess.run(
            [sys.executable, "-m", "ordnance.cli.app", "game", "new", str(C8), "--db", db,
             "--json"],
            stdout=handle, stderr=subprocess.PIPE, text=True, check=False,
            env={**os.environ, "ORDNANCE_KEYS": str(tmp_path / "keys"),
                 "ORDNANCE_RECEIPTS": str(tmp_path / "receipts")},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert set(json.loads(out.read_text())["tokens"]) == {"german", "russian"}
    assert _mode(out) == 0o600


@pytest.mark.clause("SYS.record")
def test_list_shows_what_each_game_is_and_where_it_stands(cli, db, tmp_path, token_file):
    c8 = cli("game", "new", str(C8), "--db", db, "--json").json
    vv = cli("game", "new", str(VV), "--db", db, "--json").json
    cli("game", "do", c8["game"], "--side", "german", "--token-file",
        token_file(c8["tokens"]["german"]), "--db", db, "phase", "next")  # fmt: skip
    listed = cli("game", "list", "--db", db, "--json").json["games"]
    by_id = {row["game"]: row for row in listed}
    row = by_id[c8["game"]]
    assert row["scenario"] == "Ammunition at the crossroads (C8 demo)"
    assert (row["ruleset"], row["sides"]) == ("asl", ["german", "russian"])
    assert (row["turn"], row["player"], row["phase"]) == (1, "german", "PFPh")
    assert row["to_move"] == "german" and not row["over"] and row["changed"].startswith("20")
    assert by_id[vv["game"]]["ruleset"] == "vv" and by_id[vv["game"]]["to_move"] == "american"
    os.environ["COLUMNS"] = "80"
    wrap_sentences(True)
    try:
        text = cli("game", "list", "--db", db).out
    finally:
        wrap_sentences(None)
        del os.environ["COLUMNS"]
    lines = text.splitlines()
    assert lines[0].split() == ["game", "rules", "turn,", "phase", "to", "move", "last",
                                "change", "(UTC)"]  # fmt: skip
    assert all(len(line) <= 80 for line in lines)
    assert any(line.startswith(c8["game"]) and "1 german PFPh" in line for line in lines)
    assert any("Hedgerow ambush (V&V AP fire demo): american v german" in line for line in lines)
    empty = cli("game", "list", "--db", f"sqlite:///{tmp_path / 'none.sqlite3'}")
    assert empty.code == 0 and "No games" in empty.out


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_undo_says_what_it_took_back(cli, db, token_file):
    made = cli("game", "new", str(C8), "--db", db, "--json").json
    german = ("--side", "german", "--token-file", token_file(made["tokens"]["german"]), "--db", db)
    assert cli("game", "do", made["game"], *german, "phase", "next").code == 0
    undone = cli("game", "undo", made["game"], *german)
    assert undone.code == 0, undone.err
    said = " ".join(undone.out.split())
    assert "german took back entry 1: ended the phase" in said and "undoes" not in said
    assert cli("game", "do", made["game"], *german, "phase", "next").code == 0
    as_json = cli("game", "undo", made["game"], *german, "--json").json
    assert as_json["undone"]["seq"] == 3
    assert as_json["undone"]["words"].startswith("ended the phase")
    log = cli("game", "log", made["game"], "--db", db).out
    assert "took back entry 1 (phase next)" in " ".join(log.split())
