"""The tokens of the sides the AI plays in this machine's games (``ai_tokens.json``).

The AI acts like anyone else, with its side's token. The web table keeps the tokens of the
sides it plays beside the app's state; on the command line they are kept in the key store's
folder (:mod:`ordnance.game.keystore`, mode 0700), in a file of mode 0600, never in the game
database, which players may read. A side's token is kept once it is given to ``game play
--ai-token-file`` or ``game ai --keep``; from then on the AI answers every ``game do`` and
``game play`` of that game by itself, as on the web table.

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> kept = KeptTokens(pathlib.Path(folder.name) / "keys")
>>> kept.put("g1", "german", "secret")
>>> kept.sides("g1"), kept.sides("g2")
({'german': 'secret'}, {})
>>> oct(kept.path.stat().st_mode & 0o777)
'0o600'
>>> folder.cleanup()
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ordnance.core.errors import BadInput, OrdnanceError

AI_TOKENS = "ai_tokens.json"


class KeptTokens:
    """The AI sides' tokens, by game, in the key store folder ``keys``."""

    def __init__(self, keys: Path) -> None:
        self.path = keys / AI_TOKENS

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            mode = self.path.stat().st_mode & 0o777
            if mode & 0o077:
                raise BadInput(
                    "AI token file", str(self.path), f"is open to other users (mode {mode:04o})"
                )
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            raise BadInput("AI token file", str(self.path), f"cannot be read ({error})") from None
        if not isinstance(data, dict):
            raise BadInput("AI token file", str(self.path), "is not a JSON object")
        return {
            str(game): {str(s): str(t) for s, t in sides.items()}
            for game, sides in data.items()
            if isinstance(sides, dict)
        }

    def sides(self, game: str) -> dict[str, str]:
        """The kept tokens of ``game``'s AI sides (side -> token)."""
        return self._read().get(game, {})

    def put(self, game: str, side: str, token: str) -> None:
        """Keep ``token`` as the AI's for ``side`` of ``game`` (written whole, or not at all)."""
        data = self._read()
        data.setdefault(game, {})[side] = token
        fresh = self.path.with_name(f".{AI_TOKENS}.{os.getpid()}")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out)
            fresh.replace(self.path)
        except OSError as error:
            fresh.unlink(missing_ok=True)
            raise KeptTokenError(str(self.path), str(error.strerror)) from None


class KeptTokenError(OrdnanceError):
    """The AI token file cannot be written."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(path, problem)
        self.where, self.problem = path, problem

    def __str__(self) -> str:
        return f"AI token file {self.where}: cannot be written ({self.problem})"
