"""The CLI imports only what a command line runs (cli/app.py COMMANDS), and finds every command.

Start-up time itself is measured by benchmarks/bench_cli.py, not here.
"""

from __future__ import annotations

import subprocess
import sys

import typer

from ordnance.cli.app import COMMANDS, load_commands, modules_for
from ordnance.cli.groups import app


def command_paths() -> list[tuple[str, str]]:
    """Every registered command as (its words after ``ordnance``, the module defining it)."""
    load_commands()
    found: list[tuple[str, str]] = []

    def walk(typer_app: typer.Typer, words: list[str]) -> None:
        for command in typer_app.registered_commands:
            assert command.callback is not None
            name = command.name or command.callback.__name__.replace("_", "-")
            found.append((" ".join([*words, name]), command.callback.__module__))
        for group in typer_app.registered_groups:
            assert group.typer_instance is not None and group.name is not None
            walk(group.typer_instance, [*words, group.name])

    walk(app, [])
    return found


def test_every_command_is_found_through_the_table():
    paths = command_paths()
    assert len(paths) > 30
    for words, module in paths:
        assert module in modules_for([*words.split(), "--help"]), words


def test_every_module_in_the_table_exists_and_a_plain_command_needs_one():
    load_commands()
    assert modules_for(["asl", "--set", "x=1", "ammo", "A5(4)", "--date", "1945-03"]) == (
        "ordnance.cli.asl_ammo",
    )
    assert set(modules_for(["game", "--help"])) == set(COMMANDS["game"])


def test_help_and_a_json_answer_import_no_heavy_packages():
    code = (
        "import sys, io, contextlib\n"
        "from ordnance.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(sys.argv[1:]) == 0\n"
        # Not pydantic (and the email package its plugin look-up imports): Typer 0.29 checks
        # every parameter's value with it, and the CLI no longer patches Typer (issue 28).
        "heavy = ['rich', 'sqlalchemy', 'urllib.request', 'ordnance.game', 'jsonschema']\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    for argv in (["--help"], ["asl", "ammo", "A5(4)/6(5)", "--date", "1945-03", "--json"]):
        done = subprocess.run(
            [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
        )
        assert done.stdout.strip() == "[]", (argv, done.stdout, done.stderr)


def test_text_parameters_keep_their_values(cli):
    result = cli("asl", "ammo", "A5(4)/6(5)", "s7", "--date", "1945-03", "--json")
    assert result.code == 0
    assert result.json["date"] == "1945-03"
    assert len(result.json["capabilities"]) == 2
