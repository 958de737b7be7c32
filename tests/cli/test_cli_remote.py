"""``ordnance game ...`` for remote play: tokens off the command line, receipts, play by e-mail
through files (SYS.record, SYS.dice)."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "asl-c8-demo.yaml"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def game(cli, db):
    return cli("game", "new", str(EXAMPLE), "--db", db, "--json").json


def one_line(result, code):
    assert result.code == code and result.out == "", result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: ")
    return lines[0]


ACTS = [
    ("do", ["phase", "next"]),
    ("seed", ["luck"]),
    ("reveal", []),
]


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize(("verb", "rest"), ACTS)
def test_the_token_comes_from_a_file_the_environment_or_with_a_warning_the_line(
    cli, db, game, token_file, monkeypatch, *, verb, rest
):
    token = game["tokens"]["german"]
    args = ["game", verb, game["game"], *([] if verb == "do" else rest), "--side", "german"]
    tail = ["--db", db, "--json", *(rest if verb == "do" else [])]
    by_file = cli(*args, "--token-file", token_file(token), *tail)
    assert by_file.code == 0 and by_file.err == "", by_file.err
    monkeypatch.setenv("ORDNANCE_TOKEN", game["tokens"]["russian"])
    by_env = cli("game", verb, game["game"], *([] if verb == "do" else rest), "--side",
                 "russian", *tail)  # fmt: skip
    assert by_env.code in (0, 1) and "warning" not in by_env.err
    monkeypatch.delenv("ORDNANCE_TOKEN")
    on_line = cli(*args, "--token", token, *tail)
    assert "warning: --token on the command line can be read by other users" in on_line.err
    assert "--token-file" in one_line(cli(*args, *tail), 2)
    both = cli(*args, "--token", token, "--token-file", token_file(token), *tail)
    assert "not both" in one_line(both, 2)


@pytest.mark.clause("SYS.record")
def test_a_token_file_that_cannot_be_read_is_one_line(cli, db, game, tmp_path):
    args = ["game", "do", game["game"], "--side", "german", "--db", db]
    missing = cli(*args, "--token-file", str(tmp_path / "none"), "phase", "next")
    assert "cannot be read" in one_line(missing, 2)
    empty = tmp_path / "empty"
    empty.write_text("\n")
    assert "printable" in one_line(cli(*args, "--token-file", str(empty), "phase", "next"), 2)


@pytest.mark.clause("SYS.record")
def test_entries_deleted_from_the_database_are_refused_against_the_receipt(
    cli, db, game, token_file, tmp_path
):
    as_german = ["--side", "german", "--token-file", token_file(game["tokens"]["german"])]
    cli("game", "do", game["game"], *as_german, "--db", db, "phase", "next")
    shot = cli("game", "do", game["game"], *as_german, "--db", db, "--json", "fire", "pak",
               "--ammo", "AP")  # fmt: skip
    assert shot.code == 0
    out = tmp_path / "before.json"
    cli("game", "export", game["game"], "--out", str(out), "--db", db)
    engine = sa.create_engine(db)
    with engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM entries WHERE seq = 2"))
        connection.execute(sa.text("UPDATE games SET version = 2"))
    engine.dispose()
    line = one_line(cli("game", "status", game["game"], "--db", db), 2)
    assert "entry 2" in line and "deleted" in line
    short = tmp_path / "short.json"
    text = out.read_text().splitlines()
    # Cut after entry 1, which is no signed head: an unsigned tail, refused by itself.
    short.write_text("\n".join([*text[:2], text[2].rstrip(","), *text[-1:]]) + "\n")
    line = one_line(cli("game", "verify", str(short)), 2)
    assert "entry 1" in line and "not covered by a signature" in line
    # Cut at the signed start: only the receipt tells.
    short.write_text("\n".join([text[0], text[1].rstrip(","), *text[-1:]]) + "\n")
    line = one_line(cli("game", "verify", str(short)), 2)
    assert "entries were deleted" in line
    assert "entries were deleted" in one_line(cli("game", "import", str(short), "--db", db), 2)


@pytest.mark.clause("SYS.dice", "SYS.record")
def test_play_by_e_mail_through_the_cli(cli, tmp_path, token_file, monkeypatch):
    home = {side: tmp_path / side for side in ("german", "russian")}

    def as_player(side):
        monkeypatch.setenv("ORDNANCE_KEYS", str(home[side] / "keys"))
        monkeypatch.setenv("ORDNANCE_RECEIPTS", str(home[side] / "receipts"))
        return f"sqlite:///{tmp_path / side}.db"

    invite = tmp_path / "invite.json"
    db = as_player("german")
    made = cli("game", "new", str(EXAMPLE), "--by-email", "german", "--invite", str(invite),
               "--db", db)  # fmt: skip
    assert made.code == 0 and "Send" in made.out and oct(invite.stat().st_mode)[-3:] == "600"
    gid = made.out.split("New game ")[1].split()[0]
    db = as_player("russian")
    joined = cli("game", "join", str(invite), "--db", db, "--json")
    assert joined.code == 0 and set(joined.json["tokens"]) == {"russian"}
    back = tmp_path / "back.json"
    assert cli("game", "export", gid, "--out", str(back), "--db", db).code == 0
    db = as_player("german")
    taken = cli("game", "import", str(back), "--db", db, "--json")
    assert taken.code == 0 and taken.json["appended"] == 1
    german = token_file(made.out.split("german")[1].split()[1].strip("│ "))
    status = cli("game", "status", gid, "--db", db, "--json").json
    assert set(status["by_email"]["keys"]) == {"german", "russian"}
    do = ["game", "do", gid, "--side", "german", "--token-file", german, "--db", db]
    assert cli(*do, "phase", "next").code == 0
    proposed = cli(*do, "fire", "pak", "--ammo", "AP")
    assert proposed.code == 0 and "proposes 'fire pak --ammo AP'" in proposed.out
    out = tmp_path / "to-russian.json"
    cli("game", "export", gid, "--out", str(out), "--db", db)
    db = as_player("russian")
    answered = cli("game", "import", str(out), "--db", db)
    assert answered.code == 0 and "answers proposal" in answered.out
    cli("game", "export", gid, "--out", str(out), "--db", db, "--force")
    db = as_player("german")
    resolved = cli("game", "import", str(out), "--db", db)
    assert resolved.code == 0 and "To Hit DR (AP) for pak" in resolved.out
    assert "Send the game on" in resolved.out
