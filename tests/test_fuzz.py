"""Fuzzing every command and every file reader: bad input is one line, exit 1 or 2, nothing
changed (SYS.cite), and each bad input once reported against the program stays fixed.

- ``test_any_command_line``: hypothesis builds command lines for every command of the CLI (the
  tree is read from the Typer app, so a new command is fuzzed without a change here), its
  options filled from a pool of awkward values (huge and long numbers, full-width digits,
  empty text, labels of the wrong kind, paths to damaged files) and random text.
- ``test_any_file``: the readers of scenario, map, log and counter-data files get damaged
  copies of real files (cut short, a byte changed, awkward text put in) and random bytes.
- ``test_reported_bad_input``: each bad input of issue 10, as a regression case.

Every call runs in-process through ``ordnance.cli.app.main`` (with $ORDNANCE_TRACEBACK set by
the test conftest, an error the CLI did not expect fails the test with its traceback); a few
regression cases also run as a real process, which must answer within 10 seconds. Each call
gets 10 seconds of CPU time (a hang guard, not a timing). A failing call must leave the game
database byte for byte as it was.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.cli.app import app, load_commands, main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
ASL_SCENARIO = EXAMPLES / "asl-c8-demo.yaml"
VV_SCENARIO = EXAMPLES / "vv-hedgerow-ambush.yaml"
MAP = ROOT / "src" / "ordnance" / "asl" / "data" / "maps" / "asl-village.yaml"
CPU_SECONDS = 10
# More examples for a longer hunt: ORDNANCE_FUZZ_EXAMPLES=5000 pytest tests/test_fuzz.py
EXAMPLES_PER_RUN = int(os.environ.get("ORDNANCE_FUZZ_EXAMPLES", "250"))
DEEP = 20_000


class Hang(Exception):
    """A call used more than CPU_SECONDS of CPU time."""


@contextlib.contextmanager
def cpu_guard() -> Iterator[None]:
    def stop(_signum: int, _frame: Any) -> None:
        raise Hang(f"more than {CPU_SECONDS} s of CPU time")

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, CPU_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def run(argv: list[str]) -> tuple[int, str, str]:
    """``ordnance ARGV`` in-process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with cpu_guard(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def database_digest(path: Path) -> str:
    """Every row of every table, in order: equal digests mean an unchanged game database."""
    if not path.exists():
        return "absent"
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        digest = hashlib.sha256()
        tables = connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
        for (table,) in sorted(tables.fetchall()):
            rows = connection.execute(f'SELECT * FROM "{table}"').fetchall()
            digest.update(f"{table}{sorted(rows, key=repr)}".encode())
        return digest.hexdigest()
    finally:
        connection.close()


def assert_failed_cleanly(code: int, err: str, codes: tuple[int, ...] = (1, 2)) -> str:
    assert code in codes, (code, err)
    # A warning is not the error (--token on a command line prints one): one error line.
    lines = [line for line in err.splitlines() if not line.startswith("ordnance: warning: ")]
    assert len(lines) == 1 and lines[0].startswith("ordnance: "), err
    assert "Traceback" not in err
    return lines[0]


def assert_answered(code: int, err: str) -> None:
    """Any answer but a crash: exit 0 (the input happened to make sense), or one line."""
    assert "Traceback" not in err
    if code != 0:
        assert_failed_cleanly(code, err)


# --- the world the fuzzer plays in: a database with games, and damaged files ------------------


class World:
    """A folder with a game database (one ASL and one V&V game) and awkward files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.db_path = folder / "games.sqlite3"
        self.db = str(self.db_path)
        code, out, err = run(["game", "new", str(ASL_SCENARIO), "--db", self.db, "--json"])
        assert code == 0, err
        self.asl = json.loads(out)
        code, out, err = run(["game", "new", str(VV_SCENARIO), "--db", self.db, "--json"])
        assert code == 0, err
        self.vv = json.loads(out)
        code, out, err = run(
            ["game", "export", self.asl["game"], "--db", self.db, "--out", str(folder / "log")]
        )
        assert code == 0, err
        self.log_text = (folder / "log").read_text()
        self.files = self._awkward_files()
        # The fuzzer reads copies: no path it is given is a file of the checkout (a command
        # that wrote where it should not would otherwise destroy the project's own files).
        self.scenario = folder / "scenario.yaml"
        self.map = folder / "map.yaml"
        shutil.copyfile(ASL_SCENARIO, self.scenario)
        shutil.copyfile(MAP, self.map)
        (folder / "out").mkdir()

    def _log_with(self, entry: str) -> str:
        """The world's exported log, its one entry replaced by ``entry``."""
        header = self.log_text.split("\n", 1)[0]
        return f"{header}\n{entry}\n]}}\n"

    def _awkward_files(self) -> dict[str, str]:
        f = self.folder
        files = {
            "random.db": os.urandom(8192),
            "text.db": b"ordnance is not a database\n" * 10,
            "truncated.db": self.db_path.read_bytes()[:4096],
            "deep.yaml": ("sides: " + "[" * DEEP + "]" * DEEP + "\n").encode(),
            "deepmap.yaml": (
                "name: x\ngame: asl\ngrid: " + "[" * DEEP + "]" * DEEP + "\n"
            ).encode(),
            "bomb.yaml": _alias_bomb().encode(),
            "huge-grid.yaml": b"name: x\ngame: lnl\ngrid: {columns: 100000, rows: 100000}\n",
            "deep.json": self._log_with("[" * DEEP + "]" * DEEP).encode(),
            "digits.json": self._log_with('{"seq": ' + "9" * 5000 + "}").encode(),
            "binary.bin": bytes(range(256)) * 4,
            "empty": b"",
        }
        for name, data in files.items():
            (f / name).write_bytes(data)
        (f / "folder").mkdir(exist_ok=True)
        return {name: str(f / name) for name in [*files, "folder"]}


def _alias_bomb() -> str:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 12)]
    return "\n".join(lines) + "\nsides: *a11\nruleset: asl\nname: bomb\n"


@pytest.fixture(scope="module")
def _world() -> Iterator[World]:
    folder = Path(tempfile.mkdtemp(prefix="ordnance-fuzz-"))
    here = Path.cwd()
    saved = {name: os.environ.get(name) for name in _HOME}
    os.chdir(folder)  # files a fuzzed --out names land here
    try:
        os.environ.update(_home(folder))
        yield World(folder)
    finally:
        os.chdir(here)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(folder, ignore_errors=True)


_HOME = ("ORDNANCE_KEYS", "ORDNANCE_RECEIPTS")


def _home(folder: Path) -> dict[str, str]:
    """The key store and receipts of the world's games (the service's secrets live there)."""
    return {"ORDNANCE_KEYS": str(folder / "keys"), "ORDNANCE_RECEIPTS": str(folder / "receipts")}


@pytest.fixture
def world(_world: World, monkeypatch: pytest.MonkeyPatch) -> World:
    """The world, with its key store and receipts (each test otherwise gets empty ones)."""
    for name, value in _home(_world.folder).items():
        monkeypatch.setenv(name, value)
    return _world


# --- every command of the CLI ------------------------------------------------------------------


# `serve` runs until stopped (tests/web starts it on its own terms); fuzzing it would only wait.
UNFUZZED = [["serve"]]
# --server talks HTTP: the fuzzer names only this machine (a closed port) or malformed URLs, so
# that no fuzzed value sends traffic anywhere else.
SERVERS = ["http://127.0.0.1:9", "", "127.0.0.1", "ftp://127.0.0.1/", "http://", "http://[::1"]


def _commands() -> list[tuple[list[str], list[Any]]]:
    """Every leaf command: its words and its parameters (Typer's own objects)."""
    found: list[tuple[list[str], list[Any]]] = []

    def walk(command: Any, words: list[str]) -> None:
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for name, sub in sorted(subcommands.items()):
                walk(sub, [*words, name])
        elif words and words not in UNFUZZED:
            found.append((words, list(command.params)))

    load_commands()  # the CLI imports a command's module only when it runs; here, all of them
    walk(typer.main.get_command(app), [])
    return found


COMMANDS = _commands()
GROUP_SETTINGS = {"asl": "theater_e", "lnl": "parity_of", "vv": "low_roll"}

NASTY = [
    "",
    " ",
    "0",
    "-1",
    "1e308",
    "nan",
    "inf",
    "9" * 5000,
    "-" + "9" * 30,
    "１２",
    "٣",
    "²",
    "4G5",
    "4G" + "9" * 5000,
    "C7",
    "1,-2,1",
    "GG10",
    "1944-1",
    "１９４４-０６",
    "1944-06",
    "999",
    "75L",
    "A5(4)/6(5) s8",
    "[" * 200,
    "x" * 300,
    "asl-village",
    "lnl-farm",
    "german",
    "Mars",
    "PFPh",
    "../..",
    "\x00",
    "é",
    "mysql://u:hunter2@h/db",
    "postgresql://u:hunter2@h:notaport/db",
]


# The options naming a file a command writes: the fuzzer gives them new files under out/ (or
# standard output), never a path it reads from. (tests/cli/test_cli_outfiles.py is where
# writing over existing files is tried.)
WRITTEN = ("--out", "--svg", "--invite")


def written_paths(world: World) -> st.SearchStrategy[str]:
    names = st.from_regex(r"[a-z]{1,8}(\.(svg|png|json|yaml|db|txt))?", fullmatch=True)
    return st.one_of(st.just("-"), names.map(lambda name: str(world.folder / "out" / name)))


@st.composite
def command_lines(draw: st.DrawFn, world: World) -> list[str]:
    words, params = draw(st.sampled_from(COMMANDS))
    paths = [*world.files.values(), world.scenario, world.map, world.folder / "log"]
    games = [world.asl["game"], world.vv["game"], "nosuchgame"]
    value = st.one_of(
        st.sampled_from(NASTY),
        st.sampled_from([str(p) for p in paths]),
        st.sampled_from(games),
        st.text(max_size=12),
        st.integers(-(10**12), 10**12).map(str),
    )
    argv = list(words)
    group = words[0]
    if group in GROUP_SETTINGS and draw(st.booleans()):
        argv[1:1] = ["--set", f"{GROUP_SETTINGS[group]}={draw(value)}"]
    for param in params:
        is_option = param.param_type_name == "option"
        wanted = param.required or not is_option or draw(st.booleans())
        if not wanted:
            continue
        if is_option and param.opts[0] == "--db":
            argv += ["--db", draw(st.sampled_from([world.db, world.db, world.files["random.db"]]))]
            continue
        if is_option and param.opts[0] == "--server":
            argv += ["--server", draw(st.sampled_from(SERVERS))]
            continue
        if is_option and param.opts[0] in WRITTEN:
            argv += [param.opts[0], draw(written_paths(world))]
            continue
        if is_option and param.is_flag:
            argv.append(param.opts[0])
            continue
        if is_option:
            argv.append(param.opts[0])
        count = max(param.nargs, 1) if param.nargs != -1 else draw(st.integers(1, 3))
        argv += [draw(value) for _ in range(count)]
    return argv


@settings(max_examples=EXAMPLES_PER_RUN, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_command_line(world, data):
    argv = data.draw(command_lines(world), label="argv")
    before = database_digest(world.db_path)
    code, _, err = run(argv)
    assert_answered(code, err)
    if code != 0:
        assert database_digest(world.db_path) == before, "a failing command changed the database"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_fuzzed_command_line_names_a_file_of_the_checkout(world, data):
    """The fuzzer once gave ``--out`` the bundled map and a run of ``make test`` drew an SVG over
    it: every path it gives, read or written, lies in its own folder."""
    argv = data.draw(command_lines(world), label="argv")
    for word in argv:
        if os.sep not in word:
            continue
        try:
            resolved = Path(word).resolve()
        except (OSError, ValueError):  # not a possible path (a NUL, a lone surrogate)
            continue
        assert not resolved.is_relative_to(ROOT), argv


# --- every file reader ---------------------------------------------------------------------------


def _readers(world: World, path: str) -> list[list[str]]:
    """The commands that read a user's file, each reading ``path``."""
    return [
        ["game", "new", path, "--db", world.db],
        ["map", "los", path, "4G5", "4K5"],
        ["map", "render", path, "--out", str(world.folder / "fuzz.svg"), "--force"],
        ["lnl", "shell", path, "--from", "A1", "--to", "C3", "--kind", "smoke", "--to-hit", "7"],
        ["game", "verify", path],
        ["game", "import", path, "--db", world.db],
    ]


@st.composite
def damaged(draw: st.DrawFn, originals: list[bytes]) -> bytes:
    """A real file cut short, with bytes changed, or with awkward text put in; or noise."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=300))
    data = bytearray(draw(st.sampled_from(originals)))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["cut", "flip", "insert"]))
        if how == "cut":
            del data[at:]
        elif how == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        else:
            piece = draw(st.sampled_from([*NASTY, "\n", ": ", "- ", "{", "&a *a", "!!python"]))
            data[at:at] = piece.encode()
    return bytes(data)


@settings(
    max_examples=EXAMPLES_PER_RUN // 2, deadline=None, suppress_health_check=list(HealthCheck)
)
@given(data=st.data())
def test_any_file(world, data):
    originals = [
        ASL_SCENARIO.read_bytes(),
        VV_SCENARIO.read_bytes(),
        MAP.read_bytes(),
        world.log_text.encode(),
    ]
    content = data.draw(damaged(originals), label="file")
    path = world.folder / "fuzzed-file"
    path.write_bytes(content)
    argv = data.draw(st.sampled_from(_readers(world, str(path))), label="argv")
    before = database_digest(world.db_path)
    code, _, err = run(argv)
    assert_answered(code, err)
    if code != 0:
        assert database_digest(world.db_path) == before


def test_a_counter_data_file_nested_too_deep_is_one_line(world, tmp_path):
    data = tmp_path / "vasl"
    (data / "vehicles").mkdir(parents=True)
    (data / "vehicles" / "german.json").write_text("[" * DEEP + "]" * DEEP)
    args = ["--vasl-templates", str(data), "--nationality", "german", "--date", "1944-06"]
    code, _, err = run(["asl", "roster", *args])
    assert "nested deeper" in assert_failed_cleanly(code, err, (2,))


# --- each bad input of issue 10 -------------------------------------------------------------------


def _case(world: World, name: str) -> tuple[list[str], str, int]:
    """The command line of a reported case, a word its one line must hold, its exit code."""
    f, db, asl, vv = world.files, world.db, world.asl, world.vv
    german = ["--side", "german", "--token", asl["tokens"]["german"]]
    cases: dict[str, tuple[list[str], str, int]] = {
        "random database": (["game", "list", "--db", f["random.db"]], "not a database", 2),
        "text database": (["game", "list", "--db", f["text.db"]], "not a database", 2),
        "truncated database": (
            ["game", "status", asl["game"], "--db", f["truncated.db"]],
            "database",
            2,
        ),
        "folder as database": (["game", "list", "--db", f["folder"]], "database", 2),
        "mysql": (["game", "list", "--db", "mysql://u:hunter2@h/db"], "not installed", 2),
        "oracle": (["game", "list", "--db", "oracle://u:hunter2@h/db"], "not installed", 2),
        "postgresql bad port": (
            ["game", "list", "--db", "postgresql://u:hunter2@h:notaport/db"],
            "***",
            2,
        ),
        "postgresql two @": (["game", "list", "--db", "postgresql://u:hun@ter2@h/db"], "%40", 2),
        "unknown migration": (["game", "list", "--db", _altered(world, "migration")], "schema", 2),
        "body not JSON": (
            ["game", "status", asl["game"], "--db", _altered(world, "body")],
            "not JSON",
            2,
        ),
        "seed not hex": (
            [
                *["game", "do", asl["game"], *german, "--db", _altered(world, "seed")],
                *["fire", "pak", "--ammo", "APCR"],
            ],
            "not a hex secret",
            2,
        ),
        "deep scenario": (["game", "new", f["deep.yaml"], "--db", db], "nested deeper", 2),
        "alias bomb scenario": (["game", "new", f["bomb.yaml"], "--db", db], "values", 2),
        "deep map": (["map", "los", f["deepmap.yaml"], "4G5", "4K5"], "nested deeper", 2),
        "deep map render": (["map", "render", f["deepmap.yaml"], "--out", "x.svg"], "nested", 2),
        "deep log verify": (["game", "verify", f["deep.json"]], "nested deeper", 2),
        "deep log import": (["game", "import", f["deep.json"], "--db", db], "nested deeper", 2),
        "digits verify": (["game", "verify", f["digits.json"]], "digits", 2),
        "digits import": (["game", "import", f["digits.json"], "--db", db], "digits", 2),
        "digits label": (["map", "range", "4G5", "4G" + "9" * 5000], "digits", 2),
        "digits label on a map": (
            ["map", "los", "asl-village", "4G5", "4G" + "9" * 5000],
            "digits",
            2,
        ),
        "digits cube": (["map", "range", "9" * 5000 + ",0,-1", "0,0,0"], "digits", 2),
        "empty out": (["map", "render", "asl-village", "--out", ""], "file name", 2),
        "empty export": (["game", "export", asl["game"], "--db", db, "--out", ""], "file name", 2),
        "huge grid": (["map", "los", f["huge-grid.yaml"], "A1", "B2"], "300", 2),
        "arc range": (
            ["map", "arc", "asl-village", "4G5", "--facing", "NNE", "--range", "1000000000"],
            "--range",
            2,
        ),
        "gun 999": (
            ["asl", "chart", "--gun", "999", "--nationality", "german", "--date", "1944-06"],
            "Supply Chart",
            2,
        ),
        "fp 1e308": (["asl", "canister", "--fp", "1e308"], "FP", 2),
        "mixed labels": (["map", "range", "4G5", "C7"], "two ways", 2),
        "short month": (["asl", "ammo", "A5", "--date", "1944-1"], "YYYY-MM", 2),
        "full-width date": (["asl", "ammo", "A5", "--date", "１９４４-０６"], "YYYY-MM", 2),
        "theater Mars": (
            ["asl", "--set", "theater_e=Mars", "ammo", "A5", "--date", "1944-06"],
            "theater",
            2,
        ),
        "breakdown -5": (
            ["game", "new", _scenario_with(world, "default_breakdown", -5), "--db", db],
            "default_breakdown",
            2,
        ),
        "ai wrong token": (
            ["game", "ai", vv["game"], "--side", "german", "--token", "wrong", "--db", db],
            "not authorized",
            2,
        ),
    }
    return cases[name]


CASES = [
    "random database",
    "text database",
    "truncated database",
    "folder as database",
    "mysql",
    "oracle",
    "postgresql bad port",
    "postgresql two @",
    "unknown migration",
    "body not JSON",
    "seed not hex",
    "deep scenario",
    "alias bomb scenario",
    "deep map",
    "deep map render",
    "deep log verify",
    "deep log import",
    "digits verify",
    "digits import",
    "digits label",
    "digits label on a map",
    "digits cube",
    "empty out",
    "empty export",
    "huge grid",
    "arc range",
    "gun 999",
    "fp 1e308",
    "mixed labels",
    "short month",
    "full-width date",
    "theater Mars",
    "breakdown -5",
    "ai wrong token",
]


def _altered(world: World, what: str) -> str:
    """A copy of the game database with one thing broken ("seed": its key store's seeds)."""
    path = world.folder / f"altered-{what}.db"
    if what == "seed":
        return _damaged_seed(world, path)
    if not path.exists():
        shutil.copy(world.db_path, path)
        connection = sqlite3.connect(path)
        statement = {
            "migration": "UPDATE alembic_version SET version_num = '9999'",
            "body": "UPDATE entries SET body = 'not json{' WHERE seq = 0",
        }[what]
        with connection:
            connection.execute(statement)
        connection.close()
    return str(path)


def _damaged_seed(world: World, path: Path) -> str:
    """A copy of the database and of its key store, the game in its PFPh, its seed not hex."""
    keys = world.folder / "keys-seed"
    if not path.exists():
        shutil.copy(world.db_path, path)
        shutil.copytree(world.folder / "keys", keys)
        german = ["--side", "german", "--token", world.asl["tokens"]["german"]]
        os.environ["ORDNANCE_KEYS"] = str(keys)
        # Its own receipts: the world's must not learn of a version only this copy has.
        os.environ["ORDNANCE_RECEIPTS"] = str(world.folder / "receipts-seed")
        try:
            code, _, err = run(
                ["game", "do", world.asl["game"], *german, "--db", str(path), "phase", "next"]
            )
        finally:
            os.environ.update(_home(world.folder))
        assert code == 0, err
        for seed in (keys / "seeds").iterdir():
            seed.write_text("zz\n")
    return str(path)  # to be used with ORDNANCE_KEYS set to keys-seed


def _scenario_with(world: World, name: str, value: object) -> str:
    """The ASL example scenario with one setting changed."""
    path = world.folder / f"scenario-{name}.yaml"
    data = yaml.safe_load(ASL_SCENARIO.read_text())
    data.setdefault("settings", {})[name] = value
    path.write_text(yaml.safe_dump(data))
    return str(path)


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("name", CASES)
def test_reported_bad_input(world, name, monkeypatch, tmp_path):
    # Receipts of what this client was shown would refuse the damaged copies before the fault.
    monkeypatch.setenv("ORDNANCE_RECEIPTS", str(tmp_path / "receipts"))
    argv, word, exit_code = _case(world, name)
    if name == "seed not hex":
        monkeypatch.setenv("ORDNANCE_KEYS", str(world.folder / "keys-seed"))
    before = database_digest(world.db_path)
    code, _, err = run(argv)
    line = assert_failed_cleanly(code, err, (exit_code,))
    assert word in line, line
    assert "hunter2" not in line and "hun@ter2" not in line
    assert database_digest(world.db_path) == before


def test_a_long_arc_range_stops_at_the_map_edge(world):
    code, out, err = run(["map", "arc", "asl-village", "4G5", "--facing", "NNE", "--range", "1000"])
    assert code == 0, err
    assert "out to range 28" in " ".join(out.split())


def test_a_locked_database_fails_within_the_timeout(world, monkeypatch):
    monkeypatch.setenv("ORDNANCE_DB_TIMEOUT", "0.5")
    holder = sqlite3.connect(world.db_path, isolation_level=None)
    before = database_digest(world.db_path)
    holder.execute("BEGIN IMMEDIATE")
    try:
        german = ["--side", "german", "--token", world.asl["tokens"]["german"]]
        code, _, err = run(
            ["game", "do", world.asl["game"], *german, "--db", world.db, "phase", "next"]
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "ORDNANCE_DB_TIMEOUT" in assert_failed_cleanly(code, err, (2,))
    assert database_digest(world.db_path) == before


@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan", "inf", "1e9"])
def test_a_bad_timeout_is_one_line(world, monkeypatch, value):
    monkeypatch.setenv("ORDNANCE_DB_TIMEOUT", value)
    code, _, err = run(["game", "list", "--db", world.db])
    assert "ORDNANCE_DB_TIMEOUT" in assert_failed_cleanly(code, err, (2,))


@pytest.mark.parametrize("name", ["random database", "mysql", "deep scenario", "digits label"])
def test_reported_bad_input_as_a_process(world, name):
    """The real program, as a user runs it: one line, exit 2, within 10 seconds."""
    argv, word, exit_code = _case(world, name)
    env = {k: v for k, v in os.environ.items() if k != "ORDNANCE_TRACEBACK"}
    done = subprocess.run(
        [sys.executable, "-m", "ordnance.cli.app", *argv],
        capture_output=True,
        text=True,
        timeout=10,
        env=env,
        check=False,
    )
    assert word in assert_failed_cleanly(done.returncode, done.stderr, (exit_code,))
