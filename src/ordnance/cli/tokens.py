"""Where a side's token comes from: ``--token-file PATH``, ``$ORDNANCE_TOKEN`` or ``--token``.

A token on the command line is visible to every user of the machine (``ps``, ``/proc``) and
stays in shell history, so ``--token`` still works but prints a warning; a file readable only by
its owner, or the environment variable, keeps it private.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated

import typer

from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_TOKEN_FILE_BYTES, read_limited

ENV = "ORDNANCE_TOKEN"
_MAX_TOKEN = 200

Token = Annotated[
    str | None,
    typer.Option(
        "--token",
        metavar="TOKEN",
        help="The side's secret token (other users can read a command line: prefer"
        " --token-file or $ORDNANCE_TOKEN).",
    ),
]
TokenFile = Annotated[
    Path | None,
    typer.Option(
        "--token-file",
        metavar="PATH",
        help="A file whose first line is the side's token (keep it mode 600).",
    ),
]


def resolve_token(token: str | None, token_file: Path | None) -> str:
    """The token a command acts with; warns (stderr) when it came from the command line."""
    if token is not None and token_file is not None:
        raise BadInput("token", "", "give --token or --token-file, not both")
    if token_file is not None:
        return _read(token_file)
    if token is not None:
        sys.stderr.write(
            "ordnance: warning: --token on the command line can be read by other users of this"
            f" machine (ps); use --token-file PATH or ${ENV}\n"
        )
        return _checked(token, "--token")
    given = os.environ.get(ENV)
    if given:
        return _checked(given.strip(), f"${ENV}")
    raise BadInput("token", "", f"none given: use --token-file PATH or ${ENV} (or --token)")


def _read(path: Path) -> str:
    data = read_limited(path, "token file", MAX_TOKEN_FILE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("token file", str(path), "cannot be read (not UTF-8 text)") from None
    lines = text.strip().splitlines()
    return _checked(lines[0].strip() if lines else "", str(path))


def _checked(token: str, where: str) -> str:
    if not token or len(token) > _MAX_TOKEN or not token.isprintable():
        raise BadInput("token", where, f"expected 1 to {_MAX_TOKEN} printable characters")
    return token


def token_paths(folder: Path, sides: Iterable[str]) -> dict[str, Path]:
    """Where ``game new --tokens DIR`` puts each side's token (``DIR/SIDE.token``), checked
    before the game is made: a file already there is refused (it may be the only copy of
    another game's token), and so is a folder that cannot hold them.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> sorted(p.name for p in token_paths(folder / "c8", ["russian", "german"]).values())
    ['german.token', 'russian.token']
    >>> (folder / "german.token").touch()
    >>> token_paths(folder, ["german"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad --tokens '...german.token': exists (a token of another \
game?); ordnance never replaces it: give another folder
    """
    if folder.exists() and not folder.is_dir():
        raise BadInput("--tokens", str(folder), "is not a folder")
    if not folder.exists() and not folder.absolute().parent.is_dir():
        raise BadInput("--tokens", str(folder), f"cannot be made (no folder {folder.parent})")
    paths = {side: folder / f"{side}.token" for side in sides}
    for path in paths.values():
        if path.exists() or path.is_symlink():
            raise BadInput(
                "--tokens",
                str(path),
                "exists (a token of another game?); ordnance never replaces it: give another"
                " folder",
            )
    return paths


def write_tokens(paths: Mapping[str, Path], tokens: Mapping[str, str]) -> dict[str, Path]:
    """Write each side's token to its file (mode 0600, the folder made mode 0700 if new); all
    or none: on a failure the files written so far are removed. The files written, by side."""
    from ordnance.core.outfiles import write_output  # noqa: PLC0415

    written: dict[str, Path] = {}
    try:
        for side, token in tokens.items():
            path = paths[side]
            try:
                path.parent.mkdir(mode=0o700, exist_ok=True)
            except OSError as error:
                problem = f"cannot be made ({error.strerror or error})"
                raise BadInput("--tokens", str(path.parent), problem) from None
            write_output(path, token + "\n", "token", private=True)
            written[side] = path
    except BadInput:
        for path in written.values():
            path.unlink(missing_ok=True)
        raise
    return written


def private_stdout() -> None:
    """Make standard output mode 0600 when it is a file of ours: it is about to hold tokens
    (``game new --json > new.json`` made it with the shell's umask, often 0644)."""
    try:
        descriptor = sys.stdout.fileno()
        found = os.fstat(descriptor)
        if stat.S_ISREG(found.st_mode) and found.st_uid == os.getuid():
            os.fchmod(descriptor, stat.S_IMODE(found.st_mode) & 0o600)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return  # not a file (a terminal, a pipe, captured output): nothing to protect
