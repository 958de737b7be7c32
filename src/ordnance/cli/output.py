"""How commands print: JSON for programs, a Rich table for people; one line for every error."""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import typer

from ordnance.core.clauses import cite_all
from ordnance.core.dice import DR, SeededDice
from ordnance.core.errors import BadInput
from ordnance.core.odds import Distribution, OutcomeOdds
from ordnance.core.rulings import Ruling

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

from ordnance.cli.options import SettingOverrides

__all__ = ["SettingOverrides", "console"]


class _Console:
    """Rich's console, made on first use: importing Rich costs more than a JSON answer.

    Long sentences are wrapped at word boundaries when a person reads them (standard output is
    a terminal, or :func:`wrap_sentences` asked for it, as the tour does); piped into a file or
    another program, each stays on one line, whole for grep.
    """

    _made: Console | None = None
    wrap: bool | None = None

    def __getattr__(self, name: str) -> Any:
        if self._made is None:
            from rich.console import Console  # noqa: PLC0415

            wrap = sys.stdout.isatty() if self.wrap is None else self.wrap
            self._made = Console(highlight=False, soft_wrap=not wrap)
        return getattr(self._made, name)


def wrap_sentences(wrap: bool | None) -> None:
    """Wrap long lines at the console's width (True), keep them whole (False), or decide by
    whether standard output is a terminal (None, the default)."""
    made = cast("_Console", console)
    made.wrap = wrap
    made._made = None


console = cast("Console", _Console())
SettingsT = TypeVar("SettingsT")
SETTING_COLUMNS = ("name", "value", "default", "tag", "rule", "doc")


def parse_overrides(pairs: Iterable[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` to ``{"a": "1", "b": "x"}``."""
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise BadInput("setting", pair, "expected NAME=VALUE")
        result[name.strip()] = value.strip()
    return result


def roll_or_read(dice: str | None, seed: int | None, purpose: str) -> tuple[DR, int | None]:
    """The physical dice given with ``--dice``, else a roll from ``--seed`` (or a fresh seed).

    Returns the roll and the seed used (None for physical dice), so any roll can be repeated.
    """
    if dice is not None:
        return DR.parse(dice), None
    used = seed if seed is not None else secrets.randbits(32)
    return SeededDice(used).roll_dr(purpose), used


def output_file(path: Path | None) -> Path | None:
    """Typer callback of an option naming a file to write: it must name a file ('' does not)."""
    if path is not None and path.name in ("", ".", ".."):
        raise typer.BadParameter(f"{str(path)!r} is not a file name")
    return path


def emit_json(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


def titled_table(title: str, **options: Any) -> Table:
    """A Rich table whose title reads on one line: the table is at least as wide as its title
    (up to 80 columns), so a console that wraps long lines does not break a short title."""
    from rich.table import Table  # noqa: PLC0415

    return Table(title=title, title_justify="left", min_width=min(len(title), 80), **options)


def ruling_table(title: str, rows: Sequence[tuple[str, object]]) -> Table:
    """A two-column table of a ruling's numbers."""
    from rich.text import Text  # noqa: PLC0415

    table = titled_table(title, show_header=False)
    table.add_column(style="bold")
    table.add_column()
    for label, value in rows:
        table.add_row(Text(label), Text(_cell(value)))
    return table


def _cell(value: object) -> str:
    """A table cell as a player reads it: yes/no for a flag, '-' for nothing.

    >>> [_cell(True), _cell(False), _cell(None), _cell(3)]
    ['yes', 'no', '-', '3']
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def emit(
    ruling: Ruling,
    as_json: bool,
    table: Table | Callable[[], Table],
    extra: dict[str, Any] | None = None,
) -> None:
    """Print a ruling: its JSON (plus ``extra`` fields), or the table, explanation and clauses.

    ``table`` may be a function that makes it, so that a JSON answer never builds one.
    """
    if as_json:
        emit_json({**ruling.to_json(), **(extra or {})})
        return
    from rich.text import Text  # noqa: PLC0415

    console.print(table() if callable(table) else table)
    console.print(Text(ruling.explanation))
    console.print(Text(f"Rules: {cite_all(ruling.clauses)}", style="dim"))


def odds_table(title: str, rows: Sequence[OutcomeOdds]) -> Table:
    from rich.text import Text  # noqa: PLC0415

    table = titled_table(title)
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    table.add_column("percent", justify="right")
    for row in rows:
        p = row.probability
        table.add_row(Text(row.outcome), f"{p.numerator}/{p.denominator}", f"{row.percent:.2f}%")
    return table


def number_odds(odds: Distribution[Any], key: str) -> list[dict[str, Any]]:
    """Whole-number outcomes from the lowest up, each with ``key``, ``probability``,
    ``percent``, ``at_least`` (P(outcome >= it), a fraction string) and ``at_least_percent``.

    >>> rows = number_odds(Distribution.uniform([0, 1, 1, 2]), "cp")
    >>> [(r["cp"], r["probability"], r["at_least"]) for r in rows]
    [(0, '1/4', '1/1'), (1, '1/2', '3/4'), (2, '1/4', '1/4')]
    """
    rows = []
    for outcome in sorted(o for o in odds if isinstance(o, int)):
        p, up = odds[outcome], odds.at_least(outcome)
        rows.append(
            {
                key: outcome,
                "probability": fraction_text(p),
                "percent": float(p * 100),
                "at_least": fraction_text(up),
                "at_least_percent": float(up * 100),
            }
        )
    return rows


def fraction_text(value: Fraction) -> str:
    """Always numerator/denominator, as every fraction in the JSON: ``"3/4"``, ``"1/1"``."""
    return f"{value.numerator}/{value.denominator}"


def number_odds_table(title: str, odds: Distribution[Any], unit: str) -> Table:
    """An odds table with an "or more" column, for outcomes that are whole numbers."""

    table = titled_table(title)
    table.add_column(unit)
    table.add_column("probability", justify="right")
    table.add_column("percent", justify="right")
    table.add_column(f"{unit} or more", justify="right")
    for row in number_odds(odds, unit):
        table.add_row(
            str(row[unit]),
            row["probability"],
            f"{row['percent']:.2f}%",
            f"{row['at_least']} ({row['at_least_percent']:.2f}%)",
        )
    return table


def settings_in(ctx: typer.Context, kind: type[SettingsT]) -> SettingsT:
    """The ``kind`` settings a group's callback built from ``--set`` (else the defaults).

    Each game's group (``asl``, ``lnl``, ``vv``) keeps its settings in its context's ``obj``;
    a subcommand finds them by walking up to that group.

    >>> from typer.core import TyperCommand
    >>> settings_in(typer.Context(TyperCommand("x"), obj=None), dict)
    {}
    """
    node: typer.Context | None = ctx
    while node is not None:
        if isinstance(node.obj, kind):
            return node.obj
        node = node.parent  # type: ignore[assignment]
    return kind()


def show_settings(rows: Sequence[dict[str, Any]], title: str, as_json: bool) -> None:
    """Print a game's ``settings`` rows (``describe()`` with the current ``value``), or JSON.

    >>> show_settings([], "demo settings", as_json=True)
    {
      "settings": [],
      "clauses": [
        "SYS.cite"
      ],
      "explanation": "The engine's readings."
    }
    """
    if as_json:
        emit_json(
            {
                "settings": list(rows),
                "clauses": ["SYS.cite"],
                "explanation": "The engine's readings.",
            }
        )
        return
    from rich.text import Text  # noqa: PLC0415

    table = titled_table(title)
    for column in SETTING_COLUMNS:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(Text(str(row[c])) for c in SETTING_COLUMNS))
    console.print(table)
