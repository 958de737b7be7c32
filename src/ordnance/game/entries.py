"""Log entries: canonical JSON, each chained to the one before by its SHA-256 (SYS.record).

An entry is ``{seq, type, side, body, prev}`` plus its ``hash``: the SHA-256 of the canonical
JSON (sorted keys, no spaces, UTF-8) of the other five fields. ``prev`` is the previous entry's
hash (64 zeros for the first), so changing, dropping or reordering any entry breaks every hash
after it. Neither of the two marks below is part of what the hash covers:

* ``sig``: the writer's Ed25519 signature of the hash (:mod:`.signing`), on the entries that
  are signed heads. Through the chain it vouches for this entry and every entry before it
  that the same key wrote. Logs written before heads were signed carry one on every entry.
* ``mac``: the service's HMAC of the hash, on every entry it stores (never exported: only the
  key store's holder can check it). It is how the service knows an entry in its database was
  written by itself, without an Ed25519 check per entry.

Entry types and their bodies:

=========== ============================================================================
``start``   game id, ruleset, engine version, scenario, sides, dice mode, commitment (epoch 0)
``command`` command (side, verb, args, text), rolls, events, ruling
``undo``    ``undone``: the seq of the command entry taken back
``seed``    a side's own dice seed for the current epoch
``consent`` a side agrees to reveal the current epoch's server seed
``reveal``  the epoch, its server seed (hex) and the commitment of the next epoch
``resume``  a new epoch's commitment after an import (the old server seed is not known here)
``join``    play by e-mail: a side's own signing key and its invitation code
``propose`` play by e-mail: a command that rolls, with the commitment of the proposer's secret
``answer``  play by e-mail: the other side's fresh entropy for the proposal's rolls
``refused`` play by e-mail: a proposal the rules refused once its dice were known
=========== ============================================================================

>>> first = make_entry(0, "start", None, {"game": "g1"}, GENESIS)
>>> second = make_entry(1, "seed", "german", {"seed": "x", "epoch": 0}, first.hash)
>>> second.prev == first.hash, Entry.from_json(second.to_json()) == second
(True, True)
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from ordnance.core.errors import BadInput
from ordnance.game.keyed import hmac_sha256

GENESIS = "0" * 64
_MAC_DOMAIN = b"ordnance-entry-mac-v1\x00"
# A string as canonical() writes it (the JSON encoder's own function for ensure_ascii=False).
_string = json.encoder.encode_basestring
TYPES = (
    "start", "command", "undo", "seed", "consent", "reveal", "resume",
    "join", "propose", "answer", "refused",
)  # fmt: skip


# What json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) builds on
# every call, built once.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# The standard library's C encoder with exactly the arguments JSONEncoder.iterencode gives it,
# so the bytes are the same, called directly (without the circular-reference check: a body is
# JSON data, never a cycle; one would end in RecursionError). None without the C speedups.
# bench_ledger: a fire command's body in 5.2 us against 6.8 us through _CANONICAL.encode; the
# per-command ratio (3.8-3.97 x, bound 4 x) has little room for the difference.
_C_MAKE: Any = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODE: Any = _C_MAKE and _C_MAKE(
    None, _CANONICAL.default, _string, None, ":", ",", True, False, True
)


def canonical(data: Any) -> str:
    """The one JSON text of a value: sorted keys, no whitespace, non-ASCII kept.

    >>> canonical({"b": [1, None], "a": "é"}) == json.dumps(
    ...     {"b": [1, None], "a": "é"}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    True
    """
    if _C_ENCODE is None:
        return _CANONICAL.encode(data)
    return "".join(_C_ENCODE(data, 0))


# orjson writes what canonical() writes, three times faster, for every JSON value but two kinds
# of float: some it writes in another form (1e-05 as 0.00001, 1.5e-07 as 1.5e-7), and NaN or an
# infinity (null, where the json module writes NaN and Infinity). A body a ruleset builds holds
# no NaN or infinity; one whose text holds a float of the first kind is left to canonical().
# Every such float's text has a digit before e- or e+, or starts 0.0000 (the check may also
# match a string's text: canonical() then writes it, the same text only slower).
_OTHER_FLOAT = re.compile(rb"\de[-+]|0\.0000")
# What json would refuse to write (or write otherwise) orjson hands on to default=None, which
# refuses it: dataclasses, dates, subclasses of str, int, dict and list.
_OPTIONS = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def body_text(body: Mapping[str, Any]) -> str:
    """:func:`canonical` of a body of finite numbers, the same text, most often made by orjson.

    >>> body = {"b": [1, None, 0.5, 1e-05, "é"], "a": {"z": True}}
    >>> body_text(body) == canonical(body)
    True
    """
    try:
        text = orjson.dumps(body, option=_OPTIONS)
    except TypeError:  # keys that are not text, an integer past 64 bits, a str subclass, ...
        return canonical(body)
    # One byte is found far faster than two (memchr): most texts have no "-" and no "+".
    if (
        (b"-" in text and b"e-" in text) or (b"+" in text and b"e+" in text) or b"0.0000" in text
    ) and _OTHER_FLOAT.search(text):
        return canonical(body)
    return text.decode("utf-8")


def digest(content: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(content).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One log entry (see the module docstring)."""

    seq: int
    type: str
    side: str | None
    body: Mapping[str, Any]
    prev: str
    hash: str
    sig: str | None = None
    # The body's canonical JSON when this entry was just made (storage writes it as is).
    body_text: str | None = field(default=None, compare=False, repr=False)
    # The service's MAC of the hash (stored with the entry, never exported).
    mac: str | None = field(default=None, compare=False, repr=False)

    def content(self) -> dict[str, Any]:
        """What the hash covers."""
        return {
            "seq": self.seq,
            "type": self.type,
            "side": self.side,
            "body": dict(self.body),
            "prev": self.prev,
        }

    def to_json(self) -> dict[str, Any]:
        signed = {} if self.sig is None else {"sig": self.sig}
        return {**self.content(), "hash": self.hash, **signed}

    @property
    def rolls(self) -> list[Any]:
        """The rolls a command entry recorded (none for other types)."""
        rolls: list[Any] = self.body.get("rolls", []) if self.type == "command" else []
        return rolls

    @classmethod
    def from_json(cls, data: object) -> Entry:
        """Read an entry, checking its shape (not its hash: see :func:`check_hash`)."""
        if not isinstance(data, Mapping):
            raise BadInput("log entry", str(data)[:60], "expected a JSON object")
        expected = {"seq", "type", "side", "body", "prev", "hash"}
        if set(data) not in (expected, expected | {"sig"}):
            raise BadInput(
                "log entry", str(sorted(data)), f"expected the fields {sorted(expected)} (and sig)"
            )
        seq, kind, side, body = data["seq"], data["type"], data["side"], data["body"]
        if isinstance(seq, bool) or not isinstance(seq, int) or kind not in TYPES:
            raise BadInput("log entry", str(seq), "bad seq or type")
        if not (side is None or isinstance(side, str)) or not isinstance(body, Mapping):
            raise BadInput("log entry", str(seq), "bad side or body")
        if not all(isinstance(data[k], str) for k in ("prev", "hash")):
            raise BadInput("log entry", str(seq), "bad prev or hash")
        sig = data.get("sig")
        if sig is not None and not isinstance(sig, str):
            raise BadInput("log entry", str(seq), "bad sig")
        return cls(seq, kind, side, dict(body), data["prev"], data["hash"], sig)

    def check_hash(self) -> bool:
        """Whether the hash is that of the content (of the body's text as stored, when the
        entry was read from a database: the service stores every body canonical)."""
        if self.body_text is not None:
            return (
                _chain_hash(self.seq, self.type, self.side, self.body_text, self.prev) == self.hash
            )
        return digest(self.content()) == self.hash


def entry_of(
    seq: int,
    kind: str,
    side: str | None,
    body: Mapping[str, Any],
    prev: str,
    *,
    hashed: str,
    sig: str | None,
    body_text: str | None,
    mac: str | None,
) -> Entry:
    """``Entry(seq, kind, side, body, prev, hashed, sig, body_text=..., mac=...)``, by keyword
    (every command makes one, every entry read back from a database is one).

    >>> entry_of(1, "seed", None, {}, "p", hashed="h", sig=None, body_text="{}", mac=None) == (
    ...     Entry(1, "seed", None, {}, "p", "h"))
    True
    """
    return Entry(seq, kind, side, body, prev, hashed, sig, body_text=body_text, mac=mac)


def signed(entry: Entry, sig: str) -> Entry:
    """The entry with its writer's signature."""
    return entry_of(
        entry.seq, entry.type, entry.side, entry.body, entry.prev,
        hashed=entry.hash, sig=sig, body_text=entry.body_text, mac=entry.mac,
    )  # fmt: skip


def entry_mac(key: bytes, entry_hash: str) -> str:
    """The service's MAC of an entry: HMAC-SHA256 keyed from its key store, over the hash.

    >>> len(entry_mac(bytes(32), "ab" * 32)), entry_mac(bytes(32), "ab" * 32) == entry_mac(
    ...     bytes(32), "cd" * 32)
    (64, False)
    """
    return hmac_sha256(key, _MAC_DOMAIN + entry_hash.encode("ascii")).hex()


def with_mac(entry: Entry, key: bytes) -> Entry:
    """The entry with the service's MAC (an entry taken from a file, once verified)."""
    return entry_of(
        entry.seq, entry.type, entry.side, entry.body, entry.prev,
        hashed=entry.hash, sig=entry.sig, body_text=entry.body_text,
        mac=entry_mac(key, entry.hash),
    )  # fmt: skip


def _chain_hash(seq: int, kind: str, side: str | None, text: str, prev: str) -> str:
    """digest(content) around the body's canonical text: canonical(content) spelled out, the
    keys in sorted order (body, prev, seq, side, type), each string as json.dumps writes it
    with ensure_ascii=False. Equal to digest(content) (tests/game/test_entry_hash.py)."""
    named = "null" if side is None else _string(side)
    whole = (
        f'{{"body":{text},"prev":{_string(prev)},"seq":{int(seq)},'
        f'"side":{named},"type":{_string(kind)}}}'
    )
    return hashlib.sha256(whole.encode("utf-8")).hexdigest()


def make_entry(
    seq: int,
    kind: str,
    side: str | None,
    body: Mapping[str, Any],
    prev: str,
    *,
    mac_key: bytes | None = None,
    as_given: bool = False,
) -> Entry:
    """A new entry, hashed and chained to ``prev`` (with ``mac_key``: and MACed).

    The body goes through its JSON text once, so the entry equals what a reader gets back
    (tuples become lists, keys in sorted order) and the hash is the one a verifier recomputes.
    With ``as_given`` the body is kept as it is: for a command entry whose state the caller
    folded already (``apply_entry(folded=)``), made of plain JSON values only (dict with text
    keys, list, str, int, float, bool, None) as every ruleset writes them, so it equals what a
    reader gets back but for the order of its keys, which nothing reads it by
    (``tests/game/test_entry_bodies.py`` plays every bundled game to check it), and written
    by :func:`body_text`. That saves a second pass through JSON on every command.
    """
    text = body_text(body) if as_given else canonical(body)
    plain = body if as_given else json.loads(text)
    hashed = _chain_hash(seq, kind, side, text, prev)
    mac = None if mac_key is None else entry_mac(mac_key, hashed)
    return entry_of(seq, kind, side, plain, prev, hashed=hashed, sig=None, body_text=text, mac=mac)
