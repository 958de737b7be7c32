"""Which files the process opens while a block runs: a test's proof that nothing was read.

Python's "open" audit event fires for every ``io.open`` and ``os.open`` (pathlib's too). A hook
cannot be removed, so one is added once and fills the lists of the blocks watching now.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_WATCHING: list[list[str]] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _WATCHING and args and isinstance(args[0], str | Path):
        for opened in _WATCHING:
            opened.append(str(args[0]))


sys.addaudithook(_audit)


@contextmanager
def files_opened() -> Iterator[list[str]]:
    """The paths opened (by any thread) while the block runs."""
    opened: list[str] = []
    _WATCHING.append(opened)
    try:
        yield opened
    finally:
        _WATCHING.remove(opened)
