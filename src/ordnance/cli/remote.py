"""The game commands through a server (``--server URL``) instead of a database.

Each call goes to the JSON API of ``ordnance serve`` and answers with the same values the local
service returns, so the commands print the same text and JSON; a refusal comes back as the same
error type, so the exit code is the same too (1 refused, 2 anything else).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, check_tree, parsing, read_limited

if TYPE_CHECKING:
    from ordnance.core.ruleset import Ruleset
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


def new_game(server: str, scenario: Path, ai: list[str] | None = None) -> tuple[NewGame, list[str]]:
    """A game made at the table from ``scenario``, and the sides its AI plays: ``ai``
    exactly (None: those the scenario gives the AI)."""
    text = _text(scenario, "scenario file", MAX_TEXT_FILE_BYTES)
    from ordnance.game.service import NewGame  # noqa: PLC0415  (SQLAlchemy: import late)

    body: dict[str, Any] = {"scenario": text, "maps": maps_beside(text, scenario)}
    if ai is not None:
        body["ai_sides"] = ai
    data = _call(server, "POST", "/api/games", json=body)
    made = NewGame(
        data["game"],
        data["tokens"],
        data["version"],
        data["commitment"],
        signer=data.get("signer", {}),
        head=data.get("head", ""),
    )
    return made, list(data.get("ai_sides", []))


def _text(path: Path, what: str, limit: int) -> str:
    try:
        return read_limited(path, what, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(what, str(path), "cannot be read (not UTF-8 text)") from None


def maps_beside(text: str, scenario: Path) -> dict[str, str]:
    """The map file the scenario names, read from beside it, to send along: the server reads
    no file, so a scenario with its own map brings it (under the name ``map:`` gives).

    Nothing for a bundled map's name, or a scenario the server will refuse anyway (it says why).
    """
    import yaml  # noqa: PLC0415  (only 'game new --server' needs these)

    from ordnance.core import yaml_lines  # noqa: PLC0415
    from ordnance.core.maps import MapFiles  # noqa: PLC0415
    from ordnance.core.maps.source import MAX_UPLOADED_MAP  # noqa: PLC0415
    from ordnance.game.registry import maps_of, names  # noqa: PLC0415

    try:
        with parsing("scenario file", str(scenario)):
            data = yaml_lines.safe_load(text, "scenario file", str(scenario))
        check_tree(data, "scenario file", str(scenario))
    except (yaml.YAMLError, BadInput):
        return {}
    if not isinstance(data, Mapping):
        return {}
    name = data.get("map")
    if not isinstance(name, str) or not name.strip():
        return {}
    name = name.strip()
    game = data.get("ruleset")
    if game not in names() or name in maps_of(game):
        return {}  # the server names an unknown ruleset's fault; a bundled map needs no file
    path = MapFiles.folder(scenario.parent).local_path("map", name)
    map_text = _text(path, "map file", MAX_TEXT_FILE_BYTES)
    if len(map_text) > MAX_UPLOADED_MAP:
        raise BadInput(
            "map file",
            str(path),
            f"larger than {MAX_UPLOADED_MAP // 1024} KB, the most a server takes with a scenario",
        )
    return {name: map_text}


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
) -> tuple[Applied, Ruleset[Any] | None]:
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
