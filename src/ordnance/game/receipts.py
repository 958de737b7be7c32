"""Receipts: the last head of each game a player's client was shown (SYS.record).

A signed log proves who wrote each entry, but not that nothing was cut off its end: a log with
its last entries deleted is still a signed chain. So each client keeps, per game, the version
and head hash it last showed its player; ``verify`` and ``import`` refuse a log that stops short
of that entry or has another hash there (a fork, or a rewrite). Receipts never move backwards.

They live in ``$ORDNANCE_RECEIPTS``, else ``receipts`` in the user's data folder, one small JSON
file per game (they hold nothing secret).

>>> import tempfile
>>> folder = tempfile.TemporaryDirectory()
>>> book = Receipts(folder.name)
>>> book.keep(Receipt("g1", 3, "ab" * 32)); book.keep(Receipt("g1", 2, "cd" * 32))
>>> book.get("g1").version
3
>>> folder.cleanup()
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,40}")


@dataclass(frozen=True)
class Receipt:
    """One game's last version and head as its client showed them."""

    game: str
    version: int
    head: str

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "version": self.version, "head": self.head}


def default_receipts() -> Path:
    given = os.environ.get("ORDNANCE_RECEIPTS")
    if given:
        return Path(given).expanduser()
    return Path(platformdirs.user_data_dir("ordnance", appauthor=False)) / "receipts"


class Receipts:
    """The receipts of one client (see the module docstring)."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_receipts()

    def _path(self, game: str) -> Path | None:
        return self.folder / f"{game}.json" if _GAME_ID.fullmatch(game) else None

    def get(self, game: str) -> Receipt | None:
        """The receipt of ``game`` (None when none is kept or it cannot be read)."""
        path = self._path(game)
        if path is None:
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            receipt = Receipt(str(data["game"]), int(data["version"]), str(data["head"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return receipt if receipt.game == game else None

    def keep(self, receipt: Receipt) -> None:
        """Remember ``receipt`` unless a later one is kept already (best effort: a client
        that cannot write its receipts still plays)."""
        path = self._path(receipt.game)
        kept = self.get(receipt.game)
        if path is None or (kept is not None and kept.version >= receipt.version):
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            staging = path.with_name(f".{path.name}.{os.getpid()}")
            staging.write_text(json.dumps(receipt.to_json()) + "\n", encoding="utf-8")
            os.replace(staging, path)
        except OSError:
            return
