"""The table: a side's private link, the page of a side or a spectator, and the side's forms
(act, the AI's physical dice, undo), plus the export of the log.

Pages are drawn outside any lock and kept per (game, version, side) and whatever else changes
them (:mod:`.page_cache`): after a push, the two sides' pages and the spectators' are drawn
once each. Forms work without script; ``static/table.js`` only swaps the page's ``<main>`` in
place (after a form, a link within the table, or a server-sent event) so nothing reloads.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.limits import MAX_NUMBER, whole_number
from ordnance.core.maps.cache import BoundedCache
from ordnance.game.dberrors import StorageError
from ordnance.game.errors import NotAuthorized, RolledBack, StaleState
from ordnance.game.fold import Game
from ordnance.game.registry import victory_of  # victory: game status's words
from ordnance.game.result import over_sentence
from ordnance.game.tokens import matches

# Its routes first: /games/{game}/events comes before the side page's /games/{game}/{side}.
from ordnance.web import (
    events,  # noqa: F401
    news,
    preview,
    security,
    views,
)
from ordnance.web.answers import status_of
from ordnance.web.page_cache import CSRF_MARK, PAGES_KEPT, Page, PageKey
from ordnance.web.render import (
    ENV,
    Drawn,
    csrf_refused,
    error_page,
    page_route,
    query_version,
    read_form,
    rejoin_page,
    render,
    router,
    table_of,
)
from ordnance.web.table import AiState, Table


@router.get("/join/{game}/{side}/{token}")
async def join(request: Request, game: str, side: str, token: str) -> Response:
    """A side's private link: keep the token in a cookie, then show the table at a clean URL."""
    return await table_of(request).workers.run(_join, request, game, side, token)


def _join(request: Request, game: str, side: str, token: str) -> Response:
    table = table_of(request)
    try:
        folded = table.call(lambda s: s.game(game), game)
        folded.check_side(side)
        known = table.call(
            lambda s: matches(s.keys.token_key(), game, side, token, s.store.token_hash(game, side))
        )
    except OrdnanceError as error:
        return error_page(request, error)
    if not known:
        return render(
            request,
            "message.html",
            403,
            title="This link is not valid",
            message=f"That is not the link of side {side} in game {game}: check it was copied"
            " whole.",
            spectator=f"/games/{game}",
        )
    response = RedirectResponse(f"/games/{game}/{side}", status_code=303)
    response.headers["Cache-Control"] = "no-store"  # the link's URL holds the token
    security.set_side_cookie(response, game, side, token, secure=security.is_tls(request))
    return response


@page_route("/games/{game}")
async def spectate(request: Request) -> Response:
    return await table_of(request).workers.run(_addressed, request, None)


@router.get("/games/{game}/export")
async def export(request: Request, game: str) -> Response:
    return await table_of(request).workers.run(_export, request, game)


def _export(request: Request, game: str) -> Response:
    table = table_of(request)
    try:
        text = table.call(lambda s: s.export(game), game)
    except OrdnanceError as error:
        return error_page(request, error)
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="ordnance-{game}.json"'},
    )


@page_route("/games/{game}/{side}")
async def side_page(request: Request) -> Response:
    """A side's table; ``?unit=`` chooses a counter, ``?notice=`` says what was done, ``?seen=``
    the version the browser showed (the news since); ``?action=`` (and ``?hex=``, ``?pick=``,
    the preview's fields) are read by preview.board_of."""
    return await table_of(request).workers.run(_addressed, request, request.path_params["side"])


def _addressed(request: Request, side: str | None) -> HTMLResponse:
    """The page of ``side`` (None: a spectator) its address asks for."""
    game, query = request.path_params["game"], request.query_params
    try:
        seen = query_version(request, "seen")
    except BadInput as error:
        return error_page(request, error)
    if side is None:
        return _page(request, game, None, seen=seen)
    return _side_page(
        request, game, side, unit=query.get("unit"), notice=query.get("notice"), seen=seen
    )


def _side_page(
    request: Request,
    game: str,
    side: str,
    *,
    unit: str | None,
    notice: str | None,
    seen: int | None,
) -> HTMLResponse:
    token = security.side_token(request, game, side)
    if token is None:
        return rejoin_page(request, game, side)
    try:
        # The token itself, not only a cookie of the right name (the service's check), on the
        # game as stored: the page is drawn from it (one read of the game's newest entry, not
        # two: on PostgreSQL, a round trip).
        folded = table_of(request).call(lambda s: s.authorize(game, side, token), game)
    except NotAuthorized:
        return rejoin_page(request, game, side)
    except OrdnanceError as error:
        return error_page(request, error)
    return _page(
        request, game, side, unit=unit, notice=notice, seen=seen, token=token, folded=folded
    )


def _page(
    request: Request,
    game: str,
    side: str | None,
    *,
    unit: str | None = None,
    notice: str | None = None,
    refused: str | None = None,
    status: int = 200,
    ai_given: tuple[str, ...] = (),
    seen: int | None = None,
    token: str | None = None,
    folded: Game | None = None,
) -> HTMLResponse:
    """The table page of ``side`` (None: a spectator); ``folded``: the game as just read."""
    table = table_of(request)
    try:
        if folded is None:
            folded = table.call(lambda s: s.game(game), game)
    except RolledBack as error:
        return render(
            request,
            "message.html",
            status_of(error),
            title="This game's log was rolled back",
            message=f"{error}. The server refuses to show or play it: ask its operator to"
            " restore the database from a backup that holds every entry.",
        )
    except OrdnanceError as error:
        return error_page(request, error)
    # The AI thinking (its run started here if nothing plays it), or why it stopped: asked on
    # every look, as it may start the AI's run.
    ai_state = table.ai_state(folded, side, token)
    moves = table.ai_moves.peek(game) or ()
    key = PageKey(
        game,
        folded.version,
        side,
        (
            unit,
            notice,
            refused,
            status,
            ai_given,
            # ?seen= changes the page only where it names a version before this one.
            seen if seen is not None and 0 <= seen < folded.version else None,
            tuple(sorted(i for i in request.query_params.multi_items() if i[0] != "seen")),
            ai_state,
            moves[-1].version if moves else None,
        ),
    )
    page = table.pages.get(key)
    if page is None:
        try:
            html = _draw(
                request,
                table,
                folded,
                side,
                unit=unit,
                notice=notice,
                refused=refused,
                ai_given=ai_given,
                seen=seen,
                ai_state=ai_state,
            )
        except OrdnanceError as error:
            return error_page(request, error)
        page = Page.of(html)
        table.pages.put(key, page)
    csrf = security.csrf_token(request)
    response = HTMLResponse(page.sent_with(csrf), status_code=status)
    security.keep_csrf(request, response)
    return response


def _draw(
    request: Request,
    table: Table,
    folded: Game,
    side: str | None,
    *,
    unit: str | None,
    notice: str | None,
    refused: str | None,
    ai_given: tuple[str, ...],
    seen: int | None,
    ai_state: AiState | None,
) -> str:
    """The table page of ``side`` (None: a spectator) at the folded game's version, drawn
    outside any lock (a folded game is a frozen value): another game's command, or this
    game's other pages, do not wait for this map. bench_board.py, load average 8-12 on 2
    cores: the page's server time p50 75-132 ms -> 12-21 ms (map kept), push p50 519-740 ->
    430-466 ms; bench_web.py: see docs/benchmarks.md."""
    game = folded.id
    info = table.service.status(game, side, game=folded)
    state = info["state"]
    story = _story(table, folded, seen, state)
    actions = info["legal_actions"].get(side, []) if side is not None else []
    ai_waiting = None
    if side is not None and folded.dice.mode == "physical":
        try:
            ai_waiting = table.ai_waiting(folded, ai_given)
        except BadInput:  # the dice entered do not fit: ask for them all again
            ai_waiting = table.ai_waiting(folded)
    board = preview.board_of(request.query_params, folded, side) if side else None
    svg, _ = views.map_svg(folded, board, unit)
    acting, alone = preview.unit_actions(folded, side) if side else ([], [])
    places = preview.places(preview.CACHE.get(folded, side, unit)[1]) if side and unit else []
    return ENV.get_template("table.html").render(
        request=request,
        csrf=CSRF_MARK,
        game=game,
        side=side,
        info=info,
        stage=views.stage(state),
        map_svg=None if svg is None else Drawn(svg),
        units=story.units,
        victory=victory_of(folded.rules.name, state),
        unit=unit,
        all_actions=actions,
        acting=acting,
        side_actions=preview.buttons(folded, side, alone) if side else [],
        places=places,
        board=board,
        version=info["version"],
        rulings=story.rulings,
        log=story.log,
        news=story.since,
        last=story.last,
        notice=notice,
        refused=refused,
        ai_moves=list(reversed(table.ai_moves.peek(game) or ()))[:12],
        ai_waiting=ai_waiting,
        ai_state=ai_state,
        over=over_sentence(state),
        physical=info["dice"].get("mode") == "physical",
        undoable=info["undoable"] is not None and info["undoable"]["side"] == side,
        scalars=[
            (k, ("yes" if v else "no") if isinstance(v, bool) else v)
            for k, v in state.items()
            if isinstance(v, str | int | bool) and k not in ("map",)
        ],
    )


@dataclass(frozen=True)
class Story:
    """What every page of a game at one version shows alike: the log's newest lines and the
    latest rulings (drawn once for every page: 0.2-0.25 ms a page with 40 lines and three
    rulings, measured alone), the news since the version the browser showed, what the map
    marks as the last action, and the side record's rows."""

    log: Drawn
    rulings: Drawn | None
    since: list[str]
    last: news.LastAction | None
    units: list[dict[str, Any]]


# The two sides' pages and the spectators' after a push tell the same story, so it is told
# once (bench_web, 150 games: 5% of the server's CPU went to telling it for each page). Kept
# like the pages, by the game's state (version and head) and the version the browser showed.
_STORIES = BoundedCache[tuple[str, int, str, int | None], Story](PAGES_KEPT)


def _story(table: Table, folded: Game, seen: int | None, state: dict[str, Any]) -> Story:
    game = folded.id
    shown = seen if seen is not None and 0 <= seen < folded.version else None

    def tell() -> Story:
        # The log as far as this version (a command stored since is the next version's page).
        log = table.service.logs.upto(folded)
        rulings = views.recent_rulings(log)
        return Story(
            log=_drawn("log.html", log=news.log_sentences(folded, log, views.LOG_SHOWN)),
            rulings=_drawn("rulings.html", rulings=rulings) if rulings else None,
            since=news.page_news(folded, log, shown),
            last=news.last_action(folded, log),
            units=views.units_of(state),
        )

    return _STORIES.get((game, folded.version, folded.head, shown), tell)


def _drawn(template: str, **context: Any) -> Drawn:
    return Drawn(ENV.get_template(template).render(**context))


async def _side_form(
    request: Request, game: str, side: str
) -> tuple[FormData, str, int | None] | Response:
    """The form of a side's action, its token and the version it saw, once the CSRF token,
    the side's token and the version are good; else the answer to send."""
    form = await read_form(request, 64 * 1024)
    if not security.csrf_ok(request, form.get("csrf")):
        return csrf_refused()
    token = security.side_token(request, game, side)
    if token is None:
        return rejoin_page(request, game, side)
    table = table_of(request)
    try:
        version = _version(form)
        await table.workers.run_first(table.call, lambda s: s.authorize(game, side, token), game)
    except NotAuthorized:
        return rejoin_page(request, game, side)
    except BadInput as error:
        if error.what == "version":
            notice, status = f"Not applied. {error}", status_of(error)
            return await table.workers.run(_page, request, game, side, notice=notice, status=status)
        return error_page(request, error)
    except OrdnanceError as error:
        return error_page(request, error)
    return form, token, version


def _version(form: FormData) -> int | None:
    """The version the form was drawn at (none given: no expectation)."""
    text = str(form.get("version") or "").strip()
    return whole_number(text, "version", 0, MAX_NUMBER) if text else None


def _not_done(
    request: Request, game: str, side: str, error: OrdnanceError, **page: Any
) -> Response:
    """The answer to a side's action the service did not take: the table again with why
    (stale, refused, bad input), the rejoin page for a bad token, a page for a lost database."""
    if isinstance(error, StaleState):
        return _page(request, game, side, notice=f"Not applied. {error}", status=status_of(error))
    if isinstance(error, NotAuthorized):
        return rejoin_page(request, game, side)
    if isinstance(error, StorageError):
        return error_page(request, error)
    clause = error.clause if isinstance(error, IllegalAction) else None
    return _page(
        request, game, side, notice=str(error), refused=clause, status=status_of(error), **page
    )


@router.post("/games/{game}/{side}/do")
async def act(request: Request, game: str, side: str) -> Response:
    got = await _side_form(request, game, side)
    if isinstance(got, Response):
        return got
    form, token, version = got
    action = str(form.get("action") or "").strip()
    # One field per physical roll (the preview), or several rolls in one field (the command box).
    dice = " ".join(str(d) for d in form.getlist("dice")).split()
    # The browser's own random bytes for the fair dice (static/table.js); without script the
    # server draws them.
    entropy = str(form.get("entropy") or "") or None
    table = table_of(request)
    try:
        words = shlex.split(action)
        if not words:
            raise BadInput("action", "", "choose an action or type a command")
        for entered in dice:
            words += ["--dice", entered]
        applied = await table.workers.run_first(
            lambda: table.do(game, side, token, words, expect=version, entropy=entropy)
        )
    except ValueError as error:  # shlex: an unclosed quote
        notice = f"bad command: {error}"
        return await table.workers.run(_page, request, game, side, notice=notice, status=422)
    except OrdnanceError as error:
        return await table.workers.run(_not_done, request, game, side, error)
    # The page says what happened since the version before this command (the AI's answers too).
    return RedirectResponse(f"/games/{game}/{side}?seen={applied.entries[0].seq}", 303)


@router.post("/games/{game}/{side}/ai-dice")
async def ai_dice(request: Request, game: str, side: str) -> Response:
    """The dice a player rolled for the AI's waiting command, one field per roll in order."""
    got = await _side_form(request, game, side)
    if isinstance(got, Response):
        return got
    form, token, version = got
    dice = tuple(str(d).strip() for d in form.getlist("dice"))
    command = str(form.get("command") or "") or None
    table = table_of(request)
    try:
        moves = await table.workers.run_first(
            lambda: table.ai_dice(game, side, token, dice, expect=version, command=command)
        )
    except OrdnanceError as error:
        return await table.workers.run(_not_done, request, game, side, error, ai_given=dice)
    if not moves:
        return RedirectResponse(f"/games/{game}/{side}?notice=The AI played nothing", 303)
    seen = version if version is not None else moves[0].version - 1
    return RedirectResponse(f"/games/{game}/{side}?seen={seen}", 303)


@router.post("/games/{game}/{side}/undo")
async def undo(request: Request, game: str, side: str) -> Response:
    got = await _side_form(request, game, side)
    if isinstance(got, Response):
        return got
    _form, token, version = got
    table = table_of(request)
    try:
        applied = await table.workers.run_first(table.undo, game, side, token, version)
    except StaleState as error:
        notice, status = f"Not applied. {error}", status_of(error)
        return await table.workers.run(_page, request, game, side, notice=notice, status=status)
    except NotAuthorized:
        return rejoin_page(request, game, side)
    except StorageError as error:
        return error_page(request, error)
    except OrdnanceError as error:
        status = status_of(error)
        return await table.workers.run(_page, request, game, side, notice=str(error), status=status)
    return RedirectResponse(f"/games/{game}/{side}?seen={applied.entries[0].seq}", 303)
