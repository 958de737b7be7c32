"""The V&V AI's fire plan against exhaustive search: decision time and expected CP, same run.

Positions are random (seeded): firing infantry (squads with and without MGs, half squads,
leaders), a Gun and an AFV spread over a few hexes, facing enemy squads in open and covered
hexes of a 16 x 14 map. For each size the AI (``ordnance.vv.ai.plan_fire``: one dynamic
programme per grouping class) and the baseline are timed on the same position:

- the baseline tries every assignment of every ready unit to a target hex or to nothing,
  groups the units the rules force together (one grouping class at one target), checks each
  group with ``check_attack`` and values it by its expected CP (group values cached, so the
  baseline pays for the enumeration, not for line of sight);
- sizes grow until the baseline's estimated time (assignments times its measured rate)
  passes the limit (60 s; ``--quick``: 5 s), so the largest position it finishes is reported;
- then the company-size position (20 firing units in 7 hexes, 10 enemy hexes), where only the
  AI runs and the baseline's time is estimated.

The AI is timed cold (line-of-sight and odds caches emptied first), as a fresh game would meet
it. Expected CP must be equal (ratio 1): the AI is exact.

Then the strength table (docs/vv-ai.md): each bundled V&V scenario (examples/vv-*.yaml) played
to its end from each side with fair dice (the game service's HMAC source; seeds printed), the
full AI on that side against the greedy baseline (the first AI) and against itself (``--games``
each, 200), and against the AI with each part switched off, and the AI with each part switched off
against the baseline (``--ablation-games`` each); the
greedy AI against itself gives the scenario's balance. Per row: win rate with its 95% Wilson
interval, mean enemy value destroyed and own value lost (Casualty Rating) with 95% intervals.

Run: ``.venv/bin/python benchmarks/bench_vv_ai.py [--quick] [--seed S] [--limit SECONDS]
[--games N] [--ablation-games N] [--part all|exact|strength]``
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import itertools
import math
import multiprocessing
import random
import statistics
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import yaml

from ordnance.core.errors import IllegalAction
from ordnance.core.hexgrid import Direction, GridLabels, Hex
from ordnance.core.maps import GameMap, MapFiles
from ordnance.game.fairdice import FairDice
from ordnance.vv import board as board_module
from ordnance.vv import odds as odds_module
from ordnance.vv.ai import AiPolicy, plan_fire, ready_units
from ordnance.vv.board import Board, Status
from ordnance.vv.counters import Counter
from ordnance.vv.game.scenario import load_scenario
from ordnance.vv.game.selfplay import play_out
from ordnance.vv.game.victory import inflicted
from ordnance.vv.groups import FireOrder, check_attack, group_key
from ordnance.vv.odds import expected_cp
from ordnance.vv.targets import enemy_hexes
from ordnance.vv.units import Kind, Mount, SupportWeapon, SwKind, Unit, Weapon

GRID = GridLabels(columns=16, rows=14)
CP = AiPolicy.greedy()  # this part checks the search on raw expected CP, as the exhaustive does
COVER = ["woods", "crops", "building", "orchard"]
SIZES = [
    (2, 1, 2),
    (3, 2, 3),
    (4, 2, 4),
    (5, 2, 4),
    (6, 3, 4),
    (6, 3, 6),
    (7, 3, 6),
    (8, 3, 6),
    (8, 4, 8),
    (9, 4, 8),
    (10, 4, 8),
]
COMPANY = (20, 7, 10)


def position(rng: random.Random, units: int, hexes: int, targets: int) -> Board:
    """``units`` firing units in ``hexes`` hexes of the south, ``targets`` enemy hexes north."""
    homes = rng.sample([GRID.parse(f"{c}{r}") for c in "BDFHJLN" for r in (12, 13)], hexes)
    fronts = rng.sample(
        [GRID.parse(f"{c}{r}") for c in "BCDEFGHIJKLMN" for r in (4, 6, 8)], targets
    )
    terrain = {hex: rng.choice(COVER) for hex in fronts if rng.random() < 0.5}
    game_map = GameMap("bench", "vv", GRID, "open", terrain)
    made: dict[str, Unit] = {}
    status: dict[str, Status] = {}
    counter = Counter.parse
    for number in range(units):
        home = homes[number % hexes]
        uid = f"u{number}"
        roll = rng.random()
        facing = None
        if number == units - 1 and units >= 6:
            unit = Unit(
                uid,
                "us",
                Kind.AFV,
                weapons=(
                    Weapon(Mount.GUN, 12, True),
                    Weapon(Mount.MG360, 4),
                    Weapon(Mount.FFMG, 3),
                ),
            )
            facing = Direction.N
        elif number == units - 2 and units >= 8:
            unit = Unit(uid, "us", Kind.GUN, weapons=(Weapon(Mount.GUN, 4),), casualty=3)
            facing = Direction.N
        elif roll < 0.15:
            unit = Unit(uid, "us", Kind.LEADER, counter=counter("1-3-1"), leadership=-1)
        elif roll < 0.3:
            unit = Unit(uid, "us", Kind.HALF_SQUAD, counter=counter("2-6-3"))
        else:
            sw = SupportWeapon(SwKind.LMG, 2, 8) if rng.random() < 0.4 else None
            unit = Unit(uid, "us", Kind.SQUAD, counter=counter("4-6-5"), sw=sw)
        made[uid] = unit
        status[uid] = Status(home, facing)
    for number, hex in enumerate(fronts):
        uid = f"e{number}"
        made[uid] = Unit(uid, "de", Kind.SQUAD, counter=counter("4-6-5"))
        status[uid] = Status(hex)
    return Board(game_map, made, status)


def exhaustive(board: Board, side: str = "us") -> tuple[Fraction, int]:
    """The best expected CP over every assignment, and how many assignments were tried."""
    units = list(ready_units(board, side))
    targets: list[Hex | None] = [None, *enemy_hexes(board, side)]
    keys = {u: group_key(board, u) for u in units}
    cache: dict[tuple[frozenset[str], Hex], Fraction | None] = {}

    def value(members: list[str], target: Hex) -> Fraction | None:
        key = (frozenset(members), target)
        if key not in cache:
            try:
                attack = check_attack(board, FireOrder(side, tuple(members), target))
            except IllegalAction:
                cache[key] = None
            else:
                cache[key] = expected_cp(attack.apfp, attack.drm)
        return cache[key]

    best = Fraction(0)
    tried = 0
    for choice in itertools.product(targets, repeat=len(units)):
        tried += 1
        groups: dict[tuple[str, Hex], list[str]] = defaultdict(list)
        for unit_id, target in zip(units, choice, strict=True):
            if target is not None:
                groups[(keys[unit_id], target)].append(unit_id)
        total = Fraction(0)
        for (_, target), members in groups.items():
            gain = value(members, target)
            if gain is None:
                break
            total += gain
        else:
            best = max(best, total)
    return best, tried


def cold_plan(board: Board) -> tuple[Fraction, float]:
    board_module._los.cache_clear()
    board_module._smoked.cache_clear()
    odds_module._band_odds.cache_clear()
    odds_module._band_expected.cache_clear()
    started = time.perf_counter()
    plan = plan_fire(board, "us", policy=CP)
    return plan.expected, time.perf_counter() - started


def exactness(args: argparse.Namespace) -> None:
    """The first table: the search against exhaustive search, timed."""
    limit = args.limit if args.limit is not None else (5.0 if args.quick else 60.0)
    rng = random.Random(args.seed)
    header = (
        f"{'units':>5} {'hexes':>5} {'targets':>7} {'assignments':>12} {'AI ms':>9}"
        f" {'AI E[CP]':>9} {'exhaustive s':>12} {'exh E[CP]':>9} {'E ratio':>7} {'speed-up':>9}"
    )
    print(header)
    rate: float | None = None  # seconds per assignment, measured
    largest = None
    for units, hexes, targets in SIZES:
        board = position(rng, units, hexes, targets)
        expected, ai_seconds = cold_plan(board)
        assignments = (targets + 1) ** units
        if rate is not None and assignments * rate > limit:
            print(
                f"{units:>5} {hexes:>5} {targets:>7} {assignments:>12}"
                f" {ai_seconds * 1000:>9.2f} {float(expected):>9.3f}  baseline estimated"
                f" {assignments * rate:.0f} s > {limit:.0f} s: stop"
            )
            break
        started = time.perf_counter()
        best, tried = exhaustive(board)
        seconds = time.perf_counter() - started
        rate = seconds / tried
        ratio = expected / best if best else Fraction(1)
        largest = (units, hexes, targets, seconds)
        print(
            f"{units:>5} {hexes:>5} {targets:>7} {tried:>12} {ai_seconds * 1000:>9.2f}"
            f" {float(expected):>9.3f} {seconds:>12.2f} {float(best):>9.3f}"
            f" {float(ratio):>7.3f} {seconds / ai_seconds:>9.0f}x"
        )
        if expected != best:
            raise SystemExit(f"the AI is not optimal here: {expected} < {best}")
    units, hexes, targets = COMPANY
    board = position(random.Random(args.seed + 1), units, hexes, targets)
    expected, ai_seconds = cold_plan(board)
    warm = time.perf_counter()
    plan_fire(board, "us", policy=CP)
    warm_seconds = time.perf_counter() - warm
    assignments = (targets + 1) ** units
    estimate = assignments * (rate or 0)
    print()
    print(
        f"company: {units} firing units in {hexes} hexes, {targets} enemy hexes:"
        f" AI {ai_seconds * 1000:.1f} ms cold, {warm_seconds * 1000:.1f} ms warm,"
        f" expected CP {float(expected):.3f} ({expected});"
        f" exhaustive would try {assignments:.2e} assignments, about {estimate:.1e} s"
    )
    if largest is not None:
        print(
            f"largest position exhaustive search finished within {limit:.0f} s: {largest[0]}"
            f" units in {largest[1]} hexes, {largest[2]} targets, {largest[3]:.1f} s"
        )


# --- the strength table ---------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PARTS = {
    "evaluation": {"evaluation": "cp"},
    "X weapons": {"x_weapons": False},
    "look-ahead": {"lookahead": Fraction(0)},
    "movement": {"moves": False},
    "objective weight": {"move_objective": Fraction(1)},
    "urgency": {"move_urgency": Fraction(0)},
    "vehicle moves": {"vehicles_move": False},
    "vehicle hold fire": {"vehicles_hold_fire": False},
}
GREEDY = "greedy baseline"
ITSELF = "AI vs itself"
BALANCE = "baseline vs itself"


def opponents() -> dict[str, AiPolicy]:
    """The greedy baseline (the first AI), the full AI, and the AI with each part switched off."""
    found = {GREEDY: AiPolicy.greedy(), ITSELF: AiPolicy()}
    for part, change in PARTS.items():
        found[f"AI without {part}"] = dataclasses.replace(AiPolicy(), **change)  # type: ignore[arg-type]
        found[f"greedy (AI w/o {part})"] = AiPolicy.greedy()
    return found


def players(opponent: str) -> tuple[AiPolicy, AiPolicy]:
    """The policies of the row's side and of the other side in a match-up."""
    if opponent == BALANCE:
        return AiPolicy.greedy(), AiPolicy.greedy()
    if opponent.startswith("greedy (AI w/o "):
        # The ablation against the baseline: the row's side plays without the part.
        part = opponent.removeprefix("greedy (AI w/o ").removesuffix(")")
        return OPPONENTS[f"AI without {part}"], AiPolicy.greedy()
    return AiPolicy(), OPPONENTS[opponent]


def scenarios() -> dict[str, dict[str, object]]:
    """Every bundled V&V scenario (examples/vv-*.yaml), checked and self-contained."""
    found = {}
    for path in sorted(EXAMPLES.glob("vv-*.yaml")):
        data = yaml.safe_load(path.read_text())
        if isinstance(data, dict) and data.get("ruleset") == "vv":
            found[path.stem] = load_scenario(data, MapFiles.folder(path.parent))
    return found


def fair_dice(seed: int) -> FairDice:
    """Fair dice (the game service's HMAC source) from a server seed derived from ``seed``."""
    key = hashlib.sha256(f"bench-vv-ai-{seed}".encode()).digest()
    return FairDice(key, f"bench-{seed}", 0, {}, start=0)


def one_game(job: tuple[str, str, str, int]) -> tuple[str, str, str, int, str | None, int, int]:
    """Play one game: the new AI on ``side`` against ``opponent``; the outcome and losses."""
    name, side, opponent, seed = job
    body = SCENARIOS[name]
    sides = list(body["sides"])  # type: ignore[call-overload]
    other = next(s for s in sides if s != side)
    mine, theirs = players(opponent)
    policies = {side: mine, other: theirs}
    state = play_out(body, policies, fair_dice(seed)).state
    assert state.result is not None
    winner = state.result["winner"]
    return (
        name,
        side,
        opponent,
        seed,
        winner,
        inflicted(state.board, other),
        inflicted(state.board, side),
    )


SCENARIOS = scenarios()
OPPONENTS = opponents()


def interval(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_ci(values: list[int]) -> str:
    n = len(values)
    mean = sum(values) / n
    sd = statistics.stdev(values) if n > 1 else 0.0
    return f"{mean:5.2f} ±{1.96 * sd / math.sqrt(n):4.2f}"


def sides_of(name: str) -> list[str]:
    sides: dict[str, object] = SCENARIOS[name]["sides"]  # type: ignore[assignment]
    return list(sides)


MIRRORED = (BALANCE, ITSELF)  # the same policy on both sides: one game serves both rows


def strength(args: argparse.Namespace) -> None:
    """The strength table: the new AI against the baseline, itself and its own ablations."""
    counts = {BALANCE: args.games, GREEDY: args.games, ITSELF: args.games}
    counts.update({name: args.ablation_games for name in OPPONENTS if name not in counts})
    jobs = [
        (name, side, opponent, args.seed + i)
        for name in SCENARIOS
        for number, side in enumerate(sides_of(name))
        for opponent, games in counts.items()
        if not (number and opponent in MIRRORED)
        for i in range(games)
    ]
    print(
        f"strength: {len(SCENARIOS)} scenario(s) x 2 sides; {args.games} games against the"
        f" greedy baseline, against itself and for the scenario's balance, {args.ablation_games}"
        f" for each ablation ({len(PARTS)} parts, against itself and against the baseline):"
        f" {len(jobs)} games played; fair dice"
        f" (HMAC-SHA256), seeds {args.seed}..{args.seed + max(counts.values()) - 1} per"
        f" match-up; {args.workers} worker(s)"
    )
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(one_game, jobs, chunksize=8)
    seconds = time.perf_counter() - started
    table: dict[tuple[str, str, str], list[tuple[int, str | None, int, int]]] = defaultdict(list)
    for name, side, opponent, seed, winner, destroyed, lost in results:
        table[(name, side, opponent)].append((seed, winner, destroyed, lost))
        if opponent in MIRRORED:
            other = next(s for s in sides_of(name) if s != side)
            table[(name, other, opponent)].append((seed, winner, lost, destroyed))
    print(
        f"{'scenario':<24} {'AI side':<10} {'opponent':<34} {'games':>5} {'wins':>5} {'draws':>5}"
        f" {'win rate [95%]':>20} {'enemy CR destroyed':>19} {'own CR lost':>12}"
        f" {'full AI, same seeds':>21}"
    )
    for name in SCENARIOS:
        for side in sides_of(name):
            for opponent in counts:
                games = sorted(table[(name, side, opponent)])
                n = len(games)
                wins = sum(w == side for _, w, _, _ in games)
                draws = sum(w is None for _, w, _, _ in games)
                low, high = interval(wins, n)
                who = f"({side})" if opponent == BALANCE else side
                same = ""
                if opponent not in (BALANCE, GREEDY, ITSELF):
                    # The full AI on the same seeds against the same opponent (itself or the
                    # baseline): what this row is compared to.
                    seeds = {s for s, _, _, _ in games}
                    against = GREEDY if opponent.startswith("greedy") else ITSELF
                    own = [w for s, w, _, _ in table[(name, side, against)] if s in seeds]
                    base = sum(w == side for w in own) / len(own)
                    same = f"{base:6.1%} ({wins / n - base:+6.1%})"
                print(
                    f"{name:<24} {who:<10} {opponent:<34} {n:>5} {wins:>5} {draws:>5}"
                    f" {wins / n:6.1%} [{low:5.1%},{high:6.1%}]"
                    f" {mean_ci([d for _, _, d, _ in games]):>19}"
                    f" {mean_ci([lo for _, _, _, lo in games]):>12} {same:>21}"
                )
    print(
        f"{len(jobs)} games in {seconds:.0f} s ({seconds / len(jobs) * 1000:.0f} ms a game per"
        f" worker x {args.workers}). The full AI plays the row's side against the opponent;"
        f" '{BALANCE}': the greedy AI on both sides, the row's side winning (the scenario's"
        f" balance); '{ITSELF}': the full AI on both sides (these two are played once and read"
        " from each side); 'AI without P': the opponent is the AI with part P switched off"
        " (P helps the opponent's side when the row's win rate is above the full AI's against"
        " itself on the same seeds); 'greedy (AI w/o P)': the row's side plays the AI without"
        " P against the baseline (P helps when the row is below the full AI's win rate against"
        " the baseline on the same seeds). Last column: that full-AI rate, the difference in"
        " brackets. CR: Casualty"
        " Rating (victory's casualties); intervals 95% (Wilson for win rates)."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 s limit, fewer sizes, 40 games")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--limit", type=float, default=None, help="baseline seconds (60)")
    parser.add_argument(
        "--games", type=int, default=None, help="games per side against greedy and itself (200)"
    )
    parser.add_argument(
        "--ablation-games",
        type=int,
        default=None,
        help="games per side for each ablation row (default: as --games)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--part", choices=("all", "exact", "strength"), default="all")
    args = parser.parse_args()
    if args.games is None:
        args.games = 40 if args.quick else 200
    if args.ablation_games is None:
        args.ablation_games = args.games
    if args.part in ("all", "exact"):
        exactness(args)
        print()
    if args.part in ("all", "strength"):
        strength(args)


if __name__ == "__main__":
    main()
