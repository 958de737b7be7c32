"""``ordnance lnl ...``: Lock 'n Load Tactical Smoke and WP shells (14.2.2, 14.2.3), stateless.

MAP is an LnLT map file or a bundled map's name (``lnl-farm``); hexes are its labels (``B5``).
``ordnance lnl --set NAME=VALUE`` overrides a reading (``ordnance lnl settings`` lists them).
A game keeps the pools, markers and units and calls the same library through
``ordnance game do`` (``smoke-shell``, ``wp-shell``, ``choose``, ``mg``, ``move``, ``pass``).
Errors are raised and printed as one line by ``ordnance.cli.app.main``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from ordnance.cli.groups import lnl_app
from ordnance.cli.map_games import open_map
from ordnance.cli.options import Force
from ordnance.cli.output import (
    SettingOverrides,
    console,
    emit,
    emit_json,
    fraction_text,
    number_odds,
    number_odds_table,
    odds_table,
    output_file,
    parse_overrides,
    roll_or_read,
    ruling_table,
    settings_in,
    show_settings,
)
from ordnance.core.clauses import cite_all
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_DRM, MAX_SEED
from ordnance.core.maps import GameMap
from ordnance.core.maps.svg import render_svg
from ordnance.core.odds import Distribution, OutcomeOdds
from ordnance.core.outfiles import check_output, write_output
from ordnance.lnl.los import lnl_los
from ordnance.lnl.odds import expected_shots, removal_chance, shell_odds, shots_odds, wp_check_odds
from ordnance.lnl.settings import LnlSettings
from ordnance.lnl.shell import ShellKind, ShellRuling, fire_shell
from ordnance.lnl.terrain import GAME, lnl_chart
from ordnance.lnl.wp import Subject

lnl_odds_app = typer.Typer(
    help="Exact odds of LnLT Smoke and WP shells.", no_args_is_help=True, rich_markup_mode=None
)
lnl_app.add_typer(lnl_odds_app, name="odds")

MapName = Annotated[
    str, typer.Argument(metavar="MAP", help="An LnLT map file, or a bundled map's name (lnl-farm).")
]
From = Annotated[str, typer.Option("--from", metavar="HEX", help="The firing vehicle's hex.")]
To = Annotated[str, typer.Option("--to", metavar="HEX", help="The target hex (in LOS).")]
ToHit = Annotated[
    int,
    typer.Option(
        "--to-hit", metavar="N", help="The To Hit number from the vehicle's table at this range."
    ),
]
Opportunity = Annotated[
    bool, typer.Option("--opportunity", help="Opportunity Fire (+2, a firer-side modifier).")
]
Drm = Annotated[
    list[int] | None,
    typer.Option(
        "--drm",
        metavar="N",
        min=-MAX_DRM,
        max=MAX_DRM,
        help="Another firer-side modifier (repeatable; -1 works).",
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]


@lnl_app.callback()
def lnl_options(
    ctx: typer.Context,
    overrides: SettingOverrides = None,
) -> None:
    """Lock 'n Load Tactical optional Smoke and WP shells: fire, odds, settings."""
    ctx.obj = LnlSettings().override(parse_overrides(overrides or []))


def _map(name: str) -> GameMap:
    game_map = open_map(name)
    if game_map.game != GAME:
        raise BadInput("map", name, f"a map for {game_map.game}; shells need an LnLT (lnl) map")
    return game_map


def _to_hit(number: int) -> int:
    if not 2 <= number <= 12:
        raise BadInput("To Hit number", str(number), "2 to 12")
    return number


@lnl_app.command("shell")
def shell_command(
    ctx: typer.Context,
    map_name: MapName,
    *,
    firer: From,
    target: To,
    kind: Annotated[str, typer.Option("--kind", metavar="smoke|wp", help="Which shell.")],
    to_hit: ToHit,
    dice: Annotated[
        str | None,
        typer.Option("--dice", metavar="W,C", help="Physical dice: white, colored (e.g. 3,4)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", min=0, max=MAX_SEED, help="Seed for a reproducible roll."
        ),
    ] = None,
    opportunity: Opportunity = False,
    drm: Drm = None,
    choose: Annotated[
        str | None,
        typer.Option(
            "--choose",
            metavar="HEX",
            help="The enemy's pick when the landing hex is one of two along a hexside.",
        ),
    ] = None,
    svg: Annotated[
        Path | None,
        typer.Option(
            "--svg",
            metavar="FILE",
            help="Draw the map with the marker and the LOS.",
            callback=output_file,
        ),
    ] = None,
    as_json: AsJson = False,
    force: Force = False,
) -> None:
    """Fire one Smoke or WP shell at a hex: hit, short, beyond or none, and where it lands."""
    settings = settings_in(ctx, LnlSettings)
    if svg is not None:  # refused before the dice are rolled, not after
        check_output(svg, "svg", force=force)
    game_map = _map(map_name)
    shell = ShellKind.parse(kind)
    origin, aimed = game_map.parse(firer), game_map.parse(target)
    chosen = None if choose is None else game_map.parse(choose)
    roll, used_seed = roll_or_read(dice, seed, "To Hit DR")
    ruling = fire_shell(
        game_map,
        origin,
        aimed,
        kind=shell,
        to_hit=_to_hit(to_hit),
        roll=roll,
        opportunity=opportunity,
        drms=drm or [],
        choice=chosen,
        settings=settings,
    )
    drawn = None if svg is None else _draw(game_map, ruling, svg, force=force)
    extra: dict[str, Any] = {"seed": used_seed, "map": game_map.name, "svg": drawn}
    table = ruling_table(
        f"{shell.counter} (LnLT {'14.2.2' if shell is ShellKind.SMOKE else '14.2.3'})",
        [
            ("From / at", f"{ruling.firer} / {ruling.target} (range {ruling.range})"),
            ("To Hit", ruling.to_hit),
            ("Dice (W,C)", roll),
            ("Modifiers", ", ".join(str(d) for d in ruling.drms) or None),
            ("Final roll", ruling.final_dr),
            ("Result", str(ruling.result)),
            ("Marker in", ruling.hex),
            ("Enemy chooses", " or ".join(ruling.candidates) if ruling.waits_for_enemy else None),
            ("Ignored", "; ".join(ruling.ignored)),
            ("Seed", used_seed),
            ("Picture", drawn),
        ],
    )
    emit(ruling, as_json, table, extra)


def _draw(game_map: GameMap, ruling: ShellRuling, out: Path, *, force: bool) -> str:
    """The map with the shot's marker placed and the LOS to the target, as SVG."""
    markers = dict(game_map.markers)
    if ruling.hex is not None and ruling.marker is not None:
        hex = game_map.parse(ruling.hex)
        names = markers.get(hex, ())
        markers[hex] = names if ruling.marker in names else (*names, ruling.marker)
    after = replace(game_map, markers=markers)
    verdict = lnl_los(after, game_map.parse(ruling.firer), game_map.parse(ruling.target))
    title = f"{ruling.kind} shell {ruling.firer} -> {ruling.target}: {ruling.result}"
    text = render_svg(after, lnl_chart(), los=verdict, title=title)
    write_output(out, text, "svg", force=force)
    return str(out)


@lnl_odds_app.command("shell")
def odds_shell_command(
    ctx: typer.Context,
    map_name: MapName,
    *,
    firer: From,
    target: To,
    to_hit: ToHit,
    opportunity: Opportunity = False,
    drm: Drm = None,
    as_json: AsJson = False,
) -> None:
    """Exact odds of where a Smoke or WP shell lands: each hex, the enemy's pairs, none."""
    game_map = _map(map_name)
    odds = shell_odds(
        game_map,
        game_map.parse(firer),
        game_map.parse(target),
        to_hit=_to_hit(to_hit),
        opportunity=opportunity,
        drms=drm or [],
        settings=settings_in(ctx, LnlSettings),
    )
    if as_json:
        emit_json(odds.to_json())
        return
    rows = [OutcomeOdds(_landing_words(row), row.probability) for row in odds.outcomes]
    console.print(odds_table(f"Shell from {odds.firer} at {odds.target}", rows))
    reasons = [
        f"{v} {_NOTHING_WHY.get(k, k)}"
        for k, v in odds.nothing_placed.items()
        if v and k != "total"
    ]
    why = f" Nothing placed: {', '.join(reasons)}." if reasons else ""
    console.print(Text(f"{odds.explanation}{why}"))
    console.print(Text(f"Rules: {cite_all(odds.clauses)}", style="dim"))


# Why a shot places nothing (lnl.landing.Nothing), as the odds line says it.
_NOTHING_WHY = {
    "double": "on a double",
    "blocked": "with no clear LOS to the landing hex",
    "off map": "off the map",
    "own hex": "short into the firer's own hex",
}


def _landing_words(row: Any) -> str:
    """An odds row: ``H3 (hit)``, ``E5 or E6 (short, enemy chooses)``, ``nothing placed``."""
    if row.outcome == "none":
        return "nothing placed"
    return f"{row.outcome} ({row.result}{', enemy chooses' if row.enemy_chooses else ''})"


@lnl_odds_app.command("wp-check")
def odds_wp_command(
    ctx: typer.Context,
    *,
    unit: Annotated[
        str,
        typer.Option("--unit", metavar="leg|open-vehicle", help="A Leg unit or an Open vehicle."),
    ] = "leg",
    closed: Annotated[
        bool, typer.Option("--closed", help="In a closed space (Building, Bunker, Cave).")
    ] = False,
    leader_lm: Annotated[
        int, typer.Option("--leader-lm", metavar="N", help="LM of a leader in the hex (Leg).")
    ] = 0,
    as_json: AsJson = False,
) -> None:
    """Exact odds of a WP damage check's modified total (LNL.W-check, LNL.W-closed)."""
    kinds = {"leg": "squad", "open-vehicle": "vehicle"}
    if unit not in kinds:
        raise BadInput("unit", unit, "leg or open-vehicle")
    if closed and unit != "leg":
        raise BadInput("option", "--closed", "only a Leg unit rolls two dice in a closed space")
    if not 0 <= leader_lm <= 3:
        raise BadInput("LM", str(leader_lm), "0 to 3")
    subject = Subject("unit", kinds[unit], open=True, closed_space=closed, leader_lm=leader_lm)
    odds = wp_check_odds(subject, settings_in(ctx, LnlSettings))
    clauses = ["LNL.W-check", *(["LNL.W-closed"] if closed else []), "SYS.odds"]
    dice = "two dice, the higher kept," if closed else "one die"
    explanation = (
        f"WP check of {'a Leg unit' if unit == 'leg' else 'an Open vehicle'}: {dice} +1"
        f"{f', -{leader_lm} leader' if leader_lm and unit == 'leg' else ''}; read the total"
        " on the module's Damage Check Table."
    )
    if as_json:
        emit_json(
            {
                "outcomes": _cumulative(odds),
                "expected": _expected(odds),
                "clauses": clauses,
                "explanation": explanation,
            }
        )
        return
    console.print(number_odds_table("WP damage check total", odds, "total"))
    console.print(Text(explanation))


@lnl_odds_app.command("pool")
def odds_pool_command(
    *,
    count: Annotated[int, typer.Option("--count", metavar="N", help="Counters in the pool.")],
    depletion: Annotated[
        int | None,
        typer.Option("--depletion", metavar="D", help="The side's Depletion Number (1-6)."),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", metavar="L", help="At most this many shots wanted."),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Expected shots a pool gives under the optional depletion roll (exact)."""
    if not 0 <= count <= 99:
        raise BadInput("count", str(count), "0 to 99 counters")
    if depletion is not None and not 1 <= depletion <= 6:
        raise BadInput("Depletion Number", str(depletion), "1 to 6 (one die)")
    if limit is not None and not 0 <= limit <= 200:
        raise BadInput("limit", str(limit), "0 to 200 shots")
    expected = expected_shots(count, depletion, limit)
    lose = removal_chance(depletion)
    shots = None if limit is None else shots_odds(count, depletion, limit)
    clauses = ["LNL.S-pool", "LNL.S-deplete", "LNL.W-deplete", "SYS.odds"]
    shown = "unlimited (no counter is ever removed)" if expected is None else str(expected)
    explanation = (
        f"{count} counter(s), each lost for good with chance {lose} per shot"
        f"{'' if depletion is None else f' (a die below {depletion})'}: expected shots {shown}"
        f"{'' if limit is None else f' when at most {limit} are wanted'}."
    )
    data: dict[str, Any] = {
        "expected_shots": None
        if expected is None
        else f"{expected.numerator}/{expected.denominator}",
        "expected_float": None if expected is None else float(expected),
        "expected": None if expected is None else fraction_text(expected),
        "removal_chance": f"{lose.numerator}/{lose.denominator}",
        "outcomes": [] if shots is None else _cumulative(shots),
        "clauses": clauses,
        "explanation": explanation,
    }
    if as_json:
        emit_json(data)
        return
    if shots is not None:
        console.print(number_odds_table("Shots fired", shots, "shots"))
    console.print(Text(explanation))


def _cumulative(odds: Distribution[Any]) -> list[dict[str, Any]]:
    """Each outcome as ``outcome`` (text), ``probability``, ``percent``, and for whole numbers
    ``at_least`` and ``at_least_percent`` (the chance of that many or more)."""
    rows = []
    for row in number_odds(odds, "value"):
        value = row.pop("value")
        rows.append({"outcome": str(value), **row})
    others = [OutcomeOdds(str(o), p) for o, p in odds.items() if not isinstance(o, int)]
    return rows + [row.to_json() for row in others]


def _expected(odds: Distribution[Any]) -> str | None:
    """The mean of whole-number outcomes as a fraction string (None if some are words)."""
    if not all(isinstance(o, int) for o in odds):
        return None
    return fraction_text(odds.expectation(int))


@lnl_app.command("settings")
def settings_command(ctx: typer.Context, as_json: AsJson = False) -> None:
    """List every overridable reading: current value, default, provenance and rule."""
    show_settings(
        settings_in(ctx, LnlSettings).rows(),
        "LnLT settings (override with: ordnance lnl --set NAME=VALUE ...)",
        as_json,
    )
