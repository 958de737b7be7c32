"""The command groups every command module attaches to, and the ASL group's shared options."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from ordnance.cli.options import SettingOverrides

if TYPE_CHECKING:
    from ordnance.asl.settings import Settings

app = typer.Typer(
    name="ordnance",
    help="Rules engine, side record and exact odds for WWII tactical wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
asl_app = typer.Typer(
    help="Advanced Squad Leader: special ammunition (C8).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
odds_app = typer.Typer(
    help="Exact odds of an ASL procedure's outcomes.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
game_app = typer.Typer(
    help="Play a scenario: a shared side record with an append-only log and fair dice.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
map_app = typer.Typer(
    help="Hex maps: line of sight, range, arcs, canister aims, pictures.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(asl_app, name="asl")
asl_app.add_typer(odds_app, name="odds")
app.add_typer(game_app, name="game")
app.add_typer(map_app, name="map")
lnl_app = typer.Typer(
    help="Lock 'n Load Tactical: Smoke and WP shells (14.2.2, 14.2.3).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(lnl_app, name="lnl")
vv_app = typer.Typer(
    help="Valor & Victory: AP fire, valid targets, exact odds.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(vv_app, name="vv")


@asl_app.callback()
def asl_options(
    ctx: typer.Context,
    overrides: SettingOverrides = None,
) -> None:
    """ASL special ammunition (C8): notation, supply chart, depletion, HEAT, canister, SMOKE."""
    # Imported here: the top-level help and other groups need no ASL rules.
    from ordnance.asl.settings import Settings  # noqa: PLC0415
    from ordnance.cli.output import parse_overrides  # noqa: PLC0415

    ctx.obj = Settings().override(parse_overrides(overrides or []))


def settings_of(ctx: typer.Context) -> Settings:
    """The settings the ``asl`` group built from ``--set`` (defaults when called directly)."""
    from ordnance.asl.settings import Settings  # noqa: PLC0415
    from ordnance.cli.output import settings_in  # noqa: PLC0415

    return settings_in(ctx, Settings)
