"""Writing a file a user named: never over a file it would destroy, never half-written.

Every file the program writes for a user (an exported log, a picture, an invitation, a token
file, a scenario made from a save) goes through :func:`write_output` or :func:`staging`:

- The content goes to a new temporary file beside the target (same folder, created with
  ``O_EXCL``, mode 0600 for a secret) and is renamed into place only when complete; on any
  failure the temporary file is removed and the target is as it was.
- A new file is linked into place (``os.link``), which fails rather than replace a file that
  appeared meanwhile. An existing file is replaced only with ``force`` (``--force``) and only
  when it is of the kind being written; a database, a scenario, or a file of any other kind is
  never replaced, with ``--force`` or without. Nor is anything that is not a regular file.
  (An exported log and an invitation count as one kind: play by e-mail sends both.)

What is written has a :data:`Kind`. An existing file's kind is sniffed from its first bytes
(:func:`sniff`):

========== ==========================================================================
kind       the file starts with (after a UTF-8 byte order mark and white space)
========== ==========================================================================
database   ``SQLite format 3\\0``, or the magic of SQLite's ``-wal`` or ``-journal`` file
png        the PNG signature ``\\x89PNG\\r\\n\\x1a\\n``
svg        ``<svg``, ``<?xml`` or ``<!DOCTYPE svg``
log        a JSON object whose ``"format"`` is ``"ordnance-log"`` (``game export``)
invitation a JSON object whose ``"format"`` is ``"ordnance-invitation"``
scenario   YAML with a top-level ``ruleset:`` key
map        YAML with a top-level ``grid:``, ``hexes:`` or ``hexsides:`` key
token      one line of 16 to 200 letters, digits, ``-`` or ``_`` (a side's token)
empty      nothing: an empty file holds nothing to lose, so it is of every kind
other      anything else
========== ==========================================================================

>>> sniff(b"SQLite format 3\\x00...")
'database'
>>> sniff(b"# made by hand\\nruleset: asl\\nname: x\\n")
'scenario'
>>> sniff(b'<?xml version="1.0"?><svg/>')
'svg'
>>> replaceable("svg", "svg"), replaceable("scenario", "svg"), replaceable("empty", "log")
(True, False, True)
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from ordnance.core.errors import BadInput, shown
from ordnance.core.limits import file_kind

Kind = Literal["log", "svg", "png", "scenario", "token", "invitation"]
"""What the program writes."""

SNIFF_BYTES = 64 * 2**10
"""How much of an existing file is read to tell its kind (a scenario's comments come first)."""

_WORDS = {
    "database": "a database",
    "png": "a PNG picture",
    "svg": "an SVG picture",
    "log": "an ordnance log",
    "invitation": "an ordnance invitation",
    "scenario": "a scenario",
    "map": "a map file",
    "token": "a token file",
    "empty": "an empty file",
    "other": "a file of another kind",
}
_FAMILY = {"invitation": "log"}  # kinds that may replace each other
_NEVER = ("database", "scenario")  # what a player recorded: never replaced, --force or not
_DATABASE = (b"SQLite format 3\x00", b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
_JOURNAL = b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7"
_PNG = b"\x89PNG\r\n\x1a\n"
_FORMAT = re.compile(rb'^\{\s*"format"\s*:\s*"ordnance-(log|invitation)"')
_SCENARIO = re.compile(rb"^ruleset\s*:", re.MULTILINE)
_MAP = re.compile(rb"^(grid|hexes|hexsides)\s*:", re.MULTILINE)
_TOKEN = re.compile(rb"[A-Za-z0-9_-]{16,200}\r?\n?")


class OutputRefused(BadInput):
    """A file the program will not write, and why, in one line naming it.

    >>> str(OutputRefused("g.db", "is a database; ordnance never writes over one"))
    'g.db is a database; ordnance never writes over one'
    """

    def __init__(self, path: str, problem: str) -> None:
        super().__init__("output file", path, problem)

    def __str__(self) -> str:
        name = self.text if self.text.isprintable() and len(self.text) <= 200 else shown(self.text)
        return f"{name} {self.problem}"


def sniff(head: bytes) -> str:
    """The kind of a file that begins with ``head`` (the table above).

    >>> sniff(b""), sniff(b"\\x89PNG\\r\\n\\x1a\\n..."), sniff(b'{"format":"ordnance-log","v')
    ('empty', 'png', 'log')
    >>> sniff(b"version: 1\\ngrid:\\n  boards: 4\\n"), sniff(b"hello, world\\n")
    ('map', 'other')
    """
    if not head:
        return "empty"
    if head.startswith(_DATABASE) or head.startswith(_JOURNAL):
        return "database"
    if head.startswith(_PNG):
        return "png"
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text.startswith((b"<svg", b"<?xml", b"<!DOCTYPE svg")):
        return "svg"
    found = _FORMAT.match(text)
    if found is not None:
        return found.group(1).decode()
    if _SCENARIO.search(head):
        return "scenario"
    if _MAP.search(head):
        return "map"
    if _TOKEN.fullmatch(head):
        return "token"
    return "other"


def replaceable(existing: str, kind: Kind) -> bool:
    """Whether a file of kind ``existing`` may be replaced (with --force) by one of ``kind``.

    An exported log and an invitation are one family: play by e-mail sends both under one name
    (``to-russian.json``), and a spent invitation's content is in the log that follows it.

    >>> replaceable("invitation", "log"), replaceable("log", "svg")
    (True, False)
    """
    if existing in _NEVER:
        return False
    return existing == "empty" or _FAMILY.get(existing, existing) == _FAMILY.get(kind, kind)


def check_output(path: str | Path, kind: Kind, *, force: bool = False) -> Path:
    """The file to write for ``path`` (a link's target), or :class:`OutputRefused`.

    Used before a command does anything it cannot take back; :func:`staging` checks again.

    >>> check_output("/dev/null", "svg")
    Traceback (most recent call last):
    ...
    ordnance.core.outfiles.OutputRefused: /dev/null is not a regular file (a device); ordnance \
writes only regular files
    """
    name = str(path)
    try:
        target = Path(os.path.realpath(path))
        descriptor = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (UnicodeEncodeError, ValueError):  # a lone surrogate, or a NUL
        raise OutputRefused(name, "is not a possible file name") from None
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise OutputRefused(name, f"cannot be written (no folder {target.parent})") from None
        return target
    except IsADirectoryError:
        raise OutputRefused(name, "is a folder; give a file name") from None
    except OSError as error:
        raise OutputRefused(name, f"cannot be written ({error.strerror or error})") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise OutputRefused(name, "is a folder; give a file name")
        if not stat.S_ISREG(mode):
            kind_of = file_kind(mode)
            raise OutputRefused(
                name, f"is not a regular file ({kind_of}); ordnance writes only regular files"
            )
        existing = sniff(os.read(descriptor, SNIFF_BYTES))
    finally:
        os.close(descriptor)
    if existing in _NEVER:
        raise OutputRefused(name, f"is {_WORDS[existing]}; ordnance never writes over one")
    if not replaceable(existing, kind):
        raise OutputRefused(
            name,
            f"is {_WORDS[existing]}, not {_WORDS[kind]}; ordnance never writes over it",
        )
    if not force:
        raise OutputRefused(name, "exists; give --force to replace it")
    return target


@contextlib.contextmanager
def staging(
    path: str | Path, kind: Kind, *, force: bool = False, private: bool = False
) -> Iterator[Path]:
    """A new temporary file beside ``path`` to fill; moved into place when the block ends
    without an error, removed when it raises. ``private``: mode 0600 (a secret)."""
    target = check_output(path, kind, force=force)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.part{target.suffix}")
    try:
        descriptor = os.open(
            temporary,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
            0o600 if private else 0o666,
        )
    except OSError as error:
        raise OutputRefused(str(path), f"cannot be written ({error.strerror or error})") from None
    os.close(descriptor)
    try:
        yield temporary
        _move(temporary, target, str(path), kind, force=force)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def write_output(
    path: str | Path, data: str | bytes, kind: Kind, *, force: bool = False, private: bool = False
) -> None:
    """Write ``data`` (text as UTF-8) to the user's file ``path`` as described above.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_output(folder / "a.svg", "<svg/>", "svg")
    >>> write_output(folder / "a.svg", "<svg></svg>", "svg")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.outfiles.OutputRefused: /.../a.svg exists; give --force to replace it
    >>> write_output(folder / "a.svg", "<svg></svg>", "svg", force=True)
    >>> (folder / "a.svg").read_text(), sorted(p.name for p in folder.iterdir())
    ('<svg></svg>', ['a.svg'])
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with staging(path, kind, force=force, private=private) as temporary:
        try:
            with temporary.open("wb") as handle:
                handle.write(raw)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            problem = f"cannot be written ({error.strerror or error})"
            raise OutputRefused(str(path), problem) from None


def _move(temporary: Path, target: Path, name: str, kind: Kind, *, force: bool) -> None:
    """Put the finished file in place: a link, which fails if a file appeared meanwhile; or,
    where a file may be replaced, a rename after the target is checked once more."""
    try:
        if not force:
            try:
                os.link(temporary, target)
                return
            except FileExistsError:
                raise OutputRefused(name, "exists; give --force to replace it") from None
            except OSError:  # a file system without hard links: check, then rename
                pass
        check_output(target, kind, force=force)
        os.replace(temporary, target)
    except OSError as error:
        raise OutputRefused(name, f"cannot be written ({error.strerror or error})") from None
