"""Kept heads: the newest entry of each game a service wrote or read, kept in its key store
(SYS.record).

A player who can write the game database but not the key store could delete the last entries
of a log and send a command again: every entry left is still the service's, MAC and signature
included, so nothing in the database itself tells the log is short. So the service keeps, per
game and outside the database, the seq and hash of the newest entry it appended (after the
database committed it, so a head never names an entry the database does not hold) or read and
checked. A stored log that stops before that entry, or has another entry there, is refused
(:class:`~ordnance.game.errors.RolledBack`).

One file per game in ``heads/`` of the key store, of two fixed-size slots; a slot holds a
head, when it was kept, and a checksum of both. A write takes the
file's lock (``flock``, so server processes sharing the key store take turns), reads both slots,
and only if its seq is past the newer one overwrites the older slot: a head never moves
backwards, and a write torn by a crash spoils only the slot it was writing (its checksum fails)
while the other still holds the previous head. A read takes no lock: it sees a whole slot or one
whose checksum fails. Neither is synced to disk (a command would pay a disk flush twice): the
kernel writes the file back (a process killed after a write loses nothing), but a machine that
loses power may forget the newest heads, which only lets an older log pass.

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> heads = Heads(pathlib.Path(folder.name) / "heads")
>>> heads.keep("g1", 4, "ab" * 32); heads.keep("g1", 3, "cd" * 32)
>>> heads.get("g1") == Head(4, "ab" * 32)
True
>>> heads.get("g2") is None
True
>>> folder.cleanup()
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import mmap
import os
import re
import threading
import time
import weakref
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ordnance.game.errors import RolledBack

SLOT = 128  # bytes per slot; a file holds two
# Head files kept open, the least recently used closed first: more than the games a server
# plays at once (bench_web, 100 games: with 64 kept, the first opened closed first, every
# command reopened and mapped its file under the store's lock, and the server's threads
# queued there), and a small share of the descriptors a process may open.
OPEN_FILES = 512
_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,40}")
# seq, hash, the time it was kept (seconds; absent from slots written before it was kept
# there), checksum
_RECORD = re.compile(rb"([0-9]{1,12}) ([0-9a-f]{64})(?: ([0-9]{1,12}))? ([0-9a-f]{8}) *\n")


@dataclass(frozen=True)
class Head:
    """The seq and hash of the newest entry of a game a service saw.

    ``kept_at``: when it was kept (seconds since the epoch; None for a slot written before
    the time was kept in it). Not part of what a head is: two heads of the same entry are
    equal.
    """

    seq: int
    hash: str
    kept_at: int | None = field(default=None, compare=False)


def _fields(seq: int, entry_hash: str, kept_at: int | None) -> str:
    """A slot's fields before its checksum (a slot written before the time was kept: none)."""
    return f"{seq} {entry_hash}" if kept_at is None else f"{seq} {entry_hash} {kept_at}"


def _check(game: str, fields: str) -> str:
    # Against torn writes (and a slot of another game's file), not against forgery: whoever
    # can write the key store holds the service's keys anyway.
    return f"{zlib.crc32(f'{game} {fields}'.encode('utf-8', 'replace')):08x}"


def record(game: str, seq: int, entry_hash: str, kept_at: int | None) -> bytes:
    """One slot's bytes (``kept_at`` None: a slot as written before the time was kept).

    >>> len(record("g1", 7, "ab" * 32, 1_800_000_000)) == SLOT
    True
    """
    fields = _fields(seq, entry_hash, kept_at)
    return f"{fields} {_check(game, fields)}".ljust(SLOT - 1).encode("ascii") + b"\n"


def parse(game: str, data: bytes) -> list[Head | None]:
    """The two slots of a head file (None for an empty or damaged one).

    >>> slots = parse("g1", record("g1", 7, "ab" * 32, 1_800_000_000) + b"x" * SLOT)
    >>> slots == [Head(7, "ab" * 32), None], slots[0].kept_at
    (True, 1800000000)
    >>> parse("g1", record("g1", 7, "ab" * 32, None) * 2)[1].kept_at is None
    True
    """
    found: list[Head | None] = []
    for start in (0, SLOT):
        match = _RECORD.fullmatch(data[start : start + SLOT])
        head = None
        if match is not None:
            seq, entry_hash = int(match[1]), match[2].decode("ascii")
            kept_at = None if match[3] is None else int(match[3])
            fields = _fields(seq, entry_hash, kept_at)
            if match[4].decode("ascii") == _check(game, fields):
                head = Head(seq, entry_hash, kept_at)
        found.append(head)
    return found


def newest(slots: list[Head | None]) -> Head | None:
    """The slot with the higher seq (None when both are empty or damaged)."""
    first, second = slots
    if first is None or (second is not None and second.seq > first.seq):
        return second
    return first


class Heads:
    """The kept heads of one key store (``folder``: its ``heads`` folder).

    Every command reads its game's head and keeps the next one, so the files of the games in
    use stay open and mapped into memory (at most :data:`OPEN_FILES`, the least recently used
    closed first): a read is a copy of the two slots (no system call), a keep takes the file's
    ``flock`` around a write to the mapping. Threads of one process share an open file,
    and with it its ``flock``, so they take turns on a lock of their own.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made = False  # the folder is known to exist
        # game -> its open file and the file's mapping, the least recently used first
        self._open: OrderedDict[str, tuple[int, mmap.mmap]] = OrderedDict()
        # game -> the bytes last read from its file and their slots: the same bytes again
        # (most reads) are not parsed again
        self._seen: dict[str, tuple[bytes, list[Head | None]]] = {}
        self._pid = os.getpid()
        self._lock = threading.Lock()
        # A service dropped without close() does not leave its files open.
        weakref.finalize(self, _close_all, self._open)

    def path(self, game: str) -> Path:
        """The file of ``game``: its id when that is a plain name, else a hash of it."""
        if _GAME_ID.fullmatch(game):
            return self.folder / game
        return self.folder / f"x-{hashlib.sha256(game.encode('utf-8', 'replace')).hexdigest()}"

    def get(self, game: str) -> Head | None:
        """The newest head kept for ``game`` (None when none is); OSError when the file is
        there but cannot be read."""
        with self._lock:
            opened = self._file(game, create=False)
            if opened is None:
                return None
            return newest(self._slots(game, opened[1][: 2 * SLOT]))

    def changed(self, game: str) -> float | None:
        """When ``game``'s newest head was kept (seconds since the epoch; None: no head), the
        game's last change that ``game list`` shows.

        The time is in the head's slot: setting the file's own time on every keep cost a
        command 3.7% of its CPU (bench_ledger, 2,050 commands: 99.8 against 96.1 us). A slot
        written before it held the time has the file's time instead."""
        with self._lock:
            opened = self._file(game, create=False)
            if opened is None:
                return None
            kept = newest(self._slots(game, opened[1][: 2 * SLOT]))
            if kept is None:
                return None
            if kept.kept_at is not None:
                return float(kept.kept_at)
            return os.fstat(opened[0]).st_mtime

    def keep(self, game: str, seq: int, entry_hash: str) -> None:
        """Keep (seq, hash) as ``game``'s head unless a head at or past ``seq`` is kept
        already; OSError when the key store cannot be written."""
        with self._lock:
            opened = self._file(game, create=True)
            assert opened is not None
            descriptor, mapped = opened
            # Other processes sharing the key store take turns on the file's lock.
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            try:
                data = mapped[: 2 * SLOT]
                slots = self._slots(game, data)
                kept = newest(slots)
                if kept is not None and kept.seq >= seq:
                    return
                # Overwrite the slot that does not hold the newest head: a torn write leaves it.
                older = 1 if slots[0] is not None and slots[0] is kept else 0
                head = Head(seq, entry_hash, int(time.time()))
                written = record(game, seq, entry_hash, head.kept_at)
                mapped[older * SLOT : (older + 1) * SLOT] = written
                # What the file now holds, known without parsing it again.
                data = data[: older * SLOT] + written + data[(older + 1) * SLOT :]
                slots = [head if k == older else slots[k] for k in (0, 1)]
                self._seen[game] = (data, slots)
            finally:
                fcntl.flock(descriptor, fcntl.LOCK_UN)

    def close(self) -> None:
        with self._lock:
            self._forget()

    def _slots(self, game: str, data: bytes) -> list[Head | None]:
        seen = self._seen.get(game)
        if seen is not None and seen[0] == data:
            return seen[1]
        slots = parse(game, data)
        self._seen[game] = (data, slots)
        return slots

    def _file(self, game: str, *, create: bool) -> tuple[int, mmap.mmap] | None:
        """The open, mapped file of ``game`` (opened, and made with ``create``, when it is
        not; None when it is not there, or not yet two slots long)."""
        if self._pid != os.getpid():
            # A forked child: its parent's files share their locks with the parent's.
            self._forget()
            self._pid = os.getpid()
        opened = self._open.get(game)
        if opened is not None:
            self._open.move_to_end(game)
            return opened
        if create and not self.made:
            self.folder.mkdir(mode=0o700, exist_ok=True)
            self.made = True
        flags = os.O_RDWR | (os.O_CREAT if create else 0)
        try:
            descriptor = os.open(self.path(game), flags, 0o600)
        except FileNotFoundError:
            if create:
                raise
            return None
        self.made = True  # a file was opened in it
        try:
            if os.fstat(descriptor).st_size < 2 * SLOT:
                if not create:
                    os.close(descriptor)
                    return None
                # Only ever lengthened (zeros: empty slots), so a writer racing with this
                # one loses nothing.
                os.ftruncate(descriptor, 2 * SLOT)
            mapped = mmap.mmap(descriptor, 2 * SLOT)
        except (OSError, ValueError) as error:
            os.close(descriptor)
            if isinstance(error, OSError):
                raise
            raise OSError(f"cannot map {self.path(game)} ({error})") from None
        if len(self._open) >= OPEN_FILES:
            oldest = next(iter(self._open))
            _close_one(self._open.pop(oldest))
            self._seen.pop(oldest, None)
        self._open[game] = (descriptor, mapped)
        return self._open[game]

    def _forget(self) -> None:
        _close_all(self._open)
        self._seen.clear()


def _close_one(opened: tuple[int, mmap.mmap]) -> None:
    descriptor, mapped = opened
    with contextlib.suppress(OSError, ValueError, BufferError):
        mapped.close()
    with contextlib.suppress(OSError):
        os.close(descriptor)


def _close_all(files: dict[str, tuple[int, mmap.mmap]]) -> None:
    for opened in files.values():
        _close_one(opened)
    files.clear()


def check_log(
    game: str, kept: Head | None, length: int, hash_at: Callable[[int], str], holder: str
) -> None:
    """Refuse a log of ``length`` entries (``hash_at(seq)``: the hash of its entry ``seq``)
    that stops before the ``kept`` head or holds another entry at its seq (RolledBack);
    ``holder`` names where the log is, for the message.

    >>> check_log("g1", Head(3, "ab" * 32), 3, lambda seq: "", "the database")
    Traceback (most recent call last):
    ...
    ordnance.game.errors.RolledBack: game g1: this game's log was rolled back or forked at ...
    """
    if kept is None:
        return
    if kept.seq >= length:
        raise RolledBack(
            game,
            length,
            f"{holder} {f'ends at entry {length - 1}' if length else 'holds none of its entries'},"
            f" but entry {kept.seq} was stored and the key store keeps it as the game's head:"
            " entries were deleted",
        )
    if hash_at(kept.seq) != kept.hash:
        raise RolledBack(
            game,
            kept.seq,
            f"{holder} holds another entry {kept.seq} than the one the key store keeps as the"
            " game's head: entries were replaced",
        )
