"""The lobby's scenario cards: each bundled scenario with its title, description, sides, turns,
a map thumbnail, and which sides an AI can play.

A card is read from the scenario file as any game would read it (:func:`load_scenario_file`)
and kept until the file changes; the thumbnail is the scenario's map at its start, drawn by
the same renderer as ``game render`` (small hexes, the counters on them), cached the same way
and served as an SVG image, so its element ids never meet the lobby page's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from starlette.responses import Response

from ordnance.core.errors import OrdnanceError
from ordnance.core.maps.svg import render_svg
from ordnance.game.picture import game_picture
from ordnance.game.registry import ruleset, spec
from ordnance.game.scenario import Scenario, load_scenario_file
from ordnance.web.table import has_ai

THUMB_HEX = 9.0  # pixels from a hex's centre to a corner in a thumbnail


@dataclass(frozen=True)
class Card:
    """One bundled scenario as the lobby shows it."""

    key: str  # the example's name (the form's value)
    title: str
    description: str
    ruleset: str
    game: str  # the ruleset's game, as people call it
    sides: tuple[str, ...]
    turns: int | None
    dice: str
    ai_sides: tuple[str, ...]  # the sides an AI can play (all, for a ruleset with an AI)
    ai_default: tuple[str, ...]  # the sides the scenario gives the AI
    has_map: bool


def cards(examples: dict[str, Path]) -> list[Card]:
    """A card per bundled scenario that loads (one that does not is left out of the lobby)."""
    found = []
    for key, path in examples.items():
        card = _card(key, path, _mtime(path))
        if card is not None:
            found.append(card)
    return found


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


@cache
def _scenario(path: Path, mtime: int) -> Scenario | None:
    del mtime  # part of the cache key: a changed file is read again
    try:
        return load_scenario_file(path)
    except (OrdnanceError, OSError):
        return None


@cache
def _card(key: str, path: Path, mtime: int) -> Card | None:
    scenario = _scenario(path, mtime)
    if scenario is None:
        return None
    body = scenario.body
    ai = has_ai(scenario.ruleset)
    turns = body.get("turns")
    return Card(
        key=key,
        title=scenario.name,
        description=_description(path),
        ruleset=scenario.ruleset,
        game=spec(scenario.ruleset).title,
        sides=scenario.sides,
        turns=turns if isinstance(turns, int) and not isinstance(turns, bool) else None,
        dice=scenario.dice,
        ai_sides=scenario.sides if ai else (),
        ai_default=scenario.ai_sides,
        has_map=_thumbnail(path, mtime) is not None,
    )


def _description(path: Path) -> str:
    """The file's ``description:`` (the ruleset's reading of a scenario keeps none)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return ""
    text = data.get("description") if isinstance(data, dict) else None
    return " ".join(text.split()) if isinstance(text, str) else ""


@cache
def _thumbnail(path: Path, mtime: int) -> str | None:
    """The scenario's map at its start as a small SVG, None without a map."""
    scenario = _scenario(path, mtime)
    if scenario is None:
        return None
    rules = ruleset(scenario.ruleset)
    try:
        picture = game_picture(rules, rules.initial_state(scenario.body))
    except OrdnanceError:
        return None
    if picture is None:
        return None
    return render_svg(
        picture.game_map,
        picture.chart,
        size=THUMB_HEX,
        title=f"Map of {scenario.name}",
        counters=picture.counters,
    )


def thumbnail_response(path: Path | None) -> Response:
    """The thumbnail of the bundled scenario at ``path`` as an SVG image (404 without one)."""
    svg = None if path is None else _thumbnail(path, _mtime(path))
    if svg is None:
        return Response("no such scenario map", status_code=404, media_type="text/plain")
    return Response(
        svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"}
    )
