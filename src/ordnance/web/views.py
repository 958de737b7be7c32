"""What a table page shows, built from the service's answers (no rule is decided here).

Everything comes from the game: its status (whose move, the legal actions of the side, the
ruleset's view of the state), its log (the rulings with dice, modifiers and clause IDs), the
ruleset's map and, where a ruleset offers them, exact odds (``chance_outcomes``) and the AI's
choice. The map is the same SVG as ``ordnance game render``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ordnance.core.errors import OrdnanceError
from ordnance.core.maps import LosVerdict
from ordnance.core.maps.svg import SightView, render_svg
from ordnance.game.entries import Entry
from ordnance.game.entry_words import entry_words
from ordnance.game.fold import Game
from ordnance.game.picture import GamePicture, game_picture
from ordnance.game.registry import judge_for
from ordnance.game.state_view import state_view
from ordnance.web.charts import die_face
from ordnance.web.labels import href_for
from ordnance.web.pictures import PICTURES, PictureKey

LOG_SHOWN = 40


def stage(state: Mapping[str, Any]) -> str:
    """Turn and phase in words, from any ruleset's view.

    >>> stage({"turn": 1, "player": "german", "phase": "PFPh"})
    'turn 1, german Player Turn, PFPh'
    """
    player = f", {state['player']} Player Turn" if state.get("player") else ""
    return f"turn {state.get('turn')}{player}, {state.get('phase')}"


def log_lines(log: Sequence[Entry]) -> list[tuple[int, str]]:
    return [(entry.seq, entry_words(entry)) for entry in log[-LOG_SHOWN:]][::-1]


def recent_rulings(log: Sequence[Entry], count: int = 3) -> list[dict[str, Any]]:
    """The latest commands still standing (not undone), newest first: rolls as faces, rulings.

    Several, because one action often brings an answer at once (the AI's CP allocation).
    """
    undone = {e.body["undone"] for e in log if e.type == "undo"}
    found: list[dict[str, Any]] = []
    for entry in reversed(log):
        if len(found) == count:
            break
        if entry.type != "command" or entry.seq in undone:
            continue
        ruling = dict(entry.body.get("ruling") or {})
        dice = []
        for roll in entry.body.get("rolls", []):
            faces = list(roll["faces"])
            colours = ["#ffffff", "#c62828"] if len(faces) == 2 else ["#ffffff"]
            dice.append(
                {
                    "purpose": roll["purpose"],
                    "faces": faces,
                    "svg": "".join(
                        die_face(f, colour=c) for f, c in zip(faces, colours, strict=True)
                    ),
                    "total": sum(faces),
                }
            )
        numbers = [
            (key, ruling[key])
            for key in ("original_dr", "final_dr", "final", "apfp", "row", "cp", "range")
            if isinstance(ruling.get(key), int | str) and key in ruling
        ]
        found.append(
            {
                "seq": entry.seq,
                "side": entry.side,
                "command": entry.body["command"]["text"],
                "dice": dice,
                "drms": [d for d in ruling.get("drms", []) if isinstance(d, Mapping)],
                "numbers": numbers,
                "clauses": [str(c) for c in ruling.get("clauses", [])],
                "explanation": str(ruling.get("explanation", "")),
            }
        )
    return found


def units_of(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The units of the ruleset's view as rows: id, side, hex, then the scalar fields."""
    units = state.get("units")
    if not isinstance(units, Mapping):
        return []
    rows = []
    for unit_id, unit in units.items():
        if not isinstance(unit, Mapping):
            continue
        scalars = {
            k: v
            for k, v in unit.items()
            if k not in ("side", "hex", "name") and isinstance(v, str | int | float | bool)
        }
        shown = {k: v for k, v in scalars.items() if v not in (False, None, "", 0)}
        lists = {
            k: "; ".join(_item(i) for i in v if isinstance(i, Mapping))
            for k, v in unit.items()
            if isinstance(v, list) and v and all(isinstance(i, Mapping) for i in v)
        }
        rows.append(
            {
                "id": unit_id,
                "side": unit.get("side"),
                "name": unit.get("name") or unit_id,
                "hex": unit.get("hex"),
                "facts": ", ".join(
                    f"{k.replace('_', ' ')}" if v is True else f"{k.replace('_', ' ')} {v}"
                    for k, v in shown.items()
                ),
                "lists": [(k.replace("_", " "), v) for k, v in lists.items() if v],
            }
        )
    return rows


def _item(item: Mapping[str, Any]) -> str:
    """One entry of a unit's list (an ammunition row, a weapon) in a few words: its name,
    its numbers and the flags that are set; long explanations stay out of the table.

    >>> _item({"ammo": "APCR", "usable": True, "depletion_number": 6, "exhausted": False,
    ...        "why": "The russian 45L row shows A6."})
    'APCR (usable, depletion number 6)'
    """
    name = next((v for v in item.values() if isinstance(v, str) and len(v) <= 24), "")
    rest = [
        k.replace("_", " ") if v is True else f"{k.replace('_', ' ')} {v}"
        for k, v in item.items()
        if (v is True or (isinstance(v, int) and not isinstance(v, bool)))
    ]
    return f"{name} ({', '.join(rest)})" if rest else name


class Sighted(Protocol):
    """What a map draws a line of sight for: a preview's firer and target hexes, and the
    verdict it already judged for them (None: no line could be judged)."""

    @property
    def firer_hex(self) -> str | None: ...

    @property
    def target_hex(self) -> str | None: ...

    @property
    def los(self) -> LosVerdict | None: ...


def map_svg(
    game: Game, preview: Sighted | None, unit: str | None = None
) -> tuple[str | None, str | None]:
    """The live map with every counter (as ``game render`` draws it), the previewed action's
    LOS drawn on it, and that LOS in words; with ``unit``, the hexes that unit can see shaded
    (by the game's own LOS rule, through its judge).

    A picture without a line of sight is drawn once per picture and unit (:mod:`.pictures`):
    the page's largest part, 18 ms of 45 (90 ms more with a unit's sight) on the village map.
    """
    where = unit_hex(game, unit) if unit else None
    picture = game_picture(game.rules, game.state)
    if picture is None:
        return None, None
    if preview is not None and preview.firer_hex and preview.target_hex:
        # The preview's own verdict: the line is judged once a page (web/preview.py).
        return _draw(game, picture, preview.los, unit, where)
    key = picture_key(game, picture, unit, where)
    return PICTURES.get_or_draw(key, lambda: _draw(game, picture, None, unit, where)[0]), None


def picture_key(
    game: Game, picture: GamePicture, unit: str | None = None, where: str | None = None
) -> PictureKey:
    """What a kept picture of ``game`` is drawn from: the live map, its table (named by its
    game and source), the counters, and the unit whose sight is shaded from hex ``where`` (a
    name that is not a unit on the map shades nothing: the picture without one).

    By what is drawn, not by the game's version: a version that changes nothing on the map (a
    phase ended, a shot that missed) shows the picture already drawn. Over 300 versions of
    the C8 demo in random play, 125 showed the same picture as the version before, and 99
    pictures were distinct. The key costs 0.2 ms (the counters); the drawing 5-20 ms.
    """
    chart = picture.chart
    shaded = (unit, where) if where else None
    return (game.id, picture.game_map, (chart.game, chart.source), picture.counters, shaded)


def _draw(
    game: Game,
    picture: GamePicture,
    verdict: LosVerdict | None,
    unit: str | None,
    where: str | None,
) -> tuple[str | None, str | None]:
    """The picture, with the line of sight ``verdict`` drawn on it (if any)."""
    game_map = picture.game_map
    seen = None
    if where is not None:
        from ordnance.core.maps.visibility import Visibility  # noqa: PLC0415 (numpy: on use)

        try:
            origin = game_map.parse(where)
            sight = Visibility(game_map, judge_for(game_map)).visible_from(origin)
            seen = SightView(origin, sight, label=unit or "")
        except (OrdnanceError, KeyError):
            seen = None
    svg = render_svg(
        game_map,
        picture.chart,
        los=verdict,
        counters=picture.counters,
        seen=seen,
        labels_href=href_for(game.id),  # one cached image, not 715 texts to lay out
    )
    return svg, None if verdict is None else verdict.explanation


def unit_hex(game: Game, unit: str | None) -> str | None:
    """The hex label of a unit in the ruleset's view, if it has one."""
    units = state_view(game).get("units")
    if not isinstance(units, Mapping) or unit is None:
        return None
    found = units.get(unit)
    if isinstance(found, Mapping) and isinstance(found.get("hex"), str):
        return str(found["hex"])
    return None
