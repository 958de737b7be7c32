"""The game commands through a server (``--server URL``) instead of a database.

Each call goes to the JSON API of ``ordnance serve`` and answers with the same values the local
service returns, so the commands print the same text and JSON; a refusal comes back as the same
error type, so the exit code is the same too (1 refused, 2 anything else).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, read_limited

if TYPE_CHECKING:
    from ordnance.game.service import Applied, NewGame

TIMEOUT = 30.0


class RemoteRefused(IllegalAction):
    """A refusal the server sent: printed as the server's line (exit 1)."""

    def __init__(self, message: str) -> None:
        super().__init__("", message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class RemoteError(OrdnanceError):
    """Any other failure the server sent, or one reaching it (exit 2)."""


def _call(server: str, method: str, path: str, **kwargs: Any) -> Any:
    import httpx  # noqa: PLC0415  (only the --server commands need it)

    url = server.rstrip("/") + path
    try:
        response = httpx.request(method, url, timeout=TIMEOUT, **kwargs)
    except httpx.InvalidURL as error:
        raise RemoteError(f"server {server}: not a URL ({error})") from None
    except httpx.HTTPError as error:
        raise RemoteError(f"server {server}: cannot be reached ({error})") from None
    if response.status_code >= 400:
        try:
            body = response.json()
            kind, message = body["error"], body["message"]
        except (ValueError, KeyError, TypeError):
            raise RemoteError(
                f"server {server}: answered HTTP {response.status_code} to {method} {path}"
            ) from None
        if kind == "refused":
            raise RemoteRefused(message)
        raise RemoteError(message)
    if response.headers.get("content-type", "").startswith("application/json") and path.endswith(
        "/export"
    ):
        return response.text
    return response.json()


def new_game(server: str, scenario: Path) -> NewGame:
    data = read_limited(scenario, "scenario file", MAX_TEXT_FILE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("scenario file", str(scenario), "cannot be read (not UTF-8 text)") from None
    from ordnance.game.service import NewGame  # noqa: PLC0415  (SQLAlchemy: import late)

    data = _call(server, "POST", "/api/games", json={"scenario": text})
    return NewGame(
        data["game"],
        data["tokens"],
        data["version"],
        data["commitment"],
        signer=data.get("signer", {}),
        head=data.get("head", ""),
    )


def status(server: str, game: str, side: str | None) -> dict[str, Any]:
    params = {} if side is None else {"side": side}
    answer: dict[str, Any] = _call(server, "GET", f"/api/games/{game}", params=params)
    return answer


def do(
    server: str,
    game: str,
    side: str,
    token: str,
    words: list[str],
    *,
    expect: int | None,
    entropy: str | None = None,
) -> tuple[Applied, object | None]:
    """The command's stored result, and the game's ruleset (for its words for events)."""
    from ordnance.game.service import Applied  # noqa: PLC0415  (SQLAlchemy: import late)

    body = {"side": side, "words": words, "expect_version": expect, "entropy": entropy}
    headers = {"Authorization": f"Bearer {token}"}
    data = _call(server, "POST", f"/api/games/{game}/do", json=body, headers=headers)
    from ordnance.game.entries import Entry  # noqa: PLC0415
    from ordnance.game.registry import ruleset  # noqa: PLC0415

    entries = tuple(Entry.from_json(e) for e in data["entries"])
    rules = ruleset(data["ruleset"]) if isinstance(data.get("ruleset"), str) else None
    return Applied(data["game"], entries, data["version"], data["ruling"]), rules


def export(server: str, game: str) -> str:
    text: str = _call(server, "GET", f"/api/games/{game}/export")
    return text
