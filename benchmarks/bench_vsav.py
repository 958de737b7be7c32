"""Reading a VASL save: a generated save of 1,000 pieces, against the bare unpacking of it.

The save is written by the tests' writer (``tests/vsav_writer.py``) like a real VASL game: 1,000
pieces on eight boards (4 x 2), each with 36 traits (layers, menus, the Hideable and Concealable
traits) as VASL counters carry, a third of them vehicles and Guns of the vasl-templates data.

What is timed, in one process, best of ``--runs`` in CPU time (the machine may be shared; the
wall time of the reader is printed too):

- baseline: the floor any reader pays: open the zip, read ``savedGame``, turn the hex pairs into
  bytes, XOR them with the key (``bytes.translate``) and decode UTF-8. No command is split.
- read_save: ``ordnance.core.vassal.read_save``: the same, then every command split with VASSAL's
  escaping, every trait chain and BasicPiece state read. Target: under 200 ms.
- read_vsav: ``ordnance.asl.vsav.read_vsav``: the above, plus loading the vasl-templates data,
  matching every piece by gpid and placing it on a hex (run when ../shared/data/vasl-templates
  is present); the data load alone is timed too.

Run: ``.venv/bin/python benchmarks/bench_vsav.py [--pieces N] [--runs N]``
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the save writer lives with the tests

from tests.vsav_writer import (  # noqa: E402
    PieceSpec,
    filler_traits,
    hidden_traits,
    save_text,
    save_zip,
)

from ordnance.asl.vasl_templates import load  # noqa: E402
from ordnance.asl.vsav import read_vsav  # noqa: E402
from ordnance.core.vassal import read_save  # noqa: E402

VASL_TEMPLATES = ROOT.parent / "shared" / "data" / "vasl-templates"
TARGET_SECONDS = 0.200
BOARDS = [(column, row, str(1 + column + 4 * row)) for row in range(2) for column in range(4)]
# A PzKw VIE, a T-34/85, an 8.8cm FlaK, then squads and markers the data does not know.
GPIDS = ["2598", "601", "2521", "1074", "1144", "6295"]


def generated(pieces: int) -> bytes:
    chooser = random.Random(15)
    specs = []
    for number in range(pieces):
        nation = "ge" if number % 2 else "ru"
        traits = filler_traits(30) + hidden_traits(nation=nation) + filler_traits(4)
        x = 400 + chooser.randrange(4 * 1800)
        y = 400 + chooser.randrange(2 * 645)
        specs.append(PieceSpec(f"piece {number}", GPIDS[number % len(GPIDS)], x, y, traits=traits))
    return save_zip(save_text(specs, BOARDS))


def baseline(path: Path) -> int:
    """Unzip, unhex, unXOR, decode: the floor of any reader."""
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
        data = archive.read("savedGame")
    key = int(data[5:7], 16)
    table = bytes(value ^ key for value in range(256))
    return len(bytes.fromhex(data[7:].decode("ascii")).translate(table).decode("utf-8"))


def best(runs: int, work: Callable[[], object]) -> float:
    """The fastest of ``runs`` runs, in CPU seconds of this process: the machine may be shared,
    and waiting for a core is not the reader's time (wall time is printed beside it)."""
    times = []
    for _ in range(runs):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def best_wall(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.vsav"
        path.write_bytes(generated(args.pieces))
        save = read_save(path)
        print(
            f"save: {args.pieces} pieces, {path.stat().st_size:,} bytes zipped,"
            f" {len(save.commands):,} commands, {sum(len(p.traits) for p in save.pieces):,} traits"
        )
        floor = best(args.runs, lambda: baseline(path))
        reader = best(args.runs, lambda: read_save(path))
        wall = best_wall(args.runs, lambda: read_save(path))
        print("best of", args.runs, "runs, CPU time")
        print(f"baseline (unzip + unhex + XOR + UTF-8): {floor * 1000:7.1f} ms")
        print(f"read_save (commands, traits, states):   {reader * 1000:7.1f} ms", end="")
        print(f" (wall {wall * 1000:.1f} ms)")
        print(f"  ratio read_save / baseline: {reader / floor:.1f}")
        verdict = "met" if reader < TARGET_SECONDS else "NOT met"
        print(f"  target {TARGET_SECONDS * 1000:.0f} ms for {args.pieces} pieces: {verdict}")
        if not VASL_TEMPLATES.is_dir():
            print("read_vsav: skipped (../shared/data/vasl-templates is absent)")
            return
        data_load = best(args.runs, lambda: load(VASL_TEMPLATES))
        full = best(args.runs, lambda: read_vsav(path, VASL_TEMPLATES))
        units = len(read_vsav(path, VASL_TEMPLATES).units)
        print(f"read_vsav (+ data, gpid match, hexes):  {full * 1000:7.1f} ms ({units} AFVs/Guns)")
        print(f"  of which loading the vasl-templates data: {data_load * 1000:.1f} ms")
        print(f"  ratio read_vsav / baseline: {full / floor:.1f}")


if __name__ == "__main__":
    main()
