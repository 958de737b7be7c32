"""The game log's speed: commands through the service against plain SQLite inserts, and replay.

1. CPU time per command through :class:`ordnance.game.service.GameService` on a fresh SQLite
   file: each command is authorised, checked, resolved with fair dice, hashed, chained and
   committed (WAL) under the version guard. The commands are the bundled example's legal
   actions, picked by a seeded pseudo-random choice (a simulation, not play between people).
   The picking (the legal actions of every position) is not timed; the picked commands are
   then sent again, one after the other, to a second copy of the game (same id, signing key,
   server seed and client entropy, so the very same log, which is checked): that run is the
   measure. Each copy has a key store of its own (a key store keeps one head per game id). The
   CPU per command of the first run, with the picking between commands, is printed too.
2. The baseline, in the same run: the very same entry rows (every column, the MAC and the
   head signatures included) inserted with the plain ``sqlite3`` module into a table of the
   same shape, one transaction each with the same version update, in a loop of just that: the
   floor the storage itself sets. The commands go to SENDS copies of the game and their rows
   to as many plain tables, the two sides taking turns by blocks of BLOCK commands (the
   commands, then the rows they stored), so that both meet the same moments of a shared
   machine; each block counts at the least it cost over the copies, on each side (as timeit
   takes the least of its repeats: noise only ever adds). The spread over the blocks, and each
   send taken whole, are printed too. Both sides run with ``synchronous=OFF``, so that the
   comparison is of CPU work, not of the disk's fsync (which only hides the gap). Then the
   parts of a command's cost that can be measured alone on the same entries (MAC, head
   signatures amortised over the entries, hashing, folding), and the rest.
   See ``docs/ledger-speed.md``.
3. Replay: events per second (all the events of the log, over the time to open the game) by a
   fresh service from the database, once from the first entry (snapshots not read) and once
   from the newest snapshot plus the entries after it (reading, checking against the chain and
   decoding included; K = the default interval; the snapshot the service that opens the game at
   the last multiple of K writes, as commands write none), and once more with the newest
   snapshot K - 1 entries back (the longest tail a service can meet); folded from entries
   already in memory; and ``verify`` of the exported file (every command resolved again, every
   roll recomputed from the revealed seed). Each replay is timed REPEAT times; the least is
   printed (as timeit does: a busy machine only ever adds to a run).

Run: ``.venv/bin/python benchmarks/bench_ledger.py [--commands N]``
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shlex
import shutil
import sqlite3
import statistics
import tempfile
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import yaml
from sqlalchemy import event

from ordnance.core.errors import OrdnanceError
from ordnance.core.maps import MapFiles
from ordnance.game import fold, snapshot_table, snapshots
from ordnance.game import service as service_module
from ordnance.game.entries import Entry, canonical, entry_mac, make_entry
from ordnance.game.keystore import KeyStore
from ordnance.game.logfile import verify
from ordnance.game.scenario import scenario_from_mapping
from ordnance.game.service import GameService, NewGame

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "asl-c8-demo.yaml"
REPEAT = 7
BLOCK = 205  # commands sent, then their rows inserted plainly, in turn
SENDS = 5  # copies of the game the commands are sent to (each block: the least of its costs)
GOAL = 100_000  # events/s, issue 17


def least_seconds(work: Any) -> float:
    """The least CPU seconds of REPEAT runs of ``work()``."""
    spent = []
    for _ in range(REPEAT):
        started = time.process_time()
        work()
        spent.append(time.process_time() - started)
    return min(spent)


def open_fresh(url: str, game: str, keys: Path, *, from_snapshot: bool) -> fold.Game:
    """The game as a new process opens it: a fresh service (its setup not timed)."""
    service = GameService(url, keys=keys, snapshot_every=0)  # reads snapshots, writes none
    load = snapshots.load
    if not from_snapshot:
        snapshots.load = lambda *_: None  # type: ignore[assignment]
    try:
        started = time.process_time()
        game_now = service.game(game)
        OPENED.append(time.process_time() - started)
    finally:
        snapshots.load = load
        service.close()
    return game_now


OPENED: list[float] = []


Sent = tuple[str, list[str], str | None]  # side, words, the entropy its client sent


def play(service: GameService, made: NewGame, commands: int) -> tuple[float, list[Sent]]:
    """Send ``commands`` commands picked among the legal ones; the seconds spent inside the
    service, and what was sent for each command stored."""
    chooser = random.Random(1)
    spent, sent = 0.0, []
    while len(sent) < commands:
        game = service.game(made.game)
        options = [
            (side, text)
            for side in game.sides
            for text in game.rules.legal_actions(game.state, side)
        ]
        side, text = chooser.choice(options)
        words = shlex.split(text)  # the client's parsing of its text, not the service's work
        started = time.process_time()
        try:
            done = service.do(made.game, side, made.tokens[side], words)
        except OrdnanceError:
            continue  # a shot the dice made illegal after the probe (a malfunction): not stored
        finally:
            spent += time.process_time() - started
        sent.append((side, words, done.entries[0].body.get("entropy")))
    return spent, sent


def resend(service: GameService, made: NewGame, sent: list[Sent]) -> float:
    """Send the same commands again, one after the other (nothing else between them)."""
    started = time.process_time()
    for side, words, entropy in sent:
        service.do(made.game, side, made.tokens[side], words, entropy=entropy)
    return time.process_time() - started


@contextlib.contextmanager
def game_id(fixed: str) -> Iterator[None]:
    """Games made meanwhile get the id ``fixed``: the same id, server seed and client entropy
    give the same rolls, so a second game of the same commands is the very same log."""
    real = service_module.secrets
    service_module.secrets = types.SimpleNamespace(token_hex=lambda _: fixed)  # type: ignore[assignment]
    try:
        yield
    finally:
        service_module.secrets = real


def keys_of(folder: Path, name: str) -> Path:
    """The key store of the copy of the game in database ``name``: a copy of one key store
    (the same signing key, so the same log), each of its own, since a key store keeps one
    head per game id and the copies share the id."""
    keys = folder / f"keys-{name}"
    if not keys.exists():
        template = folder / "keys"
        KeyStore(template).private_key()
        shutil.copytree(template, keys)
    return keys


def made_game(folder: Path, name: str, scenario: Any) -> tuple[GameService, NewGame]:
    """A service on a fresh SQLite file (synchronous=OFF), its own key store in ``folder``,
    and the bench's game in it (always the same id, signing key and server seed)."""
    service = GameService(f"sqlite:///{folder}/{name}", keys=keys_of(folder, name))
    without_sync(service)
    with game_id("b0" * 6):
        made = service.create(scenario, server_seed=bytes(range(32)))
    return service, made


class PlainInserts:
    """The baseline: rows inserted with sqlite3 alone, one committed transaction each, into a
    table of the same shape on a SQLite file with ``synchronous=OFF``."""

    def __init__(self, path: Path, game: str) -> None:
        self.game = game
        self.connection = sqlite3.connect(path, isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=OFF"):
            self.connection.execute(f"PRAGMA {pragma}")
        self.connection.execute(
            "CREATE TABLE games (id TEXT PRIMARY KEY, version INTEGER NOT NULL)"
        )
        self.connection.execute(
            "CREATE TABLE entries (game_id TEXT, seq INTEGER, type TEXT, side TEXT, body TEXT,"
            " prev TEXT, hash TEXT, sig TEXT, mac TEXT, PRIMARY KEY (game_id, seq))"
        )
        self.connection.execute("INSERT INTO games VALUES (?, 1)", (game,))

    def insert(self, log: list[Entry]) -> float:
        """The CPU seconds to insert these entries' rows (the rows made beforehand)."""
        game, connection = self.game, self.connection
        rows = [
            (game, e.seq, e.type, e.side, canonical(e.body), e.prev, e.hash, e.sig, e.mac)
            for e in log
        ]
        started = time.process_time()
        for row in rows:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(
                "UPDATE games SET version = ? WHERE id = ? AND version = ?",
                (row[1] + 1, game, row[1]),
            )
            connection.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            connection.execute("COMMIT")
        return time.process_time() - started

    def close(self) -> None:
        self.connection.close()


def per_entry(work: Any, log: list[Entry]) -> float:
    """The least over REPEAT runs of the CPU seconds ``work(entry)`` takes per entry."""
    return least_seconds(lambda: [work(e) for e in log]) / len(log)


def opened(url: str, game: str, keys: Path, *, from_snapshot: bool) -> float:
    """The least CPU seconds a fresh service takes to open ``game`` (of REPEAT)."""
    OPENED.clear()
    for _ in range(REPEAT):
        open_fresh(url, game, keys, from_snapshot=from_snapshot)
    return min(OPENED)


def fold_all(log: list[Entry]) -> fold.Game:
    game = fold.start(log[0])
    for entry in log[1:]:
        game = fold.apply_entry(game, entry)
    return game


def without_sync(service: GameService) -> None:
    """The service's SQLite connections with ``synchronous=OFF`` (set after its own pragmas)."""
    engine = service.store.engine
    engine.dispose()

    @event.listens_for(engine, "connect")
    def _off(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA synchronous=OFF")


def measure_commands(folder: Path, scenario: Any, commands: int) -> tuple[GameService, NewGame]:
    """Print the CPU per command against plain inserts; the service and game, for the replay.

    First the commands are picked (the legal actions of each position computed between them),
    then sent again to a second copy of the game one after the other: the second run is the
    measure, in the same conditions as the plain inserts (a loop of just that).
    """
    picking, picked = made_game(folder, "picking.sqlite3", scenario)
    interleaved, sent = play(picking, picked, commands)
    stored = len(sent)
    # SENDS copies of the game get the commands, and as many plain tables their rows. The two
    # sides take turns block by block (each copy's block of commands, then the very rows it
    # stored), so that both meet the same moments of a shared machine; each block's cost is
    # the least over the copies (what the work costs; a busy machine only ever adds to it).
    copies = [made_game(folder, f"games{k}.sqlite3", scenario) for k in range(SENDS)]
    plains = [PlainInserts(folder / f"plain{k}.sqlite3", copies[0][1].game) for k in range(SENDS)]
    sends = [[0.0, 0.0] for _ in range(SENDS)]
    spent = floor = 0.0
    ratios = []
    for first in range(0, stored, BLOCK):
        block = sent[first : first + BLOCK]
        took, baseline = [], []
        for (service, made), plain, totals in zip(copies, plains, sends, strict=True):
            took.append(resend(service, made, block))
            rows = service.store.entries(made.game, first + 1, first + 1 + len(block))
            baseline.append(plain.insert(rows))
            totals[0] += took[-1]
            totals[1] += baseline[-1]
        spent, floor = spent + min(took), floor + min(baseline)
        ratios.append(min(took) / min(baseline))
    for plain in plains:
        plain.close()
    for extra, _ in copies[1:]:
        extra.close()
    service, made = copies[0]
    if [e.hash for e in service.log(made.game)] != [e.hash for e in picking.log(picked.game)]:
        raise SystemExit("the second run did not store the same log")
    picking.close()
    log = service.log(made.game)[1 : stored + 1]
    # Parts of a command's cost, each measured alone on the same entries.
    signer, mac_key = service.signer, service.keys.entry_key()
    heads = sum(1 for e in log if e.sig is not None)
    signing = per_entry(lambda e: signer.sign(e.hash), log) * heads / stored
    macing = per_entry(lambda e: entry_mac(mac_key, e.hash), log)
    hashing = per_entry(
        lambda e: make_entry(e.seq, e.type, e.side, e.body, e.prev, as_given=e.type == "command"),
        log,
    )
    folding = least_seconds(lambda: fold_all(service.log(made.game))) / (stored + 1)

    per_command, per_row = spent / stored, floor / stored
    print(f"commands through the service (SQLite file, synchronous=OFF): {stored}")
    print(f"  {per_command * 1e3:.3f} ms CPU per command, sent one after the other")
    print(
        f"  {interleaved / stored * 1e3:.3f} ms CPU per command the first time, while the legal"
        " actions were computed between commands (caches cold)"
    )
    print(
        f"plain sqlite3 inserts of the same {stored} rows, one transaction each (synchronous=OFF)"
    )
    print(f"  {per_row * 1e3:.3f} ms CPU per row")
    print(f"  ratio service / plain insert (CPU per command): {per_command / per_row:.2f} x")
    print(
        f"    by block of {BLOCK} commands (each then its rows, in turn): median"
        f" {statistics.median(ratios):.2f} x, from {min(ratios):.2f} x to {max(ratios):.2f} x"
    )
    whole = sorted(took / baseline for took, baseline in sends)
    print(
        f"    each of the {SENDS} sends taken whole instead of the least per block:"
        f" {', '.join(f'{r:.2f} x' for r in whole)}"
    )
    rest = per_command - per_row - signing - macing - hashing - folding
    print("  where a command's CPU goes (each part measured alone on the same entries):")
    for name, part in (
        ("the database's own append (the plain insert)", per_row),
        ("HMAC-SHA256 of the entry's hash (the entry MAC)", macing),
        (f"Ed25519 head signatures: {heads} for {stored} entries, amortised", signing),
        ("canonical JSON of the body + SHA-256 chain hash", hashing),
        ("folding the entry into the game", folding),
        ("the rest: token check, parsing, the rules' resolve, dice, service code", rest),
    ):
        print(f"    {part * 1e3:.3f} ms  {part / per_row:5.2f} x  {name}")
    return service, made


def measure_replay(folder: Path, service: GameService, made: NewGame) -> None:
    """Print the replay speeds of the game the commands made (its seed revealed first)."""
    service.consent(made.game, "german", made.tokens["german"])
    service.consent(made.game, "russian", made.tokens["russian"])
    log = service.log(made.game)
    events = sum(len(e.body.get("events", ())) for e in log)
    service.close()
    url = f"sqlite:///{folder}/games0.sqlite3"
    keys = keys_of(folder, "games0.sqlite3")
    from_db = opened(url, made.game, keys, from_snapshot=False)
    # The service that wrote the commands holds the game folded and wrote no snapshot; the
    # next service to open it does, once the fold passes a multiple of K. Here: the snapshot
    # a service opening the game at the last multiple of K would have written.
    fresh = GameService(url, keys=keys)
    k = fresh.snapshot_every
    snapshots.save(fresh.store, fold_all(log[: len(log) // k * k]), fresh.signer)
    exported = fresh.export(made.game).encode()
    with fresh.store.reading() as connection:
        kept = connection.execute(sa.select(snapshot_table.snapshots.c.version)).scalar_one()
    from_snapshot = opened(url, made.game, keys, from_snapshot=True)
    in_memory = least_seconds(lambda: fold_all(log))
    # The longest tail a fresh service can meet: the newest snapshot K - 1 entries back.
    earlier = len(log) - (k - 1)
    snapshots.save(fresh.store, fold_all(log[:earlier]), fresh.signer)
    with fresh.store.writing() as connection:
        connection.execute(
            snapshot_table.snapshots.delete().where(snapshot_table.snapshots.c.version > earlier)
        )
    fresh.close()
    longest_tail = opened(url, made.game, keys, from_snapshot=True)
    started = time.process_time()
    report = verify(exported)
    checked = time.process_time() - started
    assert report.ok, report.failure

    print(f"replay of {len(log)} entries ({events} events):")
    print(
        f"  a fresh service, from the first entry in the database: {events / from_db:,.0f} events/s"
    )
    print(
        f"  a fresh service, from the snapshot at entry {kept} + {len(log) - kept} entries:"
        f" {events / from_snapshot:,.0f} events/s"
    )
    print(f"    ratio to the goal of {GOAL:,} events/s: {events / from_snapshot / GOAL:.2f} x")
    print(f"    ratio to the fold from the first entry: {from_db / from_snapshot:.1f} x")
    print(
        f"  the same from a snapshot K - 1 = {k - 1} entries back (the longest tail):"
        f" {events / longest_tail:,.0f} events/s"
    )
    print(f"    ratio to the goal of {GOAL:,} events/s: {events / longest_tail / GOAL:.2f} x")
    print(f"  folded from entries in memory: {events / in_memory:,.0f} events/s")
    print(f"    ratio to the goal of {GOAL:,} events/s: {events / in_memory / GOAL:.2f} x")
    print(
        f"  verify (re-resolve {report.counts.commands} commands, recompute"
        f" {report.counts.recomputed} rolls): {len(log) / checked:,.0f} entries/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=2050)
    args = parser.parse_args()
    data = yaml.safe_load(EXAMPLE.read_text())
    data.pop("turns")  # open-ended, so the burst never reaches the end of the scenario
    scenario = scenario_from_mapping(data, MapFiles.folder(EXAMPLE.parent))
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        service, made = measure_commands(folder, scenario, args.commands)
        measure_replay(folder, service, made)


if __name__ == "__main__":
    main()
