"""What every HTML page of the table shares: the templates, the CSRF token, the error pages.

The pages themselves are in :mod:`.pages` (the lobby, log verification), :mod:`.table_page`
(links, the table of a side or a spectator, its forms) and :mod:`.events` (the pushes).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from ordnance.core.errors import OrdnanceError, TooLarge
from ordnance.core.limits import MAX_NUMBER, whole_number
from ordnance.web import clauses, security
from ordnance.web.answers import answer_of, note_failure, retry_headers, unavailable_sentence
from ordnance.web.table import Table

# Every page's route, whichever module draws it (one router: included routers would hide them).
router = APIRouter(include_in_schema=False)

Endpoint = Callable[[Request], Awaitable[Response]]


def page_route(path: str, on: APIRouter = router) -> Callable[[Endpoint], Endpoint]:
    """The GET route of a page the board asks for on every move (a side's table, its preview),
    whose endpoint reads its own parameters (``request.path_params``, :func:`query_version`).
    FastAPI's checks of typed parameters cost 118 of the 162 us a side page's route took on
    the event loop (its six parameters, measured alone), for nothing a page needs: the pages
    are not in the API's schema.
    """

    def add(endpoint: Endpoint) -> Endpoint:
        on.add_route(path, endpoint, methods=["GET"], include_in_schema=False)
        return endpoint

    return add


def query_version(request: Request, name: str) -> int | None:
    """The version named by the query's ``name`` (none: None); BadInput when it is not one.

    >>> from starlette.requests import Request
    >>> query_version(Request({"type": "http", "query_string": b"seen=12"}), "seen")
    12
    >>> query_version(Request({"type": "http", "query_string": b"seen=x"}), "seen")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad seen 'x': expected a whole number (digits 0-9)
    """
    text = request.query_params.get(name)
    return None if text is None else whole_number(text, name, 0, MAX_NUMBER)


class PageTemplates(Environment):
    """Jinja, reading ``row.field`` on a plain dict (the pages' rows, rulings and rolls) as
    its key at once. Jinja's own order asks for an attribute first and reads the key only
    after the AttributeError, which a table page met a few hundred times (bench_web, 150 games:
    3% of the server's CPU). A dict's methods are still found when no key of that name is
    there; the templates call none.

    >>> PageTemplates().from_string("{{ row.side }} {{ row.items() | list }}").render(
    ...     row={"side": "german"})
    "german [('side', 'german')]"
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


class Drawn:
    """Markup the server drew itself (the map's SVG), put into a page as it is.

    For a template, the same as ``|safe`` on the text, which makes a ``Markup`` that Jinja's
    escaping then copies into another, a slow copy for a string subclass: 30 us of the 70 a
    page spent on the C8 demo map's 150 KB. markupsafe takes this ``__html__``'s plain text in
    one copy.

    >>> PageTemplates(autoescape=True).from_string("{{ map }}").render(map=Drawn("<svg/>"))
    '<svg/>'
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __html__(self) -> str:
        return self.text

    def __bool__(self) -> bool:
        return bool(self.text)


ENV = PageTemplates(
    loader=PackageLoader("ordnance.web", "templates"),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
    # The templates are the installed package's: asking the file system whether each changed
    # before every page was 7% of the server's CPU at 300 games (bench_web).
    auto_reload=False,
)
ENV.filters["clause_anchor"] = clauses.anchor


def table_of(request: Request) -> Table:
    table: Table = request.app.state.table
    return table


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("csrf", security.csrf_token(request))
    html = ENV.get_template(template).render(request=request, **context)
    response = HTMLResponse(html, status_code=status)
    security.keep_csrf(request, response)
    return response


async def read_form(request: Request, limit: int) -> FormData:
    """The posted form, refused (BadInput) when the body is over ``limit`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit + 64 * 1024:
        raise TooLarge("upload", f"{int(declared)} bytes", f"too large (limit {limit} bytes)")
    return await request.form(max_part_size=limit + 1)


def error_page(request: Request, error: OrdnanceError, title: str = "No such game") -> HTMLResponse:
    """A page saying what failed, with the status of the one table of answers
    (:func:`~ordnance.game.errors.answer_of`): a game that is not there is 404 and ``title``."""
    kind, status = answer_of(error)
    message = str(error)
    if status == 503:
        note_failure(error, request.url.path)
        title, message = "The game database is away", unavailable_sentence()
    elif kind != "not-found":
        title = "Not done"
    page = render(request, "message.html", status, title=title, message=message)
    page.headers.update(retry_headers(status))
    return page


def rejoin_page(request: Request, game: str, side: str) -> HTMLResponse:
    """403: this browser holds no valid link for ``side`` (none, or an old or foreign token)."""
    return render(
        request,
        "message.html",
        403,
        title="Open your private link",
        message=f"Your session for side {side} of game {game} is not valid here: open your"
        " private link again (or watch as a spectator).",
        spectator=f"/games/{game}",
    )


def csrf_refused() -> PlainTextResponse:
    return PlainTextResponse(
        "refused: this form's CSRF token is missing or stale; reload the page and try again",
        status_code=403,
    )
