"""``ordnance asl dispenser | grenades`` and ``ordnance asl odds dispenser`` (D13), stateless.

There is no map here: the AFV stands at the origin with its arc facing NNE, ``--case-a N``
turns that arc N hexspines to fire an sM, and the sM target is a hex at ``--range`` (default 1)
inside the turned arc, in LOS. JSON therefore leaves out the map positions (hexes, facings,
the state after); the game supplies them when it calls the same library functions.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

import typer
from rich.text import Text

from ordnance.asl.capabilities import AmmoContext
from ordnance.asl.dates import ScenarioDate
from ordnance.asl.dispensers import (
    FIRED,
    NOT_FIRED,
    AfvState,
    Dispenser,
    Mount,
    SmokeMortarAim,
    dispenser_drms,
    dispenser_family,
    dispenser_odds,
    pick_dispenser,
    resolve_dispenser,
    resolve_grenades,
    yes_no_table,
)
from ordnance.asl.notation import Family, parse_capabilities
from ordnance.asl.smoke import Phase
from ordnance.cli.groups import asl_app, odds_app, settings_of
from ordnance.cli.output import console, emit, emit_json, odds_table, roll_or_read, ruling_table
from ordnance.core.clauses import cite_all
from ordnance.core.dice import DieRoll, SeededDice
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import ORIGIN, Arc, Corner
from ordnance.core.limits import MAX_DRM, MAX_SEED

Notation = Annotated[
    list[str],
    typer.Argument(
        metavar="NOTATION...",
        help="The counter's capabilities, e.g. 'sD7' or 'A5(4)/6(5) sN7(4)/8(5)'.",
    ),
]
Date = Annotated[
    str,
    typer.Option("--date", metavar="YYYY-MM", help="Scenario date as YYYY-MM (dated sN, D13.34)."),
]
TypeOption = Annotated[
    str | None,
    typer.Option("--type", metavar="sD|sM|sP|sN", help="Which dispenser, when there are several."),
]
Bu = Annotated[bool, typer.Option("--bu", help="The AFV is buttoned up (otherwise CE).")]
Elite = Annotated[
    bool, typer.Option("--elite", help="Elite owner: accepted, changes no Usage Number (D13.1).")
]
Moving = Annotated[
    bool, typer.Option("--moving", help="The AFV is moving or in Motion (sM +2, D13.32).")
]
CaseA = Annotated[
    int,
    typer.Option(
        "--case-a", metavar="N", help="sM: hexspines (0-3) the CA turns to fire (Case A DRM)."
    ),
]
MountOption = Annotated[
    str, typer.Option("--mount", metavar="T|ST|RST|NT", help="sM mount for the Case A table.")
]
Hindrance = Annotated[
    int,
    typer.Option(
        "--hindrance",
        metavar="N",
        min=-MAX_DRM,
        max=MAX_DRM,
        help="sM: LOS Hindrance DRM to the target hex.",
    ),
]
Dust = Annotated[
    int,
    typer.Option("--dust", metavar="N", min=-MAX_DRM, max=MAX_DRM, help="sM: Dust DRM (F11.7)."),
]
Range = Annotated[
    int | None, typer.Option("--range", metavar="R", help="sM: target range (1-3; default 1).")
]
Defensive = Annotated[
    bool,
    typer.Option(
        "--defensive",
        help="In the opponent's MPh, after an enemy MP/MF expenditure in LOS (D13.2).",
    ),
]
CcHe = Annotated[bool, typer.Option("--cc-he", help="sN firing HE in the CCPh (no BU DRM, D13.3).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]

# Map-bound fields a stateless answer cannot give meaningfully.
_MAP_FIELDS = ("state_after", "new_facing")


def _attempt(
    notation: list[str],
    *,
    date: str,
    kind: str | None,
    bu: bool,
    elite: bool,
    moving: bool,
    case_a: int,
    mount: str,
    hindrance: int,
    dust: int,
    reach: int | None,
    defensive: bool,
    cc_he: bool,
    ctx: typer.Context,
) -> tuple[AfvState, Dispenser, SmokeMortarAim | None]:
    """The state, dispenser and sM aim the options describe."""
    family = None if kind is None else dispenser_family(kind)
    context = AmmoContext(ScenarioDate.parse(date), elite=elite)
    dispenser = pick_dispenser(
        parse_capabilities(" ".join(notation)), context, family, settings_of(ctx)
    )
    arm = Mount.parse(mount)
    state = AfvState(
        ce=not bu,
        moving=moving,
        mount=arm,
        hex=ORIGIN,
        tca=Corner.NNE if arm.turreted else None,
        vca=Corner.NNE,
        phase=Phase.CCPH if cc_he else Phase.MPH,
        own_turn=not defensive,
        enemy_expended_in_los=defensive,
    )
    sm_only = {"--case-a": case_a != 0, "--hindrance": hindrance != 0, "--dust": dust != 0}
    sm_only["--range"] = reach is not None
    if dispenser.family is not Family.SMOKE_MORTAR or cc_he:
        for option, given in sm_only.items():
            if given:
                raise BadInput("option", option, "applies only to an sM placing smoke")
        return state, dispenser, None
    if not 0 <= case_a <= 3:
        raise BadInput("Case A", str(case_a), "a CA turns 0 to 3 hexspines")
    distance = 1 if reach is None else reach
    if distance < 0:
        raise BadInput("range", str(distance), "a range is 0 or more")
    facing = Corner.NNE.turned(case_a)
    arc = Arc.covered(facing, turret=arm.turreted)
    target = next(arc.hexes(ORIGIN, distance, distance))
    return (
        state,
        dispenser,
        SmokeMortarAim(target=target, in_los=True, hindrance=hindrance, dust=dust, facing=facing),
    )


def _stateless(payload: dict[str, Any]) -> dict[str, Any]:
    """A ruling's JSON without the map-bound fields."""
    result = {k: v for k, v in payload.items() if k not in _MAP_FIELDS}
    if isinstance(result.get("placement"), dict):
        result["placement"] = {k: v for k, v in result["placement"].items() if k != "hex"}
    if isinstance(result.get("later_fire"), dict):
        result["later_fire"] = {k: v for k, v in result["later_fire"].items() if k != "facing"}
    return result


@asl_app.command("dispenser")
def dispenser_command(
    ctx: typer.Context,
    notation: Notation,
    *,
    date: Date,
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
    kind: TypeOption = None,
    bu: Bu = False,
    elite: Elite = False,
    moving: Moving = False,
    case_a: CaseA = 0,
    mount: MountOption = "T",
    hindrance: Hindrance = 0,
    dust: Dust = 0,
    reach: Range = None,
    defensive: Defensive = False,
    cc_he: CcHe = False,
    as_json: AsJson = False,
) -> None:
    """Resolve one smoke dispenser usage DR (D13.3): Final DR at most the Usage Number fires."""
    state, dispenser, aim = _attempt(
        notation,
        date=date,
        kind=kind,
        bu=bu,
        elite=elite,
        moving=moving,
        case_a=case_a,
        mount=mount,
        hindrance=hindrance,
        dust=dust,
        reach=reach,
        defensive=defensive,
        cc_he=cc_he,
        ctx=ctx,
    )
    roll, used_seed = roll_or_read(dice, seed, "smoke dispenser usage DR")
    ruling = resolve_dispenser(
        state, dispenser, roll, aim=aim, he_in_cc=cc_he, settings=settings_of(ctx)
    )
    placement = ruling.placement
    table = ruling_table(
        f"Smoke dispenser {ruling.token} (D13)",
        [
            ("Usage Number", ruling.usage_number),
            ("Dice (W,C)", roll),
            ("Original DR", ruling.original_dr),
            ("DRMs", ", ".join(str(d) for d in ruling.drms) or None),
            ("Final DR", ruling.final_dr),
            ("Fired", ruling.fired),
            ("Smoke", None if placement is None else f"{placement.counter}, {placement.where}"),
            ("MP cost", ruling.mp_cost),
            ("Seed", used_seed),
        ],
    )
    if as_json:
        emit_json({**_stateless(ruling.to_json()), "seed": used_seed})
        return
    emit(ruling, as_json, table)


@asl_app.command("grenades")
def grenades_command(
    ctx: typer.Context,
    *,
    vehicle: Annotated[
        str,
        typer.Option(
            "--vehicle",
            metavar="armed-unarmored|bu-ot|ce",
            help="Armed-but-unarmored vehicle, BU OT AFV, or CE AFV (D13.35).",
        ),
    ],
    ct: Annotated[
        bool, typer.Option("--ct", help="The AFV is closed-topped (then its crew must be CE).")
    ] = False,
    dr: Annotated[int | None, typer.Option("--dr", metavar="N", help="Physical die (1-6).")] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", min=0, max=MAX_SEED, help="Seed for a reproducible roll."
        ),
    ] = None,
    defensive: Defensive = False,
    as_json: AsJson = False,
) -> None:
    """Resolve a vehicular smoke grenade usage dr (D13.35)."""
    state = _grenade_state(vehicle, ct=ct, defensive=defensive)
    if dr is not None:
        roll, used_seed = DieRoll(dr), None
    else:
        used_seed = seed if seed is not None else secrets.randbits(32)
        roll = SeededDice(used_seed).roll_die("vehicular smoke grenade usage dr")
    ruling = resolve_grenades(state, roll, settings_of(ctx))
    table = ruling_table(
        "Vehicular smoke grenades (D13.35)",
        [
            ("dr", roll),
            ("Needed", f"<= {ruling.needed}"),
            ("Placed", ruling.placed),
            ("MP cost", ruling.mp_cost),
            ("Seed", used_seed),
        ],
    )
    if as_json:
        emit_json({**_stateless(ruling.to_json()), "seed": used_seed})
        return
    emit(ruling, as_json, table)


_VEHICLES = ("armed-unarmored", "bu-ot", "ce")


def _grenade_state(vehicle: str, *, ct: bool, defensive: bool) -> AfvState:
    """The state ``--vehicle`` and ``--ct`` describe; ``--ct`` with ``bu-ot`` is a BU CT AFV."""
    word = vehicle.strip().lower()
    if word not in _VEHICLES:
        raise BadInput("vehicle", vehicle, "one of " + ", ".join(_VEHICLES))
    if word == "armed-unarmored" and ct:
        raise BadInput("option", "--ct", "CT/OT describes an armored vehicle")
    if word == "armed-unarmored":
        return AfvState(armored=False, own_turn=not defensive, enemy_expended_in_los=defensive)
    return AfvState(
        ce=word == "ce",
        open_topped=not ct,
        own_turn=not defensive,
        enemy_expended_in_los=defensive,
    )


@odds_app.command("dispenser")
def dispenser_odds_command(
    ctx: typer.Context,
    notation: Notation,
    *,
    date: Date,
    kind: TypeOption = None,
    bu: Bu = False,
    elite: Elite = False,
    moving: Moving = False,
    case_a: CaseA = 0,
    mount: MountOption = "T",
    hindrance: Hindrance = 0,
    dust: Dust = 0,
    reach: Range = None,
    defensive: Defensive = False,
    cc_he: CcHe = False,
    as_json: AsJson = False,
) -> None:
    """Exact odds that a smoke dispenser fires, over the 36 ordered DRs (D13.3)."""
    settings = settings_of(ctx)
    state, dispenser, aim = _attempt(
        notation,
        date=date,
        kind=kind,
        bu=bu,
        elite=elite,
        moving=moving,
        case_a=case_a,
        mount=mount,
        hindrance=hindrance,
        dust=dust,
        reach=reach,
        defensive=defensive,
        cc_he=cc_he,
        ctx=ctx,
    )
    odds = dispenser_odds(state, dispenser, aim=aim, he_in_cc=cc_he, settings=settings)
    rows = yes_no_table(odds, FIRED, NOT_FIRED)
    drms = dispenser_drms(state, dispenser, aim=aim, he_in_cc=cc_he, settings=settings)
    total = sum(d.value for d in drms)
    explanation = (
        f"Exact odds over the 36 ordered DRs, each resolved by the usage procedure: it fires"
        f" when Original DR {total:+d} is at most Usage Number {dispenser.usage_number} (D13.3)."
    )
    if cc_he:
        explanation += " This is the sN's HE use in Close Combat: no BU DRM (D13.3, D13.34)."
    if elite:
        explanation += " Elite status changes no Usage Number (D13.1; C8.2-elite)."
    clauses = ["SYS.odds", "D13.1", "C8.9-scope", "D13.3"] + (["D13.34"] if cc_he else [])
    clauses += sorted({d.clause for d in drms if d.clause and d.clause not in clauses})
    if as_json:
        emit_json(
            {
                "dispenser": dispenser.kind,
                "token": dispenser.token,
                "usage_number": dispenser.usage_number,
                "drms": [{"value": d.value, "reason": d.reason, "clause": d.clause} for d in drms],
                "outcomes": [row.to_json() for row in rows],
                "clauses": clauses,
                "explanation": explanation,
            }
        )
        return
    console.print(odds_table(f"Smoke dispenser {dispenser.token}", rows))
    console.print(Text(explanation))
    console.print(Text(f"Rules: {cite_all(clauses)}", style="dim"))
