"""Fair dice between people (SYS.dice): a committed server seed, side seeds, HMAC-SHA256 rolls.

When a game starts the server draws a secret seed from :mod:`secrets` (never from the clock),
keeps it in its key store (:mod:`.keystore`, never in the game database) and publishes only its
SHA-256 (the commitment) in the first log entry. Every command that rolls carries fresh entropy
from the acting side's client (``entropy``, made after the seed was committed and sent with the
command), so nobody can know a roll before the command that makes it is committed: the server
does not know the entropy, the client does not know the seed. Each side may also add a seed of
its own before the first roll of an epoch. Roll ``k`` is derived as

    HMAC-SHA256(key = server seed,
                message = "ordnance-dice-v1" NUL canonical-JSON{game, epoch, seeds, roll: k,
                          entropy} NUL block (4 bytes, big-endian))

(``entropy`` absent for commands logged before it existed.) In a game played by e-mail the key
is the proposing side's one-command secret and the message also names the ``proposal`` entry
(:mod:`.pbem`).

and each byte of the digest below 252 gives one face, ``byte % 6 + 1`` (252 = 6 x 42, so every
face has exactly 42 of the accepted byte values: rejection sampling, no modulo bias); bytes from
252 up are skipped, and further blocks follow if a digest runs out. Once the seed is revealed
anyone can recompute every roll (:func:`faces`) and check the seed against the commitment.

>>> seed = bytes(range(32))
>>> commitment(seed)[:16]
'630dcd2966c43366'
>>> [faces(seed, "g1", 0, {}, index=k, count=2) for k in range(3)]
[(4, 4), (2, 4), (2, 4)]
>>> [faces(seed, "g1", 0, {"german": "lucky"}, index=k, count=2) for k in range(3)]
[(4, 4), (1, 3), (1, 1)]
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ordnance.core.dice import DR, DieRoll
from ordnance.core.errors import BadInput
from ordnance.core.ruleset import RollKind, RollRecord
from ordnance.game.keyed import hmac_sha256

SEED_BYTES = 32
# 252 is the largest multiple of 6 not above 256: bytes below it map to faces without bias.
_ACCEPT_BELOW = 252
_DOMAIN = b"ordnance-dice-v1\x00"
MAX_SIDE_SEED = 200


def new_server_seed() -> bytes:
    """A fresh secret seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The published promise: the seed's SHA-256, hex."""
    return hashlib.sha256(seed).hexdigest()


def check_side_seed(text: str) -> str:
    """A side's seed is any printable text up to 200 characters.

    >>> check_side_seed(" dice of fate ")
    'dice of fate'
    """
    seed = text.strip()
    if not seed or len(seed) > MAX_SIDE_SEED or not seed.isprintable():
        raise BadInput("seed", text, f"expected 1 to {MAX_SIDE_SEED} printable characters")
    return seed


def new_entropy() -> str:
    """A client's fresh entropy for one command (16 bytes from the CSPRNG, hex)."""
    return secrets.token_hex(16)


_ENTROPY = re.compile(r"[0-9a-f]{32,128}")


def check_entropy(text: str) -> str:
    """Entropy is 16 to 64 bytes of hex (the client's fresh random bytes).

    >>> check_entropy("00" * 16) == "00" * 16
    True
    """
    if len(text) % 2 or _ENTROPY.fullmatch(text) is None:
        raise BadInput("entropy", text[:40], "expected 16 to 64 bytes as lower-case hex")
    return text


def _message(
    game: str,
    epoch: int,
    seeds: Mapping[str, str],
    index: int,
    *,
    entropy: str | None = None,
    proposal: int | None = None,
) -> bytes:
    body: dict[str, object] = {"game": game, "epoch": epoch, "seeds": dict(seeds), "roll": index}
    if entropy is not None:
        body["entropy"] = entropy
    if proposal is not None:
        body["proposal"] = proposal
    return _DOMAIN + "".join(_ENCODE(body, 0)).encode() + b"\x00"


def _around_roll(
    game: str, epoch: int, seeds: Mapping[str, str], entropy: str | None, proposal: int | None
) -> tuple[bytes, bytes]:
    """:func:`_message` of one command's rolls as the text before and after the roll's index:
    in sorted order "roll" follows entropy, epoch, game and proposal, and precedes "seeds".

    >>> head, tail = _around_roll("g1", 0, {"german": "x"}, "ab", None)
    >>> head + b"7" + tail == _message("g1", 0, {"german": "x"}, 7, entropy="ab")
    True
    """
    before: dict[str, object] = {"game": game, "epoch": epoch}
    if entropy is not None:
        before["entropy"] = entropy
    if proposal is not None:
        before["proposal"] = proposal
    head = "".join(_ENCODE(before, 0))[:-1] + ',"roll":'
    tail = ',"seeds":' + "".join(_ENCODE(dict(seeds), 0)) + "}"
    return _DOMAIN + head.encode(), tail.encode() + b"\x00"


# json.dumps(body, sort_keys=True, separators=(",", ":")): the standard library's C encoder
# with the arguments JSONEncoder gives it (so the same bytes), made once, called directly
# (bench_ledger: as game/entries.py's canonical, about a quarter less per call).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
_C_MAKE: Any = getattr(json.encoder, "c_make_encoder", None)
_ASCII = json.encoder.encode_basestring_ascii
_ENCODE: Any = (
    _C_MAKE(None, _CANONICAL.default, _ASCII, None, ":", ",", True, False, True)
    if _C_MAKE is not None
    else lambda body, _: [_CANONICAL.encode(body)]
)


def faces(
    seed: bytes,
    game: str,
    epoch: int,
    seeds: Mapping[str, str],
    *,
    index: int,
    count: int,
    entropy: str | None = None,
    proposal: int | None = None,
) -> tuple[int, ...]:
    """The ``count`` faces of roll ``index`` (2 for a DR, 1 for a dr)."""
    message = _message(game, epoch, seeds, index, entropy=entropy, proposal=proposal)
    return _faces(seed, message, count)


def _faces(seed: bytes, message: bytes, count: int) -> tuple[int, ...]:
    shown: list[int] = []
    block = 0
    while len(shown) < count:
        digest = hmac_sha256(seed, message + block.to_bytes(4, "big"))
        for byte in digest:
            if byte < _ACCEPT_BELOW:  # a byte from 252 up is skipped (no modulo bias)
                shown.append(byte % 6 + 1)
                if len(shown) == count:
                    break
        block += 1  # the digest ran out: the next block
    return tuple(shown)


@dataclass
class FairDice:
    """A :class:`~ordnance.core.dice.DiceSource` for one command: rolls from ``start`` on, logged.

    >>> dice = FairDice(bytes(32), "g1", 0, {}, start=5)
    >>> roll = dice.roll_dr("To Hit DR")
    >>> [(r.index, r.purpose, r.faces == (roll.white, roll.colored)) for r in dice.rolls]
    [(5, 'To Hit DR', True)]
    """

    seed: bytes
    game: str
    epoch: int
    seeds: Mapping[str, str]
    start: int
    entropy: str | None = None
    proposal: int | None = None
    rolls: list[RollRecord] = field(default_factory=list)
    # The acting client is this process: its fresh entropy is drawn at the first roll (a
    # command that rolls nothing needs none).
    draw_entropy: bool = False

    # The message around the roll's index, made at the command's first roll (once the entropy is
    # known): the rest of the message is the same for every roll of the command.
    _around: tuple[bytes, bytes] | None = field(default=None, init=False, repr=False, compare=False)

    def _roll(self, purpose: str, kind: RollKind, count: int) -> tuple[int, ...]:
        if self._around is None:
            if self.entropy is None and self.draw_entropy:
                self.entropy = new_entropy()
            self._around = _around_roll(
                self.game, self.epoch, self.seeds, self.entropy, self.proposal
            )
        head, tail = self._around
        index = self.start + len(self.rolls)
        shown = _faces(self.seed, head + str(index).encode() + tail, count)
        self.rolls.append(RollRecord(index, purpose, kind, shown, "fair", self.epoch))
        return shown

    def roll_dr(self, purpose: str) -> DR:
        return DR(*self._roll(purpose, "DR", 2))

    def roll_die(self, purpose: str) -> DieRoll:
        return DieRoll(*self._roll(purpose, "dr", 1))


@dataclass
class PhysicalDice:
    """Physical dice the players entered (``--dice``), handed out in order and logged."""

    entered: list[DR | DieRoll]
    start: int
    rolls: list[RollRecord] = field(default_factory=list)

    def _next(self, purpose: str) -> DR | DieRoll:
        if len(self.rolls) >= len(self.entered):
            raise BadInput(
                "dice", "", f"this scenario uses physical dice: give --dice for {purpose}"
            )
        return self.entered[len(self.rolls)]

    def roll_dr(self, purpose: str) -> DR:
        roll = self._next(purpose)
        if not isinstance(roll, DR):
            raise BadInput("dice", str(roll), f"{purpose} needs two dice (W,C)")
        self.rolls.append(
            RollRecord(
                self.start + len(self.rolls), purpose, "DR", (roll.white, roll.colored), "physical"
            )
        )
        return roll

    def roll_die(self, purpose: str) -> DieRoll:
        roll = self._next(purpose)
        if not isinstance(roll, DieRoll):
            raise BadInput("dice", str(roll), f"{purpose} needs one die")
        self.rolls.append(
            RollRecord(self.start + len(self.rolls), purpose, "dr", (roll.value,), "physical")
        )
        return roll

    def check_all_used(self) -> None:
        """Refuse dice that were entered but never rolled (a typo, or the wrong command)."""
        if len(self.entered) > len(self.rolls):
            unused = ", ".join(str(r) for r in self.entered[len(self.rolls) :])
            raise BadInput("dice", unused, "more dice were entered than the command rolls")


def parse_entered(text: str) -> DR | DieRoll:
    """``3,4`` is a DR, ``5`` a single die."""
    return DR.parse(text) if "," in text else DieRoll.parse(text)


def split_dice(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """Take the ``--dice X`` pairs out of a command's words (the service's business, not the
    ruleset's).

    >>> split_dice(["fire", "t34", "--dice", "3,4", "--ammo", "AP"])
    (['fire', 't34', '--ammo', 'AP'], ['3,4'])
    """
    if "--dice" not in words:  # most commands
        return list(words), []
    rest: list[str] = []
    entered: list[str] = []
    items = iter(words)
    for word in items:
        if word == "--dice":
            entered.append(next(items, ""))
        else:
            rest.append(word)
    return rest, entered
