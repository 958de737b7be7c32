"""Play by e-mail (SYS.dice, SYS.record): two copies of one game, kept in step by files.

Each player runs the service on their own machine, with their own database and key store. The
log is the same on both; every entry is signed by the key of the side that wrote it, so a copy
takes from a file only entries whose signature is the other side's (and refuses a file that is
shorter than, or forks from, the copy it already holds).

**Joining.** The inviter's ``game new --by-email SIDE --invite FILE`` writes a ``start`` entry
naming the inviter's key and, for the other side, the SHA-256 of a one-time invitation code; the
invitation file carries the log and that code, and nothing of the inviter's (no token, no key).
The invited side's ``game join FILE`` appends a ``join`` entry with its own key and the code.

**Dice nobody can read ahead or choose** (a commit-and-reveal coin flip per command):

1. the acting side A sends a command that rolls: its copy resolves it up to the first roll and,
   instead of rolling, writes a ``propose`` entry with the command and ``H = SHA-256(s)`` of a
   fresh 32-byte secret ``s`` kept in A's key store;
2. B imports A's file; B's copy answers with an ``answer`` entry holding 16 fresh random bytes
   ``e`` from B's machine;
3. A imports B's file; A's copy rolls with ``HMAC-SHA256(key = s, game, proposal seq, e, roll k)``
   (the same unbiased mapping as the server's fair dice) and writes the ``command`` entry, which
   reveals ``s``. B checks on import that ``SHA-256(s) = H`` and recomputes every roll.

A cannot predict a roll when committing (``e`` does not exist yet) nor choose it afterwards
(``s`` is fixed by ``H``); B cannot choose (B does not know ``s``, so every ``e`` looks alike).
Limits: A learns the result one step before B and could stop answering (the game then stalls
visibly at an answered proposal; it cannot be rolled again); a side that lets the other read its
machine (database or key store) gives up its half; each roll costs a round trip of files. With
``dice: physical`` each side enters its own dice and the opponent trusts them as at a table.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

from ordnance.core.dice import DR, DieRoll
from ordnance.core.errors import BadInput
from ordnance.core.limits import check_tree, parsing
from ordnance.game.errors import LogMismatch

FORMAT = "ordnance-invitation"
FORMAT_VERSION = 1


def new_code() -> str:
    """A one-time invitation code (24 random bytes, URL-safe text)."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Invitation:
    """What the inviter sends: the game's log so far, the invited side and its code only.

    >>> text = Invitation("g1", "russian", "c0de", "LOG").to_text()
    >>> Invitation.from_bytes(text.encode()) == Invitation("g1", "russian", "c0de", "LOG")
    True
    """

    game: str
    side: str
    code: str
    log: str

    def to_text(self) -> str:
        body = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": self.game,
            "side": self.side,
            "code": self.code,
            "log": self.log,
        }
        return json.dumps(body, indent=1) + "\n"

    @classmethod
    def from_bytes(cls, data: bytes) -> Invitation:
        try:
            with parsing("invitation", "file"):
                body = json.loads(data.decode("utf-8"))
            check_tree(body, "invitation", "file")
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise LogMismatch(None, f"not an invitation file ({error})") from None
        except BadInput as error:
            raise LogMismatch(None, f"not an invitation file ({error.problem})") from None
        if not isinstance(body, dict) or body.get("format") != FORMAT:
            raise LogMismatch(None, f"not an {FORMAT} file")
        if body.get("version") != FORMAT_VERSION:
            raise LogMismatch(None, f"an invitation of version {body.get('version')}")
        fields = ("game", "side", "code", "log")
        if set(body) != {"format", "version", *fields} or not all(
            isinstance(body[k], str) for k in fields
        ):
            raise LogMismatch(None, f"an invitation needs exactly the fields {list(fields)}")
        return cls(body["game"], body["side"], body["code"], body["log"])


class RollsNeeded(Exception):
    """Raised by :class:`ProbeDice` at a command's first roll (not an error: a signal)."""


class ProbeDice:
    """Dice that stop a command at its first roll: every check before the roll still runs."""

    def roll_dr(self, purpose: str) -> DR:
        raise RollsNeeded(purpose)

    def roll_die(self, purpose: str) -> DieRoll:
        raise RollsNeeded(purpose)


def check_secret(text: object, seq: int) -> bytes:
    """A revealed proposal secret: 32 bytes of hex."""
    try:
        secret = bytes.fromhex(str(text))
    except ValueError:
        raise LogMismatch(seq, "its proposal secret is not hex") from None
    if len(secret) != 32:
        raise LogMismatch(seq, "its proposal secret is not 32 bytes")
    return secret


def other_side(sides: tuple[str, ...], side: str) -> str:
    """The one side that is not ``side`` (games by e-mail have two)."""
    others = [s for s in sides if s != side]
    if len(others) != 1:
        raise BadInput("side", side, "play by e-mail needs a scenario with exactly two sides")
    return others[0]
