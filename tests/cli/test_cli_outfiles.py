"""Every file a command writes: never over a database, a scenario or a file of another kind;
over one of its own kind only with --force; one line, exit 2, and the file untouched.

And every file a command reads: a regular file only (no FIFO that hangs, no /dev/zero that
never ends), bounded, and a name that cannot be a file name is one line, exit 2.
"""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import ordnance

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "asl-c8-demo.yaml"
SOURCE = Path(ordnance.__file__).resolve().parent  # src/ordnance of the code under test
MEMORY = 2 * 2**30  # address space of a CLI process under test


def one_line(result, code: int = 2) -> str:
    assert result.code == code, (result.code, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: ") and "Traceback" not in result.err
    return lines[0]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "g.db"


@pytest.fixture
def game(cli, db_path: Path) -> str:
    made = cli("game", "new", str(EXAMPLE), "--db", f"sqlite:///{db_path}", "--json")
    assert made.code == 0, made.err
    return str(made.json["game"])


def _digest(path: Path) -> bytes:
    return path.read_bytes()


# --- the reproductions of issue 26 ---------------------------------------------------------------


@pytest.mark.clause("SYS.record")
def test_export_over_the_game_database_is_refused(cli, game, db_path, monkeypatch):
    monkeypatch.chdir(db_path.parent)
    before = _digest(db_path)
    line = one_line(cli("game", "export", game, "--db", "sqlite:///g.db", "--out", "g.db"))
    assert line == "ordnance: g.db is a database; ordnance never writes over one"
    assert _digest(db_path) == before
    status = cli("game", "status", game, "--db", "sqlite:///g.db", "--json")
    assert status.code == 0, status.err
    # Not with --force either.
    forced = cli("game", "export", game, "--db", "sqlite:///g.db", "--out", "g.db", "--force")
    assert "never writes over one" in one_line(forced)
    assert _digest(db_path) == before
    assert sorted(p.name for p in db_path.parent.iterdir() if p.name.startswith(".")) == []


@pytest.mark.clause("SYS.record")
def test_a_map_picture_over_a_scenario_is_refused(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(EXAMPLE, tmp_path / "scenario.yaml")
    before = (tmp_path / "scenario.yaml").read_bytes()
    for extra in ((), ("--force",)):
        result = cli("map", "render", "asl-village", "--out", "scenario.yaml", *extra)
        assert one_line(result) == (
            "ordnance: scenario.yaml is a scenario; ordnance never writes over one"
        )
        assert (tmp_path / "scenario.yaml").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenario.yaml"]


@pytest.mark.clause("SYS.record")
def test_an_existing_file_of_the_same_kind_needs_force(cli, game, db_path, tmp_path):
    db = f"sqlite:///{db_path}"
    out = tmp_path / "log.json"
    assert cli("game", "export", game, "--db", db, "--out", str(out)).code == 0
    first = out.read_bytes()
    line = one_line(cli("game", "export", game, "--db", db, "--out", str(out)))
    assert line == f"ordnance: {out} exists; give --force to replace it"
    assert out.read_bytes() == first
    again = cli("game", "export", game, "--db", db, "--out", str(out), "--force", "--json")
    assert again.code == 0, again.err
    assert again.json["file"] == str(out) and out.read_bytes() == first


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize(
    "case",  # the file there, what it holds (None: an exported log), which command writes
    [
        ("log.json", None, "render"),  # an SVG over an exported log
        ("picture.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>", "export"),  # a log over SVG
        ("notes.txt", b"what I learnt this turn\n", "render"),  # a file of another kind
        ("map.yaml", (ROOT / "src/ordnance/asl/data/maps/asl-village.yaml").read_bytes(), "render"),
        ("picture.png", b"\x89PNG\r\n\x1a\n" + bytes(100), "export"),
    ],
)
def test_a_file_of_another_kind_is_never_replaced(cli, game, db_path, case):
    existing, content, command = case
    db = f"sqlite:///{db_path}"
    path = db_path.parent / existing
    if content is None:
        assert cli("game", "export", game, "--db", db, "--out", str(path)).code == 0
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    if command == "render":
        argv = ["map", "render", "asl-village", "--out", str(path), "--force"]
    else:
        argv = ["game", "export", game, "--db", db, "--out", str(path), "--force"]
    line = one_line(cli(*argv))
    assert line.startswith(f"ordnance: {path} is ") and "ordnance never writes over it" in line
    assert path.read_bytes() == before


@pytest.mark.clause("SYS.record")
def test_a_png_refused_leaves_the_svg_beside_it_unwritten(cli, tmp_path):
    (tmp_path / "v.png").write_bytes(b"holiday photo, not ordnance's\n")
    result = cli("map", "render", "asl-village", "--out", str(tmp_path / "v.svg"), "--png")
    assert "never writes over it" in one_line(result)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.png"]


@pytest.mark.clause("SYS.record")
def test_render_writes_new_files_and_replaces_its_own_with_force(cli, tmp_path):
    out = tmp_path / "v.svg"
    assert cli("map", "render", "asl-village", "--out", str(out)).code == 0
    assert out.read_bytes().lstrip().startswith((b"<svg", b"<?xml"))
    assert "--force" in one_line(cli("map", "render", "asl-village", "--out", str(out)))
    assert cli("map", "render", "asl-village", "--out", str(out), "--force").code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.svg"]


@pytest.mark.clause("SYS.record")
def test_output_that_is_not_a_regular_file_is_refused(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target, words in (
        (fifo, "is not a regular file (a FIFO)"),
        (Path("/dev/null"), "is not a regular file (a device)"),
        (tmp_path / "no-folder" / "x.svg", "cannot be written (no folder"),
    ):
        # A process of its own: writing into a FIFO with no reader would block this one.
        done = _run(["map", "render", "asl-village", "--out", str(target), "--force"], tmp_path)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def _by_email(invite: Path) -> list[str]:
    return ["--by-email", "german", "--invite", str(invite)]


@pytest.mark.clause("SYS.record")
def test_game_new_checks_the_invitation_file_before_making_the_game(cli, db_path, tmp_path):
    db = f"sqlite:///{db_path}"
    invite = tmp_path / "invite.json"
    invite.write_text("my own notes\n")
    result = cli(
        "game", "new", str(EXAMPLE), "--db", db, "--by-email", "german", "--invite", str(invite)
    )
    assert "never writes over it" in one_line(result)
    assert invite.read_text() == "my own notes\n"
    assert not db_path.exists()  # no game was made that nobody was invited to


@pytest.mark.clause("SYS.record")
def test_an_invitation_is_private_and_written_whole(cli, db_path, tmp_path):
    db = f"sqlite:///{db_path}"
    invite = tmp_path / "invite.json"
    made = cli(
        "game", "new", str(EXAMPLE), "--db", db, "--by-email", "german", "--invite", str(invite)
    )
    assert made.code == 0, made.err
    assert stat.S_IMODE(invite.stat().st_mode) == 0o600
    assert invite.read_text().lstrip().startswith("{")
    again = cli(
        "game", "new", str(EXAMPLE), "--db", db, "--by-email", "german", "--invite", str(invite)
    )
    assert "--force" in one_line(again)


@pytest.mark.clause("SYS.record")
def test_lnl_svg_is_checked_before_the_dice_are_rolled(cli, tmp_path):
    target = tmp_path / "mine.svg"
    target.write_text("<svg/>")
    argv = ["lnl", "shell", "lnl-farm", "--from", "A1", "--to", "C3", "--kind", "smoke"]
    result = cli(*argv, "--to-hit", "7", "--svg", str(target), "--json")
    assert "--force" in one_line(result) and result.out == ""
    assert target.read_text() == "<svg/>"


# --- readers --------------------------------------------------------------------------------------


def _fifo(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


@pytest.mark.clause("SYS.record")
def test_a_token_file_of_dev_zero_is_refused(tmp_path, game, db_path):
    db = f"sqlite:///{db_path}"
    argv = ["game", "undo", game, "--side", "german", "--token-file", "/dev/zero", "--db", db]
    done = _run(argv, tmp_path)  # a process of its own, its memory capped: a reader that reads
    assert done.returncode == 2, done.stderr  # /dev/zero to the end dies, not the test run
    assert "not a regular file (a device)" in done.stderr and "Traceback" not in done.stderr


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (30, 30))


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """As a process with a deadline and a memory cap: a reader that blocks on a FIFO, or reads
    /dev/zero to the end, would hang or exhaust the test run in-process."""
    env = {**os.environ, "PYTHONPATH": str(SOURCE.parent)}  # the ordnance this test imported
    return subprocess.run(
        [sys.executable, "-m", "ordnance.cli.app", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        preexec_fn=_limits,
    )


@pytest.mark.clause("SYS.record")
def test_fifos_as_scenario_token_or_log_never_hang(tmp_path, cli, game, db_path):
    db = f"sqlite:///{db_path}"
    fifo = _fifo(tmp_path, "pipe")
    for argv in (
        ["game", "new", str(fifo), "--db", db],
        ["game", "undo", game, "--side", "german", "--token-file", str(fifo), "--db", db],
        ["game", "verify", str(fifo)],
        ["game", "import", str(fifo), "--db", db],
        ["map", "render", str(fifo), "--out", str(tmp_path / "x.svg")],
    ):
        done = _run(argv, tmp_path)
        assert done.returncode == 2, (argv, done.stderr)
        assert "not a regular file (a FIFO)" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("key", ["name", "map"])
def test_a_lone_surrogate_in_a_scenario_is_one_line(cli, tmp_path, key):
    text = (ROOT / "examples" / "vv-hedgerow-ambush.yaml").read_text()
    lines = [
        f'{key}: "\\ud800"' if line.startswith(f"{key}:") else line for line in text.splitlines()
    ]
    scenario = tmp_path / "s.yaml"
    scenario.write_text("\n".join(lines) + "\n")
    db = tmp_path / "g.db"
    line = one_line(cli("game", "new", str(scenario), "--db", f"sqlite:///{db}"))
    assert "surrogate" in line
    assert not db.exists()


@pytest.mark.clause("SYS.record")
def test_a_file_name_that_cannot_be_one_is_one_line(cli, tmp_path):
    for argv in (
        ["map", "render", "map\ud800.yaml", "--out", str(tmp_path / "x.svg")],
        ["map", "render", "asl-village", "--out", str(tmp_path / "x\ud800.svg")],
    ):
        result = cli(*argv)
        assert result.code == 2 and "Traceback" not in result.err
        assert len(result.err.strip().splitlines()) == 1


@pytest.mark.clause("SYS.record")
def test_no_product_module_writes_a_file_by_hand():
    """Every user file goes through core.outfiles: a grep, so a new writer cannot slip past."""
    # The writer itself; the product's own files (key store, receipts, the AI tokens), written
    # atomically on their own; pictures.py fills the temporary files staging() hands it.
    allowed = {
        "core/outfiles.py",
        "game/keystore.py",
        "game/receipts.py",
        "game/ai_tokens.py",
        "cli/pictures.py",
    }
    found = []
    for path in SOURCE.rglob("*.py"):
        name = path.relative_to(SOURCE).as_posix()
        text = path.read_text()
        for needle in (".write_text(", ".write_bytes(", 'open("w', "open('w", "os.O_WRONLY"):
            if needle in text and name not in allowed:
                found.append((name, needle))
    assert found == []


@pytest.mark.clause("SYS.record")
def test_a_database_is_sniffed_by_its_header_not_its_name(cli, tmp_path):
    path = tmp_path / "game.svg"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    before = path.read_bytes()
    line = one_line(cli("map", "render", "asl-village", "--out", str(path), "--force"))
    assert line == f"ordnance: {path} is a database; ordnance never writes over one"
    assert path.read_bytes() == before
