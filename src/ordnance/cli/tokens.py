"""Where a side's token comes from: ``--token-file PATH``, ``$ORDNANCE_TOKEN`` or ``--token``.

A token on the command line is visible to every user of the machine (``ps``, ``/proc``) and
stays in shell history, so ``--token`` still works but prints a warning; a file readable only by
its owner, or the environment variable, keeps it private.
"""

from __future__ import annotations

import os
import sys
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
