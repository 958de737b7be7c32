"""What the fold checks before an entry is written or read: undo, seeds, consent, an open
proposal (play by e-mail), and who must have signed an entry (:mod:`.fold` folds the entries).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ordnance.core.errors import IllegalAction
from ordnance.game.entries import Entry
from ordnance.game.errors import LogMismatch
from ordnance.game.signing import Coverage, declared_key, fingerprint, valid

if TYPE_CHECKING:
    from ordnance.game.fold import Game, Undoable


def check_undo(game: Game, side: str) -> Undoable:
    """The command an undo by ``side`` would take back, or the refusal."""
    if not game.undoable:
        raise IllegalAction(
            "SYS.dice",
            "nothing to undo: undo goes back only to the last revealed die roll",
        )
    last = game.undoable[-1]
    if last.side != side:
        raise IllegalAction(
            "SYS.record", f"the last command is {last.side}'s; only {last.side} may undo it"
        )
    return last


def check_seed(game: Game, side: str) -> None:
    """May ``side`` add its seed now? Only before the epoch's first roll."""
    game.check_side(side)
    if game.dice.mode != "fair":
        raise IllegalAction(
            "SYS.dice", f"this game's dice are {_mode_words(game)}; there is no server seed"
        )
    if game.dice.rolled:
        raise IllegalAction(
            "SYS.dice", "side seeds are fixed once this seed epoch has made its first roll"
        )
    if side in game.dice.seeds:
        raise IllegalAction("SYS.dice", f"{side} has already added its seed to this epoch")


def check_consent(game: Game, side: str) -> None:
    game.check_side(side)
    if game.dice.mode != "fair":
        raise IllegalAction(
            "SYS.dice", f"this game's dice are {_mode_words(game)}; there is no seed to reveal"
        )
    if side in game.dice.consents:
        raise IllegalAction("SYS.dice", f"{side} has already agreed to reveal this epoch's seed")


def _mode_words(game: Game) -> str:
    return "physical" if game.dice.mode == "physical" else "rolled between the sides by e-mail"


def check_open(game: Game) -> None:
    """Refuse a write while a proposal (play by e-mail) waits to be answered or resolved."""
    if game.pending is not None:
        waiting = next(s for s in game.sides if s != game.pending.side)
        who = waiting if game.pending.entropy is None else game.pending.side
        raise IllegalAction(
            "SYS.dice",
            f"entry {game.pending.seq} ({game.pending.side}'s command that rolls) is open:"
            f" waiting for {who}'s file (export, send, import)",
        )


def signing_key(game: Game | None, entry: Entry) -> str | None:
    """The public key that must have signed ``entry`` (``game``: the game before it)."""
    if entry.type in ("start", "resume", "join"):
        return declared_key(entry.body) if "signer" in entry.body or game is not None else None
    if game is None:
        return None
    if game.by_email and entry.side is not None:
        return game.side_keys.get(entry.side)
    return game.custodian


def check_signed(
    game: Game | None,
    entry: Entry,
    legacy_key: str | None = None,
    coverage: Coverage | None = None,
) -> str:
    """The key that wrote ``entry`` (:func:`signing_key`), once its signature is checked.

    ``game`` is the game before the entry (None for the start entry, whose key is the one it
    declares, or ``legacy_key`` for a game started before signing). Without ``coverage`` the
    entry must carry that key's signature itself (an entry the service stored before it kept
    MACs); with it, a signature the entry carries must be valid, and an unsigned entry waits
    for a later head of the same key to cover it (:class:`~.signing.Coverage`).
    """
    try:
        key = signing_key(game, entry)
    except (ValueError, TypeError) as error:
        raise LogMismatch(entry.seq, f"its signature cannot be checked ({error})") from None
    if key is None and game is None:
        key = legacy_key
    if key is None:
        who = f"{entry.side} has not joined the game" if entry.side else "no key is known"
        raise LogMismatch(entry.seq, f"its signature cannot be checked: {who}")
    writer = entry.side if game is not None and game.by_email and entry.side else "service"
    if coverage is not None:
        coverage.add(entry.seq, key, entry.hash, entry.sig, writer)
        return key
    if entry.sig is None:
        raise LogMismatch(entry.seq, "it is not signed")
    if not valid(key, entry.hash, entry.sig):
        raise LogMismatch(
            entry.seq,
            f"its signature is not the {writer}'s (key {fingerprint(key)}): it was changed,"
            " or written by someone else",
        )
    return key
