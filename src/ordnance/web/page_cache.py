"""The pages drawn, kept by what they show: (game, version, side) and whatever else changes them.

A game's version names its state, so a page drawn at a version is the same page for every
browser that asks for it at that version with the same query: the two sides' pages and the
spectators' after each push are drawn once each (``static/table.js`` asks for its page again on
every ``version`` event). A game that moved on is asked for at its new version, which is a new
key: a page is never served for a version the game has left. The browser's own CSRF token is
the one part of a page that is not the game's; it is written in as the page is sent.

A page is kept as the bytes it is sent as, cut where the token goes (:class:`Page`): putting
the token into the page's text and encoding it again for every browser took 5.6% of a
PostgreSQL server's busy time (py-spy, bench_web at 500 games), for pages of 100-200 KB.

Bounded: the least recently used pages go first.

>>> cache = PageCache(size=2)
>>> key = PageKey("g1", 5, "german", ())
>>> cache.get(key) is None
True
>>> cache.put(key, Page.of(f"<form><input name=csrf value={CSRF_MARK}></form>"))
>>> cache.get(key).sent_with("tok")
b'<form><input name=csrf value=tok></form>'
>>> cache.put(PageKey("g1", 6, "german", ()), Page.of("b"))
>>> cache.put(PageKey("g2", 1, None, ()), Page.of("c"))
>>> cache.get(key) is None, len(cache)
(True, 2)
"""

from __future__ import annotations

from typing import NamedTuple

from ordnance.core.maps.cache import BoundedCache

PAGES_KEPT = 2048  # about 40 KB each: under 100 MB kept, and every page of 500 games at once
# Stands for the browser's CSRF token in a kept page (no token, no HTML text looks like it).
CSRF_MARK = "csrf-of-this-browser-0f3c9a"


class PageKey(NamedTuple):
    """What a drawn page depends on: the game at a version, the side (None: a spectator) and
    ``more``, everything else that changes the HTML (the query, a notice, the status, the
    AI's state and moves as this process shows them)."""

    game: str
    version: int
    side: str | None
    more: tuple[object, ...]


class Page(NamedTuple):
    """A drawn page as UTF-8 bytes, in the pieces between the places of the CSRF token."""

    pieces: tuple[bytes, ...]

    @classmethod
    def of(cls, html: str) -> Page:
        """The page of ``html``, whose every :data:`CSRF_MARK` stands for the token."""
        return cls(tuple(html.encode("utf-8").split(CSRF_MARK.encode("ascii"))))

    def sent_with(self, csrf: str) -> bytes:
        """The bytes a browser gets: the page with its own CSRF token in every place.

        >>> Page.of(f"<a>{CSRF_MARK}</a><b>{CSRF_MARK}</b> é").sent_with("t0k").decode()
        '<a>t0k</a><b>t0k</b> é'
        """
        return csrf.encode("utf-8").join(self.pieces)


class PageCache:
    """The pages drawn, by :class:`PageKey` (thread-safe; see the module's note)."""

    def __init__(self, size: int = PAGES_KEPT) -> None:
        self._pages = BoundedCache[PageKey, Page](size)

    def get(self, key: PageKey) -> Page | None:
        return self._pages.peek(key)

    def put(self, key: PageKey, page: Page) -> None:
        self._pages.put(key, page)

    def __len__(self) -> int:
        return len(self._pages)
