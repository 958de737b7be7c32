"""``ordnance asl settings``: the engine's readings and where each comes from."""

from __future__ import annotations

from typing import Annotated

import typer

from ordnance.cli.groups import asl_app, settings_of
from ordnance.cli.output import show_settings


@asl_app.command("settings")
def settings_command(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List every overridable reading: current value, default, provenance and rule."""
    show_settings(
        settings_of(ctx).rows(),
        "ASL settings (override with: ordnance asl --set NAME=VALUE ...)",
        as_json,
    )
