"""The two ways an action can fail: it breaks a rule, or its input makes no sense.

Both carry enough to tell a player, in one line, what went wrong and where.
"""

from __future__ import annotations

import re

# scheme://user:password@ ... the password runs to the last '@' before the host's '/'.
_PASSWORD = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:)[^\s/]*@")


def mask_passwords(text: str) -> str:
    """``text`` with the password of every URL in it replaced by ``***`` (a database URL
    may be quoted in an error message).

    >>> mask_passwords("database postgresql://ann:s3cret@db.example/games: refused")
    'database postgresql://ann:***@db.example/games: refused'
    """
    return _PASSWORD.sub(r"\1***@", text)


SHOWN_CHARACTERS = 200  # how much of an offending text a message quotes (core.limits lists it)


def shown(text: str) -> str:
    """``text`` as an error message quotes it: cut short after SHOWN_CHARACTERS.

    >>> shown("4G5")
    "'4G5'"
    >>> shown("9" * 5000)
    "'9999999999999999999999999999999999999999...' (5000 characters)"
    """
    if len(text) <= SHOWN_CHARACTERS:
        return repr(text)
    return repr(text[:40])[:-1] + f"...' ({len(text)} characters)"


class OrdnanceError(Exception):
    """Base of every error this package raises on purpose."""


class IllegalAction(OrdnanceError):
    """An action the rules forbid, with the clause that forbids it.

    Its text cites the rulebook number first and our clause ID after it (core.clauses.cite),
    as every ruling the CLI prints does:

    >>> str(IllegalAction("C8.9-gt", "the Gun had no APCR"))
    'refused by C8.9 (C8.9-gt): the Gun had no APCR'
    >>> str(IllegalAction("C8.52", "a Gun may not place SMOKE in its own hex"))
    'refused by C8.52: a Gun may not place SMOKE in its own hex'
    """

    def __init__(self, clause: str, sentence: str) -> None:
        super().__init__(clause, sentence)
        self.clause = clause
        self.sentence = sentence

    def __str__(self) -> str:
        from ordnance.core.clauses import cite  # noqa: PLC0415  (read only when a refusal is told)

        return f"refused by {cite(self.clause)}: {self.sentence}"


class BadInput(OrdnanceError, ValueError):
    """Input that cannot be understood, pointing at the fault.

    ``what`` names the kind of input (``"notation"``, ``"date"``, ``"dice"``...), ``text`` the
    offending text and ``position`` the 0-based index of the first bad character, when known.

    >>> err = BadInput("notation", "A5(4", "expected ')'", position=4)
    >>> str(err)
    "bad notation 'A5(4' at position 4: expected ')'"
    >>> str(BadInput("nationality", "klingon", "unknown nationality"))
    "bad nationality 'klingon': unknown nationality"
    """

    def __init__(self, what: str, text: str, problem: str, position: int | None = None) -> None:
        super().__init__(what, text, problem, position)
        self.what = what
        self.text = text
        self.problem = problem
        self.position = position

    def __str__(self) -> str:
        where = f" at position {self.position}" if self.position is not None else ""
        return f"bad {self.what} {shown(self.text)}{where}: {self.problem}"


class TooLarge(BadInput):
    """Input over one of the documented limits (a file, an upload, a request): refused before
    it is read. The web answers it 413, the CLI as any bad input.

    >>> str(TooLarge("upload", "map.yaml", "too large: the limit is 256 KB"))
    "bad upload 'map.yaml': too large: the limit is 256 KB"
    """


class NoSuchGame(BadInput):
    """A game id the database does not hold. The web answers it 404, the CLI as any bad input.

    >>> str(NoSuchGame("game", "g1", "no such game in games.db"))
    "bad game 'g1': no such game in games.db"
    """


# The CLI's exit codes, read by the one table of answers (ordnance.game.errors.ANSWERS) and by
# the CLI for what is not an OrdnanceError.
EXIT_REFUSED = 1  # the rules refused the action
EXIT_BAD_INPUT = 2  # anything else the user can fix, or try again
