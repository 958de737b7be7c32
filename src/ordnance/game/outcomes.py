"""What the game service's calls return: a game made, a write stored, a file taken in, where
a game stands.

Each has ``to_json``, the shape ``--json`` prints and the web API returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ordnance.game.entries import Entry
from ordnance.game.fold import Game
from ordnance.game.legal import legal_actions
from ordnance.game.signing import fingerprint
from ordnance.game.state_view import state_view


@dataclass(frozen=True)
class NewGame:
    """A game just made (or imported, or joined): its id, the tokens of the sides this copy
    plays (shown once), its version, and for play by e-mail the invitations to send."""

    game: str
    tokens: Mapping[str, str]
    version: int
    commitment: str | None
    signer: Mapping[str, str] = field(default_factory=dict)
    invitations: Mapping[str, str] = field(default_factory=dict)
    head: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "tokens": dict(self.tokens),
            "version": self.version,
            "head": self.head,
            "commitment": self.commitment,
            "signer": dict(self.signer),
            "invited": sorted(self.invitations),
        }


@dataclass(frozen=True)
class Applied:
    """What one write stored: its entries, the version after them, the command's ruling."""

    game: str
    entries: tuple[Entry, ...]
    version: int
    ruling: Mapping[str, Any] | None

    @property
    def head(self) -> str:
        return self.entries[-1].hash

    def to_json(self) -> dict[str, Any]:
        first = self.entries[0]
        return {
            "game": self.game,
            "version": self.version,
            "head": self.head,
            "seq": first.seq,
            "type": first.type,
            "rolls": first.rolls,
            "events": first.body.get("events", []),
            "ruling": None if self.ruling is None else dict(self.ruling),
            "also": [e.type for e in self.entries[1:]],
        }


@dataclass(frozen=True)
class Appended:
    """A later file taken into an existing copy: how many entries came, and what this copy
    wrote in turn (play by e-mail: the answer to a proposal, or the resolution of its own)."""

    game: str
    appended: int
    version: int
    head: str
    then: tuple[Applied, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "appended": self.appended,
            "version": self.version,
            "head": self.head,
            "then": [a.to_json() for a in self.then],
        }


def status_json(game: Game, side: str | None = None) -> dict[str, Any]:
    """Where ``game`` stands; with ``side``, what that side may do now (``game status``)."""
    acting = side if side is not None else game.rules.to_move(game.state)
    if side is not None:
        game.check_side(side)
    last = game.undoable[-1] if game.undoable else None
    pending = game.pending
    return {
        "game": game.id,
        "ruleset": game.scenario.ruleset,
        "scenario": game.scenario.name,
        "sides": list(game.sides),
        "version": game.version,
        "head": game.head,
        "signer": game.custodian and {"public_key": game.custodian,
                                      "fingerprint": fingerprint(game.custodian)},
        "by_email": (
            {
                "keys": {s: fingerprint(k) for s, k in game.side_keys.items()},
                "invited": sorted(game.invited),
                "open_proposal": None if pending is None else {
                    "seq": pending.seq, "side": pending.side,
                    "answered": pending.entropy is not None,
                },
            }
            if game.by_email
            else None
        ),
        "to_move": game.rules.to_move(game.state),
        "over": game.rules.is_over(game.state),
        "dice": game.dice.to_json(),
        "undoable": None if last is None else {"seq": last.seq, "side": last.side},
        "legal_actions": (
            {acting: list(legal_actions(game, acting))}
            if acting is not None
            else {}
        ),
        "state": state_view(game),
    }  # fmt: skip
