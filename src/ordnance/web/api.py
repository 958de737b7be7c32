"""The JSON API: the CLI's game commands over HTTP (``--server URL``), in the OpenAPI document.

Answers are the JSON the CLI's ``--json`` prints; a failure is ``{"error": KIND, "message":
TEXT}`` with KIND ``refused`` (HTTP 409, the CLI's exit 1), ``bad-input`` (422, exit 2),
``not-found`` (404: no such game, exit 2), ``stale`` (409, exit 2), ``rolled-back`` (409, exit
2), ``not-authorized`` (403, exit 2), ``unavailable`` (503: the database cannot be reached,
e.g. while it restarts; try again), ``rate-limited`` (429), ``too-large`` (413, exit 2) or
``error`` (400, exit 2), and TEXT
the line the CLI prints. Writes take the side's token as ``Authorization: Bearer TOKEN``; their
answer adds ``entries`` (the stored log entries), ``ruleset``, ``to_move``, ``version_now``,
``ai_to_play``, ``ai_waiting`` and ``ai_trouble`` to the CLI's JSON.

The server's AI answers in the background: a write answers once its own command is stored,
and ``ai_to_play`` (true while the AI is to play by itself) says that the AI's commands are
on their way, each its own version. A client waits for them on the game's event stream
(``GET /games/GAME/events``: a ``version`` event per stored version) or reads the game's
status (``GET /api/games/GAME``, which carries the same three keys when the server's AI plays
a side of the game) until ``ai_to_play`` is false. ``ai_trouble`` is the sentence saying why
the AI stopped, when it could not play.

With physical dice the server's AI does not roll: ``ai_waiting`` (null otherwise) names its
command and the rolls it needs (``needs_dice``: purpose and number of dice, in order), and a
player of the game sends them with ``POST /api/games/GAME/ai-dice``, whose answer lists that
command (``commands``); the AI's next commands follow in the background. Too few dice is a 422
whose body carries the same ``ai_waiting`` (the rolls still to enter after those sent).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import Response

from ordnance.core.errors import BadInput, OrdnanceError
from ordnance.core.limits import MAX_NUMBER
from ordnance.core.maps.source import MAX_MAP_NAME
from ordnance.game.autoplay import DiceWanted
from ordnance.game.fold import Game
from ordnance.game.service import Applied
from ordnance.web.answers import answer_of, database_failure, note_failure, retry_headers
from ordnance.web.security import MAP_LIMIT, MAX_MAPS, SCENARIO_LIMIT
from ordnance.web.table import Table, new_game_scenario

CallNext = Callable[[Request], Awaitable[Response]]
router = APIRouter(prefix="/api")


MapName = Annotated[str, Field(min_length=1, max_length=MAX_MAP_NAME)]
MapText = Annotated[str, Field(max_length=MAP_LIMIT)]


class NewGameBody(BaseModel):
    scenario: str = Field(description="The scenario file's YAML text.", max_length=SCENARIO_LIMIT)
    maps: dict[MapName, MapText] = Field(
        default_factory=dict,
        max_length=MAX_MAPS,
        description="Maps uploaded with the scenario: name -> the map file's YAML text. The"
        " scenario's 'map:' names one (with or without '.yaml'); the server reads no file.",
    )
    ai_sides: list[str] | None = Field(
        None,
        description="Exactly the sides the server's AI plays, in place of the scenario's own"
        " 'ai:' (only a ruleset with an AI: V&V; [] for none). Left out: the sides the"
        " scenario gives the AI. Their tokens are not returned.",
    )


# A version is a JSON integer: strict, so 1e400, NaN, 2.0, true and "3" are refused (422).
Version = Annotated[
    int | None,
    Field(
        None,
        strict=True,
        ge=0,
        le=MAX_NUMBER,
        description="Refuse unless the game is still at this version (a whole number).",
    ),
]


class CommandBody(BaseModel):
    side: str = Field(description="The side acting.")
    words: list[str] = Field(description="The command's words, e.g. ['fire', 'a1', '--at', 'C4'].")
    expect_version: Version = None
    entropy: str | None = Field(
        None,
        description="The client's fresh random bytes (hex) mixed into a fair game's rolls;"
        " the answer's entry records them (check it).",
    )


class AiDiceBody(BaseModel):
    side: str = Field(description="The player's side entering the AI's dice.")
    dice: list[str] = Field(
        description="The AI's rolls in order, as its ai_waiting asks: 'W,C' for two dice, 'N'"
        " for one."
    )
    expect_version: int | None = Field(None, description="The version ai_waiting was read at.")
    command: str | None = Field(
        None, description="The AI's command as ai_waiting named it (refused if it differs)."
    )


class UndoBody(BaseModel):
    side: str
    expect_version: Version = None


def error_answer(error: OrdnanceError) -> JSONResponse:
    """The error as JSON, with the HTTP status and kind the CLI turns back into its exit code
    (:mod:`~.answers`' table); 503 asks the client to retry later. An AI waiting for its
    physical dice says which (``ai_waiting``)."""
    kind, status = answer_of(error)
    if status == 503:
        note_failure(error, "API")
    body: dict[str, Any] = {"error": kind, "message": str(error)}
    if isinstance(error, DiceWanted):
        body["ai_waiting"] = error.waits.to_json()
    return JSONResponse(body, status_code=status, headers=retry_headers(status))


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
    """Beside the CLI's JSON: the entries themselves (the CLI prints from them), whose move
    it is now and what the server's AI is doing (:func:`_ai_now`)."""
    folded = table.call(lambda s: s.game(game), game)
    return {
        "entries": [e.to_json() for e in applied.entries],
        "to_move": folded.rules.to_move(folded.state),
        "ruleset": folded.scenario.ruleset,
        "version_now": folded.version,
        **_ai_now(table, folded),
    }


def _ai_now(table: Table, folded: Game) -> dict[str, Any]:
    """The server's AI at the folded game's version: ``ai_to_play`` (it is to play by itself:
    its commands follow, each a version), ``ai_waiting`` (its command held for physical
    dice), ``ai_trouble`` (why it could not play). Of the one read the caller made: each of
    them read the game again (an action's answer made four reads of PostgreSQL, each a wait
    for the database's turn on a busy machine)."""
    waiting = table.ai_waiting(folded)
    return {
        "ai_to_play": table.ai_to_play(folded),
        "ai_waiting": None if waiting is None else waiting.to_json(),
        "ai_trouble": table.ai_trouble(folded),
    }


async def _run(table: Table, call: Callable[[], Any], *, first: bool = False) -> Any:
    """Run a blocking service call in one of the table's threads (``first``: a command or a
    status, ahead of the pages waiting: :mod:`.work`); errors come back as JSON."""
    try:
        return await (table.workers.run_first if first else table.workers.run)(call)
    except OrdnanceError as error:
        return error_answer(error)
    except Exception as error:
        failure = database_failure(error)
        if failure is None:
            raise
        return error_answer(failure)


@router.post("/games", summary="Start a game from a scenario's YAML text")
async def new_game(request: Request, body: NewGameBody) -> Any:
    table = _table(request)

    def make() -> dict[str, Any]:
        scenario, ai_sides = new_game_scenario(body.scenario, body.maps, ai=body.ai_sides)
        made = table.create(scenario, ai_sides)
        data = made.to_json()
        data["tokens"] = {s: t for s, t in made.tokens.items() if s not in ai_sides}
        data["ai_sides"] = sorted(ai_sides)
        return data

    return await _run(table, make)


@router.get("/games/{game}", summary="Where the game stands ('game status --json')")
async def status(request: Request, game: str, side: str | None = None) -> Any:
    """The CLI's JSON; where the server's AI plays a side, with what it is doing
    (``ai_to_play``, ``ai_waiting``, ``ai_trouble``: see the module's text)."""
    table = _table(request)

    def look() -> dict[str, Any]:
        folded = table.call(lambda s: s.game(game), game)
        # The legal actions are worked out outside the game's lock, on the folded game.
        answer: dict[str, Any] = table.service.status(game, side, game=folded)
        return {**answer, **_ai_now(table, folded)} if table.ai.sides(game) else answer

    return await _run(table, look, first=True)


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

    return await _run(table, act, first=True)


@router.post("/games/{game}/ai-dice", summary="Enter the physical dice of the AI's command")
async def ai_dice(
    request: Request,
    game: str,
    body: AiDiceBody,
    authorization: Annotated[str | None, Header()] = None,
) -> Any:
    table = _table(request)

    def act() -> dict[str, Any]:
        token = _token(authorization)
        moves = table.ai_dice(
            game, body.side, token, body.dice, expect=body.expect_version, command=body.command
        )
        folded = table.call(lambda s: s.game(game), game)
        return {
            "game": game,
            "commands": [{"side": m.side, "command": m.text, "version": m.version} for m in moves],
            "to_move": folded.rules.to_move(folded.state),
            "version_now": folded.version,
            **_ai_now(table, folded),
        }

    return await _run(table, act, first=True)


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

    return await _run(table, act, first=True)


@router.get(
    "/games/{game}/export",
    summary="The log as one JSON file ('game export')",
    response_class=PlainTextResponse,
)
async def export(request: Request, game: str) -> Any:
    table = _table(request)
    answer = await _run(table, lambda: table.call(lambda s: s.export(game), game))
    if isinstance(answer, JSONResponse):
        return answer
    return PlainTextResponse(answer, media_type="application/json")
