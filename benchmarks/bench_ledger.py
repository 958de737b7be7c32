"""The game log's speed: commands through the service against plain SQLite inserts, and replay.

1. CPU time per command through :class:`ordnance.game.service.GameService` on a fresh SQLite
   file: each command is authorised, checked, resolved with fair dice, hashed, chained and
   committed (WAL) under the version guard. The commands are the bundled example's legal
   actions, picked by a seeded pseudo-random choice (a simulation, not play between people);
   choosing them is not timed.
2. The baseline, in the same run: the very same entry rows inserted with the plain ``sqlite3``
   module into a table of the same shape, one transaction each with the same version update:
   the floor the storage itself sets. Both sides run with ``synchronous=OFF``, so that the
   comparison is of CPU work, not of the disk's fsync (which only hides the gap).
3. Replay: events per second folded from the stored log by a fresh service (reading included),
   folded from entries already in memory, and ``verify`` of the exported file (every command
   resolved again, every roll recomputed from the revealed seed).

Run: ``.venv/bin/python benchmarks/bench_ledger.py [--commands N]``
"""

from __future__ import annotations

import argparse
import random
import shlex
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import event

from ordnance.core.errors import OrdnanceError
from ordnance.game import fold
from ordnance.game.entries import Entry, canonical
from ordnance.game.logfile import verify
from ordnance.game.scenario import scenario_from_mapping
from ordnance.game.service import GameService, NewGame

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "asl-c8-demo.yaml"


def play(service: GameService, made: NewGame, commands: int) -> tuple[float, int]:
    """Send ``commands`` commands; the seconds spent inside the service, and how many stored."""
    chooser = random.Random(1)
    spent, stored = 0.0, 0
    while stored < commands:
        game = service.game(made.game)
        options = [
            (side, text)
            for side in game.sides
            for text in game.rules.legal_actions(game.state, side)
        ]
        side, text = chooser.choice(options)
        started = time.process_time()
        try:
            service.do(made.game, side, made.tokens[side], shlex.split(text))
        except OrdnanceError:
            continue  # a shot the dice made illegal after the probe (a malfunction): not stored
        finally:
            spent += time.process_time() - started
        stored += 1
    return spent, stored


def plain_inserts(path: Path, game: str, log: list[Entry]) -> float:
    """Insert the same rows with sqlite3 alone, one committed transaction per entry."""
    connection = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=OFF"):
        connection.execute(f"PRAGMA {pragma}")
    connection.execute("CREATE TABLE games (id TEXT PRIMARY KEY, version INTEGER NOT NULL)")
    connection.execute(
        "CREATE TABLE entries (game_id TEXT, seq INTEGER, type TEXT, side TEXT, body TEXT,"
        " prev TEXT, hash TEXT, PRIMARY KEY (game_id, seq))"
    )
    connection.execute("INSERT INTO games VALUES (?, 1)", (game,))
    rows = [(game, e.seq, e.type, e.side, canonical(e.body), e.prev, e.hash) for e in log]
    started = time.process_time()
    for row in rows:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute(
            "UPDATE games SET version = ? WHERE id = ? AND version = ?", (row[1] + 1, game, row[1])
        )
        connection.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)", row)
        connection.execute("COMMIT")
    spent = time.process_time() - started
    connection.close()
    return spent


def without_sync(service: GameService) -> None:
    """The service's SQLite connections with ``synchronous=OFF`` (set after its own pragmas)."""
    engine = service.store.engine
    engine.dispose()

    @event.listens_for(engine, "connect")
    def _off(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA synchronous=OFF")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=2000)
    args = parser.parse_args()
    data = yaml.safe_load(EXAMPLE.read_text())
    data.pop("turns")  # open-ended, so the burst never reaches the end of the scenario
    scenario = scenario_from_mapping(data, EXAMPLE.parent)
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(f"sqlite:///{folder}/games.sqlite3")
        without_sync(service)
        made = service.create(scenario)
        spent, stored = play(service, made, args.commands)
        german, russian = made.tokens["german"], made.tokens["russian"]
        service.consent(made.game, "german", german)
        service.consent(made.game, "russian", russian)
        log = service.log(made.game)
        events = sum(len(e.body.get("events", ())) for e in log)
        floor = plain_inserts(Path(folder) / "plain.sqlite3", made.game, log[1 : stored + 1])
        service.close()

        fresh = GameService(f"sqlite:///{folder}/games.sqlite3")
        started = time.process_time()
        fresh.game(made.game)
        from_db = time.process_time() - started
        started = time.process_time()
        game = fold.start(log[0])
        for entry in log[1:]:
            game = fold.apply_entry(game, entry)
        in_memory = time.process_time() - started
        exported = fresh.export(made.game).encode()
        fresh.close()
        started = time.process_time()
        report = verify(exported)
        checked = time.process_time() - started
        assert report.ok, report.failure

    per_command, per_row = spent / stored, floor / stored
    print(f"commands through the service (SQLite file, synchronous=OFF): {stored}")
    print(f"  {per_command * 1e3:.3f} ms CPU per command")
    print(
        f"plain sqlite3 inserts of the same {stored} rows, one transaction each (synchronous=OFF)"
    )
    print(f"  {per_row * 1e3:.3f} ms CPU per row")
    print(f"  ratio service / plain insert (CPU per command): {per_command / per_row:.2f} x")
    print(f"replay of {len(log)} entries ({events} events):")
    print(f"  folded from the database by a fresh service: {events / from_db:,.0f} events/s")
    print(f"  folded from entries in memory:               {events / in_memory:,.0f} events/s")
    print(
        f"  verify (re-resolve {report.counts.commands} commands, recompute"
        f" {report.counts.recomputed} rolls): {len(log) / checked:,.0f} entries/s"
    )


if __name__ == "__main__":
    main()
