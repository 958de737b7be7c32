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

import yaml
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

from ordnance.cli.status_vv import victory_of  # the same words as game status
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.game.dberrors import StorageError
from ordnance.game.errors import NotAuthorized, RolledBack, StaleState
from ordnance.game.scenario import DICE_MODES, scenario_from_mapping
from ordnance.game.tokens import matches
from ordnance.web import clauses, security, views
from ordnance.web.table import Table

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
DB_POLL = 1.0  # seconds between looks at the database (writes by other processes)
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
        except OrdnanceError:
            continue
        held.append({"game": game, "side": side, "status": status_now})
    return render(
        request,
        "lobby.html",
        status=status,
        examples=list(examples()),
        errors=errors,
        values=values,
        held=held,
        dice_modes=DICE_MODES,
    )


@router.post("/games")
async def create(request: Request) -> Response:
    try:
        form = await read_form(request, security.SCENARIO_LIMIT)
    except BadInput as error:
        return _lobby(request, {"file": str(error)}, {}, 413)
    if not security.csrf_ok(request, form.get("csrf")):
        return _csrf_refused()
    values = {k: str(form.get(k) or "") for k in ("example", "dice", "ai")}
    try:
        text = await _file_text(form, "file", security.SCENARIO_LIMIT)
    except BadInput as error:
        return _lobby(request, {"file": str(error)}, values, 413 if "large" in str(error) else 422)
    field = "file" if text is not None else "example"
    if text is None:
        path = examples().get(values["example"])
        if path is None:
            return _lobby(request, {"example": "choose an example or upload a file"}, values, 422)
        text = path.read_text(encoding="utf-8")
    try:
        scenario, ai_sides = _scenario(text, values["dice"], values["ai"])
    except BadInput as error:
        where = "ai" if error.what == "ai side" else field
        return _lobby(request, {where: str(error)}, values, 422)
    table = _table(request)
    try:
        made = await asyncio.to_thread(table.create, scenario, ai_sides)
    except OrdnanceError as error:
        return _lobby(request, {field: str(error)}, values, 422)
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


def _scenario(text: str, dice: str, ai: str) -> tuple[Any, list[str]]:
    """The scenario with the lobby's choices of dice and AI side written in."""
    from ordnance.web.table import scenario_from_text  # noqa: PLC0415

    scenario = scenario_from_text(text, "file")
    data = yaml.safe_load(text)
    changed = False
    if dice in DICE_MODES and dice != scenario.dice:
        data["dice"], changed = dice, True
    ai = ai.strip()
    if ai:
        if scenario.ruleset != "vv":
            raise BadInput("ai side", ai, f"the {scenario.ruleset} ruleset has no AI (V&V only)")
        if ai != "none" and ai not in scenario.sides:
            raise BadInput("ai side", ai, f"not a side: {', '.join(scenario.sides)} or none")
        for side, sheet in data["sides"].items():
            if isinstance(sheet, dict):
                sheet["ai"] = side == ai
        changed = True
    if changed:
        scenario = scenario_from_mapping(data, None)
    ai_sides = list(scenario.body.get("ai_sides", [])) or [
        side
        for side, sheet in (scenario.body.get("sides") or {}).items()
        if isinstance(sheet, Mapping) and sheet.get("ai") is True
    ]
    return scenario, ai_sides


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
        return render(request, "message.html", 404, title="No such game", message=str(error))
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
def spectate(request: Request, game: str, action: str | None = None) -> HTMLResponse:
    return _page(request, game, None, action=None)


@router.get("/games/{game}/export")
def export(request: Request, game: str) -> Response:
    table = _table(request)
    try:
        text = table.call(lambda s: s.export(game))
    except OrdnanceError as error:
        return render(request, "message.html", 404, title="No such game", message=str(error))
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="ordnance-{game}.json"'},
    )


def _watcher(request: Request) -> asyncio.Task[None]:
    """One task per app that reads every game's version from the database each DB_POLL
    seconds (one query), so pages learn of writes made by other processes too."""
    state = request.app.state
    task: asyncio.Task[None] | None = getattr(state, "watcher", None)
    if task is None or task.done():
        table = _table(request)

        async def watch() -> None:
            while True:
                await asyncio.sleep(DB_POLL)
                try:
                    games = await asyncio.to_thread(table.service.store.game_ids)
                except OrdnanceError:
                    continue
                for game, _ruleset, version in games:
                    table.news.note(game, version)

        task = asyncio.get_running_loop().create_task(watch())
        state.watcher = task
    return task


@router.get("/games/{game}/events")
async def events(request: Request, game: str, seen: int = -1) -> StreamingResponse:
    """Server-sent events: a ``version`` event whenever the game moves past ``seen``."""
    table = _table(request)

    async def stream() -> AsyncIterator[bytes]:
        last = seen
        if last < 0:
            last = await asyncio.to_thread(table.call, lambda s: s.store.version(game))
        yield f"retry: 1000\nevent: hello\ndata: {last}\n\n".encode()
        watcher = _watcher(request)
        key = table.news.listen(game)
        try:
            while True:
                now = table.news.version(game)
                if now is not None and now > last:
                    last = now
                    yield f"event: version\ndata: {now}\n\n".encode()
                    continue
                key[1].clear()
                if table.news.version(game) != now:
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
    except StorageError:
        # The database is away (restarting): end normally, so the browser comes back (retry).
        return StreamingResponse(iter([b"retry: 2000\n\n"]), media_type="text/event-stream")
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
) -> HTMLResponse:
    if security.side_token(request, game, side) is None:
        return render(
            request,
            "message.html",
            403,
            title="Open your private link",
            message=f"This browser holds no link for side {side} of game {game}. Open the"
            " private link you were given, or watch as a spectator.",
            spectator=f"/games/{game}",
        )
    return _page(request, game, side, unit=unit, action=action, notice=notice)


def _page(
    request: Request,
    game: str,
    side: str | None,
    *,
    unit: str | None = None,
    action: str | None = None,
    notice: str | None = None,
    refused: str | None = None,
    status: int = 200,
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
            return render(request, "message.html", 404, title="No such game", message=str(error))
        state = info["state"]
        actions = info["legal_actions"].get(side, []) if side is not None else []
        preview = views.preview_of(folded, side, action) if side and action else None
        svg, los_text = views.map_svg(folded, preview, unit)
    if preview is not None:
        preview.los_text = los_text
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
        victory=victory_of(state),
        unit=unit,
        actions=views.actions_for(actions, unit),
        all_actions=actions,
        preview=preview,
        rulings=views.recent_rulings(log),
        log=views.log_lines(log),
        notice=notice,
        refused=refused,
        ai_moves=list(reversed(table.ai_moves.get(game, [])))[:12],
        physical=info["dice"].get("mode") == "physical",
        undoable=info["undoable"] is not None and info["undoable"]["side"] == side,
        scalars=[
            (k, ("yes" if v else "no") if isinstance(v, bool) else v)
            for k, v in state.items()
            if isinstance(v, str | int | bool) and k not in ("map",)
        ],
    )


async def _side_form(request: Request, game: str, side: str) -> tuple[FormData, str] | Response:
    form = await read_form(request, 64 * 1024)
    if not security.csrf_ok(request, form.get("csrf")):
        return _csrf_refused()
    token = security.side_token(request, game, side)
    if token is None:
        return PlainTextResponse(
            f"not authorized: this browser holds no link for side {side}", status_code=403
        )
    return form, token


def _version(form: FormData) -> int | None:
    text = str(form.get("version") or "")
    return int(text) if text.isdigit() else None


@router.post("/games/{game}/{side}/do")
async def act(request: Request, game: str, side: str) -> Response:
    got = await _side_form(request, game, side)
    if isinstance(got, Response):
        return got
    form, token = got
    action = str(form.get("action") or "").strip()
    dice = str(form.get("dice") or "").split()
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
            lambda: table.do(game, side, token, words, expect=_version(form), entropy=entropy)
        )
    except ValueError as error:  # shlex: an unclosed quote
        return _page(request, game, side, notice=f"bad command: {error}", status=422)
    except StaleState as error:
        return _page(request, game, side, notice=f"Not applied. {error}", status=409)
    except NotAuthorized as error:
        return PlainTextResponse(str(error), status_code=403)
    except (IllegalAction, BadInput, OrdnanceError) as error:
        status = 409 if isinstance(error, IllegalAction) else 422
        clause = error.clause if isinstance(error, IllegalAction) else None
        return _page(
            request, game, side, action=action, notice=str(error), refused=clause, status=status
        )
    return RedirectResponse(f"/games/{game}/{side}?notice=Done: version {applied.version}", 303)


@router.post("/games/{game}/{side}/undo")
async def undo(request: Request, game: str, side: str) -> Response:
    got = await _side_form(request, game, side)
    if isinstance(got, Response):
        return got
    form, token = got
    table = _table(request)
    try:
        applied = await asyncio.to_thread(table.undo, game, side, token, _version(form))
    except StaleState as error:
        return _page(request, game, side, notice=f"Not applied. {error}", status=409)
    except NotAuthorized as error:
        return PlainTextResponse(str(error), status_code=403)
    except OrdnanceError as error:
        return _page(request, game, side, notice=str(error), status=409)
    return RedirectResponse(f"/games/{game}/{side}?notice=Undone: version {applied.version}", 303)


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
