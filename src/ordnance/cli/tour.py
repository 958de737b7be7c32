"""``make run``: a short guided tour of the ASL commands on a bundled example.

The example is a small 1945 action: a Soviet T-34/85 (APCR ``A5(4)/6(5)``, the C8.91 example) and
a German 7.5cm PaK 40 (``A5(2)/4(3)/3(4) H6(3+)!``). Each step prints the command it runs, so a
newcomer can copy it.

Then it plays the bundled scenario ``examples/asl-c8-demo.yaml`` as a game on a fresh SQLite file
in a temporary folder: seeds, shots whose side record changes, refusals, an undo, the reveal of
the dice seed, and it ends by exporting the log and verifying it. A short D13 leg follows on
``examples/asl-d13-demo.yaml`` (the map asl-village, dice entered): a move, a smoke mortar aimed
past grain, the enemy's answer with its discharger, and a picture of the map with the SMOKE.
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ordnance.cli.app import main

STEPS: tuple[tuple[str, str], ...] = (
    (
        "What may the T-34/85 fire in March 1945? Its counter reads A5(4)/6(5) s8 (C8.91).",
        'asl ammo "A5(4)/6(5) s8" --date 1945-03',
    ),
    (
        "The same counter in 1943: no APCR yet.",
        'asl ammo "A5(4)/6(5)" --date 1943-06',
    ),
    (
        "The Ammunition Supply Chart for the PaK 40's 75L gun in 1944, elite crew (C8.2).",
        "asl chart --nationality german --gun 75L --date 1944-06 --elite",
    ),
    (
        "An American 76L before and from August 1944 (the chart's month start).",
        "asl chart --nationality american --gun 76L --date 1944-07",
    ),
    ("", "asl chart --nationality american --gun 76L --date 1944-08"),
    (
        "The T-34/85 declares APCR and rolls 3,3 against Depletion Number 6 (C8.9).",
        "asl deplete --number 6 --dice 3,3",
    ),
    (
        "Before rolling: the exact odds of depletion and a hit (To Hit 8, +1 DRM).",
        "asl odds depletion --number 6 --to-hit 8 --drm 1",
    ),
    (
        "May the Germans fire HEAT in April 1942? (C8.3)",
        "asl heat --nationality german --date 1942-04",
    ),
    (
        "HE Equivalency of a Panzerfaust, and of a 75mm Gun's HEAT with HE FP 8 (C8.31).",
        "asl he-equivalency PF",
    ),
    ("", "asl he-equivalency ordnance --he-fp 8"),
    (
        "SMOKE in the Defensive Fire Phase is placed Dispersed (C8.5, C8.51).",
        "asl smoke --ammo SMOKE --phase DFPh",
    ),
    (
        "WP after the side already fired HE this phase is refused (C8.6).",
        "asl smoke --ammo WP --phase AFPh --after-non-smoke-fire",
    ),
    (
        "Canister, 12 FP, from an AFV that moved, +1 TEM, dice 2,3 (C8.4).",
        "asl canister --fp 12 --moved --drm 1 --dice 2,3",
    ),
    ("Every reading the engine had to choose, and how to override it.", "asl settings"),
)


def run(console: Console | None = None) -> int:
    """Run every step; stop at the first failure and return its exit code."""
    out = console or Console(highlight=False)
    out.print(Text("ordnance: a guided tour of the ASL C8 commands", style="bold"))
    for caption, command in STEPS:
        if caption:
            out.print(Rule())
            out.print(Text(caption))
        out.print(Text(f"$ ordnance {command}", style="cyan"))
        code = main(shlex.split(command))
        if code != 0:
            return code
    roster = ROOT.parent / "shared" / "data" / "vasl-templates"
    out.print(Rule())
    if roster.is_dir():
        out.print(Text("Your own vasl-templates data: German APCR and smoke in June 1944."))
        command = f"asl roster --vasl-templates {roster} --nationality german --date 1944-06"
        out.print(Text(f"$ ordnance {command}", style="cyan"))
        code = main(shlex.split(command))
        if code != 0:
            return code
    else:
        out.print(
            Text(
                "Point 'ordnance asl roster --vasl-templates DIR' at a vasl-templates data folder"
                " to list every vehicle and Gun of a nationality on a date."
            )
        )
    with tempfile.TemporaryDirectory(prefix="ordnance-tour-") as folder:
        return play_game(out, Path(folder)) or play_game(out, Path(folder), D13_DEMO, D13_STEPS)


ROOT = Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "examples" / "asl-c8-demo.yaml"
REFUSED = 1

# The game part: (caption, command, expected exit code). {db}, {game}, {german}, {russian} and
# {log} are filled in; 'do' commands name a side and its token.
GAME_STEPS: tuple[tuple[str, str, int], ...] = (
    (
        "Each side mixes a seed of its own into the dice before the first roll (SYS.dice).",
        'game seed {game} "Panzer marsch" --side german --token {german} --db {db}',
        0,
    ),
    ("", 'game seed {game} "Vperyod" --side russian --token {russian} --db {db}', 0),
    (
        "The shared side record: every Gun's special ammunition (C8.0).",
        "game status {game} --db {db}",
        0,
    ),
    ("The German Rally Phase ends; the Prep Fire Phase begins.", "{german_do} phase next", 0),
    (
        "SMOKE at the start of the PFPh is full strength (C8.5, C8.51); its Placement DR is also"
        " the depletion check (C8.9).",
        "{german_do} fire pak --ammo SMOKE",
        0,
    ),
    (
        "The PzKpfw IVH fires AP: something other than SMOKE.",
        "{german_do} fire pz4 --ammo AP --to-hit 7",
        0,
    ),
    (
        "So no more SMOKE this phase (C8.5-phase): refused, and nothing is logged.",
        "{german_do} fire pz4 --ammo SMOKE",
        REFUSED,
    ),
    (
        "The Movement Phase: the PzKpfw IVH moves (its Canister would now be halved).",
        "{german_do} phase next",
        0,
    ),
    ("", "{german_do} move pz4", 0),
    ("", "{german_do} phase next", 0),
    (
        "The defender's Defensive Fire: the T-34/85 declares APCR (Depletion Number 5 in"
        " 1944, C8.91).",
        "{russian_do} fire t34 --ammo APCR --to-hit 8 --drm 1",
        0,
    ),
    (
        "The 45mm gun in 4G5 fires Canister at the middle of its five aiming points: one IFT DR"
        " is the attack, the depletion and the breakdown check (C8.4, C8.41).",
        "{russian_do} canister at45 --aim 3 --adjacent hexside --drm 1",
        0,
    ),
    ("", "{russian_do} phase next", 0),
    ("A phase change without a roll can be taken back...", "{german_do} phase next", 0),
    ("", "game undo {game} --side german --token {german} --db {db}", 0),
    (
        "The Panzerschreck fires HEAT: no Depletion Number for an SCW (C8.3).",
        "{german_do} fire psk --ammo HEAT --target vehicle",
        0,
    ),
    (
        "...but nothing before a revealed roll: undo is refused now (SYS.dice).",
        "game undo {game} --side german --token {german} --db {db}",
        REFUSED,
    ),
    ("Where the game stands now.", "game status {game} --db {db}", 0),
    (
        "Both sides agree to reveal the server's seed: anyone can now recompute every roll.",
        "game reveal {game} --side german --token {german} --db {db}",
        0,
    ),
    ("", "game reveal {game} --side russian --token {russian} --db {db}", 0),
    (
        "The append-only log, each entry chained to the one before by its hash.",
        "game log {game} --db {db}",
        0,
    ),
    ("Export it to one JSON file...", "game export {game} --out {log} --db {db}", 0),
    (
        "...and verify it: the chain, a replay of every command, every roll from the seed.",
        "game verify {log}",
        0,
    ),
)


D13_DEMO = ROOT / "examples" / "asl-d13-demo.yaml"
D13_STEPS: tuple[tuple[str, str, int], ...] = (
    ("D13 on a map: the American Rally and Prep Fire Phases end.", "{american_do} phase next", 0),
    ("", "{american_do} phase next", 0),
    (
        "The M24 spends 2 MP to enter 4G5: both German AFVs see it (D13.2-defensive).",
        "{american_do} move m24 --to 4G5 --mp 2",
        0,
    ),
    (
        "Its smoke mortar aims at 4I5, two hexes on past grain: Case A +1 for turning the TCA,"
        " +2 moving, and the Hindrance +1 the map's LOS finds (D13.32). The table rolled 1,2.",
        "{american_do} dispense m24 --target 4I5 --dice 1,2",
        0,
    ),
    ("One try per Player Turn (D13.2-once).", "{american_do} dispense m24 --target 4H4", REFUSED),
    (
        "That 1 MP was seen: the PzKpfw IVH answers with its smoke discharger as Defensive First"
        " Fire, +1 buttoned up (D13.2, D13.3, D13.31).",
        "{german_do} dispense pz4 --dice 2,2",
        0,
    ),
    (
        "The map as it stands: the game's SMOKE beside the map's own, and a LOS through it.",
        "game render {game} --out {svg} --los 4G5 4J5 --db {db}",
        0,
    ),
)


def play_game(
    out: Console,
    folder: Path,
    scenario: Path = SCENARIO,
    steps: tuple[tuple[str, str, int], ...] = GAME_STEPS,
) -> int:
    """Play a bundled scenario on a SQLite file in ``folder`` (the C8 one ends by verifying its
    log)."""
    db = f"sqlite:///{folder / 'games.sqlite3'}"
    out.print(Rule())
    out.print(
        Text(
            "Now as a game between two sides: a SQLite file, the bundled scenario"
            f" {scenario.relative_to(ROOT)}."
        )
    )
    command = f"game new {shlex.quote(str(scenario))} --db {db} --json"
    out.print(Text(f"$ ordnance {command}", style="cyan"))
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = main(shlex.split(command))
    sys.stdout.write(captured.getvalue())
    if code != 0:
        return code
    made = json.loads(captured.getvalue())
    names = {"db": db, "game": made["game"], "log": str(folder / "game-log.json")}
    names["svg"] = str(folder / "village.svg")
    for side, token in made["tokens"].items():
        names[side] = token
        names[f"{side}_do"] = f"game do {made['game']} --side {side} --token {token} --db {db}"
    for caption, template, expected in steps:
        if caption:
            out.print(Rule())
            out.print(Text(caption))
        command = template.format(**names)
        out.print(Text(f"$ ordnance {command}", style="cyan"))
        code = main(shlex.split(command))
        if code != expected:
            return code or 1
    return 0


if __name__ == "__main__":
    sys.exit(run())
