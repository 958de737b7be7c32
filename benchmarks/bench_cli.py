"""CLI start-up: CPU time of plain commands against a bare ``python -c "import typer"``.

Besides ``--help`` and ``asl ammo``, two game commands on a V&V game of GAME_ENTRIES entries
(``examples/vv-meeting-engagement.yaml``, commands picked among the legal ones by a seeded
choice, made beforehand through the service and not timed): ``game status`` of it, and
``game do`` of one legal command for the side to move. Each ``game do`` run gets a fresh copy
of the database, key store and receipts made before it (not timed), so that every run sends
the same command to the same game.

Each command runs as its own process, as a user runs it; its CPU time (user + system, from the
kernel's accounting of the finished child, getrusage) is what the user waits for on an idle
machine. The baseline is the least any Typer program can cost: the interpreter starting and
importing typer. The runs alternate (baseline, command, baseline, command...) so that a busy
machine slows both alike; the median of ``--runs`` is printed with its ratio to the baseline's.

Run: ``.venv/bin/python benchmarks/bench_cli.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
ORDNANCE = str(BIN / "ordnance")
BASELINE = ("import typer", [sys.executable, "-c", "import typer"])
# Not a baseline, printed beside it: the least a Typer command that takes a value costs (Typer
# 0.29 checks every parameter's value with Pydantic, which a bare import does not load; the
# project pins 0.28 for it, see pyproject.toml).
TYPER_COMMAND = (
    "a Typer command taking one text argument",
    [
        sys.executable,
        "-c",
        "import typer\napp = typer.Typer()\n@app.command()\ndef echo(text: str) -> None:\n"
        "    pass\napp(['x'], standalone_mode=False)",
    ],
)
COMMANDS = {
    "ordnance --help": [ORDNANCE, "--help"],
    "asl ammo 'A5(4)/6(5)' --date 1945-03 --json": [
        ORDNANCE,
        "asl",
        "ammo",
        "A5(4)/6(5)",
        "--date",
        "1945-03",
        "--json",
    ],
}
LIMIT = 2.0  # the most a plain command may cost, in baselines (issue 17)
GAME_LIMIT = 5.0  # the most a game command may cost, in baselines (issue 28)
GAME_ENTRIES = 150
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "vv-meeting-engagement.yaml"


# The commands run as an installed package runs: from .pyc files (the warm-up writes them), even
# where this shell says not to write any (each run would else compile every module it imports).
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(argv: list[str], env: dict[str, str] | None = None) -> float:
    """The CPU time (user + system) of one run of ``argv``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, check=False, env=env or ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode().strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


class GameCase:
    """The bench's game in ``folder`` (database, key store, receipts), and how to run a
    command on it, or on a fresh copy of it (``game do``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.home = folder / "game"
        self.home.mkdir()
        os.environ["ORDNANCE_KEYS"] = str(self.home / "keys")
        os.environ["ORDNANCE_RECEIPTS"] = str(self.home / "receipts")
        from ordnance.game.scenario import load_scenario_file  # noqa: PLC0415
        from ordnance.game.service import GameService  # noqa: PLC0415

        service = GameService(str(self.home / "games.sqlite3"))
        chooser = random.Random(1)
        for _ in range(20):  # the dice are fair (a fresh server seed): a game may end early
            made = service.create(load_scenario_file(EXAMPLE))
            if (game := self.played(service, made.game, made.tokens, chooser)) is not None:
                break
        else:
            raise SystemExit(f"no game of {EXAMPLE.name} lasted {GAME_ENTRIES} entries")
        self.game = made.game
        self.side = game.rules.to_move(game.state) or game.sides[0]
        legal = game.rules.legal_actions(game.state, self.side)
        self.command = shlex.split("phase next" if "phase next" in legal else legal[0])
        self.token = made.tokens[self.side]
        service.close()
        self.work = folder / "work"

    @staticmethod
    def played(service: Any, game_id: str, tokens: dict[str, str], chooser: random.Random) -> Any:
        """The game after GAME_ENTRIES entries of commands picked among the legal ones, or
        None if it ended before."""
        from ordnance.core.errors import OrdnanceError  # noqa: PLC0415

        while (game := service.game(game_id)).version < GAME_ENTRIES:
            options = [
                (side, text)
                for side in game.sides
                for text in game.rules.legal_actions(game.state, side)
            ]
            if not options:
                return None
            side, text = chooser.choice(options)
            try:
                service.do(game_id, side, tokens[side], shlex.split(text))
            except OrdnanceError:
                continue  # refused once its dice were rolled: nothing stored
        return game

    def env(self, home: Path) -> dict[str, str]:
        return {
            **ENV,
            "ORDNANCE_DB": str(home / "games.sqlite3"),
            "ORDNANCE_KEYS": str(home / "keys"),
            "ORDNANCE_RECEIPTS": str(home / "receipts"),
            "ORDNANCE_TOKEN": self.token,
        }

    def status(self) -> float:
        return cpu_seconds([ORDNANCE, "game", "status", self.game], self.env(self.home))

    def do(self) -> float:
        shutil.rmtree(self.work, ignore_errors=True)
        shutil.copytree(self.home, self.work)
        argv = [ORDNANCE, "game", "do", self.game, *self.command, "--side", self.side]
        return cpu_seconds(argv, self.env(self.work))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each, alternating")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        case = GameCase(Path(folder))
        runs: dict[str, Callable[[], float]] = {
            name: (lambda argv=argv: cpu_seconds(argv)) for name, argv in COMMANDS.items()
        }
        runs[TYPER_COMMAND[0]] = lambda: cpu_seconds(TYPER_COMMAND[1])
        runs[f"game status GAME ({GAME_ENTRIES} entries)"] = case.status
        runs[f"game do GAME {shlex.join(case.command)}"] = case.do
        cpu_seconds(BASELINE[1])  # warm the file cache and the .pyc files
        for run in runs.values():
            run()  # the first status writes the game's snapshot, as a first read does
        times: dict[str, list[float]] = {name: [] for name in (BASELINE[0], *runs)}
        for _ in range(args.runs):
            for name, run in runs.items():
                times[BASELINE[0]].append(cpu_seconds(BASELINE[1]))
                times[name].append(run())
    base = statistics.median(times[BASELINE[0]])
    print(f"CPU seconds, median of {args.runs} alternating runs")
    label = 'baseline: python -c "import typer"'
    print(f"  {label:48s} {base:7.3f} s")
    worst = {LIMIT: 0.0, GAME_LIMIT: 0.0}
    for name, spent in times.items():
        if name == BASELINE[0]:
            continue
        median = statistics.median(spent)
        goal = GAME_LIMIT if name.startswith("game ") else LIMIT
        shown = name if name == TYPER_COMMAND[0] else "ordnance " + name.removeprefix("ordnance ")
        if name != TYPER_COMMAND[0]:
            worst[goal] = max(worst[goal], median / base)
        print(f"  {shown:48s} {median:7.3f} s  {median / base:5.2f} x baseline")
    print(f"  worst ratio of the plain commands {worst[LIMIT]:.2f} x (goal: at most {LIMIT:.1f} x)")
    print(
        f"  worst ratio of the game commands {worst[GAME_LIMIT]:.2f} x"
        f" (goal: at most {GAME_LIMIT:.1f} x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
