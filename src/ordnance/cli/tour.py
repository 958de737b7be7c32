"""``make run``: a short guided tour of all three games, each played on a bundled example.

First the ASL C8 commands on their own: a Soviet T-34/85 (APCR ``A5(4)/6(5)``, the C8.91
example) and a German 7.5cm PaK 40 (``A5(2)/4(3)/3(4) H6(3+)!``). Each step prints the command
it runs, so a newcomer can copy it, and what it printed; a refused command's one-line message
(which the CLI writes on stderr) is shown too.

Then four short games, each on a fresh SQLite file in a temporary folder:

- ASL C8, ``examples/asl-c8-demo.yaml`` (the map asl-village): seeds, shots at a hex with
  their range and LOS, a side record that changes, refusals, an undo, the reveal of the dice
  seed, the export of the log and its verification;
- ASL D13, ``examples/asl-d13-demo.yaml`` (the map asl-village, dice entered): a move, a smoke
  mortar aimed past grain, the enemy's answer with its discharger, a picture of the map;
- Lock 'n Load Tactical, ``examples/lnl-smoke-wp.yaml``: a WP shell into the farmhouse with
  its WP checks, a refusal, the pools in the status, a picture;
- Valor & Victory, ``examples/vv-hedgerow-ambush.yaml``: a fire group's AP attack, the AI
  fulfilling the Casualty Points, a refusal, a move, the status, a picture.

The LnLT and V&V examples roll fair dice; the tour plays copies of them with ``dice:
physical`` and enters the dice, so that it reads the same every time. Pictures go to
``ordnance-tour/`` in the system's temporary folder (PNG too when a converter is installed).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import yaml
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ordnance.cli.app import main
from ordnance.cli.output import wrap_sentences
from ordnance.core.maps.png import find_converter
from ordnance.core.outfiles import write_output

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
    wrap_sentences(True)  # a tour is read by a person, at whatever width the console has
    try:
        return _run(console)
    finally:
        wrap_sentences(None)


def _run(console: Console | None) -> int:
    out = console or Console(highlight=False)
    out.print(
        Text(
            "ordnance: a guided tour of ASL (C8 and D13), Lock 'n Load Tactical and Valor &"
            " Victory",
            style="bold",
        )
    )
    for caption, command in STEPS:
        if caption:
            out.print(Rule())
            out.print(Text(caption))
        code = run_command(out, command)
        if code != 0:
            return code
    roster = ROOT.parent / "shared" / "data" / "vasl-templates"
    out.print(Rule())
    if roster.is_dir():
        out.print(
            Text(
                "Your own vasl-templates data: the German Panzer IVs in June 1944 (a name filter,"
                " any case, and a nationality alias), then one of them looked up by name."
            )
        )
        where = f"--vasl-templates {roster} --date 1944-06"
        for command in (
            f'asl roster {where} --nationality ge --name "pzkpfw iv"',
            f'asl ammo --vehicle "PzKpfw IVH" {where} --nationality german',
        ):
            code = run_command(out, command)
            if code != 0:
                return code
    else:
        out.print(
            Text(
                "Point 'ordnance asl roster --vasl-templates DIR' at a vasl-templates data folder"
                " to list every vehicle and Gun of a nationality on a date."
            )
        )
    pictures = Path(tempfile.gettempdir()) / "ordnance-tour"
    pictures.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ordnance-tour-") as folder, _own_home(Path(folder)):
        for title, scenario, steps, physical in GAMES:
            out.print(Rule(title))
            code = play_game(out, Path(folder), scenario, steps, pictures, physical=physical)
            if code != 0:
                return code
    out.print(Rule())
    out.print(Text(f"The pictures of the maps are in {pictures}."))
    return 0


def run_command(out: Console, command: str) -> int:
    """Print ``$ ordnance COMMAND``, run it, and show a refusal's or error's message too (the
    CLI writes it on stderr, one line), so the tour's output reads whole."""
    out.print(Text(f"$ ordnance {command}", style="cyan"))
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors):
        code = main(shlex.split(command))
    for line in errors.getvalue().splitlines():
        kind = "refused" if code == REFUSED else "error"
        out.print(Text(f"  [{kind}, exit {code}] {line}", style="red"))
    return code


@contextlib.contextmanager
def _own_home(folder: Path) -> Iterator[None]:
    """The tour's games keep their key store and receipts in its temporary folder, not in the
    user's data folder."""
    names = ("ORDNANCE_KEYS", "ORDNANCE_RECEIPTS")
    saved = {name: os.environ.get(name) for name in names}
    os.environ["ORDNANCE_KEYS"] = str(folder / "keys")
    os.environ["ORDNANCE_RECEIPTS"] = str(folder / "receipts")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


ROOT = Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "examples" / "asl-c8-demo.yaml"
REFUSED = 1

# The game part: (caption, command, expected exit code). {db}, {game}, {german}, {russian} and
# {log} are filled in; 'do' commands name a side and its token.
GAME_STEPS: tuple[tuple[str, str, int], ...] = (
    (
        "Each side mixes a seed of its own into the dice before the first roll (SYS.dice).",
        'game seed {game} "Panzer marsch" --side german --token-file {german} --db {db}',
        0,
    ),
    ("", 'game seed {game} "Vperyod" --side russian --token-file {russian} --db {db}', 0),
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
        "The PzKpfw IVH in 4K2 fires AP at the T-34/85 in 4E4: something other than SMOKE. The"
        " ruling gives the range and the line of sight on the map, hit or miss, and whether its"
        " coloured die kept its ROF of 2 (C8.1-rof).",
        "{german_do} fire pz4 --ammo AP --to-hit 7 --at 4E4",
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
        "{russian_do} fire t34 --ammo APCR --to-hit 8 --drm 1 --at 4K2",
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
    ("", "game undo {game} --side german --token-file {german} --db {db}", 0),
    (
        "The Panzerschreck fires HEAT: no Depletion Number for an SCW (C8.3).",
        "{german_do} fire psk --ammo HEAT --target vehicle",
        0,
    ),
    (
        "...but nothing before a revealed roll: undo is refused now (SYS.dice).",
        "game undo {game} --side german --token-file {german} --db {db}",
        REFUSED,
    ),
    ("Where the game stands now.", "game status {game} --db {db}", 0),
    (
        "Both sides agree to reveal the server's seed: anyone can now recompute every roll.",
        "game reveal {game} --side german --token-file {german} --db {db}",
        0,
    ),
    ("", "game reveal {game} --side russian --token-file {russian} --db {db}", 0),
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
        "The M24 spends 2 MP to enter 4G5 (the hex 1, starting 1): both German AFVs see it"
        " (D13.2-defensive).",
        "{american_do} move m24 --to 4G5 --mp 1",
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
        "The map as it stands: every counter with its state, the game's SMOKE beside the map's"
        " own, and a LOS through it.",
        "{render} --los 4G5 4J5",
        0,
    ),
)

LNL_DEMO = ROOT / "examples" / "lnl-smoke-wp.yaml"
LNL_STEPS: tuple[tuple[str, str, int], ...] = (
    ("The Rally Phase ends; the Germans have the first impulse.", "{german_do} phase next", 0),
    (
        "The Panzer IV fires its WP shell at the farmhouse H3: the To Hit DR, then the WP check"
        " of each unit there (two dice in a building, the higher kept), then the depletion die"
        " of the WP pool (LNL.W-proc, LNL.W-check, LNL.W-deplete).",
        "{german_do} wp-shell pz4 --at H3 --dice 2,3 --dice 4,1 --dice 5 --dice 3,2 --dice 6",
        0,
    ),
    ("Its MGs may still fire; it ends its action instead.", "{german_do} end", 0),
    (
        "The American half-track carries no shells: refused with the clause.",
        "{american_do} smoke-shell m3 --at D5 --dice 3,3",
        REFUSED,
    ),
    ("The squad in the orchard moves closer.", "{american_do} move sq2 --to L4", 0),
    ("The pools, the markers and every unit.", "game status {game} --db {db}", 0),
    ("The farm with its WP and smoke markers and every counter.", "{render}", 0),
)

VV_DEMO = ROOT / "examples" / "vv-hedgerow-ambush.yaml"
VV_STEPS: tuple[tuple[str, str, int], ...] = (
    ("The American Command Phase ends.", "{american_do} phase next", 0),
    (
        "Before firing: the exact odds of 10 APFP at +2 (foxholes, crops), each CP result and"
        " the chance of that many or more (SYS.odds).",
        "vv odds --apfp 10 --drm 2",
        0,
    ),
    (
        "Two squads and their sergeant in D8 fire as one group at the German squad and"
        " leader in the foxholes of E5 (VV.AP-groups, VV.AP-resolve).",
        "{american_do} fire a1,a2,sgt --at E5 --dice 1,2",
        0,
    ),
    (
        "The Germans are played by the AI: it fulfils the Casualty Points, losing the least.",
        "game ai {game} --side german --token-file {german} --db {db}",
        0,
    ),
    (
        "A unit with a Fire marker may not fire again this turn: refused with the clause.",
        "{american_do} fire a1 --at E5 --dice 3,3",
        REFUSED,
    ),
    ("The Movement Phase: the Sherman advances.", "{american_do} phase next", 0),
    ("", "{american_do} move sherman --to G8", 0),
    (
        "Every unit, the fire groups each side may form, the pools.",
        "game status {game} --db {db}",
        0,
    ),
    ("The hedgerows with every counter, the foxholes and the smoke.", "{render}", 0),
)


def play_game(
    out: Console,
    folder: Path,
    scenario: Path = SCENARIO,
    steps: tuple[tuple[str, str, int], ...] = GAME_STEPS,
    pictures: Path | None = None,
    *,
    physical: bool = False,
) -> int:
    """Play a bundled scenario on a SQLite file in ``folder``; pictures go to ``pictures``.
    ``physical``: play a copy whose dice are entered (a fair-dice example)."""
    db = f"sqlite:///{folder / 'games.sqlite3'}"
    played = _physical_copy(scenario, folder) if physical else scenario
    out.print(
        Text(
            "A game between two sides on a SQLite file: the bundled scenario"
            f" {scenario.relative_to(ROOT)}"
            + ("" if played == scenario else ", with the dice entered by hand")
            + "."
        )
    )
    command = f"game new {shlex.quote(str(played))} --db {db} --json"
    out.print(Text(f"$ ordnance {command}", style="cyan"))
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = main(shlex.split(command))
    sys.stdout.write(captured.getvalue())
    if code != 0:
        return code
    made = json.loads(captured.getvalue())
    picture = (pictures or folder) / f"{scenario.stem}.svg"
    names = {"db": db, "game": made["game"], "log": str(folder / "game-log.json")}
    png = " --png" if find_converter() is not None else ""
    # --force: the pictures folder outlives the tour, and a second tour redraws its pictures.
    names["render"] = f"game render {made['game']} --out {picture} --db {db}{png} --force"
    for side, token in made["tokens"].items():
        # Tokens go in files only their owner reads, never on a command line (ps shows those).
        token_file = folder / f"{side}.token"
        # Each of the tour's games has new tokens in the folder the tour made: force replaces the
        # last game's (a token file only: anything else there is still refused).
        write_output(token_file, token + "\n", "token", private=True, force=True)
        names[side] = str(token_file)
        names[f"{side}_do"] = (
            f"game do {made['game']} --side {side} --token-file {token_file} --db {db}"
        )
    for caption, template, expected in steps:
        if caption:
            out.print(Rule())
            out.print(Text(caption))
        code = run_command(out, template.format(**names))
        if code != expected:
            return code or 1
    return 0


def _physical_copy(scenario: Path, folder: Path) -> Path:
    """The scenario itself when it takes entered dice, else a copy with ``dice: physical``
    (its map named as bundled, or made absolute) so the tour's rolls are the ones it shows."""
    data = yaml.safe_load(scenario.read_text(encoding="utf-8"))
    if data.get("dice") == "physical":
        return scenario
    data["dice"] = "physical"
    copy = folder / scenario.name
    write_output(copy, yaml.safe_dump(data, sort_keys=False), "scenario")
    return copy


# (title, scenario, steps, whether the tour enters the dice of a fair-dice example).
GAMES: tuple[tuple[str, Path, tuple[tuple[str, str, int], ...], bool], ...] = (
    ("ASL: the C8 side record as a game", SCENARIO, GAME_STEPS, False),
    ("ASL: D13 smoke dispensers on a map", D13_DEMO, D13_STEPS, False),
    ("Lock 'n Load Tactical: Smoke and WP shells", LNL_DEMO, LNL_STEPS, True),
    ("Valor & Victory: AP fire and an AI", VV_DEMO, VV_STEPS, True),
)


if __name__ == "__main__":
    sys.exit(run())
