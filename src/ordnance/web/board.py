"""The board's endpoints: a chosen unit's hexes (JSON) and the preview of one (HTML fragment).

``static/board.js`` asks ``offers`` when a player chooses a counter and marks each hex it gets
with the verbs offered there; pointing at one asks ``preview``, the same fragment the side
page shows under ``?unit=&hex=`` without script. Both check the side's token as the page does.
The game is read under its lock (:mod:`.locks`); offers and previews are worked out outside it, and
the offers of a (game, version, side, unit) are kept (a game's version names its state). Each
request is one hand-off to the table's threads (:mod:`.work`), the fragment drawn there too.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ordnance.core.errors import OrdnanceError
from ordnance.game.errors import NotAuthorized
from ordnance.game.fold import Game
from ordnance.web import pages, preview, security
from ordnance.web.answers import answer_of, status_of
from ordnance.web.render import page_route
from ordnance.web.table import Table

router = APIRouter(include_in_schema=False)


def _table(request: Request) -> Table:
    table: Table = request.app.state.table
    return table


def _game(request: Request, game: str, side: str) -> Game | Response:
    """The game as the side may see it, once its token is good; else the answer to send."""
    token = security.side_token(request, game, side)
    if token is None:
        return pages.rejoin_page(request, game, side)
    table = _table(request)
    try:
        with table.locks.hold(game):
            return table.service.authorize(game, side, token)
    except NotAuthorized:
        return pages.rejoin_page(request, game, side)
    except OrdnanceError as error:
        return pages.error_page(request, error)


def _offers_json(game: Game, side: str, unit: str) -> dict[str, Any]:
    from_hex, offers = preview.CACHE.get(game, side, unit)
    hexes: dict[str, dict[str, list[str]]] = {}
    for offer in offers:
        entry = hexes.setdefault(offer.hex, {"actions": [], "notes": []})
        if offer.verb not in entry["actions"]:
            entry["actions"].append(offer.verb)
        if offer.note and offer.note not in entry["notes"]:
            entry["notes"].append(offer.note)
    return {
        "version": game.version,
        "unit": unit,
        "from": from_hex,
        "hexes": [{"hex": h, **e} for h, e in hexes.items()],
    }


@page_route("/games/{game}/{side}/offers", router)
async def offers(request: Request) -> Response:
    """Where ``?unit=`` may act now: each hex with its verbs and notes."""
    game, side = request.path_params["game"], request.path_params["side"]
    unit = request.query_params.get("unit", "")
    return await _table(request).workers.run(_offers, request, game, side, unit)


def _offers(request: Request, game: str, side: str, unit: str) -> Response:
    found = _game(request, game, side)
    if isinstance(found, Response):
        return found
    if not unit:
        return JSONResponse({"kind": "bad-input", "message": "offers need ?unit=UNIT"}, 422)
    try:
        body = _offers_json(found, side, unit)
    except OrdnanceError as error:
        kind, status = answer_of(error)
        return JSONResponse({"kind": kind, "message": str(error)}, status)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@page_route("/games/{game}/{side}/preview", router)
async def preview_fragment(request: Request) -> Response:
    """The preview of one offer as an HTML fragment (``<section data-preview>``)."""
    game, side = request.path_params["game"], request.path_params["side"]
    return await _table(request).workers.run(_preview, request, game, side)


def _preview(request: Request, game: str, side: str) -> Response:
    found = _game(request, game, side)
    if isinstance(found, Response):
        return found
    try:
        board = preview.board_of(request.query_params, found, side)
    except OrdnanceError as error:
        return HTMLResponse(f"<p>{error}</p>", status_of(error))
    if board is None:
        return HTMLResponse("<p>a preview needs ?unit=UNIT&amp;hex=HEX or ?action=TEXT</p>", 422)
    html = pages.ENV.get_template("preview.html").render(
        board=board,
        base=f"/games/{game}/{side}",
        version=found.version,
        csrf=security.csrf_token(request),
    )
    response = HTMLResponse(html, 422 if board.problem else 200)
    response.headers["Cache-Control"] = "no-store"
    security.keep_csrf(request, response)
    return response
