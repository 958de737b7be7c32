"""The game service's own failures, beside the rules' IllegalAction and BadInput.

Each is one line for the player; none leaves the log changed.
"""

from __future__ import annotations

from ordnance.core.errors import OrdnanceError


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
