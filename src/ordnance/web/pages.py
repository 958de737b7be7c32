"""The HTML pages: lobby, private links, table, events, export and log verification.

Forms work without script; ``static/table.js`` only swaps the page's ``<main>`` in place (after
a form, a link within the table, or a server-sent event) so nothing reloads.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)

from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.limits import MAX_NUMBER, whole_number
from ordnance.game.dberrors import StorageError
from ordnance.game.errors import NotAuthorized, RolledBack, StaleState
from ordnance.game.registry import maps_of, names, victory_of  # victory: game status's words
from ordnance.game.result import over_sentence
from ordnance.game.scenario import DICE_MODES, Scenario
from ordnance.game.tokens import matches
from ordnance.web import clauses, news, notify, preview, security, views
from ordnance.web.answers import answer_of, note_failure, retry_headers, unavailable_sentence
from ordnance.web.lobby import cards, thumbnail_response
from ordnance.web.table import Table, new_game_scenario

router = APIRouter(include_in_schema=False)
ENV = Environment(
    loader=PackageLoader("ordnance.web", "templates"),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
ENV.filters["clause_anchor"] = clauses.anchor
# The bundled example scenarios (the repository's examples/ folder, as ``make run`` uses it).
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
KEEPALIVE = 15.0


def examples() -> dict[str, Path]:
    return {p.stem: p for p in sorted(EXAMPLES.glob("*.yaml"))}


def _table(request: Request) -> Table:
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
        raise BadInput("upload", f"{int(declared)} bytes", f"too large (limit {limit} bytes)")
    return await request.form(max_part_size=limit + 1)


async def _file_text(form: FormData, field: str, limit: int) -> str | None:
    upload = form.get(field)
    if not isinstance(upload, UploadFile) or not upload.filename:
        return None
    data = await upload.read(limit + 1)
    if len(data) > limit:
        raise BadInput(field, upload.filename, f"too large: the limit is {limit // 1024} KB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(field, upload.filename, "not UTF-8 text") from None


def error_page(request: Request, error: OrdnanceError, title: str = "No such game") -> HTMLResponse:
    """A page saying what failed, with the status of :mod:`~.answers`' table (bad input in the
    address of a page, a game that is not there, is 404 and ``title``)."""
    kind, status = answer_of(error)
    if status == 503:
        note_failure(error, request.url.path)
        title, message = "The game database is away", unavailable_sentence()
    elif kind == "bad-input":
        status, message = 404, str(error)
    else:
        title, message = "Not done", str(error)
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


def _csrf_refused() -> PlainTextResponse:
    return PlainTextResponse(
        "refused: this form's CSRF token is missing or stale; reload the page and try again",
        status_code=403,
    )


# --- lobby ---------------------------------------------------------------------------------------


@router.get("/")
def lobby(request: Request) -> HTMLResponse:
    return _lobby(request, {}, {})


def _lobby(
    request: Request, errors: Mapping[str, str], values: Mapping[str, str], status: int = 200
) -> HTMLResponse:
    table = _table(request)
    held = []
    for game, side in security.held_sides(request):
        try:
            status_now = table.call(lambda s, g=game: s.status(g))  # type: ignore[misc]
        except StorageError as error:
            return error_page(request, error)
        except OrdnanceError:
            continue
        held.append({"game": game, "side": side, "status": status_now})
    return render(
        request,
        "lobby.html",
        status=status,
        examples=list(examples()),
        cards=cards(examples()),
        errors=errors,
        values=values,
        held=held,
        dice_modes=DICE_MODES,
        bundled_maps=", ".join(sorted(m for g in names() for m in maps_of(g))),
    )


@router.get("/scenarios/{name}/map.svg")
def scenario_map(name: str) -> Response:
    """A bundled scenario's map at its start, small, for the lobby's card."""
    return thumbnail_response(examples().get(name))


@router.post("/games")
async def create(request: Request) -> Response:
    try:
        form = await read_form(request, security.SCENARIO_LIMIT + security.MAP_LIMIT)
    except BadInput as error:
        return _lobby(request, {"file": str(error)}, {}, 413)
    if not security.csrf_ok(request, form.get("csrf")):
        return _csrf_refused()
    values = {k: str(form.get(k) or "") for k in ("example", "dice", "ai")}
    try:
        text = await _file_text(form, "file", security.SCENARIO_LIMIT)
    except BadInput as error:
        return _lobby(request, {"file": str(error)}, values, 413 if "large" in str(error) else 422)
    try:
        map_text = await _file_text(form, "map", security.MAP_LIMIT)
    except BadInput as error:
        return _lobby(request, {"map": str(error)}, values, 413 if "large" in str(error) else 422)
    field = "file" if text is not None else "example"
    if text is None:
        path = examples().get(values["example"])
        if path is None:
            return _lobby(request, {"example": "choose an example or upload a file"}, values, 422)
        text = path.read_text(encoding="utf-8")
    upload = form.get("map")
    maps = None
    if isinstance(upload, UploadFile) and upload.filename and map_text is not None:
        # The map goes by its file's name, without any folder a browser may send with it.
        maps = {upload.filename.replace("\\", "/").rsplit("/", 1)[-1]: map_text}
    try:
        scenario, ai_sides = _scenario(text, values["dice"], values["ai"], maps)
    except BadInput as error:
        where = {"ai side": "ai", "uploaded map": "map"}.get(error.what, field)
        return _lobby(request, {where: str(error)}, values, 422)
    table = _table(request)
    try:
        made = await asyncio.to_thread(table.create, scenario, ai_sides)
    except StorageError as error:
        return error_page(request, error)
    except OrdnanceError as error:
        return _lobby(request, {field: str(error)}, values, answer_of(error)[1])
    base = str(request.base_url).rstrip("/")
    links = [
        {"side": side, "url": f"{base}/join/{made.game}/{side}/{token}"}
        for side, token in made.tokens.items()
        if side not in ai_sides
    ]
    return render(
        request,
        "created.html",
        game=made.game,
        scenario=scenario,
        links=links,
        ai_sides=ai_sides,
        spectator=f"{base}/games/{made.game}",
    )


def _scenario(
    text: str, dice: str, ai: str, maps: Mapping[str, str] | None = None
) -> tuple[Scenario, list[str]]:
    """The scenario with the lobby's choices of dice and AI side written in (``ai``: a side,
    "none", or blank for what the scenario says); its map is bundled or one of ``maps``."""
    ai = ai.strip()
    sides = None if not ai else [] if ai == "none" else [ai]
    return new_game_scenario(text, maps, where="file", dice=dice, ai=sides)


# --- links and the table -----------------------------------------------------------------------


@router.get("/join/{game}/{side}/{token}")
def join(request: Request, game: str, side: str, token: str) -> Response:
    """A side's private link: keep the token in a cookie, then show the table at a clean URL."""
    table = _table(request)
    try:
        folded = table.call(lambda s: s.game(game))
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


@router.get("/games/{game}")
def spectate(request: Request, game: str, seen: int | None = None) -> HTMLResponse:
    return _page(request, game, None, seen=seen)


@router.get("/games/{game}/export")
def export(request: Request, game: str) -> Response:
    table = _table(request)
    try:
        text = table.call(lambda s: s.export(game))
    except OrdnanceError as error:
        return error_page(request, error)
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="ordnance-{game}.json"'},
    )


def _watcher(request: Request) -> asyncio.Task[None]:
    """The app's task that follows other processes' writes (:func:`.notify.start`), started
    again should it have ended."""
    state = request.app.state
    task: asyncio.Task[None] | None = getattr(state, "watcher", None)
    if task is None or task.done():
        task = state.watcher = notify.start(_table(request))
    return task


@router.get("/games/{game}/events")
async def events(request: Request, game: str, seen: int = -1) -> StreamingResponse:
    """Server-sent events: a ``version`` event whenever the game moves past ``seen``; an
    ``ai`` event when the page should look again at the same version (the AI's run failed)."""
    table = _table(request)

    async def stream() -> AsyncIterator[bytes]:
        last = seen
        if last < 0:
            try:
                last = await asyncio.to_thread(table.call, lambda s: s.store.version(game))
            except OrdnanceError as error:
                # Away since the look below: end, and the browser comes back (retry).
                note_failure(error, request.url.path)
                yield b"retry: 2000\n\n"
                return
        yield f"retry: 1000\nevent: hello\ndata: {last}\n\n".encode()
        watcher = _watcher(request)
        key = table.news.listen(game)
        poked = table.news.pokes(game)
        try:
            while True:
                now = table.news.version(game)
                if now is not None and now > last:
                    last = now
                    yield f"event: version\ndata: {now}\n\n".encode()
                    continue
                if table.news.pokes(game) != poked:
                    # No new version, but the page has news (the AI's run failed): look again.
                    poked = table.news.pokes(game)
                    yield f"event: ai\ndata: {last}\n\n".encode()
                    continue
                key[1].clear()
                if table.news.version(game) != now or table.news.pokes(game) != poked:
                    continue  # moved on between the look and the clear
                try:
                    await asyncio.wait_for(key[1].wait(), KEEPALIVE)
                except TimeoutError:
                    yield b": keep-alive\n\n"
        finally:
            # The response is cancelled when the browser goes away.
            table.news.stop(game, key)
            del watcher

    try:
        await asyncio.to_thread(table.call, lambda s: s.store.version(game))
    except StorageError as error:
        # The database is away (restarting): end normally, so the browser comes back (retry;
        # an EventSource answered with any status but 200 would give up for good).
        note_failure(error, request.url.path)
        return StreamingResponse(
            iter([b"retry: 2000\n\n"]), media_type="text/event-stream", headers=retry_headers(503)
        )
    except OrdnanceError as error:
        return StreamingResponse(iter([f"event: error\ndata: {error}\n\n".encode()]), 404)
    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@router.get("/games/{game}/{side}")
def side_page(
    request: Request,
    game: str,
    side: str,
    *,
    unit: str | None = None,
    action: str | None = None,
    notice: str | None = None,
    seen: int | None = None,
) -> HTMLResponse:
    token = security.side_token(request, game, side)
    if token is None:
        return rejoin_page(request, game, side)
    try:
        # The token itself, not only a cookie of the right name (the service's check).
        _table(request).call(lambda s: s.authorize(game, side, token))
    except NotAuthorized:
        return rejoin_page(request, game, side)
    except OrdnanceError as error:
        return error_page(request, error)
    # ?action= (and ?hex=, ?pick=, the preview's fields) are read by preview.board_of.
    del action
    return _page(request, game, side, unit=unit, notice=notice, seen=seen, token=token)


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
) -> HTMLResponse:
    table = _table(request)
    with table.lock:
        try:
            folded = table.service.game(game)
            info = table.service.status(game, side)
            log = table.service.log(game)
        except RolledBack as error:
            return render(
                request,
                "message.html",
                409,
                title="This game's log was rolled back",
                message=f"{error}. The server refuses to show or play it: ask its operator to"
                " restore the database from a backup that holds every entry.",
            )
        except OrdnanceError as error:
            return error_page(request, error)
        state = info["state"]
        actions = info["legal_actions"].get(side, []) if side is not None else []
        ai_waiting = None
        if side is not None and folded.dice.mode == "physical":
            try:
                ai_waiting = table.ai_waiting(game, ai_given)
            except BadInput:  # the dice entered do not fit: ask for them all again
                ai_waiting = table.ai_waiting(game)
    # Drawn outside the lock (a folded game is a frozen value): the other side's page, or its
    # action, does not wait for this map. bench_board.py, load average 8-12 on 2 cores: the
    # page's server time p50 75-132 ms -> 12-21 ms (map kept), push p50 519-740 -> 430-466 ms.
    # The board (web/preview.py) is worked out from the folded game too.
    # The AI thinking (its run started here if nothing plays it), or why it stopped.
    ai_state = table.ai_state(folded, side, token)
    board = preview.board_of(request.query_params, folded, side) if side else None
    svg, _ = views.map_svg(folded, board, unit)
    acting, alone = preview.unit_actions(folded, side) if side else ([], [])
    places = preview.places(preview.CACHE.get(folded, side, unit)[1]) if side and unit else []
    said = news.page_news(folded, log, seen)
    last = news.last_action(folded, log)
    log_lines = news.log_sentences(folded, log, views.LOG_SHOWN)
    rows = views.units_of(state)
    return render(
        request,
        "table.html",
        status=status,
        game=game,
        side=side,
        info=info,
        stage=views.stage(state),
        map_svg=svg,
        units=rows,
        victory=victory_of(folded.rules.name, state),
        unit=unit,
        all_actions=actions,
        acting=acting,
        side_actions=preview.buttons(folded, side, alone) if side else [],
        places=places,
        board=board,
        version=info["version"],
        rulings=views.recent_rulings(log),
        log=log_lines,
        news=said,
        last=last,
        notice=notice,
        refused=refused,
        ai_moves=list(reversed(table.ai_moves.get(game, [])))[:12],
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


async def _side_form(
    request: Request, game: str, side: str
) -> tuple[FormData, str, int | None] | Response:
    """The form of a side's action, its token and the version it saw, once the CSRF token,
    the side's token and the version are good; else the answer to send."""
    form = await read_form(request, 64 * 1024)
    if not security.csrf_ok(request, form.get("csrf")):
        return _csrf_refused()
    token = security.side_token(request, game, side)
    if token is None:
        return rejoin_page(request, game, side)
    try:
        version = _version(form)
        await asyncio.to_thread(_table(request).call, lambda s: s.authorize(game, side, token))
    except NotAuthorized:
        return rejoin_page(request, game, side)
    except BadInput as error:
        if error.what == "version":
            return _page(request, game, side, notice=f"Not applied. {error}", status=422)
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
        return _page(request, game, side, notice=f"Not applied. {error}", status=409)
    if isinstance(error, NotAuthorized):
        return rejoin_page(request, game, side)
    if isinstance(error, StorageError):
        return error_page(request, error)
    clause = error.clause if isinstance(error, IllegalAction) else None
    return _page(
        request, game, side, notice=str(error), refused=clause, status=answer_of(error)[1], **page
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
    table = _table(request)
    try:
        words = shlex.split(action)
        if not words:
            raise BadInput("action", "", "choose an action or type a command")
        for entered in dice:
            words += ["--dice", entered]
        applied = await asyncio.to_thread(
            lambda: table.do(game, side, token, words, expect=version, entropy=entropy)
        )
    except ValueError as error:  # shlex: an unclosed quote
        return _page(request, game, side, notice=f"bad command: {error}", status=422)
    except OrdnanceError as error:
        return _not_done(request, game, side, error)
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
    table = _table(request)
    try:
        moves = await asyncio.to_thread(
            lambda: table.ai_dice(game, side, token, dice, expect=version, command=command)
        )
    except OrdnanceError as error:
        return _not_done(request, game, side, error, ai_given=dice)
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
    table = _table(request)
    try:
        applied = await asyncio.to_thread(table.undo, game, side, token, version)
    except StaleState as error:
        return _page(request, game, side, notice=f"Not applied. {error}", status=409)
    except NotAuthorized:
        return rejoin_page(request, game, side)
    except StorageError as error:
        return error_page(request, error)
    except OrdnanceError as error:
        return _page(request, game, side, notice=str(error), status=answer_of(error)[1])
    return RedirectResponse(f"/games/{game}/{side}?seen={applied.entries[0].seq}", 303)


# --- verifying a log ---------------------------------------------------------------------------


@router.get("/clauses")
def clauses_page(request: Request) -> HTMLResponse:
    return render(request, "clauses.html", clauses=clauses.clauses())


@router.get("/verify")
def verify_page(request: Request) -> HTMLResponse:
    return render(request, "verify.html", report=None, error=None)


@router.post("/verify")
async def verify_upload(request: Request) -> Response:
    from ordnance.game.logfile import verify  # noqa: PLC0415

    try:
        form = await read_form(request, security.LOG_LIMIT)
    except BadInput as error:
        return render(request, "verify.html", 413, report=None, error=str(error))
    if not security.csrf_ok(request, form.get("csrf")):
        return _csrf_refused()
    upload = form.get("log")
    if not isinstance(upload, UploadFile) or not upload.filename:
        return render(request, "verify.html", 422, report=None, error="choose a log file")
    data = await upload.read(security.LOG_LIMIT + 1)
    if len(data) > security.LOG_LIMIT:
        message = f"too large: the limit is {security.LOG_LIMIT // (1024 * 1024)} MB"
        return render(request, "verify.html", 413, report=None, error=message)
    report = await asyncio.to_thread(verify, data)
    return render(request, "verify.html", report=report.to_json(), error=None)
