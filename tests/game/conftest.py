"""Fixtures of the game tests: a real PostgreSQL server, databases on both backends, scenarios.

When ``$ORDNANCE_TEST_POSTGRES_URL`` is not set, the session starts its own server from
Debian's binaries (``scripts/ensure_postgres.sh`` installs them; ``make test`` runs it): a
temporary data directory, a free port on localhost, an unprivileged user (PostgreSQL refuses to
run as root), durability switched off (these tests kill clients, never the server), stopped and
removed when the session ends. The crash test has a durable server of its own
(``durable_postgres_server``: fsync on), since it also kills server processes.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from ordnance.game.scenario import Scenario, scenario_from_mapping
from ordnance.game.service import GameService, NewGame

PG_USER = "postgres"


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _as_server_user(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", PG_USER, "--", *args]


@contextmanager
def _server(*, durable: bool) -> Iterator[str]:
    """Start a throwaway server; yield the URL of its maintenance database (``postgres``)."""
    bindir = _pg_bin()
    if bindir is None:
        pytest.fail(
            "PostgreSQL server binaries not found: run scripts/ensure_postgres.sh or set"
            " ORDNANCE_TEST_POSTGRES_URL"
        )
    root = Path(tempfile.mkdtemp(prefix="ordnance-pg-"))
    if os.geteuid() == 0:
        user = pwd.getpwnam(PG_USER)
        os.chown(root, user.pw_uid, user.pw_gid)
    data, port = root / "data", _free_port()
    subprocess.run(
        _as_server_user(
            [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E",
             "UTF8", "--no-sync"]
        ),
        check=True,
        capture_output=True,
    )  # fmt: skip
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=200"
    if durable:
        # PostgreSQL's own defaults, said out loud: a commit is on disk before it is answered.
        options += " -c fsync=on -c synchronous_commit=on -c full_page_writes=on"
    else:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    pg_ctl = [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log")]
    subprocess.run(
        _as_server_user([*pg_ctl, "-w", "-o", options, "start"]), check=True, capture_output=True
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        stop = _as_server_user([*pg_ctl, "-m", "immediate", "stop"])
        subprocess.run(stop, check=False, capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's maintenance database (``postgres``), durability off."""
    given = os.environ.get("ORDNANCE_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    with _server(durable=False) as url:
        yield url


@pytest.fixture(scope="session")
def durable_postgres_server() -> Iterator[str]:
    """A server of its own with fsync, synchronous commit and full-page writes on, for the
    crash test: it kills server processes too, and an acknowledged commit must survive that."""
    given = os.environ.get("ORDNANCE_TEST_DURABLE_POSTGRES_URL")
    if given:
        yield given
        return
    with _server(durable=True) as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the test server, dropped afterwards."""
    with fresh_database(postgres_server) as url:
        yield url


@contextmanager
def fresh_database(postgres_server: str) -> Iterator[str]:
    """A new, empty database on ``postgres_server``, dropped afterwards."""
    name = f"t_{secrets.token_hex(6)}"
    # No pool: a connection the crash test's server kill broke is never reused.
    admin = sa.create_engine(postgres_server, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    url = sa.make_url(postgres_server).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database on each backend in turn."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


# --- scenarios -------------------------------------------------------------------------------

# Two sides with a Gun each that covers most of C8: APCR from the counter and from the chart,
# SMOKE, WP, HEAT, Canister, an SCW.
DEMO: dict[str, Any] = {
    "ruleset": "asl",
    "name": "test action",
    "date": "1944-09",
    "theater": "ETO",
    "turns": 1,
    "first": "german",
    "sides": {
        "german": {
            "nationality": "german",
            "units": {
                "pak": {"notation": "A5(2)/4(3)/3(4) s7 WP6", "size": "75L", "breakdown": 11},
                "pz4": {"kind": "vehicle", "notation": "A5(2)/4(3)/3(4) s8 sD5", "size": "75L"},
                "stug": {"kind": "vehicle", "notation": "H6(3+) C7", "canister_fp": 12},
                "psk": {"kind": "scw", "weapon": "PSK"},
            },
        },
        "russian": {
            "nationality": "russian",
            "units": {
                "t34": {"kind": "vehicle", "notation": "A5(4)/6(5) s8", "size": "85L"},
                "at45": {"notation": "A C8", "size": "45L", "canister_fp": 8},
            },
        },
    },
}


def scenario(dice: str = "fair", **changes: Any) -> Scenario:
    """The demo scenario with top-level keys changed."""
    return scenario_from_mapping({**DEMO, "dice": dice, **changes})


@pytest.fixture(name="scenario")
def scenario_fixture() -> Callable[..., Scenario]:
    """``scenario(dice="fair", **changes)``: the demo scenario, checked."""
    return scenario


@pytest.fixture
def new_game() -> Iterator[Callable[..., tuple[GameService, NewGame]]]:
    """``new_game(url, dice="fair")``: a service on ``url`` and a fresh demo game in it."""
    services: list[GameService] = []

    def make(url: str, dice: str = "fair", **changes: Any) -> tuple[GameService, NewGame]:
        service = GameService(url)
        services.append(service)
        return service, service.create(scenario(dice, **changes))

    yield make
    for service in services:
        service.close()
