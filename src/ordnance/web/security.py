"""Who may act: side cookies, CSRF tokens, and the limits on what a browser may send.

A side's private link (``/join/GAME/SIDE/TOKEN``) stores the token in an HttpOnly,
SameSite=Strict cookie named for the game and side, then redirects to the clean table URL; the
token is checked by the service on every write, so a cookie acts only for its own side in its
own game. Page forms carry a CSRF token that must equal the browser's ``ordnance_csrf`` cookie
(double submit; the cookie is SameSite=Strict too). The JSON API takes the token in an
``Authorization: Bearer`` header and reads no cookie, so a page of another site cannot act
through it.

>>> name = side_cookie("0123abcd4567", "german")
>>> name, parse_side_cookie(name)
('ordnance_side_0123abcd4567_6765726d616e', ('0123abcd4567', 'german'))
>>> parse_side_cookie("ordnance_csrf") is None
True
"""

from __future__ import annotations

import hmac
import re
import secrets

from starlette.requests import Request
from starlette.responses import Response

from ordnance.core.maps.source import MAX_UPLOADED_MAP, MAX_UPLOADED_MAPS

CSRF_COOKIE = "ordnance_csrf"
SIDE_PREFIX = "ordnance_side_"
# Scenario and map files are small (the bundled ones are 1-4 KB); logs grow with play.
SCENARIO_LIMIT = 256 * 1024
MAP_LIMIT = MAX_UPLOADED_MAP
"""Characters of one map uploaded with a scenario (the lobby's map file, the API's ``maps``)."""
MAX_MAPS = MAX_UPLOADED_MAPS
"""Maps one scenario may bring to the server through the API (the lobby takes one)."""
LOG_LIMIT = 8 * 1024 * 1024
COOKIE_AGE = 60 * 60 * 24 * 365
_SIDE_COOKIE = re.compile(r"^ordnance_side_([0-9a-f]+)_([0-9a-f]+)$")


def side_cookie(game: str, side: str) -> str:
    """The cookie holding ``side``'s token in ``game`` (the side hex-encoded: any name fits)."""
    return f"{SIDE_PREFIX}{game}_{side.encode().hex()}"


def parse_side_cookie(name: str) -> tuple[str, str] | None:
    """(game, side) of a side cookie's name, None for any other cookie."""
    found = _SIDE_COOKIE.match(name)
    if found is None:
        return None
    try:
        return found.group(1), bytes.fromhex(found.group(2)).decode()
    except (ValueError, UnicodeDecodeError):
        return None


def held_sides(request: Request) -> list[tuple[str, str]]:
    """The (game, side) pairs this browser holds a cookie for."""
    return sorted(pair for name in request.cookies if (pair := parse_side_cookie(name)) is not None)


def side_token(request: Request, game: str, side: str) -> str | None:
    return request.cookies.get(side_cookie(game, side))


def is_tls(request: Request) -> bool:
    """Whether the browser reached us over TLS (directly, or through a trusted proxy's
    ``X-Forwarded-Proto``: ``--trust-proxy``); then every cookie is ``Secure``."""
    return request.url.scheme == "https"


def set_side_cookie(
    response: Response, game: str, side: str, token: str, *, secure: bool = False
) -> None:
    response.set_cookie(
        side_cookie(game, side),
        token,
        max_age=COOKIE_AGE,
        path="/",
        httponly=True,
        samesite="strict",
        secure=secure,
    )


def csrf_token(request: Request) -> str:
    """The browser's CSRF token (a new one when it has none; :func:`keep_csrf` stores it)."""
    current = request.cookies.get(CSRF_COOKIE)
    if current and len(current) >= 32:
        return current
    made: str | None = getattr(request.state, "new_csrf", None)
    if made is None:
        made = secrets.token_urlsafe(32)
        request.state.new_csrf = made
    return made


def keep_csrf(request: Request, response: Response) -> None:
    """Store a CSRF token made while rendering this response."""
    made = getattr(request.state, "new_csrf", None)
    if made is not None:
        response.set_cookie(
            CSRF_COOKIE,
            made,
            max_age=COOKIE_AGE,
            path="/",
            httponly=True,
            samesite="strict",
            secure=is_tls(request),
        )


def csrf_ok(request: Request, sent: object) -> bool:
    """Whether a form's ``csrf`` field matches the browser's CSRF cookie."""
    cookie = request.cookies.get(CSRF_COOKIE)
    if not cookie or not isinstance(sent, str) or not sent:
        return False
    return hmac.compare_digest(cookie.encode(), sent.encode())
