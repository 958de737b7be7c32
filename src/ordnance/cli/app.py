"""The ``ordnance`` command: groups, command modules, and the one place errors are printed."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

import typer

from ordnance.cli.groups import app
from ordnance.core.errors import (
    EXIT_BAD_INPUT,
    EXIT_REFUSED,
    OrdnanceError,
    mask_passwords,
    shown,
)
from ordnance.core.limits import MAX_NESTING

# The game commands of cli/game.py and of cli/game_log.py: a game command imports its own module
# only (``game status`` and ``game do`` are timed by benchmarks/bench_cli.py).
_GAME_PLAY = ("new", "join", "import", "status", "do", "undo", "seed", "reveal")
_GAME_READ = ("log", "list", "export", "render", "verify")

# Where the commands live, so that a command line imports only what it runs (a plain command
# then starts in about the time of Python and Typer). A module registers its commands on the
# groups of cli/groups.py when imported. Keys: "group command" for one command, "group" for a
# whole group (or a top-level command, whose module is then also imported for
# ``ordnance --help``). A new command module adds one line here; tests/cli/test_cli_lazy.py
# checks that every registered command is found through this table.
COMMANDS: dict[str, tuple[str, ...]] = {
    "asl ammo": ("ordnance.cli.asl_ammo",),
    "asl roster": ("ordnance.cli.asl_ammo",),
    "asl chart": ("ordnance.cli.asl_chart",),
    "asl heat": ("ordnance.cli.asl_chart",),
    "asl he-equivalency": ("ordnance.cli.asl_chart",),
    "asl dispenser": ("ordnance.cli.asl_dispenser",),
    "asl grenades": ("ordnance.cli.asl_dispenser",),
    "asl deplete": ("ordnance.cli.asl_fire",),
    "asl smoke": ("ordnance.cli.asl_fire",),
    "asl canister": ("ordnance.cli.asl_fire",),
    "asl odds": ("ordnance.cli.asl_odds", "ordnance.cli.asl_dispenser"),
    "asl settings": ("ordnance.cli.asl_settings",),
    "asl vsav": ("ordnance.cli.asl_vsav",),
    "game": (
        "ordnance.cli.game",
        "ordnance.cli.game_log",
        "ordnance.cli.game_ai",
        "ordnance.cli.game_play",
    ),
    **{f"game {name}": ("ordnance.cli.game",) for name in _GAME_PLAY},
    **{f"game {name}": ("ordnance.cli.game_log",) for name in _GAME_READ},
    "game ai": ("ordnance.cli.game_ai",),
    "game play": ("ordnance.cli.game_play",),
    "map": ("ordnance.cli.map",),
    "lnl": ("ordnance.cli.lnl",),
    "vv": ("ordnance.cli.vv",),
    "serve": ("ordnance.cli.serve",),
    "rules": ("ordnance.cli.rules",),
}


def modules_for(argv: Sequence[str]) -> tuple[str, ...]:
    """The command modules a command line needs (see :data:`COMMANDS`).

    >>> modules_for(["asl", "ammo", "A5(4)", "--date", "1945-03"])
    ('ordnance.cli.asl_ammo',)
    >>> modules_for(["--help"])  # the top-level commands' modules (light ones)
    ('ordnance.cli.serve', 'ordnance.cli.rules')
    >>> len(modules_for(["asl", "--help"])) > 3
    True
    """
    words = [word for word in argv if not word.startswith("-")]
    groups = {info.name for info in app.registered_groups}
    if not words or words[0] not in {key.split()[0] for key in COMMANDS} | groups:
        # The top level (its help, or an unknown name): the top-level commands' modules.
        top = (mods for key, mods in COMMANDS.items() if " " not in key and key not in groups)
        return tuple(dict.fromkeys(m for mods in top for m in mods))
    group = words[0]
    for word in words[1:]:
        found = COMMANDS.get(f"{group} {word}")
        if found is not None:
            return found
    # The group's help, or a command named only with its group: every module of the group.
    inside = (mods for key, mods in COMMANDS.items() if key.split()[0] == group)
    return tuple(dict.fromkeys(m for mods in inside for m in mods))


def load_commands(argv: Sequence[str] | None = None) -> None:
    """Import the command modules ``argv`` needs; every module when ``argv`` is None."""
    needed = (m for mods in COMMANDS.values() for m in mods) if argv is None else modules_for(argv)
    for module in dict.fromkeys(needed):
        importlib.import_module(module)


EXIT_BUG = 70  # an error the program did not expect: a bug to report (EX_SOFTWARE)
TRACEBACK_ENV = "ORDNANCE_TRACEBACK"  # set to 1: an unexpected error shows its traceback
MAX_MESSAGE = 400  # characters of one error line


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; every error is one line on stderr and a non-zero exit code."""
    load_commands(sys.argv[1:] if argv is None else argv)
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
    except OrdnanceError as error:
        from ordnance.game.errors import answer_of  # noqa: PLC0415

        _fail(str(error))
        return answer_of(error).exit  # the one table the web reads too
    except OSError as error:
        # A path the system refuses (too long, a folder, no permission) wherever it is used.
        name = "" if error.filename is None else f" {shown(str(error.filename))}"
        _fail(f"bad file{name}: {error.strerror or error}")
        return EXIT_BAD_INPUT
    except UnicodeEncodeError as error:
        # A name no file can have (a lone surrogate), met where the system is first asked.
        _fail(f"bad file name {shown(str(error.object))}: the system cannot store it")
        return EXIT_BAD_INPUT
    except RecursionError:
        # Every reader bounds nesting (core.limits); this is the last guard, not the first.
        _fail(f"bad input: nested too deeply to read (the limit is {MAX_NESTING} levels)")
        return EXIT_BAD_INPUT
    except MemoryError:
        _fail("bad input: too large to handle in memory (see 'Limits' in the documentation)")
        return EXIT_BAD_INPUT
    except Exception as error:
        missing = _missing_extra(error)
        if missing is not None:
            # An optional part imported where no check named it first: still one line.
            _fail(missing)
            return EXIT_BAD_INPUT
        if os.environ.get(TRACEBACK_ENV):
            raise
        _fail(
            f"internal error, please report it: {type(error).__name__}: {error}"
            f" (${TRACEBACK_ENV}=1 shows where)"
        )
        return EXIT_BUG
    return result if isinstance(result, int) else 0


def _missing_extra(error: Exception) -> str | None:
    """The line for an ImportError of a module an extra brings (see core/extras.py), else None."""
    if not isinstance(error, ImportError):
        return None
    from ordnance.core.extras import PURPOSE, MissingExtra, extra_of  # noqa: PLC0415

    extra = extra_of(error.name)
    if extra is None:
        return None
    return str(MissingExtra(extra, PURPOSE[extra], error.name or extra))


def _fail(message: str) -> None:
    # One line, never a password (a database URL may be quoted), never a page of input.
    line = mask_passwords(" ".join(message.split()))
    if len(line) > MAX_MESSAGE:
        line = line[: MAX_MESSAGE - 3] + "..."
    sys.stderr.write(f"ordnance: {line}\n")


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
