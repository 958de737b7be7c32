"""Snapshots: the folded game every K entries, so opening a long game folds only its tail.

A snapshot is a cache of the log, never a second source of truth (SYS.record). It holds every
field of the folded :class:`~ordnance.game.fold.Game` but the ones its start entry gives (id,
ruleset, scenario) as JSON (:mod:`ordnance.core.statecodec`, one codec for every ruleset's frozen
dataclasses), the number of entries folded in (``version``) and the hash of the last of them
(``head``), the engine version that wrote it, the SHA-256 of the JSON text and the service
key's signature of all that. It lives in its own table beside the log (``snapshots``,
migration 0003).

Loading one (:func:`load`) trusts nothing blindly: the snapshot is used only when this
service's key signed it, its digest matches its text, this engine version wrote it, the stored
entry at ``version - 1`` has exactly the hash it names (and that entry's own hash checks), and
its text decodes into the classes this engine has; the entries after it are checked and folded
on top as usual. Anything else and the game is folded from its first entry, as without
snapshots. An exported log carries no snapshot: ``verify`` always folds everything.

``K`` is a setting: ``GameService(snapshot_every=K)``, or ``$ORDNANCE_SNAPSHOT_EVERY``; default
:data:`DEFAULT_EVERY`; 0 writes none (stored ones are still read).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from ordnance import __version__
from ordnance.core import statecodec
from ordnance.game.dberrors import StorageError
from ordnance.game.entries import Entry
from ordnance.game.errors import LogMismatch
from ordnance.game.fold import Game, Undoable
from ordnance.game.intervals import entry_interval
from ordnance.game.signing import Signer, valid

if TYPE_CHECKING:
    from ordnance.game.storage import Store

DEFAULT_EVERY = 200  # see docs/ledger-speed.md (why 200)
# What a snapshot another engine wrote (or a damaged one) may raise while it is decoded.
_UNREADABLE = (
    LogMismatch,
    ValueError,
    KeyError,
    TypeError,
    AttributeError,
    ImportError,
    ZeroDivisionError,
    RecursionError,
)
ENVIRONMENT = "ORDNANCE_SNAPSHOT_EVERY"


def every(given: int | None = None) -> int:
    """K: ``given``, else ``$ORDNANCE_SNAPSHOT_EVERY``, else the default.

    >>> every(50), every(0)
    (50, 0)
    """
    return entry_interval(given, ENVIRONMENT, DEFAULT_EVERY, least=0, what="snapshot interval")


def due(last: int, now: int, k: int) -> bool:
    """Is a snapshot due at version ``now`` when the last one was at ``last``?

    >>> due(99, 100, 100), due(100, 150, 100), due(0, 350, 100), due(0, 350, 0)
    (True, False, True, False)
    """
    return k > 0 and now // k > last // k


# Game fields its start entry gives (the rest is in the snapshot).
_FROM_START = frozenset({"id", "rules", "scenario"})


def encode(game: Game) -> str:
    """The snapshot text of ``game`` (TypeError if it holds a kind the codec lacks)."""
    base = _base(game)
    data: dict[str, Any] = {}
    # The state and the states kept for undo share most of their parts: each written once.
    # Parts unchanged since this game's last snapshot (the same objects) are taken from what
    # that one wrote: only what changed is encoded again.
    memo: dict[Any, Any] = {}
    with _BASES_LOCK:
        previous = _MEMOS.get(game.id)
    for name in _game_fields():
        value = getattr(game, name)
        if name == "state":
            data[name] = statecodec.encode(value, base, memo, previous)
        elif name == "undoable":
            # Each undoable command keeps the state before it: written against the same base.
            data[name] = [
                [u.seq, u.side, statecodec.encode(u.before, base, memo, previous)] for u in value
            ]
        else:
            data[name] = statecodec.encode(value)
    with _BASES_LOCK:
        _MEMOS.pop(game.id, None)
        while len(_MEMOS) >= _BASES_KEPT:
            del _MEMOS[next(iter(_MEMOS))]
        _MEMOS[game.id] = memo  # only the parts this snapshot holds: older ones are let go
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


# The initial state of the games last snapshotted, by scenario (built once per game, not
# once per snapshot; a few games at most, the oldest dropped first).
_BASES: dict[int, tuple[Any, Any]] = {}
_BASES_KEPT = 16
_BASES_LOCK = threading.Lock()
# What the last snapshot of each of those games wrote, by part (statecodec's memo).
_MEMOS: dict[str, dict[Any, Any]] = {}


def _base(game: Game) -> Any:
    """The initial state of ``game``'s scenario (what :func:`encode` writes parts against)."""
    with _BASES_LOCK:
        found = _BASES.get(id(game.scenario))
    if found is not None and found[0] is game.scenario:
        return found[1]
    base = game.rules.initial_state(game.scenario.body)
    with _BASES_LOCK:
        while len(_BASES) >= _BASES_KEPT:
            del _BASES[next(iter(_BASES))]
        _BASES[id(game.scenario)] = (game.scenario, base)
    return base


def decode(text: str, start: Game) -> Game:
    """The game ``text`` holds, on top of the game its start entry opens (``start``)."""
    data = json.loads(text)
    if set(data) != set(_game_fields()):
        raise ValueError("the snapshot has other game fields than this engine's")
    base = start.state
    values: dict[str, Any] = {}
    for name, raw in data.items():
        if name == "state":
            values[name] = statecodec.decode(raw, base)
        elif name == "undoable":
            values[name] = tuple(
                Undoable(int(seq), str(side), statecodec.decode(before, base))
                for seq, side, before in raw
            )
        else:
            values[name] = statecodec.decode(raw)
    return dataclasses.replace(start, **values)


@cache
def _game_fields() -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(Game) if f.name not in _FROM_START)


def _seal(game_id: str, version: int, head: str, engine: str, digest: str) -> str:
    """What the service key signs: a hash no entry can have (entries hash JSON objects)."""
    text = f"ordnance-snapshot\n{game_id}\n{version}\n{head}\n{engine}\n{digest}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def save(store: Store, game: Game, signer: Signer) -> bool:
    """Store a signed snapshot of ``game`` and drop its older ones; False if none was written."""
    try:
        text = encode(game)
    except TypeError:
        return False  # a kind of value the codec lacks: the log alone serves this game
    digest = _digest(text)
    seal = _seal(game.id, game.version, game.head, __version__, digest)
    row = {
        "game_id": game.id,
        "version": game.version,
        "head": game.head,
        "engine": __version__,
        "body": text,
        "digest": digest,
        "sig": signer.sign(seal),
    }
    mark = store.mark
    try:
        # Plain SQL (no SQLAlchemy): the CLI's light store (game/sqlite_file.py) writes it too.
        # A second writer of this very snapshot finds it there (ON CONFLICT: SQLite and
        # PostgreSQL alike) and writes nothing.
        with store.writing() as connection:
            connection.exec_driver_sql(
                "INSERT INTO snapshots (game_id, version, head, engine, body, digest, sig)"
                f" VALUES ({', '.join([mark] * 7)}) ON CONFLICT DO NOTHING",
                tuple(row.values()),
            )
            connection.exec_driver_sql(
                f"DELETE FROM snapshots WHERE game_id = {mark} AND version < {mark}",
                (game.id, game.version),
            )
    except StorageError:
        return False  # the command is stored; a missing snapshot only costs a longer fold
    return True


def load(
    store: Store, game_id: str, version: int, start: Callable[[Entry], Game], signer: Signer
) -> tuple[Game, list[Entry]] | None:
    """The newest usable snapshot of a game at ``version`` and the entries after it, or None.

    ``start`` opens the game from its (checked) start entry; ``signer`` is this service's key.
    None means: fold the whole log (no snapshot, or none that this service signed and that
    matches the chain).
    """
    mark = store.mark
    with store.reading() as connection:
        # Plain SQL on the driver: every open of a game in a fresh process asks it.
        found = connection.exec_driver_sql(
            "SELECT version, head, engine, body, digest, sig FROM snapshots"
            f" WHERE game_id = {mark} AND version <= {mark} ORDER BY version DESC LIMIT 1",
            (game_id, version),
        ).first()
    if found is None or found[0] < 1:
        return None
    at, head, engine, body, stored_digest, sig = found
    digest = _digest(body)
    seal = _seal(game_id, at, head, engine, digest)
    if engine != __version__ or digest != stored_digest:
        return None
    if not valid(signer.public_key, seal, sig):
        return None  # not written by this service's key: not trusted
    first = store.entries(game_id, 0, 1)
    tail = store.entries(game_id, at - 1)
    if not first or not tail or tail[0].seq != at - 1:
        return None
    last = tail[0]
    if last.hash != head or not last.check_hash():
        return None  # the snapshot does not fold up to this log's entry: not ours
    try:
        game = decode(body, start(first[0]))
    except _UNREADABLE:
        return None  # written by other code than this one: fold from the start instead
    if (game.version, game.head) != (at, head):
        return None
    return game, tail[1:]
