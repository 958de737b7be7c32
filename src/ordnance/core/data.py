"""Loading the rules data files (TOML) that ship inside the package."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_toml(package: str, name: str) -> dict[str, Any]:
    """Read ``name`` from ``package``'s data folder once and keep it.

    Callers validate the content they rely on when they build their tables.
    """
    text = resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    return tomllib.loads(text)
