"""The HTML pages: the lobby (new games, the links a browser holds), the clauses and the
verification of a log; with them the table's pages (:mod:`.table_page`) and its pushes
(:mod:`.events`), whose routes this router carries in order.

Forms work without script; ``static/table.js`` only swaps the page's ``<main>`` in place (after
a form, a link within the table, or a server-sent event) so nothing reloads.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ordnance.core.errors import BadInput, OrdnanceError, TooLarge
from ordnance.game.dberrors import StorageError
from ordnance.game.registry import maps_of, names
from ordnance.game.scenario import DICE_MODES, Scenario

# The table's pages and pushes add their routes to the same router, after the lobby's.
from ordnance.web import (
    clauses,
    security,
    table_page,  # noqa: F401
)
from ordnance.web.answers import status_of
from ordnance.web.lobby import cards, thumbnail_response
from ordnance.web.render import (
    ENV,
    csrf_refused,
    error_page,
    read_form,
    rejoin_page,
    render,
    router,
    table_of,
)
from ordnance.web.table import new_game_scenario

# ENV and the error pages are named here too for the modules that draw with them.
__all__ = ["ENV", "error_page", "examples", "rejoin_page", "router"]

# The bundled example scenarios (the repository's examples/ folder, as ``make run`` uses it).
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def examples() -> dict[str, Path]:
    return {p.stem: p for p in sorted(EXAMPLES.glob("*.yaml"))}


async def _file_text(form: FormData, field: str, limit: int) -> str | None:
    upload = form.get(field)
    if not isinstance(upload, UploadFile) or not upload.filename:
        return None
    data = await upload.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(field, upload.filename, f"too large: the limit is {limit // 1024} KB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(field, upload.filename, "not UTF-8 text") from None


# --- lobby ---------------------------------------------------------------------------------------


@router.get("/")
async def lobby(request: Request) -> HTMLResponse:
    return await table_of(request).workers.run(_lobby, request, {}, {})


def _lobby(
    request: Request, errors: Mapping[str, str], values: Mapping[str, str], status: int = 200
) -> HTMLResponse:
    table = table_of(request)
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
async def scenario_map(request: Request, name: str) -> Response:
    """A bundled scenario's map at its start, small, for the lobby's card."""
    return await table_of(request).workers.run(thumbnail_response, examples().get(name))


@router.post("/games")
async def create(request: Request) -> Response:
    workers = table_of(request).workers
    try:
        form = await read_form(request, security.SCENARIO_LIMIT + security.MAP_LIMIT)
    except BadInput as error:
        return await workers.run(_lobby, request, {"file": str(error)}, {}, 413)
    if not security.csrf_ok(request, form.get("csrf")):
        return csrf_refused()
    values = {k: str(form.get(k) or "") for k in ("example", "dice", "ai")}
    texts: dict[str, str | None] = {}
    for name, limit in (("file", security.SCENARIO_LIMIT), ("map", security.MAP_LIMIT)):
        try:
            texts[name] = await _file_text(form, name, limit)
        except BadInput as error:
            status = status_of(error)
            return await workers.run(_lobby, request, {name: str(error)}, values, status)
    upload = form.get("map")
    maps = None
    if isinstance(upload, UploadFile) and upload.filename and texts["map"] is not None:
        # The map goes by its file's name, without any folder a browser may send with it.
        maps = {upload.filename.replace("\\", "/").rsplit("/", 1)[-1]: texts["map"]}
    return await workers.run(_create, request, values, texts["file"], maps)


def _create(
    request: Request, values: dict[str, str], text: str | None, maps: dict[str, str] | None
) -> Response:
    """The game the lobby's form asks for, made; or the lobby again with what is wrong."""
    field = "file" if text is not None else "example"
    if text is None:
        path = examples().get(values["example"])
        if path is None:
            return _lobby(request, {"example": "choose an example or upload a file"}, values, 422)
        text = path.read_text(encoding="utf-8")
    try:
        scenario, ai_sides = _scenario(text, values["dice"], values["ai"], maps)
    except BadInput as error:
        where = {"ai side": "ai", "uploaded map": "map"}.get(error.what, field)
        return _lobby(request, {where: str(error)}, values, status_of(error))
    table = table_of(request)
    try:
        made = table.create(scenario, ai_sides)
    except StorageError as error:
        return error_page(request, error)
    except OrdnanceError as error:
        return _lobby(request, {field: str(error)}, values, status_of(error))
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


# --- verifying a log ---------------------------------------------------------------------------


@router.get("/clauses")
async def clauses_page(request: Request) -> HTMLResponse:
    return await table_of(request).workers.run(
        lambda: render(request, "clauses.html", clauses=clauses.clauses())
    )


@router.get("/verify")
async def verify_page(request: Request) -> HTMLResponse:
    return await table_of(request).workers.run(
        lambda: render(request, "verify.html", report=None, error=None)
    )


@router.post("/verify")
async def verify_upload(request: Request) -> Response:
    from ordnance.game.logfile import verify  # noqa: PLC0415

    try:
        form = await read_form(request, security.LOG_LIMIT)
    except BadInput as error:
        return render(request, "verify.html", status_of(error), report=None, error=str(error))
    if not security.csrf_ok(request, form.get("csrf")):
        return csrf_refused()
    upload = form.get("log")
    if not isinstance(upload, UploadFile) or not upload.filename:
        return render(request, "verify.html", 422, report=None, error="choose a log file")
    data = await upload.read(security.LOG_LIMIT + 1)
    if len(data) > security.LOG_LIMIT:
        message = f"too large: the limit is {security.LOG_LIMIT // (1024 * 1024)} MB"
        return render(request, "verify.html", 413, report=None, error=message)
    report = await table_of(request).workers.run(verify, data)
    return render(request, "verify.html", report=report.to_json(), error=None)
