"""``ordnance asl odds depletion | canister``: exact odds before the dice are rolled (SYS.odds)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

import typer
from rich.text import Text

from ordnance.asl.canister import fire_factor, json_number
from ordnance.asl.odds import (
    canister_odds,
    canister_table,
    depletion_odds,
    depletion_table,
    supply_label,
    supply_table,
)
from ordnance.asl.settings import Settings
from ordnance.cli.asl_fire import (
    AdjacentOption,
    Armored,
    AsJson,
    Breakdown,
    CanisterDepletion,
    Drms,
    Fp,
    Manned,
    Moved,
    given_drms,
    parse_adjacent,
    parse_fp,
)
from ordnance.cli.groups import odds_app, settings_of
from ordnance.cli.output import console, emit_json, odds_table
from ordnance.core.clauses import cite_all
from ordnance.core.limits import MAX_DRM
from ordnance.core.odds import OutcomeOdds


def _print(
    as_json: bool,
    tables: dict[str, tuple[str, list[OutcomeOdds]]],
    clauses: list[str],
    explanation: str,
    inputs: dict[str, Any],
) -> None:
    """JSON (``outcomes`` and any further tables by key) or one Rich table per distribution."""
    if as_json:
        rows = {key: [row.to_json() for row in table] for key, (_, table) in tables.items()}
        emit_json({**inputs, **rows, "clauses": clauses, "explanation": explanation})
        return
    for title, table in tables.values():
        console.print(odds_table(title, table))
    console.print(Text(explanation))
    console.print(Text(f"Rules: {cite_all(clauses)}", style="dim"))


def _depletion_explanation(
    number: int, to_hit: int | None, drm: int, breakdown: int | None, settings: Settings
) -> str:
    text = (
        f"Exact odds over the 36 ordered DRs. Depletion compares the Original DR with {number}"
        " (C8.9)."
    )
    if to_hit is not None:
        at_most = "at most" if settings.hit_when_final_at_most_to_hit else "below"
        text += (
            f" A hit needs the Final DR (Original {drm:+d}) {at_most} {to_hit}; 'hit'/'miss'"
            " appear only when the shot is resolved with the special ammunition."
        )
    if breakdown is not None:
        text += f" 'malfunction': the Original DR reaches the B# checked (from {breakdown})."
    return text


@odds_app.command("depletion")
def depletion_odds_command(
    ctx: typer.Context,
    *,
    number: Annotated[int, typer.Option("--number", metavar="N", help="Depletion Number.")],
    to_hit: Annotated[
        int | None, typer.Option("--to-hit", metavar="T", help="Modified To Hit number.")
    ] = None,
    drm: Annotated[
        int,
        typer.Option(
            "--drm",
            metavar="D",
            min=-MAX_DRM,
            max=MAX_DRM,
            help="Total To Hit DRM (e.g. --drm -1).",
        ),
    ] = 0,
    breakdown: Breakdown = None,
    intensive_fire: Annotated[
        bool, typer.Option("--intensive-fire", help="Intensive Fire (lowers the B# only).")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Odds of used / used-last / none, optionally with hit/miss and malfunction."""
    settings = settings_of(ctx)
    odds = depletion_odds(
        number,
        to_hit=to_hit,
        drm=drm,
        breakdown=breakdown,
        intensive_fire=intensive_fire,
        settings=settings,
    )
    clauses = ["SYS.odds", "C8.9-lt", "C8.9-eq", "C8.9-gt"] + (["C8.92"] if intensive_fire else [])
    _print(
        as_json,
        {"outcomes": (f"Depletion Number {number}", depletion_table(odds))},
        clauses,
        _depletion_explanation(number, to_hit, drm, breakdown, settings),
        {"number": number, "to_hit": to_hit, "drm": drm, "breakdown": breakdown},
    )


def _canister_clauses(
    halved: bool, adjacent: bool, armored: bool, tables: dict[str, Any]
) -> list[str]:
    flags = {"C8.4-halve": halved, "C8.41": adjacent, "C8.4-armor": armored}
    clauses = ["SYS.odds", "C8.4-noth", *(clause for clause, on in flags.items() if on)]
    return clauses + (["C8.4-dr"] if "supply" in tables else [])


@odds_app.command("canister")
def canister_odds_command(
    ctx: typer.Context,
    *,
    fp: Fp,
    moved: Moved = False,
    manned_after_moving: Manned = False,
    drm: Drms = None,
    adjacent: AdjacentOption = None,
    armored: Armored = False,
    depletion: CanisterDepletion = None,
    breakdown: Breakdown = None,
    as_json: AsJson = False,
) -> None:
    """Odds of each IFT result of a Canister attack, and of its depletion/breakdown check."""
    base = parse_fp(fp)
    where = parse_adjacent(adjacent)
    settings = settings_of(ctx)
    factor, notes = fire_factor(moved, manned_after_moving, where, settings)
    odds = partial(
        canister_odds,
        base,
        moved=moved,
        manned_after_moving=manned_after_moving,
        drms=given_drms(drm),
        adjacent=where,
        armored=armored,
        depletion_number=depletion,
        breakdown=breakdown,
        settings=settings,
    )
    tables = {"outcomes": ("Canister IFT result", canister_table(odds()))}
    explanation = " ".join(
        [
            *notes,
            f"Attack FP {json_number(base * factor)}. Exact odds over the 36 ordered IFT DRs,"
            " each resolved by the Canister procedure; '-' includes no effect and no Canister"
            " fired.",
        ]
    )
    if depletion is not None or breakdown is not None:
        tables["supply"] = ("Canister supply and Gun", supply_table(odds(label=supply_label)))
        explanation += " 'supply': what the same DR does to the Canister and the Gun (C8.4-dr)."
    _print(
        as_json,
        tables,
        _canister_clauses(moved or manned_after_moving, where is not None, armored, tables),
        explanation,
        {"fp": json_number(base * factor), "base_fp": json_number(base), "drm": drm or []},
    )
