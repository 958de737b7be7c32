"""The optional extras (postgres, png, web): one line naming the extra when one is missing, and
no required command imports any of them.

A missing module is simulated in-process with ``sys.modules[name] = None`` (Python then refuses
to import it, as if it were not installed). tests/test_fresh_install.py checks the same against
a real venv without the extras.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ordnance.cli import app as cli_app
from ordnance.core import extras
from ordnance.core.maps import png

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "asl-c8-demo.yaml"


def missing(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Make ``import NAME`` fail for each name, as when the package is not installed."""
    for name in names:
        for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            monkeypatch.delitem(sys.modules, loaded)
        monkeypatch.setitem(sys.modules, name, None)


def one_line(result, code: int = 2) -> str:
    assert result.code == code and result.out == "", (result.code, result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ordnance: "), result.err
    assert "Traceback" not in result.err
    return lines[0]


# --- png ---------------------------------------------------------------------------------------


def test_png_without_cairosvg_or_rsvg_names_the_png_extra(cli, tmp_path, monkeypatch):
    missing(monkeypatch, "cairosvg")
    monkeypatch.setenv("PATH", str(tmp_path))  # no rsvg-convert either
    out = tmp_path / "v.png"
    line = one_line(cli("map", "render", "vv-hedgerows", "--out", str(out)))
    assert "needs the 'png' extra" in line and "pip install 'ordnance[png]'" in line
    # The SVG is written all the same, and the message says so.
    assert f"wrote {tmp_path / 'v.svg'} only" in line and (tmp_path / "v.svg").is_file()
    assert not out.exists()


def test_cairosvg_without_the_cairo_library_says_which_library(cli, tmp_path, monkeypatch):
    real = png.importlib.import_module

    def no_cairo(name: str, *args: object) -> object:
        if name == "cairosvg":
            raise OSError("no library called 'cairo-2' was found")
        return real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(png.importlib, "import_module", no_cairo)
    monkeypatch.setenv("PATH", str(tmp_path))
    line = one_line(cli("map", "render", "lnl-farm", "--out", str(tmp_path / "f.svg"), "--png"))
    assert "cairosvg is installed but the cairo library is not" in line and "libcairo2" in line


def test_cairosvg_comes_first_and_writes_a_png(cli, tmp_path, monkeypatch):
    pytest.importorskip("cairosvg", reason="the png extra is not installed")
    fake = tmp_path / "bin" / "rsvg-convert"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent))
    found = png.find_converter()
    assert found is not None and found.name == "cairosvg"
    result = cli("map", "render", "lnl-farm", "--out", str(tmp_path / "farm.png"), "--json")
    assert result.code == 0, result.err
    assert result.json["converter"] == "cairosvg"
    assert (tmp_path / "farm.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rsvg_convert_is_the_fallback_and_its_failure_is_one_line(cli, tmp_path, monkeypatch):
    missing(monkeypatch, "cairosvg")
    fake = tmp_path / "rsvg-convert"
    fake.write_text('#!/bin/sh\necho "rsvg-convert: cannot read it" >&2\nexit 3\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    found = png.find_converter()
    assert found is not None and found.name == "rsvg-convert"
    line = one_line(cli("map", "render", "lnl-farm", "--out", str(tmp_path / "f.png")))
    assert "rsvg-convert: cannot read it" in line


# --- postgres ----------------------------------------------------------------------------------


def test_a_postgresql_url_without_psycopg_names_the_postgres_extra(cli, monkeypatch):
    missing(monkeypatch, "psycopg")
    line = one_line(cli("game", "list", "--db", "postgresql://ann:s3cret@127.0.0.1:1/games"))
    assert "PostgreSQL needs the 'postgres' extra" in line
    assert "pip install 'ordnance[postgres]'" in line and "s3cret" not in line


def test_another_missing_driver_still_names_its_own_package(cli, monkeypatch):
    missing(monkeypatch, "pymysql")
    line = one_line(cli("game", "list", "--db", "mysql+pymysql://u@127.0.0.1:1/games"))
    assert "pip install pymysql" in line and "extra" in line


# --- web ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["fastapi", "uvicorn", "jinja2", "python_multipart"])
def test_serve_without_the_web_stack_names_the_web_extra(cli, tmp_path, monkeypatch, module):
    missing(monkeypatch, module)
    line = one_line(cli("serve", "--db", str(tmp_path / "g.sqlite3"), "--port", "1"))
    assert line == (
        f"ordnance: ordnance serve needs the 'web' extra (no module {module!r}):"
        " pip install 'ordnance[web]'"
    )
    assert not (tmp_path / "g.sqlite3").exists()


def test_an_extra_imported_where_no_check_named_it_is_still_one_line(cli, tmp_path, monkeypatch):
    def broken(*_args: object, **_kwargs: object) -> None:
        raise ModuleNotFoundError("No module named 'psycopg'", name="psycopg")

    monkeypatch.setattr(png, "find_converter", broken)
    line = one_line(cli("map", "render", "lnl-farm", "--out", str(tmp_path / "x.png")))
    assert "needs the 'postgres' extra" in line and "pip install 'ordnance[postgres]'" in line


def test_an_installed_but_broken_extra_is_not_called_missing(monkeypatch):
    # fastapi is present but one of its own imports fails: that is a fault to show, not advice.
    def broken(name: str) -> None:
        raise ModuleNotFoundError("No module named 'somethingelse'", name="somethingelse")

    monkeypatch.setattr(extras.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="somethingelse"):
        extras.require("web")


def test_an_import_error_of_no_extra_stays_an_internal_error(monkeypatch):
    assert cli_app._missing_extra(ModuleNotFoundError("x", name="yaml")) is None
    assert cli_app._missing_extra(ValueError("psycopg")) is None
    line = cli_app._missing_extra(ModuleNotFoundError("x", name="starlette.requests"))
    assert line == (
        "ordnance serve needs the 'web' extra (no module 'starlette.requests'):"
        " pip install 'ordnance[web]'"
    )


# --- nothing required imports an extra ---------------------------------------------------------


def test_the_required_commands_import_no_extra(tmp_path):
    """asl, lnl, vv, map and a SQLite game, in one fresh interpreter: no extra's module loaded."""
    db = tmp_path / "g.sqlite3"
    code = f"""
import contextlib, io, json, os, sys
from ordnance.cli.app import main
def run(*argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0, argv
    return out.getvalue()
run("asl", "ammo", "A5(4)/6(5)", "--date", "1945-03", "--json")
run("lnl", "odds", "wp-check", "--closed", "--json")
run("vv", "odds", "--apfp", "12", "--drm", "2", "--json")
run("map", "los", "asl-village", "4E5", "4M5", "--json")
run("map", "render", "vv-hedgerows", "--out", {str(tmp_path / "v.svg")!r})
made = json.loads(run("game", "new", {str(EXAMPLE)!r}, "--db", {str(db)!r}, "--json"))
os.environ["ORDNANCE_TOKEN"] = made["tokens"]["german"]
run("game", "do", made["game"], "--side", "german", "--db", {str(db)!r}, "phase", "next")
run("game", "status", made["game"], "--db", {str(db)!r}, "--json")
extras = {sorted(m for names in extras.MODULES.values() for m in names)!r}
print(sorted(m for m in sys.modules if m.split(".")[0] in extras))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
