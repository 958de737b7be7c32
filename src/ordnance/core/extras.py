"""The optional parts of ordnance (pip extras), and the one line said when one is missing.

``pip install ordnance`` runs the stateless ``asl``, ``lnl``, ``vv`` and ``map`` commands and
the game commands on SQLite (or through ``--server``). Three extras add the rest:

- ``postgres``: PostgreSQL databases (psycopg 3);
- ``png``: PNG pictures beside the SVG ones (cairosvg, which needs the system cairo library);
- ``web``: ``ordnance serve``, the table in the browser (FastAPI, Uvicorn, Jinja2).

Nothing a required command imports may import them: each is imported where it is used, and
:func:`require` (or :func:`extra_of` for an import that failed elsewhere) turns a missing one
into :class:`MissingExtra`, one line naming the extra to install.

>>> str(MissingExtra("web", "ordnance serve", "fastapi"))
"ordnance serve needs the 'web' extra (no module 'fastapi'): pip install 'ordnance[web]'"
>>> extra_of("psycopg_binary"), extra_of("yaml")
('postgres', None)
"""

from __future__ import annotations

import importlib

from ordnance.core.errors import OrdnanceError

# The top-level modules each extra brings (those ordnance imports, and their own imports).
MODULES: dict[str, tuple[str, ...]] = {
    "postgres": ("psycopg", "psycopg_binary"),
    "png": ("cairosvg", "cairocffi", "cssselect2", "tinycss2", "defusedxml", "PIL"),
    "web": (
        "fastapi",
        "starlette",
        "uvicorn",
        "httptools",
        "jinja2",
        "python_multipart",
        "multipart",
        "uvloop",
    ),
}

# What each extra is for, as the messages and the docs (docs/install.md) say it.
PURPOSE = {
    "postgres": "a PostgreSQL database",
    "png": "PNG output",
    "web": "ordnance serve",
}


class MissingExtra(OrdnanceError):
    """A command needs an optional part that is not installed: says which extra brings it."""

    def __init__(self, extra: str, what: str, module: str) -> None:
        super().__init__(extra, what, module)
        self.extra, self.what, self.module = extra, what, module

    def __str__(self) -> str:
        return (
            f"{self.what} needs the '{self.extra}' extra (no module {self.module!r}):"
            f" pip install 'ordnance[{self.extra}]'"
        )


def extra_of(module: str | None) -> str | None:
    """The extra that brings top-level ``module`` (a dotted name counts by its first part)."""
    top = (module or "").split(".")[0]
    return next((extra for extra, names in MODULES.items() if top in names), None)


def require(extra: str, what: str | None = None) -> None:
    """Import the modules ``extra`` provides that ordnance uses; :class:`MissingExtra` if not.

    Only an absent module counts as missing: an extra that is installed but broken (a module
    that fails on its own import) raises what it raises.
    """
    for name in _USED[extra]:
        try:
            importlib.import_module(name)
        except ImportError as error:
            if extra_of(error.name) != extra:
                raise
            raise MissingExtra(extra, what or PURPOSE[extra], error.name or name) from None


# The modules ordnance itself imports from each extra, in the order checked.
_USED: dict[str, tuple[str, ...]] = {
    "postgres": ("psycopg",),
    "png": ("cairosvg",),
    "web": ("fastapi", "uvicorn", "httptools", "jinja2", "python_multipart"),
}
