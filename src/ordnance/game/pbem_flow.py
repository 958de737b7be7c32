"""The entries a copy writes in a game by e-mail (SYS.dice, SYS.record): its ``join``, the
``propose`` of a command that rolls, the ``answer`` to the other side's proposal, and the
resolution of its own once answered. :mod:`.pbem` tells the protocol; the service stores what
these functions decide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.ruleset import Command
from ordnance.game import fold
from ordnance.game.custody import Custody
from ordnance.game.entries import Entry
from ordnance.game.errors import LogMismatch
from ordnance.game.fairdice import FairDice, new_entropy, new_server_seed
from ordnance.game.fold import Game, apply_entry, command_body
from ordnance.game.logfile import read_verified
from ordnance.game.pbem import Invitation, ProbeDice, RollsNeeded


@dataclass(frozen=True)
class Step:
    """One entry to store, the ruling it carries, and the proposal's commitment it settles
    (its secret, revealed by the entry, then leaves the key store)."""

    entry: Entry
    ruling: Mapping[str, Any] | None = None
    settles: str | None = None


def joining(data: bytes, custody: Custody) -> tuple[list[Entry], Game, Entry]:
    """The log of an invitation, the game joined, and the signed ``join`` entry (last in the
    game) that declares this copy's key for the invited side."""
    invitation = Invitation.from_bytes(data)
    log, game = read_verified(invitation.log.encode("utf-8"))
    if game.id != invitation.game or invitation.side not in game.invited:
        raise LogMismatch(None, f"the invitation is not for a side of game {game.id} to join")
    if custody.signer.public_key in game.side_keys.values():
        raise BadInput(
            "key store",
            str(custody.keys.path),
            "its key already plays the other side: each player of a game by e-mail needs"
            " a key store of their own ($ORDNANCE_KEYS)",
        )
    body = {"code": invitation.code, "signer": custody.signer.declaration()}
    entry = custody.entry(game.version, "join", invitation.side, body, game.head, sign=True)
    return log, apply_entry(game, entry), entry


def extension(
    held: Game, local: Sequence[Entry], log: Sequence[Entry], own_key: str
) -> tuple[list[Entry], Game]:
    """The entries of a later file (``log``) past this copy's (``local``, folded ``held``),
    and the game they give: the file must extend the copy (an older file is named as such,
    not as a rolled-back log), and no new entry may bear this copy's own key."""
    if len(log) < len(local):
        raise LogMismatch(
            len(log),
            f"the file ends at entry {len(log) - 1}, but this copy holds up to entry"
            f" {len(local) - 1}: an older file, or entries were deleted from it",
        )
    for mine, theirs in zip(local, log, strict=False):
        if mine.hash != theirs.hash:
            raise LogMismatch(mine.seq, "differs from this copy's entry: the file forks")
    new = list(log[len(local) :])
    game = held
    for entry in new:
        if fold.signing_key(game, entry) == own_key:
            raise LogMismatch(
                entry.seq, "is signed with this copy's own key, but this copy never wrote it"
            )
        game = apply_entry(game, entry)
    return new, game


def proposal_or_command(game: Game, command: Command, custody: Custody) -> Step:
    """A command that does not roll is written as it is; one that rolls is proposed."""
    try:
        body = command_body(game, command, ProbeDice(), [])
    except RollsNeeded:
        secret = new_server_seed()
        promised = custody.keys.put_seed(secret)
        proposal = {"command": command.to_json(), "commitment": promised}
        return Step(custody.entry(game.version, "propose", command.side, proposal, game.head))
    entry = custody.entry(game.version, "command", command.side, body, game.head)
    return Step(entry, body["ruling"])


def follow_up(game: Game, custody: Custody) -> Step | None:
    """After an import: the answer to the other side's proposal, or the resolution of ours
    once answered (None when neither is due)."""
    pending = game.pending
    mine = {s for s, k in game.side_keys.items() if k == custody.signer.public_key}
    if pending is None or not mine:
        return None
    if pending.entropy is None and pending.side not in mine:
        body = {"proposal": pending.seq, "entropy": new_entropy()}
        answerer = sorted(mine)[0]
        return Step(custody.entry(game.version, "answer", answerer, body, game.head))
    if pending.entropy is not None and pending.side in mine:
        return resolution(game, custody)
    return None


def resolution(game: Game, custody: Custody) -> Step:
    """Our answered proposal rolled with its secret and the answer: the command, or the
    rules' refusal once its dice were known; either reveals the secret."""
    pending = game.pending
    assert pending is not None and pending.entropy is not None
    secret = custody.keys.seed(pending.commitment)
    if secret is None:
        raise OrdnanceError(
            f"game {game.id}: the key store {custody.keys.path} does not hold the secret of"
            f" proposal {pending.seq}; only the copy that proposed it can resolve it"
        )
    dice = FairDice(
        secret, game.id, game.dice.epoch, {}, game.dice.next_roll,
        entropy=pending.entropy, proposal=pending.seq,
    )  # fmt: skip
    command = Command.from_json(pending.command)
    closing = {"proposal": pending.seq, "secret": secret.hex()}
    ruling: Mapping[str, Any] | None
    try:
        body = {**command_body(game, command, dice, dice.rolls), **closing}
        kind, ruling = "command", body["ruling"]
    except (IllegalAction, BadInput) as refusal:
        rolls = [r.to_json() for r in dice.rolls]
        body = {**closing, "command": command.to_json(), "rolls": rolls, "reason": str(refusal)}
        kind, ruling = "refused", None
    entry = custody.entry(game.version, kind, pending.side, body, game.head)
    return Step(entry, ruling, pending.commitment)
