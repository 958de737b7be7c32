"""``ordnance asl settings``: the engine's readings and where each comes from."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ordnance.asl.settings import Settings
from ordnance.cli.groups import asl_app, settings_of
from ordnance.cli.output import console, emit_json


@asl_app.command("settings")
def settings_command(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List every overridable reading: current value, default, provenance and rule."""
    current = settings_of(ctx)
    rows = [{**row, "value": getattr(current, row["name"])} for row in Settings.describe()]
    if as_json:
        emit_json(
            {"settings": rows, "clauses": ["SYS.cite"], "explanation": "The engine's readings."}
        )
        return
    table = Table(title="ASL settings (override with: ordnance asl --set NAME=VALUE ...)")
    for column in ("name", "value", "default", "tag", "rule", "doc"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(
            *(Text(str(row[c])) for c in ("name", "value", "default", "tag", "rule", "doc"))
        )
    console.print(table)
