"""``ordnance asl deplete | smoke | canister``: rule on one special-ammunition shot.

The option types of the Canister command are shared with ``ordnance asl odds canister``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import typer

from ordnance.asl.canister import ADJACENT_CHOICES, Adjacent, canister_attack, json_number
from ordnance.asl.depletion import Declaration, resolve_depletion
from ordnance.asl.notation import Family
from ordnance.asl.smoke import smoke_placement
from ordnance.cli.groups import asl_app, settings_of
from ordnance.cli.output import emit, roll_or_read, ruling_table
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_DRM, MAX_FP, MAX_SEED
from ordnance.core.rulings import DRM

AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
Dice = Annotated[
    str | None,
    typer.Option("--dice", metavar="W,C", help="Physical dice: white, colored (e.g. 3,4)."),
]
Seed = Annotated[
    int | None,
    typer.Option(
        "--seed",
        metavar="N",
        min=0,
        max=MAX_SEED,
        help="Seed for a reproducible roll (default: fresh).",
    ),
]
Breakdown = Annotated[
    int | None, typer.Option("--breakdown", metavar="B", help="The Gun's B# (2-12).")
]
Fp = Annotated[
    str, typer.Option("--fp", metavar="FP", help="Canister FP from the Ordnance Listing.")
]
Moved = Annotated[
    bool, typer.Option("--moved", help="The AFV moved this Player Turn (halves FP, C8.4).")
]
Manned = Annotated[
    bool,
    typer.Option(
        "--manned-after-moving",
        help="Infantry moved to and manned the Gun in the MPh, firing in the AFPh (halves FP).",
    ),
]
Drms = Annotated[
    list[int] | None,
    typer.Option(
        "--drm",
        metavar="N",
        min=-MAX_DRM,
        max=MAX_DRM,
        help="A DRM for TEM, LOS Hindrance or CA change; repeat for each (e.g. --drm -1).",
    ),
]
AdjacentOption = Annotated[
    str | None,
    typer.Option(
        "--adjacent",
        metavar="hex|hexside",
        help="Attack on the hex adjacent along the LOS (halved), or both along a hexside"
        " (quartered), C8.41.",
    ),
]
Armored = Annotated[bool, typer.Option("--armored", help="The target is armored (C8.4).")]
CanisterDepletion = Annotated[
    int | None,
    typer.Option("--depletion", metavar="N", help="The Canister Depletion Number (C8.9)."),
]


def parse_fp(text: str) -> Fraction:
    """An FP as a whole number, decimal or fraction (``12``, ``7.5``, ``15/2``)."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise BadInput("FP", text, "expected a number, e.g. 12") from None
    if not 0 < value <= MAX_FP:
        raise BadInput("FP", text, f"Canister FP must be positive, at most {MAX_FP}")
    return value


def parse_adjacent(text: str | None) -> Adjacent | None:
    """``hex`` or ``hexside`` (any case), or None."""
    if text is None:
        return None
    for choice in ADJACENT_CHOICES:
        if text.strip().lower() == choice:
            return choice
    raise BadInput("adjacent", text, "expected hex or hexside")


def given_drms(values: list[int] | None) -> tuple[DRM, ...]:
    """The ``--drm`` values as DRMs: Canister adds TEM, Hindrance and CA-change DRMs."""
    return tuple(
        DRM(v, "given DRM (TEM, LOS Hindrance or CA change)", "C8.4-noth") for v in values or ()
    )


@asl_app.command("deplete")
def deplete_command(
    ctx: typer.Context,
    *,
    number: Annotated[int, typer.Option("--number", metavar="N", help="Depletion Number.")],
    dice: Dice = None,
    seed: Seed = None,
    breakdown: Breakdown = None,
    intensive_fire: Annotated[
        bool, typer.Option("--intensive-fire", help="Intensive Fire (lowers the B# only).")
    ] = False,
    ammo: Annotated[
        str | None,
        typer.Option(
            "--ammo",
            metavar="AMMO",
            help="The declared ammunition (APCR, A, WP...), for the record.",
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Resolve the depletion check of a declared special-ammunition DR (C8.9)."""
    declaration = Declaration(Family.from_ammo(ammo)) if ammo is not None else None
    roll, used_seed = roll_or_read(dice, seed, "special ammunition To Hit DR")
    ruling = resolve_depletion(
        number,
        roll,
        breakdown,
        intensive_fire,
        declaration=declaration,
        settings=settings_of(ctx),
    )
    table = ruling_table(
        "Special ammunition depletion (C8.9)",
        [
            ("Dice (W,C)", roll),
            ("Original DR", ruling.original_dr),
            ("Depletion Number", ruling.depletion_number),
            ("Outcome", ruling.outcome),
            ("Ammunition exhausted", ruling.exhausted),
            ("Counts as fired", ruling.counts_as_fired),
            ("B# checked", ruling.breakdown),
            ("Malfunctioned", ruling.malfunctioned),
            ("Resolved with the special ammo", ruling.resolved_with_special_ammo),
            ("May fire again now", ruling.may_fire_again),
            ("Seed", used_seed),
        ],
    )
    emit(ruling, as_json, table, {"seed": used_seed})


@asl_app.command("smoke")
def smoke_command(
    *,
    ammo: Annotated[str, typer.Option("--ammo", metavar="SMOKE|WP", help="SMOKE or WP.")],
    phase: Annotated[
        str,
        typer.Option(
            "--phase", metavar="PHASE", help="RPh, PFPh, MPh, DFPh, AFPh, RtPh, APh or CCPh."
        ),
    ],
    after_non_smoke_fire: Annotated[
        bool,
        typer.Option(
            "--after-non-smoke-fire",
            help="Something other than SMOKE has already been fired in this phase.",
        ),
    ] = False,
    own_hex: Annotated[
        bool, typer.Option("--own-hex", help="Target is the Gun's own hex.")
    ] = False,
    interior_building: Annotated[
        bool, typer.Option("--interior-building", help="Target is an Interior Building hex.")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """May a Gun place SMOKE or WP now, and is it Dispersed? (C8.5, C8.51, C8.52, C8.6)"""
    ruling = smoke_placement(ammo, phase, after_non_smoke_fire, own_hex, interior_building)
    table = ruling_table(
        f"{ruling.ammo} placement in the {ruling.phase}",
        [
            ("Allowed", ruling.allowed),
            ("Dispersed", ruling.dispersed),
            ("Level", ruling.level),
            ("Hindrance (levels)", ruling.hindrance_levels),
        ],
    )
    emit(ruling, as_json, table)


@asl_app.command("canister")
def canister_command(
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
    dice: Dice = None,
    seed: Seed = None,
    as_json: AsJson = False,
) -> None:
    """Resolve a Canister attack on the IFT; the same DR checks depletion and breakdown (C8.4)."""
    base = parse_fp(fp)
    where = parse_adjacent(adjacent)
    drms = given_drms(drm)
    roll, used_seed = roll_or_read(dice, seed, "Canister IFT DR")
    ruling = canister_attack(
        base,
        roll,
        moved=moved,
        manned_after_moving=manned_after_moving,
        drms=drms,
        adjacent=where,
        armored=armored,
        depletion_number=depletion,
        breakdown=breakdown,
        settings=settings_of(ctx),
    )
    table = ruling_table(
        "Canister attack (C8.4)",
        [
            ("FP", json_number(ruling.fp)),
            ("IFT column", ruling.column),
            ("Dice (W,C)", roll),
            ("Original DR", ruling.original_dr),
            ("DRMs", ", ".join(str(d) for d in drms) or None),
            ("Final DR", ruling.final_dr),
            ("Result", ruling.result),
            ("Depletion", ruling.depletion),
            ("Malfunctioned", ruling.malfunctioned),
            ("Seed", used_seed),
        ],
    )
    emit(ruling, as_json, table, {"seed": used_seed})
