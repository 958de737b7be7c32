"""The map's hex labels as one image: ``/games/GAME/labels.svg?size=S&counters=C&h=HASH``.

A table page's map shows its hex labels as one ``<image>`` of this document
(:mod:`ordnance.core.maps.svg_labels` says why). The address names everything a server
process needs to draw it again from the game alone (the game's map, the hex size, whether the
labels sit beside counters), and ``h`` is the hash of the document itself: any worker of
``serve --workers N`` answers it, whether or not it drew the page, and a browser keeps it for
good (``immutable``) since a different drawing has a different address.

No side's token is asked: the labels are the public map, which a spectator's page shows too.
An address whose hash is not the game's drawing now (a wrong one, or a map changed since),
or a game that is not there, is 404.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote, urlencode

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from ordnance.core.errors import OrdnanceError
from ordnance.core.maps.svg_labels import LabelSheet
from ordnance.game.picture import game_picture
from ordnance.web.answers import answer_of, retry_headers
from ordnance.web.pictures import Pictures
from ordnance.web.table import Table

router = APIRouter(include_in_schema=False)

# Address (game, size, counters, hash) -> document; every worker answers an address alike.
# A village map's labels are ~27 KB: a few games' worth.
Address = tuple[str, float, int, str]
SHEETS: Pictures[Address] = Pictures(size=16)
SIZES = (4.0, 400.0)  # hex sizes a drawing may have (the CLI allows 8-200)
KEEP = "public, max-age=31536000, immutable"


def href_for(game: str) -> Callable[[LabelSheet], str]:
    """What ``render_svg(labels_href=...)`` takes for a page of ``game``: the sheet's address,
    its document kept here so this process answers it without drawing it again.

    >>> from ordnance.core.hexgrid import GridLabels
    >>> from ordnance.core.maps.model import GameMap
    >>> from ordnance.core.maps.terrain import TerrainChart
    >>> chart = TerrainChart.from_toml_text('source = "t"\\n[hex.open]\\n', "t")
    >>> sheet = LabelSheet(GameMap("tiny", "t", GridLabels(3, 2), "open"), chart, 48.0, True)
    >>> href_for("g1")(sheet) == f"/games/g1/labels.svg?size=48.0&counters=1&h={sheet.digest}"
    True
    """

    def href(sheet: LabelSheet) -> str:
        SHEETS.put((game, sheet.size, int(sheet.compact), sheet.digest), sheet.document())
        query = urlencode({"size": repr(sheet.size), "counters": int(sheet.compact)})
        return f"/games/{quote(game, safe='')}/labels.svg?{query}&h={sheet.digest}"

    return href


def _missing(why: str) -> PlainTextResponse:
    return PlainTextResponse(f"no such labels drawing: {why}", status_code=404)


@router.get("/games/{game}/labels.svg")
async def labels(
    request: Request, game: str, h: str = "", size: float = 0.0, counters: int = 0
) -> Response:
    """The labels document of ``game`` at hex ``size``, if its hash is ``h``."""
    table: Table = request.app.state.table
    return await table.workers.run(_labels, table, game, h, size, counters)


def _labels(table: Table, game: str, h: str, size: float, counters: int) -> Response:
    address = (game, size, counters, h)
    document = SHEETS.get(address)
    if document is None:
        if not SIZES[0] <= size <= SIZES[1] or counters not in (0, 1):
            return _missing(f"size {size} with counters {counters} is not a drawing's")
        try:
            with table.locks.hold(game):
                folded = table.service.game(game)
        except OrdnanceError as error:
            _, status = answer_of(error)
            told = str(error) if status == 503 else f"no such labels drawing: {error}"
            return PlainTextResponse(told, status_code=status, headers=retry_headers(status))
        # Drawn outside the lock, as the page's map is (a folded game is a frozen value).
        picture = game_picture(folded.rules, folded.state)
        if picture is None:
            return _missing(f"game {game} has no map")
        sheet = LabelSheet(picture.game_map, picture.chart, size, bool(counters))
        if sheet.digest != h:
            return _missing(f"{h!r} is not the hash of game {game}'s labels at size {size}")
        document = sheet.document()
        SHEETS.put(address, document)
    return Response(document, media_type="image/svg+xml", headers={"Cache-Control": KEEP})
