"""The scenario's map: read once when the game starts, then carried in the log as text.

``map:`` in a scenario names a map file (relative to the scenario) or a map bundled with the
ASL package by its short name (``asl-village``). Its whole text goes into the scenario JSON with
its SHA-256, so a replay of the log (``game verify`` on another machine) needs no file: the log
alone rebuilds the same map, and the digest says which map it was.

>>> body = read_map("asl-village", None)
>>> body["file"], len(body["sha256"]), map_of(body).labels
('asl-village', 64, GeomorphicLabels.of('4/3'))
>>> read_map("nowhere.yaml", None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario 'map': nowhere.yaml cannot be read: no such file ...
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ordnance.asl.terrain import GAME, asl_chart
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, read_limited
from ordnance.core.maps import GameMap, Vocabulary, load_map_text, map_path


def _vocabulary(game: str) -> Vocabulary | None:
    return asl_chart().vocabulary if game == GAME else None


def bundled() -> dict[str, str]:
    """The ASL maps shipped in the package: short name -> file name."""
    folder = resources.files("ordnance.asl").joinpath("data", "maps")
    return {
        entry.name.rsplit(".", 1)[0]: entry.name
        for entry in folder.iterdir()
        if entry.name.endswith((".yaml", ".yml"))
    }


def read_map(raw: object, base: Path | None) -> dict[str, Any] | None:
    """Check the scenario's ``map`` and return ``file``, ``sha256`` and ``text`` (or None)."""
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.strip():
        raise BadInput("scenario", "map", "expected a map file or a bundled map's name")
    name = raw.strip()
    data = _read(map_path(name, base), name)
    try:
        text = data.decode("utf-8")
        game_map = _parse(text, name)
    except (UnicodeDecodeError, BadInput) as error:
        raise BadInput("scenario", "map", str(error)) from None
    if game_map.game != GAME:
        raise BadInput("scenario", "map", f"{name} is a {game_map.game} map; an ASL game needs asl")
    return {"file": name, "sha256": hashlib.sha256(data).hexdigest(), "text": text}


def _read(path: Path, name: str) -> bytes:
    if path.is_file():
        return read_limited(path, "map file", MAX_TEXT_FILE_BYTES)
    known = bundled()
    if name in known:
        return resources.files("ordnance.asl").joinpath("data", "maps", known[name]).read_bytes()
    names = ", ".join(sorted(known)) or "none"
    raise BadInput(
        "scenario", "map", f"{name} cannot be read: no such file or bundled map ({names})"
    )


def map_of(body: Mapping[str, Any] | None) -> GameMap | None:
    """The map a scenario JSON carries (None without one, or in a log from before maps)."""
    if body is None or "text" not in body:
        return None
    return _parse(str(body["text"]), str(body["file"]))


@lru_cache(maxsize=16)
def _parse(text: str, name: str) -> GameMap:
    # A map is immutable; every fold of the same game reads the same text, so parse it once.
    return load_map_text(text, name, _vocabulary)
