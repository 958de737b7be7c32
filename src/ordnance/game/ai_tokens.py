"""The tokens of the sides an AI plays (:class:`AiTokens`), one file for the web table and the
command line alike.

The AI acts like anyone else, with its side's token, so the token is kept where the AI's
process finds it: in ``ai_tokens.json`` (mode 0600, its folder made 0700), never in the game
database, which players may read. The web table keeps it beside the app's state (``serve
--ai-keys``); the command line in the key store's folder, once ``game play --ai-token-file`` or
``game ai --keep`` gave it. Processes sharing the file keep what the others wrote: a write
merges the file's games into its own, and a game not known yet is looked for in the file again
when the file changed.

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> kept = AiTokens.in_folder(pathlib.Path(folder.name) / "keys")
>>> kept.put("g1", "german", "secret")
>>> kept.sides("g1"), kept.sides("g2")
({'german': 'secret'}, {})
>>> oct(kept.path.stat().st_mode & 0o777), AiTokens.at(kept.path.parent).sides("g1")
('0o600', {'german': 'secret'})
>>> folder.cleanup()
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path

from ordnance.core.errors import BadInput
from ordnance.game.dberrors import StorageError

AI_TOKENS = "ai_tokens.json"  # the file's name in a folder given for it

Tokens = dict[str, dict[str, str]]  # game -> side -> token


class AiTokenError(StorageError):
    """The AI token file cannot be written: like a database away, not the user's fault (the
    web answers 503)."""

    def __str__(self) -> str:
        return f"AI token file {self.url}: cannot be written ({self.problem})"


class AiTokens:
    """The AI sides' tokens kept in the file at ``path`` (None: in memory only).

    A file that cannot be read, is not a JSON object or is open to other users is refused
    (:class:`~ordnance.core.errors.BadInput`) when it is first read: at a server's start, at
    the command that needs it.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._kept: Tokens = {}
        self._seen: tuple[int, int, int] | None = None  # the file as last read
        self._lock = threading.Lock()
        with self._lock:
            self._refresh()

    @classmethod
    def at(cls, place: Path) -> AiTokens:
        """The tokens at ``place``: the file, or :data:`AI_TOKENS` in it when it is a folder."""
        return cls.in_folder(place) if place.is_dir() else cls(place)

    @classmethod
    def in_folder(cls, folder: Path) -> AiTokens:
        """The tokens in :data:`AI_TOKENS` of ``folder`` (made with the first token kept): the
        command line's, in the key store's folder."""
        return cls(folder / AI_TOKENS)

    def sides(self, game: str) -> dict[str, str]:
        """The kept tokens of ``game``'s AI sides (side -> token)."""
        with self._lock:
            if game not in self._kept:
                self._refresh()  # another process sharing the file may have started it
            return dict(self._kept.get(game, {}))

    def put(self, game: str, side: str, token: str) -> None:
        """Keep ``token`` as the AI's for ``side`` of ``game`` (the file written whole, or not
        at all)."""
        with self._lock:
            self._refresh()
            self._kept.setdefault(game, {})[side] = token
            if self.path is not None:
                self._write(self.path)

    def _write(self, path: Path) -> None:
        fresh = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self._kept, out)
            fresh.replace(path)
            self._seen = _identity(path.stat())
        except OSError as error:
            with contextlib.suppress(OSError):
                fresh.unlink(missing_ok=True)
            raise AiTokenError(str(path), str(error.strerror or error)) from None

    def _refresh(self) -> None:
        """Merge in the games the file holds, when it changed since it was last read."""
        if self.path is None:
            return
        try:
            found = self.path.stat()
        except (FileNotFoundError, NotADirectoryError):  # none yet: made by the first put
            return
        except OSError as error:
            raise BadInput("AI token file", str(self.path), f"cannot be read ({error})") from None
        # A write replaces the file (a new inode): a change within the clock's tick is seen too.
        if _identity(found) == self._seen:
            return
        if found.st_mode & 0o077:
            problem = f"is open to other users (mode {found.st_mode & 0o777:04o})"
            raise BadInput("AI token file", str(self.path), problem)
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            raise BadInput("AI token file", str(self.path), f"cannot be read ({error})") from None
        if not isinstance(data, dict):
            raise BadInput("AI token file", str(self.path), "is not a JSON object")
        read = {
            str(game): {str(side): str(token) for side, token in sides.items()}
            for game, sides in data.items()
            if isinstance(sides, dict)
        }
        self._kept = {**read, **{g: {**read.get(g, {}), **s} for g, s in self._kept.items()}}
        self._seen = _identity(found)


def _identity(found: os.stat_result) -> tuple[int, int, int]:
    return (found.st_ino, found.st_mtime_ns, found.st_size)
