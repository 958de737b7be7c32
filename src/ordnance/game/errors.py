"""The game service's own failures, beside the rules' IllegalAction and BadInput, and the one
table of how every face answers each failure (:func:`answer_of`).

Each is one line for the player; none leaves the log changed.
"""

from __future__ import annotations

from typing import NamedTuple

from ordnance.core.errors import (
    EXIT_BAD_INPUT,
    EXIT_REFUSED,
    BadInput,
    IllegalAction,
    NoSuchGame,
    OrdnanceError,
    TooLarge,
)
from ordnance.game.dberrors import StorageError


class StaleState(OrdnanceError):
    """The command was decided on a state version that another command has since moved on.

    >>> str(StaleState("g1", 4, 5))  # doctest: +ELLIPSIS
    'stale state: game g1 is at version 5, the command was based on version 4; nothing was...'
    """

    def __init__(self, game: str, based_on: int, current: int) -> None:
        super().__init__(game, based_on, current)
        self.game, self.based_on, self.current = game, based_on, current

    def __str__(self) -> str:
        return (
            f"stale state: game {self.game} is at version {self.current}, the command was based"
            f" on version {self.based_on}; nothing was applied (check status and send it again)"
        )


class NotAuthorized(OrdnanceError):
    """A command whose token is not the one issued to the side it claims to act for."""

    def __init__(self, game: str, side: str) -> None:
        super().__init__(game, side)
        self.game, self.side = game, side

    def __str__(self) -> str:
        return f"not authorized: that is not the token of side {self.side} in game {self.game}"


class LogMismatch(OrdnanceError):
    """An exported log that fails verification, naming the first entry that does not match.

    ``entry`` is None when the fault is in the file's header or framing.
    """

    def __init__(self, entry: int | None, problem: str) -> None:
        super().__init__(entry, problem)
        self.entry, self.problem = entry, problem

    def __str__(self) -> str:
        where = "the file header" if self.entry is None else f"entry {self.entry}"
        return f"log does not verify at {where}: {self.problem}"


class RolledBack(LogMismatch):
    """A stored or exported log that stops before, or forks from, the head a key store kept
    for the game (:mod:`.heads`): entries were deleted, or replaced.

    ``entry`` is the first entry missing, or the kept head's entry when the log holds another.

    >>> str(RolledBack("g1", 5, "the database holds 5 entries"))  # doctest: +ELLIPSIS
    "game g1: this game's log was rolled back or forked at entry 5: the database holds 5 ..."
    """

    def __init__(self, game: str, entry: int, why: str) -> None:
        super().__init__(
            entry, f"this game's log was rolled back or forked at entry {entry}: {why}"
        )
        self.game, self.why = game, why
        self.args = (game, entry, why)  # as it is made (a copy, a pickle)

    def __str__(self) -> str:
        return f"game {self.game}: {self.problem}"


# --- how the faces answer a failure ------------------------------------------------------------


class Answer(NamedTuple):
    """How a failure is answered: ``kind`` (the JSON API's ``error``), the HTTP ``status`` of
    the web table and the CLI's ``exit`` code."""

    kind: str
    status: int
    exit: int


# First match wins: subclasses before their bases. Both faces read this one table, so a
# failure answers the same on the web API, the pages and the command line.
ANSWERS: tuple[tuple[type[OrdnanceError], Answer], ...] = (
    (IllegalAction, Answer("refused", 409, EXIT_REFUSED)),
    # The stored log conflicts with the head the server kept: nothing is served from it.
    (RolledBack, Answer("rolled-back", 409, EXIT_BAD_INPUT)),
    (StaleState, Answer("stale", 409, EXIT_BAD_INPUT)),
    (NotAuthorized, Answer("not-authorized", 403, EXIT_BAD_INPUT)),
    # The database cannot be reached: the server's fault, asked again later (Retry-After).
    (StorageError, Answer("unavailable", 503, EXIT_BAD_INPUT)),
    (NoSuchGame, Answer("not-found", 404, EXIT_BAD_INPUT)),
    (TooLarge, Answer("too-large", 413, EXIT_BAD_INPUT)),
    (BadInput, Answer("bad-input", 422, EXIT_BAD_INPUT)),
)
OTHER = Answer("error", 400, EXIT_BAD_INPUT)


def answer_of(error: OrdnanceError) -> Answer:
    """How ``error`` is answered, from :data:`ANSWERS`.

    >>> answer_of(StorageError("sqlite:///g.db", "disk I/O error"))
    Answer(kind='unavailable', status=503, exit=2)
    >>> answer_of(IllegalAction("SYS.record", "no ammunition left"))
    Answer(kind='refused', status=409, exit=1)
    >>> answer_of(StaleState("g1", 4, 5)).status, answer_of(OrdnanceError("?"))
    (409, Answer(kind='error', status=400, exit=2))
    """
    for cls, answer in ANSWERS:
        if isinstance(error, cls):
            return answer
    return OTHER
