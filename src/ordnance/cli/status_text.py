"""``ordnance game status`` for people: the side record as tables, per game, from the JSON view.

The ruleset supplies the data (``game status --json``); this face only lays it out, one module
per game (:mod:`.status_asl`, :mod:`.status_lnl`, :mod:`.status_vv`), then the same footer for
all: whose move in which phase, and the legal actions one per line. Nothing here prints a
Python value as it is: every mapping and list is put in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

Renderables = list[RenderableType]


def status_renderables(status: Mapping[str, Any]) -> Renderables:
    """Everything ``game status`` prints, in order."""
    from ordnance.cli import status_asl, status_lnl, status_vv  # noqa: PLC0415

    sections: dict[str, Callable[[Mapping[str, Any]], Renderables]] = {
        "asl": status_asl.sections,
        "lnl": status_lnl.sections,
        "vv": status_vv.sections,
    }
    state = status["state"]
    out: Renderables = [
        Text(
            f"Game {status['game']} ({status['scenario']}), version {status['version']}",
            style="bold",
        )
    ]
    draw = sections.get(str(status.get("ruleset")))
    out += draw(state) if draw is not None else [Text(words(state))]
    out.append(Text(stage_line(status), style="bold"))
    legal = status.get("legal_actions", {})
    for acting, actions in legal.items():
        if not actions:
            out.append(Text(f"{acting} may do nothing now."))
            continue
        out.append(Text(f"{acting} may:"))
        out += [Text(f"  {action}") for action in actions]
    return out


def stage_line(status: Mapping[str, Any]) -> str:
    """``Turn 1 of 2, american Player Turn, MPh: american to act.``"""
    state = status["state"]
    turns = f" of {state['turns']}" if state.get("turns") else ""
    player = f", {state['player']} Player Turn" if state.get("player") else ""
    impulse = f", {state['impulse']}'s impulse" if state.get("impulse") else ""
    where = f"Turn {state.get('turn')}{turns}{player}, {state.get('phase')} phase{impulse}"
    if status.get("over"):
        return f"{where}: the game is over."
    return f"{where}: {status.get('to_move')} to act."


def table(title: str, columns: Iterable[str]) -> Table:
    """A table in the house style: title left, headers, no colours needed to read it."""
    grid = Table(title=title, title_justify="left", title_style="bold")
    for column in columns:
        grid.add_column(column, overflow="fold")
    return grid


def yes_no(flag: object) -> str:
    return "yes" if flag else "no"


def words(value: object) -> str:
    """Any JSON value in words: ``a: 1, b: yes``; lists joined by commas; null as ``-``.

    >>> words({"applies": False, "drm": 1, "units": ["a", "b"], "x": None})
    'applies: no, drm: 1, units: a and b, x: -'
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k.replace('_', ' ')}: {words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        items = [words(v) for v in value]
        if len(items) <= 1:
            return "".join(items) or "none"
        return ", ".join(items[:-1]) + " and " + items[-1]
    return str(value)


def kv(rows: Iterable[tuple[str, str]], title: str | None = None) -> Table:
    """A two-column table of names and values, without headers."""
    grid = Table(
        title=title,
        title_justify="left",
        title_style="bold",
        show_header=False,
        box=None,
        padding=(0, 1, 0, 2),
    )
    grid.add_column("what", style="dim", no_wrap=True)
    grid.add_column("value", overflow="fold")
    for name, value in rows:
        grid.add_row(name, Text(value))
    return grid
