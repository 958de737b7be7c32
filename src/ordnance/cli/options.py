"""Option types several command groups share, kept light: every command line imports them."""

from __future__ import annotations

from typing import Annotated

import typer

# The ``--set NAME=VALUE`` option every ruleset group takes (read with output.parse_overrides).
SettingOverrides = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="NAME=VALUE",
        help="Override one of the engine's readings (see the group's 'settings' command).",
    ),
]

# ``--force`` of every command that writes a file the user names (core.outfiles has the rules).
Force = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Replace an existing output file of the same kind (never a database or a scenario).",
    ),
]
