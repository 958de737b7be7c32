"""``ordnance game list``: each game of a database, what it is and where it stands.

One row per game: its id, the scenario's title, the ruleset, the sides, the turn and phase,
whose move it is (or that it is over), and its last change: when this machine's service last
stored or read a newer entry of it (the time its key store kept the game's newest head; the
log itself holds no clock). ``--json`` gives the same fields.
"""

from __future__ import annotations

import textwrap
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ordnance.game.service import GameService


def game_rows(service: GameService) -> list[dict[str, Any]]:
    """The fields of each game, in the order of their ids."""
    rows = []
    for game_id, ruleset, version in service.store.game_ids():
        game = service.game(game_id)
        view = game.rules.view(game.state)
        over = bool(game.rules.is_over(game.state))
        changed = service.keys.head_changed(game_id)
        rows.append(
            {
                "game": game_id,
                "scenario": game.scenario.name,
                "ruleset": ruleset,
                "sides": list(game.sides),
                "turn": view.get("turn"),
                "player": view.get("player"),
                "phase": view.get("phase"),
                "to_move": None if over else game.rules.to_move(game.state),
                "over": over,
                "winner": view.get("winner"),
                "version": version,
                "changed": None
                if changed is None
                else datetime.fromtimestamp(changed, UTC).isoformat(timespec="seconds"),
            }
        )
    return rows


def stage(row: dict[str, Any]) -> str:
    """``3 German PFPh`` (ASL names the Player Turn), ``2 Movement``; ``-`` when unknown.

    >>> stage({"turn": 3, "player": "german", "phase": "PFPh"})
    '3 german PFPh'
    >>> stage({"turn": None, "phase": None})
    '-'
    """
    parts = [str(row[k]) for k in ("turn", "player", "phase") if row.get(k) is not None]
    return " ".join(parts) or "-"


def move(row: dict[str, Any]) -> str:
    """Whose move it is, or how the game ended.

    >>> move({"over": True, "winner": "german", "to_move": None})
    'over: german won'
    >>> move({"over": False, "to_move": "russian"})
    'russian'
    """
    if row["over"]:
        return f"over: {row['winner']} won" if row.get("winner") else "over"
    return str(row["to_move"] or "-")


def changed(row: dict[str, Any]) -> str:
    """The last change as a short UTC time (``2026-12-04 02:10``), ``-`` if unknown."""
    text = row.get("changed")
    return "-" if not text else f"{text[:10]} {text[11:16]}"


def games_text(rows: list[dict[str, Any]], width: int = 80) -> str:
    """The rows as lines of at most ``width`` columns: one line of where each game stands,
    then its scenario and sides, indented (a title folds rather than widen the table).

    >>> row = {"game": "266d3770327f", "scenario": "Ammunition at the crossroads (C8 demo)",
    ...     "ruleset": "asl", "sides": ["german", "russian"], "turn": 1, "player": "german",
    ...     "phase": "RPh", "to_move": "german", "over": False, "changed": None}
    >>> print(games_text([row]))
    game          rules  turn, phase   to move  last change (UTC)
    266d3770327f  asl    1 german RPh  german   -
                  Ammunition at the crossroads (C8 demo): german v russian
    """
    if not rows:
        return "No games in this database yet: 'ordnance game new SCENARIO' starts one."
    header = ("game", "rules", "turn, phase", "to move", "last change (UTC)")
    cells = [(r["game"], r["ruleset"], stage(r), move(r), changed(r)) for r in rows]
    widths = [max(len(line[i]) for line in [header, *cells]) for i in range(len(header))]
    indent = " " * (widths[0] + 2)

    def line(values: tuple[str, ...]) -> str:
        return "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    lines = [line(header)]
    for row, values in zip(rows, cells, strict=True):
        lines.append(line(values))
        about = f"{row['scenario']}: {' v '.join(row['sides'])}"
        lines += textwrap.wrap(about, width, initial_indent=indent, subsequent_indent=indent + "  ")
    return "\n".join(lines)
