"""Crash safety of the real server (SYS.record): `ordnance serve` SIGKILLed mid-burst, while one
client plays and another attacks it, loses no acknowledged action and answers no attack with
anything but a refusal.

Each backend takes KILLS kills (``$ORDNANCE_SERVE_CRASH_KILLS``, default 50): a SQLite file, and
a fresh database on a PostgreSQL server with durability on (fsync, synchronous commit,
full-page writes: ``durable_postgres_server``). One `ordnance serve` process at a time serves
it, on one port, with one key store folder kept across restarts (``$ORDNANCE_KEYS``). In each
burst two clients run at once:

- the player asks the API for a side's legal actions and sends one of them with the version it
  saw (``expect_version``), noting the entries (seq, hash) of every command answered 200;
- the attacker sends hostile requests in turn: scenarios whose ``map:`` names a server path
  (the database's own files, the key store's signing key, /etc/passwd, /dev/zero, a FIFO), a
  huge YAML, deep nesting, an alias bomb, bad UTF-8, commands with a wrong token or a
  non-finite ``expect_version``. Every answer must be a 4xx with a JSON error that repeats no
  secret, within ANSWER_SECONDS; a connection error counts only once the server is being
  killed.

Once the player has a command acknowledged (the first after a restart shows that the game goes
on), a reader beside the server (as a player's ``game status --db`` would) checks from a
connection of its own that every entry acknowledged so far is stored. After a command or a few
more, and at least one answer to the attacker, the server's process group is SIGKILLed at a
random moment of the requests then under way; on PostgreSQL the kills BACKEND_KILL_EVERY apart
also SIGKILL a PostgreSQL backend serving it, so the database recovers from its WAL. Then the
server is started again on the same database and key store, and a fresh service checks: every
acknowledged entry is stored with the hash acknowledged (0 lost), the log chains and
``game/logfile.verify`` passes its export. After the last kill a legal command through the new
server must be accepted. A fresh game starts every KILLS_PER_GAME kills (folding stays fast).

Servers are forked from a launcher that has the CLI imported (``tests/forked_serve.py``);
``ORDNANCE_SERVE_FORK=0`` starts each as a fresh ``python -m ordnance.cli.app serve``.
``ORDNANCE_SERVE_CRASH_HOSTILE=safe`` sends only the attacks the server answered well before
issue 26 (to test the harness itself on a server that still fails the others).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import re
import shlex
import signal
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool
from tests.forked_serve import ServeLauncher
from tests.game.conftest import fresh_database
from tests.game.test_crash import settled

from ordnance.core.errors import OrdnanceError
from ordnance.game.logfile import verify
from ordnance.game.service import GameService

KILLS = int(os.environ.get("ORDNANCE_SERVE_CRASH_KILLS", "50"))
ONLY_SAFE = os.environ.get("ORDNANCE_SERVE_CRASH_HOSTILE", "all") == "safe"
FORK = os.environ.get("ORDNANCE_SERVE_FORK", "1") != "0"
KILLS_PER_GAME = 10
BACKEND_KILL_EVERY = 25  # PostgreSQL recovers in seconds: twice in 50 kills (12th, 37th)
ANSWER_SECONDS = 15.0  # the longest any answer may take, on a loaded two-core machine
READY_SECONDS = 60.0
# Made once: httpx makes a TLS context for every client otherwise (70 ms on a busy machine),
# though every request here is plain HTTP to 127.0.0.1.
NO_TLS = ssl.create_default_context()
NO_LIMITS = ["--limit-actions", "0", "--limit-games", "0", "--limit-uploads", "0"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# The C8 demo has fair dice, Guns on both sides and fire in both sides' phases; 50 Game Turns
# instead of 1, so a game never ends within its bursts.
GAME = re.sub(r"(?m)^turns: 1\b", "turns: 50", (EXAMPLES / "asl-c8-demo.yaml").read_text())
MAP_RULESETS = {  # a scenario of each ruleset, its map line replaced by the hostile one
    "asl": (EXAMPLES / "asl-d13-demo.yaml").read_text(),
    "vv": (EXAMPLES / "vv-hedgerow-ambush.yaml").read_text(),
    "lnl": (EXAMPLES / "lnl-smoke-wp.yaml").read_text(),
}

pytestmark = pytest.mark.clause("SYS.record")


# --- the server ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    """`ordnance serve` on one database, port and key store, started again after each kill."""

    def __init__(self, launcher: ServeLauncher, db: str, folder: Path) -> None:
        self.launcher, self.db, self.folder = launcher, db, folder
        self.keys, self.log = folder / "keys", folder / "serve.log"
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.argv = ["serve", "--db", db, "--host", "127.0.0.1", "--port", str(port)]
        self.argv += ["--ai-keys", str(folder / "ai.json"), *NO_LIMITS]
        self.pid = 0
        self.starts: list[float] = []  # seconds from start to the first answer

    def start(self) -> None:
        began = time.monotonic()
        self.pid = self.launcher.start(self.argv, {"ORDNANCE_KEYS": str(self.keys)}, self.log)
        while True:
            try:
                with self.client(2) as client:
                    if client.get("/static/table.css").status_code == 200:
                        break
            except httpx.TransportError:
                pass
            alive = self.launcher.alive(self.pid)
            assert alive, f"ordnance serve exited before it answered:\n{self.log_tail()}"
            waited = time.monotonic() - began
            assert waited < READY_SECONDS, f"no answer in {READY_SECONDS} s:\n{self.log_tail()}"
            time.sleep(0.01)
        self.starts.append(time.monotonic() - began)

    def client(self, timeout: float = ANSWER_SECONDS) -> httpx.Client:
        """A client of this server (new connections: none outlives a kill)."""
        return httpx.Client(base_url=self.url, timeout=timeout, verify=NO_TLS)

    def freeze(self) -> None:
        os.killpg(self.pid, signal.SIGSTOP)

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown, no flush, wherever it was."""
        os.killpg(self.pid, signal.SIGKILL)
        self.launcher.wait_gone(self.pid)
        self.pid = 0

    def stop(self) -> None:
        """Kill a server still running (a failed test's)."""
        if self.pid:
            with contextlib.suppress(ProcessLookupError):
                self.kill()

    def log_tail(self, size: int = 6000) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text[-size:]


# --- the attacks -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    """One hostile request; ``safe``: answered with a 4xx before issue 26 too."""

    name: str
    send: Callable[[httpx.Client], httpx.Response]
    safe: bool = True


def upload(text: str) -> Callable[[httpx.Client], httpx.Response]:
    return lambda client: client.post("/api/games", json={"scenario": text})


def raw(
    path: str, body: bytes, token: str | None = None
) -> Callable[[httpx.Client], httpx.Response]:
    """A POST of ``body`` as it is (JSON with NaN, bad UTF-8, escapes httpx would not send)."""
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    return lambda client: client.post(path, content=body, headers=headers)


def with_map(text: str, target: str) -> str:
    return re.sub(r"(?m)^map:.*$", f"map: {json.dumps(target)}", text, count=1)


def attacks(served: Served, game: str, tokens: dict[str, str], fifo: Path) -> list[Attack]:
    """The attacker's requests, against ``served`` and the player's ``game``."""
    # A path on the server: the database's own files (SQLite), a secret of the key store, a
    # system file (by its path, and relative to the home folder), an endless device, a FIFO
    # nobody writes (reading it waits forever).
    own = served.db.removeprefix("sqlite:///") if served.db.startswith("sqlite:///") else None
    # The harm of reading them is not the answer: opening and closing the database's files
    # drops SQLite's locks on them; /dev/zero and the FIFO are fine where only regular files
    # are opened (ASL's reader) and endless or stuck where any file is (V&V's, LnL's).
    targets = {"key store's signing key": (str(served.keys / "signing.key"), set(MAP_RULESETS))}
    targets["/etc/passwd"] = ("/etc/passwd", set(MAP_RULESETS))
    targets["~/../../etc/passwd"] = ("~/" + "../" * 12 + "etc/passwd", set(MAP_RULESETS))
    targets["/dev/zero"] = ("/dev/zero", {"asl"})
    targets["a FIFO"] = (str(fifo), {"asl"})
    if own is not None:
        for suffix in ("", "-wal", "-shm"):
            targets[f"the database file{suffix}"] = (own + suffix, set())
    made = [
        Attack(f"map: {label} ({ruleset})", upload(with_map(text, path)), ruleset in safe)
        for label, (path, safe) in targets.items()
        for ruleset, text in MAP_RULESETS.items()
    ]
    do, undo = f"/api/games/{game}/do", f"/api/games/{game}/undo"
    command = {"side": "german", "words": ["phase", "next"]}

    def expecting(version: bytes, path: str = do) -> Callable[[httpx.Client], httpx.Response]:
        """The German's next phase (with its own token) with ``expect_version`` as written."""
        words = b'"words": ["phase", "next"], ' if path == do else b""
        body = b'{"side": "german", ' + words + b'"expect_version": ' + version + b"}"
        return raw(path, body, tokens["german"])

    made += [
        Attack("a scenario over the size limit (1 MB)", upload("#" * 2**20)),
        Attack("a scenario in bad UTF-8", raw("/api/games", b'{"scenario": "name: \xff\xfe"}')),
        Attack(
            "a scenario with a lone surrogate",
            raw("/api/games", b'{"scenario": "ruleset: asl\\nname: \\ud800"}'),
            safe=False,
        ),
        Attack("/do with a wrong token", lambda c: c.post(do, json=command, headers=_bearer("x"))),
        Attack(
            "/do with the other side's token",
            lambda c: c.post(do, json=command, headers=_bearer(tokens["russian"])),
        ),
        Attack("/do without a token", lambda c: c.post(do, json=command)),
        Attack("/do with expect_version NaN", expecting(b"NaN"), safe=False),
        Attack("/do with expect_version 1e400", expecting(b"1e400"), safe=False),
        Attack("/undo with expect_version NaN", expecting(b"NaN", undo), safe=False),
        Attack("/do with a 5000-digit expect_version", expecting(b"9" * 5000)),
    ]
    return [attack for attack in made if attack.safe or not ONLY_SAFE]


def rare_attacks() -> list[Attack]:
    """Attacks that cost the server a second or more of parsing on a busy machine: one of
    them opens each game's bursts (all of them come in five games)."""
    bomb = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{name}: &{name} [{','.join([f'*{last}'] * 10)}]\n"
        for last, name in itertools.pairwise("abcdef")
    )
    return [
        Attack("a scenario of 20,000 values", upload("x: [" + "0," * 20_000 + "0]\n")),
        Attack("a scenario 500 brackets deep", upload("[" * 500 + "]" * 500)),
        Attack("an alias bomb (10^6 values)", upload(bomb)),
        Attack("a scenario of one 250 KB value", upload("x: " + "y" * 250_000)),
        Attack(
            "a scenario 300 mappings deep", upload("".join(" " * i + "a:\n" for i in range(300)))
        ),
    ]


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def judged(attack: Attack, answer: httpx.Response, hidden: list[str]) -> str | None:
    """What is wrong with the server's answer to an attack (None: a proper refusal)."""
    text = answer.text
    if not 400 <= answer.status_code < 500:
        return f"{attack.name}: HTTP {answer.status_code} {text[:300]!r}"
    try:
        body = answer.json()
    except ValueError:
        return f"{attack.name}: HTTP {answer.status_code}, not JSON: {text[:300]!r}"
    if not isinstance(body, dict) or not ({"error", "detail"} & body.keys()):
        return f"{attack.name}: HTTP {answer.status_code}, no error in {text[:300]!r}"
    leaked = [secret for secret in hidden if secret in text]
    if leaked:
        return f"{attack.name}: the answer repeats a secret: {text[:300]!r}"
    return None


# --- one burst: the player and the attacker against one server -------------------------------


class Burst:
    """The two clients' threads against one server process, until it is killed."""

    def __init__(
        self, served: Served, game: str, tokens: dict[str, str], plays: random.Random
    ) -> None:
        self.served, self.game, self.tokens, self.plays = served, game, tokens, plays
        self.acked: list[tuple[int, str]] = []
        self.faults: list[str] = []
        self.answered = 0  # the attacker's answered requests
        self.killing = threading.Event()
        self.threads: list[threading.Thread] = []

    def run(self, turn: Iterator[Attack], hidden: list[str]) -> None:
        self.threads = [
            threading.Thread(target=self._player, daemon=True),
            threading.Thread(target=self._attacker, args=(turn, hidden), daemon=True),
        ]
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        for thread in self.threads:
            thread.join(ANSWER_SECONDS + 5)
            assert not thread.is_alive(), "a client still waits after its server was killed"

    def _cut(self, what: str, error: httpx.TransportError) -> None:
        """A connection error (a timeout is one): fine once the kill has begun, else a fault."""
        if not self.killing.is_set():
            self.faults.append(f"{what}: {type(error).__name__} ({error}) while the server was up")

    def _player(self) -> None:
        with self.served.client() as client:
            while not self.killing.is_set() and not self.faults:
                try:
                    self.faults.extend(
                        play_one(client, self.game, self.tokens, self.plays, self.acked)
                    )
                except httpx.TransportError as error:
                    self._cut("the player", error)
                    return

    def _attacker(self, turn: Iterator[Attack], hidden: list[str]) -> None:
        with self.served.client() as client:
            while not self.killing.is_set() and not self.faults:
                attack = next(turn)
                try:
                    answer = attack.send(client)
                except httpx.TransportError as error:
                    self._cut(attack.name, error)
                    return
                fault = judged(attack, answer, hidden)
                if fault is not None:
                    self.faults.append(fault)
                self.answered += 1


def play_one(
    client: httpx.Client,
    game: str,
    tokens: dict[str, str],
    plays: random.Random,
    acked: list[tuple[int, str]],
    *,
    side: str | None = None,
) -> list[str]:
    """One legal command of a side (``side``, else either: both have actions at times), sent
    with the version it was chosen at; a 200's entries go to ``acked``. Returns faults."""
    wanted = side or plays.choice(sorted(tokens))
    status = client.get(f"/api/games/{game}", params={"side": wanted})
    if status.status_code != 200:
        return [f"the player's status: HTTP {status.status_code} {status.text[:300]!r}"]
    seen = status.json()
    actions = seen["legal_actions"].get(wanted) or []
    if not actions and side is None and seen["to_move"] is not None:
        return play_one(client, game, tokens, plays, acked, side=seen["to_move"])
    if not actions:
        return [] if side is None else [f"{side}, to move, has no legal action: {seen}"]
    text = plays.choice(actions)
    answer = client.post(
        f"/api/games/{game}/do",
        json={"side": wanted, "words": shlex.split(text), "expect_version": seen["version"]},
        headers=_bearer(tokens[wanted]),
    )
    if answer.status_code == 200:
        acked.extend((entry["seq"], entry["hash"]) for entry in answer.json()["entries"])
        return []
    if answer.status_code == 409 and side is None:  # stale, or refused by the rules: fine
        return []
    return [f"the player's {text!r}: HTTP {answer.status_code} {answer.text[:300]!r}"]


def wait_for(burst: Burst, acks: int) -> None:
    """Until the player has ``acks`` commands acknowledged and the attacker an answer, or a
    fault (a burst that stalls is one)."""
    began = time.monotonic()
    while not burst.faults and (len(burst.acked) < acks or not burst.answered):
        waited = time.monotonic() - began
        if waited > ANSWER_SECONDS + 5:
            burst.faults.append(
                f"the burst stalled: {len(burst.acked)} acknowledged and"
                f" {burst.answered} attacks answered in {waited:.0f} s"
            )
        time.sleep(0.002)


def backend_kill(kill: int) -> bool:
    """Whether the ``kill``-th kill (from 1) also kills a PostgreSQL backend."""
    return kill % BACKEND_KILL_EVERY == BACKEND_KILL_EVERY // 2


def stored_now(url: str, game: str) -> dict[int, str]:
    """seq -> hash of the game's entries as a reader of the database beside the server sees
    them, on a connection of its own, closed after (on SQLite the last connection to close
    checkpoints the WAL and deletes it: only the server's locks tell it that it is not last)."""
    engine = sa.create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                sa.text("SELECT seq, hash FROM entries WHERE game_id = :game"), {"game": game}
            ).all()
    finally:
        engine.dispose()
    return {int(seq): str(digest) for seq, digest in rows}


# --- the checks after a kill -----------------------------------------------------------------


def check_stored(url: str, keys: Path, game: str, acked: list[tuple[int, str]]) -> None:
    """From a fresh service: every acknowledged entry stored as acknowledged, a whole chain,
    and a log that verifies."""
    after = reopen(url, keys)
    try:
        log = after.log(game)
        stored = {entry.seq: entry.hash for entry in log}
        lost = [(seq, digest) for seq, digest in acked if stored.get(seq) != digest]
        assert lost == [], f"acknowledged entries lost or changed: {lost}"
        assert after.store.version(game) == len(log) == log[-1].seq + 1
        assert all(entry.check_hash() for entry in log)
        assert all(entry.prev == before.hash for before, entry in itertools.pairwise(log))
        report = verify(after.export(game).encode())
        assert report.ok, report.failure
    finally:
        after.close()


def reopen(url: str, keys: Path) -> GameService:
    """A service on ``url`` with the server's key store, once the database answers (it
    refuses while PostgreSQL recovers from a killed backend)."""
    deadline = time.monotonic() + READY_SECONDS
    while True:
        try:
            return GameService(url, keys=keys)
        except OrdnanceError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def kill_backend(url: str, chooser: random.Random) -> bool:
    """SIGKILL a PostgreSQL backend of this database (PostgreSQL then ends every session
    and recovers from its WAL). False when none runs on this machine (a server given by URL)."""
    engine = sa.create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            pids = (
                connection.execute(
                    sa.text(
                        "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                        " AND pid <> pg_backend_pid() ORDER BY state = 'active' DESC, pid"
                    )
                )
                .scalars()
                .all()
            )
    finally:
        engine.dispose()
    local = [pid for pid in pids if b"postgres" in _cmdline(pid)]
    if not local:
        return False
    os.kill(local[0] if chooser.random() < 0.5 else chooser.choice(local), signal.SIGKILL)
    return True


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


# --- the test --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def launcher() -> Iterator[ServeLauncher]:
    started = ServeLauncher(fork=FORK)
    try:
        yield started
    finally:
        started.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def served(
    request: pytest.FixtureRequest, launcher: ServeLauncher, tmp_path: Path
) -> Iterator[Served]:
    """A server on a fresh SQLite file, or on a fresh database of the durable PostgreSQL."""
    if request.param == "sqlite":
        made = Served(launcher, f"sqlite:///{tmp_path / 'served.sqlite3'}", tmp_path)
        try:
            yield made
        finally:
            made.stop()
        return
    server: str = request.getfixturevalue("durable_postgres_server")
    with fresh_database(server) as url:
        made = Served(launcher, url, tmp_path)
        try:
            yield made
        finally:
            made.stop()  # before the database is dropped


def first_line(path: Path) -> str:
    """The first line of a file the attacks name ('' when there is none)."""
    try:
        return path.read_text(errors="replace").partition("\n")[0].strip()
    except OSError:
        return ""


def new_game(served: Served) -> tuple[str, dict[str, str]]:
    with served.client() as client:
        made = client.post("/api/games", json={"scenario": GAME})
    assert made.status_code == 200, made.text
    return made.json()["game"], made.json()["tokens"]


def test_sigkilled_serve_loses_no_acknowledged_action(served: Served, tmp_path: Path) -> None:
    postgres = served.db.startswith("postgresql")
    chooser, plays = random.Random(26), random.Random(62)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    served.start()
    game, tokens = new_game(served)
    # What the attacks name that must stay secret (the signing key exists once a game is made).
    hidden = [first_line(served.keys / "signing.key")[:32], first_line(Path("/etc/passwd"))]
    hidden = [text for text in hidden if len(text) >= 16]
    kills = backend_kills = acknowledged = 0
    acked: list[tuple[int, str]] = []
    rare = rare_attacks()
    while kills < KILLS:
        if kills % KILLS_PER_GAME == 0:
            if kills:
                game, tokens = new_game(served)
                acked = []
            first = rare[kills // KILLS_PER_GAME % len(rare)]
            turn = itertools.chain([first], itertools.cycle(attacks(served, game, tokens, fifo)))
        burst = Burst(served, game, tokens, plays)
        burst.run(turn, hidden)
        # A reader beside the server (a player's `game status --db`) sees every entry
        # acknowledged so far; then the kill comes after a command or a few more, and an answer
        # to the attacker, at a random moment of the requests then under way.
        wait_for(burst, 1)
        known = [*acked, *burst.acked]  # before the read: the player acts on meanwhile
        seen = stored_now(served.db, game)
        missing = [entry for entry in known if seen.get(entry[0]) != entry[1]]
        if missing:
            burst.faults.append(f"a reader beside the server misses acknowledged {missing}")
        wait_for(burst, max(chooser.randint(1, 4), len(burst.acked) + 1))
        time.sleep(chooser.random() * 0.03)
        burst.killing.set()
        kills += 1
        backend = postgres and backend_kill(kills)
        if backend:
            served.freeze()  # at this moment: a server running on would see its database go
            backend = kill_backend(served.db, chooser)
        served.kill()
        burst.stop()
        assert not burst.faults, "\n".join([*burst.faults, "server log:", served.log_tail()])
        if backend:
            reopen(served.db, served.keys).close()  # the database is back from recovery
        elif postgres:
            settled(served.db)
        backend_kills += backend
        acked += burst.acked
        acknowledged += len(burst.acked)
        served.start()
        check_stored(served.db, served.keys, game, acked)
    # The next burst's first command showed the game goes on after each restart but the last.
    with served.client() as client:
        status = client.get(f"/api/games/{game}").json()
        faults = play_one(client, game, tokens, plays, acked, side=status["to_move"])
    assert not faults, "\n".join([*faults, "server log:", served.log_tail()])
    check_stored(served.db, served.keys, game, acked)
    served.kill()
    assert kills == KILLS
    if postgres and not os.environ.get("ORDNANCE_TEST_DURABLE_POSTGRES_URL"):
        assert backend_kills == sum(backend_kill(k) for k in range(1, KILLS + 1))
    print(
        f"{served.db.split(':')[0]}: {KILLS} kills, {backend_kills} of a PostgreSQL backend,"
        f" {acknowledged} acknowledged entries; {len(served.starts)} starts of the server,"
        f" {min(served.starts):.2f}-{max(served.starts):.2f} s to the first answer"
        f" ({sum(served.starts):.0f} s in all)"
    )
