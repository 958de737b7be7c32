"""CLI start-up: CPU time of plain commands against a bare ``python -c "import typer"``.

Each command runs as its own process, as a user runs it; its CPU time (user + system, from the
kernel's accounting of the finished child, getrusage) is what the user waits for on an idle
machine. The baseline is the least any Typer program can cost: the interpreter starting and
importing typer. The runs alternate (baseline, command, baseline, command...) so that a busy
machine slows both alike; the median of ``--runs`` is printed with its ratio to the baseline's.

Run: ``.venv/bin/python benchmarks/bench_cli.py [--runs N]``
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
ORDNANCE = str(BIN / "ordnance")
BASELINE = ("import typer", [sys.executable, "-c", "import typer"])
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


def cpu_seconds(argv: list[str]) -> float:
    """The CPU time (user + system) of one run of ``argv``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode().strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each, alternating")
    args = parser.parse_args()
    for argv in (BASELINE[1], *COMMANDS.values()):
        cpu_seconds(argv)  # warm the file cache and the .pyc files
    times: dict[str, list[float]] = {name: [] for name in (BASELINE[0], *COMMANDS)}
    for _ in range(args.runs):
        for name, argv in COMMANDS.items():
            times[BASELINE[0]].append(cpu_seconds(BASELINE[1]))
            times[name].append(cpu_seconds(argv))
    base = statistics.median(times[BASELINE[0]])
    print(f"CPU seconds, median of {args.runs} alternating runs")
    label = 'baseline: python -c "import typer"'
    print(f"  {label:48s} {base:7.3f} s")
    worst = 0.0
    for name in COMMANDS:
        median = statistics.median(times[name])
        worst = max(worst, median / base)
        print(
            f"  {'ordnance ' + name.removeprefix('ordnance '):48s} {median:7.3f} s"
            f"  {median / base:5.2f} x baseline"
        )
    print(f"  worst ratio {worst:.2f} x (goal: at most {LIMIT:.1f} x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
