"""The tokens of the sides the app's AI plays (:class:`AiKeys`).

The AI side of a V&V game needs its token to act like anyone else: the app keeps the tokens of
the sides it plays in ``ai_tokens.json`` beside the app's state (mode 0600), never in the game
database, which players may read.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

from ordnance.core.errors import BadInput
from ordnance.game.dberrors import StorageError

AI_KEYS_FILE = "ai_tokens.json"  # in the folder given as the AI key file


class KeyFileError(StorageError):
    """The AI's key file cannot be written: like a database away, the server's fault (503)."""

    def __str__(self) -> str:
        return f"AI key file {self.url}: cannot be written ({self.problem})"


class AiKeys:
    """The tokens of the sides the app's AI plays, in a JSON file only the app's user reads."""

    def __init__(self, path: Path | None) -> None:
        if path is not None and path.is_dir():
            path = path / AI_KEYS_FILE  # a folder: the file in it
        self.path = path
        self._keys: dict[str, dict[str, str]] = {}
        self._seen = -1  # the file's mtime when last read
        if path is not None and path.is_file():
            try:
                self._keys = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise BadInput("AI key file", str(path), f"cannot be read ({error})") from None

    def put(self, game: str, side: str, token: str) -> None:
        self._keys.setdefault(game, {})[side] = token
        if self.path is None:
            return
        # Keep the games other server processes sharing the file wrote.
        with contextlib.suppress(OSError, ValueError):
            self._keys = {**json.loads(self.path.read_text(encoding="utf-8")), **self._keys}
        fresh = self.path.with_suffix(f".{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self._keys, out)
            fresh.replace(self.path)
        except OSError as error:
            raise KeyFileError(str(self.path), str(error.strerror)) from None

    def sides(self, game: str) -> Mapping[str, str]:
        if game not in self._keys and self.path is not None:
            # Another server process sharing the file may have started this game.
            try:
                changed = self.path.stat().st_mtime_ns
                if changed != self._seen:
                    self._seen = changed
                    read = json.loads(self.path.read_text(encoding="utf-8"))
                    self._keys = {**read, **self._keys}
            except (OSError, ValueError):
                pass
        return self._keys.get(game, {})
