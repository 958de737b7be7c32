"""The ``ordnance`` command: groups, command modules, and the one place errors are printed."""

from __future__ import annotations

import sys

import typer

# Importing a command module registers its commands on the groups.
from ordnance.cli import asl_ammo, asl_chart, asl_dispenser, asl_fire, asl_odds, asl_settings, game  # noqa: F401
from ordnance.cli import asl_vsav as asl_vsav_commands  # noqa: F401
from ordnance.cli import lnl as lnl_commands  # noqa: F401
from ordnance.cli import map as map_commands  # noqa: F401
from ordnance.cli import vv as vv_commands  # noqa: F401
from ordnance.cli.groups import app
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError

EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; every error is one line on stderr and a non-zero exit code."""
    command = typer.main.get_command(app)
    try:
        result = command.main(args=argv, prog_name="ordnance", standalone_mode=False)
    except typer.Exit as done:
        return done.exit_code
    except typer.TyperException as error:
        if type(error).__name__ == "NoArgsIsHelpError":
            # A group called bare: its help is the answer, not an error.
            sys.stdout.write(error.format_message() + "\n")
            return 0
        # Usage errors (unknown option, missing argument, bad value): one line, no usage dump.
        context = getattr(error, "ctx", None)
        where = f" (see '{context.command_path} --help')" if context is not None else ""
        _fail(f"{error.format_message()}{where}")
        return EXIT_BAD_INPUT
    except typer.Abort:
        _fail("aborted")
        return EXIT_REFUSED
    except BadInput as error:
        _fail(str(error))
        return EXIT_BAD_INPUT
    except IllegalAction as error:
        _fail(str(error))
        return EXIT_REFUSED
    except OrdnanceError as error:
        _fail(str(error))
        return EXIT_BAD_INPUT
    return result if isinstance(result, int) else 0


def _fail(message: str) -> None:
    sys.stderr.write(f"ordnance: {' '.join(message.split())}\n")


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
