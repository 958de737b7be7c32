"""``ordnance game ...`` against the heads the key store keeps (SYS.record): a database cut
short, and an exported file that stops before a head this key store kept, are refused in one
line (exit 2), even for a player whose client kept no receipt (a web player's)."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from ordnance.game.service import GameService

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "asl-c8-demo.yaml"
SENTENCE = "this game's log was rolled back or forked at entry"


def one_line(result, code):
    assert result.code == code and result.out == "", (result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: ")
    return lines[0]


@pytest.fixture
def played(cli, tmp_path, token_file):
    """A game the CLI made, exported once, then moved on through the service (a web player:
    no receipt of the later entries): (db, game, the early file, the version now)."""
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    made = cli("game", "new", str(EXAMPLE), "--db", db, "--json").json
    game, german = made["game"], made["tokens"]["german"]
    as_german = ["--side", "german", "--token-file", token_file(german), "--db", db]
    assert cli("game", "do", game, *as_german, "phase", "next").code == 0
    early = tmp_path / "early.json"
    assert cli("game", "export", game, "--out", str(early), "--db", db).code == 0
    service = GameService(db)
    try:
        service.do(game, "german", german, ["fire", "pak", "--ammo", "AP"])
        version = service.do(game, "german", german, ["phase", "next"]).version
    finally:
        service.close()
    return db, game, early, version


@pytest.mark.clause("SYS.record")
def test_verify_fails_a_file_that_ends_before_the_kept_head(cli, played):
    _db, game, early, version = played
    # The file holds entries 0 and 1; the key store kept entry 3.
    line = one_line(cli("game", "verify", str(early)), 2)
    assert f"game {game}: {SENTENCE} 2: the file ends at entry 1, but entry {version - 1}" in line
    assert line.endswith(f"({early})")
    report = cli("game", "verify", str(early), "--json")
    assert report.code == 2 and report.json["verdict"] == "failed"
    assert f"{SENTENCE} 2" in report.json["explanation"] and report.json["failed_entry"] == 2


@pytest.mark.clause("SYS.record")
def test_import_refuses_a_file_that_ends_before_the_kept_head(cli, played, tmp_path):
    _db, game, early, version = played
    elsewhere = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    line = one_line(cli("game", "import", str(early), "--db", elsewhere), 2)
    assert f"game {game}: {SENTENCE} 2: the file ends at entry 1, but entry {version - 1}" in line
    assert game not in cli("game", "list", "--db", elsewhere).out


@pytest.mark.clause("SYS.record")
def test_a_database_cut_short_is_one_line_on_every_game_command(cli, played, token_file):
    db, game, _early, version = played
    engine = sa.create_engine(db)
    with engine.begin() as connection:
        connection.execute(sa.text(f"DELETE FROM entries WHERE seq = {version - 1}"))
        connection.execute(sa.text(f"UPDATE games SET version = {version - 1}"))
    engine.dispose()
    expected = f"game {game}: {SENTENCE} {version - 1}"
    assert expected in one_line(cli("game", "status", game, "--db", db), 2)
    assert expected in one_line(cli("game", "log", game, "--db", db), 2)
    token = token_file("not-even-a-token")  # the log is refused before the token is looked at
    do = cli("game", "do", game, "--side", "german", "--token-file", token, "--db", db,
             "phase", "next")  # fmt: skip
    assert expected in one_line(do, 2)
