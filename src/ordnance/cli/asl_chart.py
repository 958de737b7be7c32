"""``ordnance asl chart``, ``heat`` and ``he-equivalency``: the C8.2, C8.3 and C8.31 look-ups.

Each command parses its options, asks :mod:`ordnance.asl.supply` or :mod:`ordnance.asl.heat`,
and prints the ruling (JSON with ``--json``, a table otherwise). Errors are raised, and
``ordnance.cli.app.main`` prints them as one line.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ordnance.asl.heat import he_equivalency, heat_availability, heat_target
from ordnance.asl.supply import CHART, chart_number, parse_gun_size
from ordnance.cli.groups import asl_app, settings_of
from ordnance.cli.output import emit, ruling_table
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_CALIBRE, MAX_FP
from ordnance.core.rulings import Ruling

Nationality = Annotated[
    str,
    typer.Option(
        "--nationality", metavar="NATION", help="The side using the Gun, e.g. german, canadian."
    ),
]
Date = Annotated[str, typer.Option("--date", metavar="YYYY-MM", help="Scenario date as YYYY-MM.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


@asl_app.command("chart")
def chart_command(
    ctx: typer.Context,
    *,
    nationality: Nationality,
    gun: Annotated[
        str, typer.Option("--gun", metavar="SIZE", help="Gun size: calibre and L/LL, e.g. 75L.")
    ],
    date: Date,
    elite: Annotated[bool, typer.Option("--elite", help="Elite unit: +1 (C8.2).")] = False,
    origin: Annotated[
        str | None,
        typer.Option(
            "--origin",
            metavar="NATION",
            help="Use this nationality's chart row (captured/lent Gun).",
        ),
    ] = None,
    counter: Annotated[
        int | None,
        typer.Option(
            "--counter", metavar="N", help="Depletion Number printed on the counter (overrides)."
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """APCR/APDS Depletion Number from the Ammunition Supply Chart (C8.2).

    A size no row of the chart lists is bad input (exit 2) unless --counter gives the
    counter's own number; a listed size without a row for this side answers "not available".
    """
    size = parse_gun_size(gun)
    if counter is None and size not in CHART.gun_sizes:
        raise BadInput(
            "gun size",
            gun,
            "no row of the Ammunition Supply Chart lists it (it lists "
            f"{', '.join(CHART.gun_sizes)}); a number printed on the counter goes in --counter",
        )
    ruling = chart_number(
        nationality, gun, date, elite, settings_of(ctx), origin=origin, counter=counter
    )
    table = ruling_table(
        f"Ammunition Supply Chart: {ruling.gun}, {date}",
        [
            ("row", ruling.row),
            ("ammunition", ruling.ammo),
            ("available", _yes_no(ruling.available)),
            ("Depletion Number", ruling.depletion_number),
            ("from counter", _yes_no(ruling.from_counter)),
        ],
    )
    emit(ruling, as_json, table)


@asl_app.command("heat")
def heat_command(
    *,
    nationality: Nationality,
    date: Date,
    scw: Annotated[bool, typer.Option("--scw", help="Fired by an SCW (C8.3).")] = False,
    target: Annotated[
        str | None,
        typer.Option("--target", metavar="KIND", help="vehicle, gun, infantry or cavalry (C8.31)."),
    ] = None,
    tem: Annotated[
        str | None,
        typer.Option(
            "--tem", metavar="TEM", help="TEM the target receives: wall, building, open, woods..."
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Is HEAT available on this date (C8.3), and may it be fired at this target (C8.31)?"""
    available = heat_availability(nationality, date, scw)
    rows: list[tuple[str, object]] = [
        ("available", _yes_no(available.available)),
        ("Depletion Number applies", _yes_no(available.depletion_number_applies)),
    ]
    if target is None:
        if tem is not None:
            raise BadInput("option", "--tem", "--tem needs --target")
        emit(available, as_json, ruling_table(f"HEAT: {nationality}, {date}", rows))
        return
    aimed = heat_target(target, tem)
    rows += [("target", aimed.target), ("TEM", aimed.tem), ("allowed", _yes_no(aimed.allowed))]
    # One ruling for both questions: the clauses and sentences of each, in order.
    both = Ruling(
        clauses=available.clauses + aimed.clauses,
        explanation=f"{available.explanation} {aimed.explanation}",
    )
    fields = {
        "available": available.available,
        "depletion_number_applies": available.depletion_number_applies,
        "allowed": aimed.allowed,
        "target": aimed.target,
        "tem": aimed.tem,
    }
    emit(both, as_json, ruling_table(f"HEAT: {nationality}, {date}", rows), fields)


@asl_app.command("he-equivalency")
def he_equivalency_command(
    ctx: typer.Context,
    weapon: Annotated[
        str,
        typer.Argument(
            metavar="WEAPON",
            help="AP, APCR, APDS, ATR, BAZ, PIAT, PSK, PFk, PF, H9 (or H#[9]), ordnance.",
        ),
    ],
    caliber: Annotated[
        int | None,
        typer.Option(
            "--caliber",
            metavar="MM",
            min=1,
            max=MAX_CALIBRE,
            help="Calibre in mm (AP and ATR need it).",
        ),
    ] = None,
    he_fp: Annotated[
        int | None,
        typer.Option(
            "--he-fp",
            metavar="FP",
            min=1,
            max=MAX_FP,
            help="The Gun's normal HE FP (ordnance HEAT needs it).",
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """HE Equivalency FP of AP-type and HEAT attacks, and whether they leave Residual FP (C8.31)."""
    ruling = he_equivalency(weapon, caliber, he_fp, settings_of(ctx))
    table = ruling_table(
        f"HE Equivalency: {ruling.weapon}",
        [("FP", ruling.fp), ("Residual FP possible", _yes_no(ruling.residual))],
    )
    emit(ruling, as_json, table)
