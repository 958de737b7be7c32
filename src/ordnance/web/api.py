"""The JSON API: the CLI's game commands over HTTP (``--server URL``), in the OpenAPI document.

Answers are the JSON the CLI's ``--json`` prints; a failure is ``{"error": KIND, "message":
TEXT}`` with KIND ``refused`` (HTTP 409, the CLI's exit 1), ``bad-input`` (422, exit 2),
``stale`` (409, exit 2), ``not-authorized`` (403, exit 2), ``unavailable`` (503: the database
cannot be reached, e.g. while it restarts; try again), ``rate-limited`` (429), ``too-large``
(413) or ``error`` (400, exit 2), and TEXT
the line the CLI prints. Writes take the side's token as ``Authorization: Bearer TOKEN``; their
answer adds ``entries`` (the stored log entries), ``ruleset``, ``to_move`` and
``version_now`` (after any answer of the server's AI) to the CLI's JSON.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import Response

from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.game.dberrors import StorageError
from ordnance.game.errors import NotAuthorized, RolledBack, StaleState
from ordnance.game.service import Applied
from ordnance.web.security import SCENARIO_LIMIT
from ordnance.web.table import Table, scenario_from_text

CallNext = Callable[[Request], Awaitable[Response]]
router = APIRouter(prefix="/api")


class NewGameBody(BaseModel):
    scenario: str = Field(description="The scenario file's YAML text.", max_length=SCENARIO_LIMIT)
    ai_sides: list[str] = Field(
        default_factory=list, description="Sides the server's AI plays (V&V)."
    )


class CommandBody(BaseModel):
    side: str = Field(description="The side acting.")
    words: list[str] = Field(description="The command's words, e.g. ['fire', 'a1', '--at', 'C4'].")
    expect_version: int | None = Field(None, description="Refuse unless still at this version.")
    entropy: str | None = Field(
        None,
        description="The client's fresh random bytes (hex) mixed into a fair game's rolls;"
        " the answer's entry records them (check it).",
    )


class UndoBody(BaseModel):
    side: str
    expect_version: int | None = None


def error_answer(error: OrdnanceError) -> JSONResponse:
    """The error as JSON, with the HTTP status and kind the CLI turns back into its exit code."""
    if isinstance(error, IllegalAction):
        kind, status = "refused", 409
    elif isinstance(error, RolledBack):
        # The stored log conflicts with the head the server kept: nothing is served from it.
        kind, status = "rolled-back", 409
    elif isinstance(error, StaleState):
        kind, status = "stale", 409
    elif isinstance(error, NotAuthorized):
        kind, status = "not-authorized", 403
    elif isinstance(error, BadInput):
        kind, status = "bad-input", 422
    elif isinstance(error, StorageError):
        kind, status = "unavailable", 503
    else:
        kind, status = "error", 400
    return JSONResponse({"error": kind, "message": str(error)}, status_code=status)


def _table(request: Request) -> Table:
    table: Table = request.app.state.table
    return table


def _token(authorization: str | None) -> str:
    if authorization is None or not authorization.startswith("Bearer "):
        raise NotAuthorizedHeader()
    return authorization.removeprefix("Bearer ").strip()


class NotAuthorizedHeader(BadInput):
    def __init__(self) -> None:
        super().__init__("authorization", "", "send the side's token as 'Bearer TOKEN'")


def _after(table: Table, game: str, applied: Applied) -> dict[str, Any]:
    """Beside the CLI's JSON: the entries themselves (the CLI prints from them), and whose
    move it is now (the AI may have answered already)."""
    folded = table.call(lambda s: s.game(game))
    return {
        "entries": [e.to_json() for e in applied.entries],
        "to_move": folded.rules.to_move(folded.state),
        "ruleset": folded.scenario.ruleset,
        "version_now": folded.version,
    }


async def _run(call: Callable[[], Any]) -> Any:
    """Run a blocking service call in a worker thread; errors come back as JSON."""
    try:
        return await asyncio.to_thread(call)
    except OrdnanceError as error:
        return error_answer(error)


@router.post("/games", summary="Start a game from a scenario's YAML text")
async def new_game(request: Request, body: NewGameBody) -> Any:
    table = _table(request)

    def make() -> dict[str, Any]:
        scenario = scenario_from_text(body.scenario)
        for side in body.ai_sides:
            if side not in scenario.sides:
                raise BadInput("ai side", side, f"not a side of this scenario ({scenario.sides})")
        made = table.create(scenario, body.ai_sides)
        data = made.to_json()
        data["tokens"] = {s: t for s, t in made.tokens.items() if s not in body.ai_sides}
        return data

    return await _run(make)


@router.get("/games/{game}", summary="Where the game stands ('game status --json')")
async def status(request: Request, game: str, side: str | None = None) -> Any:
    table = _table(request)
    return await _run(lambda: table.call(lambda s: s.status(game, side)))


@router.post("/games/{game}/do", summary="Send one command for a side ('game do --json')")
async def do(
    request: Request,
    game: str,
    body: CommandBody,
    authorization: Annotated[str | None, Header()] = None,
) -> Any:
    table = _table(request)

    def act() -> dict[str, Any]:
        applied = table.do(
            game,
            body.side,
            _token(authorization),
            body.words,
            expect=body.expect_version,
            entropy=body.entropy,
        )
        return {**applied.to_json(), **_after(table, game, applied)}

    return await _run(act)


@router.post("/games/{game}/undo", summary="Take back the side's latest command")
async def undo(
    request: Request,
    game: str,
    body: Annotated[UndoBody, Body()],
    authorization: Annotated[str | None, Header()] = None,
) -> Any:
    table = _table(request)

    def act() -> dict[str, Any]:
        applied = table.undo(game, body.side, _token(authorization), body.expect_version)
        return {**applied.to_json(), **_after(table, game, applied)}

    return await _run(act)


@router.get(
    "/games/{game}/export",
    summary="The log as one JSON file ('game export')",
    response_class=PlainTextResponse,
)
async def export(request: Request, game: str) -> Any:
    table = _table(request)
    answer = await _run(lambda: table.call(lambda s: s.export(game)))
    if isinstance(answer, JSONResponse):
        return answer
    return PlainTextResponse(answer, media_type="application/json")
