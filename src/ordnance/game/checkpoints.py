"""SQLite's checkpoints out of the commands' way, on a server's SQLite file.

In WAL mode a commit adds the pages it changed to the write-ahead log, and the commit that
takes the log past SQLite's threshold (1000 pages by default) then copies the log back into the
database file and syncs it: a checkpoint, inside that one command. On the web table the command
holds the table's one worker thread meanwhile, so every request queued behind it waits, and the
queue takes long to drain on a busy server (bench_web, 300 games on one process: act p95
68-185 ms with the checkpoints inline, 78-83 without them; docs/benchmarks.md, eighth round).

So the appender's kept connection (:mod:`.appender`), which makes a server's every command,
checkpoints only past :data:`FALLBACK` pages (should this thread fail), and a thread of its own
runs a PASSIVE checkpoint on its own connection after every :data:`EVERY` commits, syncing
as the appender's connection says (``synchronous``), as its own checkpoints did. A passive
checkpoint waits for no reader or writer, and the thread runs with Python's lock let go while
SQLite works. Nothing here touches what is stored: a checkpoint moves committed pages from one
file of the database to the other, and SQLite checkpoints the log itself when the last
connection closes.

>>> import sqlite3, tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> path = pathlib.Path(folder.name) / "g.db"
>>> made = sqlite3.connect(path)
>>> _ = made.execute("PRAGMA journal_mode=WAL").fetchall(); made.close()
>>> checkpoints = Checkpoints(path, every=2)
>>> checkpoints.appended(); checkpoints.appended()  # the second asks for one
>>> checkpoints.close(); checkpoints.done >= 1
True
>>> folder.cleanup()
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger("ordnance.game")

# Commits between checkpoints: a command adds about 3.5 pages to the log (bench_ledger's
# commands), so about 900 pages, near SQLite's own 1000: every 100 copied the same busy pages
# three times as often (bench_ledger: 0.198 ms of CPU a command against 0.167 inline).
EVERY = 250
FALLBACK = 10_000  # pages (about 40 MB) past which the appender's commit checkpoints itself
CATCH_UP = 8  # passes of one checkpoint at most, each copying what came during the one before
CLOSE_WAIT = 5.0  # seconds the last checkpoint may take when the store closes


class Checkpoints:
    """PASSIVE checkpoints of the SQLite file at ``path`` in a background thread, one after
    every ``every`` commits noted by :meth:`appended`; ``done`` counts those made."""

    def __init__(self, path: str | Path, every: int | None = None) -> None:
        self.path = Path(path)
        self.every = every if every is not None else EVERY
        self.done = 0
        # SQLite's ``synchronous`` of the connections whose checkpoints these are (they ran
        # inside their commits, syncing as those said): set by the appender.
        self.synchronous: int | None = None
        self._count = 0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._stopped = False

    def appended(self) -> None:
        """One more commit in the log; the checkpoint is asked for once ``every`` are."""
        with self._lock:
            self._count += 1
            if self._count < self.every or self._stopped:
                return
            self._count = 0
            if self._thread is None or self._pid != os.getpid():  # none yet, or a forked child
                self._thread = threading.Thread(
                    target=self._run, name="ordnance-checkpoint", daemon=True
                )
                self._pid = os.getpid()
                self._thread.start()
        self._wake.set()

    def close(self) -> None:
        """The thread's last checkpoint made (if one was asked for), then it ends."""
        with self._lock:
            self._stopped = True
            thread = self._thread if self._pid == os.getpid() else None
        self._wake.set()
        if thread is not None:
            thread.join(CLOSE_WAIT)

    def _checkpoint(self, connection: sqlite3.Connection) -> None:
        """Copy the log into the file until a pass finds nothing new to copy.

        SQLite writes the log from its start again only when a write begins with every frame
        copied. Commits that land while a pass copies add frames it does not reach, so with
        one pass at a time a busy server's log never started again: it grew to the fallback's
        40 MB (bench_ledger's 2050 commands: 29 MB, against about 4 MB now). Each further pass
        has only the frames committed during the one before to copy.
        """
        before = -1
        for _ in range(CATCH_UP):
            busy, frames, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if busy or copied < frames or frames == before:  # a reader holds it, or caught up
                return
            before = frames

    def _run(self) -> None:
        try:
            connection = sqlite3.connect(self.path, timeout=CLOSE_WAIT, isolation_level=None)
            if self.synchronous is not None:
                connection.execute(f"PRAGMA synchronous={int(self.synchronous)}")
        except sqlite3.Error as error:
            log.warning("checkpoints of %s not run: %s", self.path, error)
            return
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                try:
                    self._checkpoint(connection)
                    self.done += 1
                except sqlite3.Error as error:  # the next one tries again (or FALLBACK does)
                    log.debug("checkpoint of %s failed: %s", self.path, error)
                if self._stopped:
                    return
        finally:
            connection.close()
