"""The largest number, size and depth a user may give, in one place (docs: "Limits").

Every number, file and structure the program reads from a user is bounded, so that no input,
however large, makes a command hang, run out of memory or overflow Python's stack: beyond a
bound the input is refused as :class:`~ordnance.core.errors.BadInput` (one line, exit 2). The
bounds are generous for play (an ASL map of 8 boards has 2,640 hexes; a scenario nests 5
levels deep) and each is named here, so the documented table and the code cannot drift apart.
(How much of an offending text a message quotes, ``SHOWN_CHARACTERS``, lives beside BadInput,
which cuts it short.)

>>> whole_number("12", "depletion number", 2, 12)
12
>>> whole_number("1" * 300, "range", 1, MAX_RANGE)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad range '111...' (300 characters): more than 6 digits
>>> check_tree({"sides": [[[]]]}, "scenario file", "s.yaml")
>>> check_tree([[[[1]]]], "scenario file", "s.yaml", depth=3)
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario file 's.yaml': nested deeper than 3 levels
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from ordnance.core.errors import BadInput, TooLarge

MAX_DIGITS = 6
"""Digits of any whole number read from text: hex labels, dice, options, command words."""
MAX_NUMBER = 999_999
"""The largest magnitude such a number may have (MAX_DIGITS nines)."""
MAX_RANGE = 1_000
"""``--range`` and ``--arc-range`` in hexes (a range beyond the map's edge is the edge)."""
MAX_FP = 100
"""Firepower of one attack (the IFT's last column is 36)."""
MAX_CALIBRE = 999
"""Calibre in mm of a gun size (``75L``) or ``--caliber``: at most 3 digits."""
MAX_DRM = 50
"""Magnitude of one DRM or of a total DRM."""
MAX_SEED = 2**64 - 1
"""``--seed`` of a reproducible roll."""
MAX_NESTING = 40
"""Depth of lists and mappings in any YAML or JSON file (a scenario needs 5, a log entry 8)."""
MAX_NODES = 200_000
"""Values in one YAML or JSON file, counting those YAML aliases repeat."""
MAX_TEXT_FILE_BYTES = 4 * 2**20
"""Size of a scenario or map file (4 MiB)."""
MAX_TOKEN_FILE_BYTES = 4 * 2**10
"""Size of a token file (``--token-file``; a token is at most 200 characters)."""
MAX_LOG_FILE_BYTES = 64 * 2**20
"""Size of an exported log read by ``game verify`` and ``game import`` (64 MiB)."""
MAX_GRID_SIDE = 300
"""Columns or rows of a plain grid map."""
MAX_BOARDS = 100
"""Geomorphic boards on one map."""
MAX_MAP_HEXES = 40_000
"""Hexes on one map (100 boards have 33,000; a 200 x 200 grid fits)."""
DB_TIMEOUT_ENV = "ORDNANCE_DB_TIMEOUT"
"""Seconds a database command waits for a lock or a connection (default below)."""
DB_TIMEOUT_SECONDS = 5.0
MAX_DB_TIMEOUT_SECONDS = 600.0


def whole_number(text: str, what: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``: ASCII digits with an optional sign.

    Other digits Python would accept (full-width ``１``, Arabic-Indic, superscripts) and
    underscores are refused, as is anything longer than MAX_DIGITS digits.

    >>> whole_number("-3", "DRM", -MAX_DRM, MAX_DRM)
    -3
    >>> whole_number("１２", "row", 1, 10)
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad row '１２': expected a whole number (digits 0-9)
    >>> whole_number("13", "depletion number", 2, 12)
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad depletion number '13': expected a whole number from 2 to 12
    """
    body = text.strip()
    digits = body[1:] if body[:1] in ("-", "+") else body
    if not digits or not all("0" <= c <= "9" for c in digits):
        raise BadInput(what, text, "expected a whole number (digits 0-9)")
    if len(digits) > MAX_DIGITS:
        raise BadInput(what, text, f"more than {MAX_DIGITS} digits")
    value = int(body)
    if not low <= value <= high:
        raise BadInput(what, text, f"expected a whole number from {low} to {high}")
    return value


def check_tree(
    data: object, what: str, name: str, depth: int = MAX_NESTING, nodes: int = MAX_NODES
) -> None:
    """Refuse parsed YAML or JSON nested deeper than ``depth`` or holding more than ``nodes``
    values (YAML aliases counted each time they are used: no "billion laughs").

    The walk is iterative, so it cannot itself overflow the stack.
    """
    stack: list[tuple[object, int]] = [(data, 0)]
    seen = 0
    while stack:
        value, level = stack.pop()
        seen += 1
        if seen > nodes:
            raise BadInput(what, name, f"more than {nodes} values")
        if isinstance(value, Mapping):
            children: list[object] = [*value.keys(), *value.values()]
        elif isinstance(value, list | tuple):
            children = list(value)
        else:
            continue
        if level >= depth:
            raise BadInput(what, name, f"nested deeper than {depth} levels")
        stack.extend((child, level + 1) for child in children)


@contextmanager
def parsing(what: str, name: str) -> Iterator[None]:
    """Around a YAML or JSON parser: nesting too deep for the parser's own recursion, and
    numbers too long for Python's int conversion, become one BadInput line."""
    try:
        yield
    except RecursionError:
        raise BadInput(what, name, f"nested deeper than {MAX_NESTING} levels") from None
    except MemoryError:
        raise TooLarge(what, name, "too large to read") from None
    except ValueError as error:
        if "digits" not in str(error) or isinstance(error, BadInput):
            raise
        longest = sys.get_int_max_str_digits()
        raise BadInput(what, name, f"a number of more than {longest} digits") from None


def read_limited(path: str | Path, what: str, limit: int) -> bytes:
    """The bytes of a user's regular file of at most ``limit`` bytes; anything else is refused.

    The file is opened without blocking (a FIFO never waits for a writer), checked to be a
    regular file (not a FIFO, a device such as ``/dev/zero``, a folder) and to be no larger than
    ``limit`` before a byte is read, and then at most ``limit + 1`` bytes are read (a file that
    grows meanwhile is refused too). A name that cannot be a file name (a lone surrogate, a NUL)
    is refused the same way: one :class:`BadInput` line.

    >>> read_limited("/dev/zero", "token file", 100)
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad token file '/dev/zero': not a regular file (a device)
    >>> read_limited("\\ud800", "scenario file", 100)
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad scenario file '\\ud800': not a possible file name
    """
    name = str(path)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (UnicodeEncodeError, ValueError):  # a lone surrogate, or a NUL
        raise BadInput(what, name, "not a possible file name") from None
    except OSError as error:
        raise BadInput(what, name, f"cannot be read ({error.strerror or error})") from None
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            raise BadInput(what, name, f"not a regular file ({file_kind(status.st_mode)})")
        if status.st_size > limit:
            raise BadInput(what, name, f"larger than {_size(limit)}")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(handle, min(left, 2**20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise BadInput(what, name, f"cannot be read ({error.strerror or error})") from None
    finally:
        os.close(handle)
    data = b"".join(chunks)
    if len(data) > limit:
        raise BadInput(what, name, f"larger than {_size(limit)}")
    return data


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words.

    >>> file_kind(stat.S_IFIFO), file_kind(stat.S_IFDIR)
    ('a FIFO', 'a folder')
    """
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((words for test, words in kinds if test(mode)), "not a plain file")


def _size(limit: int) -> str:
    """``limit`` bytes in words: MiB when a whole number of them, else KiB or bytes."""
    if limit >= 2**20 and limit % 2**20 == 0:
        return f"{limit // 2**20} MiB"
    if limit >= 2**10 and limit % 2**10 == 0:
        return f"{limit // 2**10} KiB"
    return f"{limit} bytes"


def db_timeout() -> float:
    """Seconds a database command waits (``$ORDNANCE_DB_TIMEOUT``, default 5).

    >>> db_timeout()
    5.0
    """
    text = os.environ.get(DB_TIMEOUT_ENV, "").strip()
    if not text:
        return DB_TIMEOUT_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= MAX_DB_TIMEOUT_SECONDS:  # also refuses nan and inf
        raise BadInput(
            f"${DB_TIMEOUT_ENV}",
            text,
            f"expected seconds, more than 0 and at most {MAX_DB_TIMEOUT_SECONDS:g}",
        )
    return value
