"""The scenario's map: read once when the game starts, then carried in the log as text.

``map:`` in a scenario names a map bundled with the ASL package by its short name
(``asl-village``), or what the reader's :class:`~ordnance.core.maps.MapFiles` allows besides (a
file beside the scenario on the CLI, a map uploaded with it on the server). Its whole text goes
into the scenario JSON with its SHA-256, so a replay of the log (``game verify`` on another
machine) needs no file: the log alone rebuilds the same map, and the digest says which map it was.

>>> body = read_map("asl-village", MapFiles.bundled())
>>> body["file"], len(body["sha256"]), map_of(body).labels
('asl-village', 64, GeomorphicLabels.of('4/3'))
>>> read_map("nowhere.yaml", MapFiles.bundled())  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario 'map': 'nowhere.yaml' is not a map the server has...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.asl.terrain import GAME, asl_chart
from ordnance.core.errors import BadInput
from ordnance.core.maps import GameMap, MapFiles, MapUnreadable
from ordnance.core.maps.cache import cached_map, map_digest


def read_map(raw: object, maps: MapFiles) -> dict[str, Any] | None:
    """Check the scenario's ``map`` and return ``file``, ``sha256`` and ``text`` (or None)."""
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.strip():
        raise BadInput("scenario", "map", "expected a map file or a bundled map's name")
    name = raw.strip()
    try:
        text = maps.read("ordnance.asl", name).text
    except MapUnreadable as error:
        raise BadInput("scenario", "map", error.reason) from None
    try:
        game_map = _parse(text, name)
    except BadInput as error:
        raise BadInput("scenario", "map", str(error)) from None
    if game_map.game != GAME:
        raise BadInput("scenario", "map", f"{name} is a {game_map.game} map; an ASL game needs asl")
    return {"file": name, "sha256": map_digest(text), "text": text}


def map_of(body: Mapping[str, Any] | None) -> GameMap | None:
    """The map a scenario JSON carries (None without one, or in a log from before maps)."""
    if body is None or "text" not in body:
        return None
    return _parse(str(body["text"]), str(body["file"]))


def _parse(text: str, name: str) -> GameMap:
    # A map is immutable; every fold of the same game reads the same text, so parse it once.
    return cached_map(text, name, asl_chart)
