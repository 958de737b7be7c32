"""``ordnance game status`` for people: the side record as tables, per game, from the JSON view.

The ruleset supplies the data (``game status --json``); this face only lays it out, with the
layout the game's spec names (its ``status``: :mod:`.status_asl`, :mod:`.status_lnl`,
:mod:`.status_vv`; a game without one is put in words), then the same footer for all: whose
move in which phase, and the legal actions one per line. Nothing here prints a Python value
as it is: every mapping and list is put in words.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ordnance.cli.output import titled_table
from ordnance.game.result import over_sentence

Renderables = list[RenderableType]


def status_renderables(status: Mapping[str, Any]) -> Renderables:
    """Everything ``game status`` prints, in order."""
    state = status["state"]
    out: Renderables = [
        line(f"Game {status['game']} ({status['scenario']}), version {status['version']}", "bold")
    ]
    draw = sections_of(str(status.get("ruleset")))
    out += draw(state) if draw is not None else [line(words(state))]
    out.append(line(stage_line(status), "bold"))
    legal = status.get("legal_actions", {})
    for acting, actions in legal.items():
        if not actions:
            out.append(line(f"{acting} may do nothing now."))
            continue
        out.append(line(f"{acting} may:"))
        out += [line(f"  {action}") for action in actions]
    return out


def sections_of(game: str) -> Callable[[Mapping[str, Any]], Renderables] | None:
    """The layout of ``game``'s view that its spec names (None: unknown, or none named).

    >>> sections_of("lnl").__module__, sections_of("chess")
    ('ordnance.cli.status_lnl', None)
    """
    from ordnance.game.registry import names, spec  # noqa: PLC0415 (one game's spec, on use)

    named = spec(game).status if game in names() else None
    if named is None:
        return None
    module, function = named.split(":")
    draw: Callable[[Mapping[str, Any]], Renderables] = vars(importlib.import_module(module))[
        function
    ]
    return draw


def stage_line(status: Mapping[str, Any]) -> str:
    """``Turn 1 of 2, american Player Turn, MPh: american to act.``; once the game is over,
    who won and why (:func:`~ordnance.game.result.over_sentence`, as the web table's banner)."""
    state = status["state"]
    turns = f" of {state['turns']}" if state.get("turns") else ""
    player = f", {state['player']} Player Turn" if state.get("player") else ""
    impulse = f" (impulse: {state['impulse']})" if state.get("impulse") else ""
    phase = str(state.get("phase"))
    phase += "" if phase.endswith("Ph") else " phase"  # ASL names its phases MPh, DFPh...
    where = f"Turn {state.get('turn')}{turns}{player}, {phase}{impulse}"
    if status.get("over"):
        return f"{where}: the game is over. {over_sentence(state)}"
    return f"{where}: {status.get('to_move')} to act."


def table(title: str, columns: Iterable[str]) -> Table:
    """A table in the house style: title left, headers, no colours needed to read it."""
    grid = titled_table(clean(title), title_style="bold")
    for column in columns:
        grid.add_column(column, overflow="fold")
    return grid


def clean(text: str) -> str:
    """Prose as printed: apostrophes typographic (a straight quote is a sign of a Python repr,
    and none ever reaches this output).

    >>> clean("pz4's action")
    'pz4’s action'
    """
    return text.replace("'", "\u2019")


def line(text: str, style: str = "") -> Text:
    """One printed line of prose."""
    return Text(clean(text), style=style)


def add_row(grid: Table, *cells: str) -> None:
    grid.add_row(*(Text(clean(cell)) for cell in cells))


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


def kv(rows: Iterable[tuple[str, str]], title: str | None = None) -> RenderableType:
    """A two-column table of names and values, without headers, under a bold title line."""
    grid = Table(show_header=False, box=None, padding=(0, 1, 0, 2))
    grid.add_column("what", style="dim", no_wrap=True)
    grid.add_column("value", overflow="fold")
    for name, value in rows:
        grid.add_row(name, Text(clean(value)))
    return grid if title is None else Group(line(title, "bold"), grid)
