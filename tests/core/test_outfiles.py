"""core.outfiles: what a file is, what may replace it, and that a failed write changes nothing."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.core import outfiles
from ordnance.core.outfiles import OutputRefused, check_output, sniff, staging, write_output

ROOT = Path(__file__).resolve().parents[2]

# One real sample of each kind an existing file may be, and what sniff must call it.
SAMPLES: dict[str, bytes] = {
    "svg": b'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>',
    "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "log": b'{"format":"ordnance-log","version":3,"game":"abc",\n',
    "invitation": b'{\n "format": "ordnance-invitation",\n "version": 1\n}\n',
    "scenario": (ROOT / "examples" / "asl-c8-demo.yaml").read_bytes(),
    "map": (ROOT / "src" / "ordnance" / "asl" / "data" / "maps" / "asl-village.yaml").read_bytes(),
    "token": b"Zt2mJ0bq7c8cW2nq1Yl9-0jK3_qxq1vUfW6tY0yVb8M\n",
    "empty": b"",
    "other": b"a letter to my opponent\n",
}
WRITTEN: tuple[outfiles.Kind, ...] = ("log", "svg", "png", "scenario", "token", "invitation")
CONTENT = {kind: SAMPLES.get(kind, b"x") for kind in WRITTEN}


def _database(path: Path) -> bytes:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE moves (n)")
    connection.commit()
    connection.close()
    return path.read_bytes()


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_kind_is_told_by_its_first_bytes(kind):
    assert sniff(SAMPLES[kind]) == kind


@pytest.mark.clause("SYS.record")
def test_a_real_database_and_its_journal_are_databases(tmp_path):
    assert sniff(_database(tmp_path / "x.svg")[:100]) == "database"
    assert sniff(bytes.fromhex("d9d505f920a163d7") + bytes(20)) == "database"


@pytest.mark.clause("SYS.record")
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    existing=st.sampled_from([*sorted(SAMPLES), "database"]),
    kind=st.sampled_from(WRITTEN),
    force=st.booleans(),
)
def test_a_file_is_replaced_only_by_its_own_kind_with_force(
    tmp_path_factory, existing, kind, force
):
    folder = tmp_path_factory.mktemp("out")
    target = folder / "target"
    if existing == "database":
        before = _database(target)
    else:
        target.write_bytes(SAMPLES[existing])
        before = SAMPLES[existing]
    family = {"invitation": "log"}
    same = family.get(existing, existing) == family.get(kind, kind)
    allowed = force and existing not in ("database", "scenario") and (existing == "empty" or same)
    try:
        write_output(target, CONTENT[kind], kind, force=force)
    except OutputRefused as refused:
        assert not allowed, str(refused)
        assert target.read_bytes() == before
        assert str(refused).startswith(f"{target} ") and "\n" not in str(refused)
    else:
        assert allowed
        assert target.read_bytes() == CONTENT[kind]
    assert [p.name for p in folder.iterdir()] == ["target"]  # no temporary file left behind


@pytest.mark.clause("SYS.record")
def test_a_failed_write_leaves_the_target_and_no_temporary(tmp_path):
    target = tmp_path / "map.svg"
    target.write_text("<svg>mine</svg>")
    with pytest.raises(RuntimeError), staging(target, "svg", force=True) as part:
        part.write_text("<svg>half")
        raise RuntimeError("the drawing failed")
    assert target.read_text() == "<svg>mine</svg>"
    assert [p.name for p in tmp_path.iterdir()] == ["map.svg"]


@pytest.mark.clause("SYS.record")
def test_a_file_that_appears_meanwhile_is_not_replaced(tmp_path):
    target = tmp_path / "log.json"
    with pytest.raises(OutputRefused, match="exists; give --force"), staging(target, "log") as part:
        part.write_text("new")
        target.write_text("written by someone else meanwhile")
    assert target.read_text() == "written by someone else meanwhile"
    assert [p.name for p in tmp_path.iterdir()] == ["log.json"]


@pytest.mark.clause("SYS.record")
def test_a_secret_is_mode_600_from_its_first_byte(tmp_path, monkeypatch):
    modes: list[int] = []
    real_open = os.open

    def watching(path, flags, mode=0o777, *args, **kwargs):
        if flags & os.O_CREAT:
            modes.append(mode)
        return real_open(path, flags, mode, *args, **kwargs)

    monkeypatch.setattr(outfiles.os, "open", watching)
    write_output(tmp_path / "german.token", "secret\n", "token", private=True)
    assert modes == [0o600]
    assert stat.S_IMODE((tmp_path / "german.token").stat().st_mode) == 0o600


@pytest.mark.clause("SYS.record")
def test_a_link_is_followed_to_its_file(tmp_path):
    real = tmp_path / "real.svg"
    real.write_text("<svg/>")
    (tmp_path / "link.svg").symlink_to(real)
    write_output(tmp_path / "link.svg", "<svg>new</svg>", "svg", force=True)
    assert real.read_text() == "<svg>new</svg>" and (tmp_path / "link.svg").is_symlink()


@pytest.mark.clause("SYS.record")
def test_not_a_file_is_refused(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OutputRefused, match=r"not a regular file \(a FIFO\)"):
        check_output(tmp_path / "fifo", "svg", force=True)
    with pytest.raises(OutputRefused, match="is a folder"):
        check_output(tmp_path, "svg", force=True)
    with pytest.raises(OutputRefused, match="not a possible file name"):
        check_output(tmp_path / "x\ud800.svg", "svg")
