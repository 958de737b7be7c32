"""``ordnance asl ammo`` and ``roster``: what a counter (or a whole side) may fire on a date.

``ammo`` reads tokens in the notation (``A5(4)/6(5) sD7``); ``roster`` reads a nationality's
counters from a vasl-templates data folder. Both print the capabilities that exist in the
scenario with their effective numbers (JSON with ``--json``, a table otherwise); errors are
raised and printed as one line by ``ordnance.cli.app.main``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ordnance.asl.capabilities import AmmoContext, Capability, evaluate_text
from ordnance.asl.dates import ScenarioDate, Theater, parse_nationality
from ordnance.asl.notation import format_capabilities
from ordnance.cli.groups import asl_app, settings_of
from ordnance.cli.output import emit, titled_table
from ordnance.core.errors import BadInput

if TYPE_CHECKING:
    from rich.table import Table

Date = Annotated[str, typer.Option("--date", metavar="YYYY-MM", help="Scenario date as YYYY-MM.")]
Elite = Annotated[bool, typer.Option("--elite", help="Elite unit: +1 to Depletion Numbers (C8.2).")]
TheaterOption = Annotated[
    str | None,
    typer.Option(
        "--theater", metavar="THEATER", help="ETO, MTO, DTO, PTO, Burma or Korea (E/P/B flags)."
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]


# Where counter data may be at hand without the option (a player sets it once).
TEMPLATES_ENV = "ORDNANCE_VASL_TEMPLATES"

VaslTemplates = Annotated[
    str,
    typer.Option(
        "--vasl-templates",
        metavar="DIR",
        envvar=TEMPLATES_ENV,
        show_envvar=False,
        help="vasl-templates data folder (or a checkout of the project); default:"
        f" ${TEMPLATES_ENV}.",
    ),
]


@asl_app.command("ammo")
def ammo_command(
    ctx: typer.Context,
    notation: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="NOTATION...",
            help="Capability tokens, e.g. 'A5(4)/6(5) s7 sD7' (spaces or commas between).",
        ),
    ] = None,
    *,
    date: Date,
    elite: Elite = False,
    theater: TheaterOption = None,
    nationality: Annotated[
        str | None,
        typer.Option(
            "--nationality", metavar="NATION", help="The owning side (R/S/CS flags, US Note C)."
        ),
    ] = None,
    vehicle: Annotated[
        str | None,
        typer.Option(
            "--vehicle",
            metavar="NAME",
            help="Instead of NOTATION: the counter of this vehicle or Gun (a part of its name,"
            " any case) in --vasl-templates DIR for --nationality.",
        ),
    ] = None,
    vasl_templates: Annotated[
        str | None,
        typer.Option(
            "--vasl-templates",
            metavar="DIR",
            envvar=TEMPLATES_ENV,
            show_envvar=False,
            help="vasl-templates data folder, for --vehicle or a vehicle's name as NOTATION"
            f" (default: ${TEMPLATES_ENV}).",
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Which capabilities exist on the scenario date, with their numbers (C8.91, D13)."""
    when = ScenarioDate.parse(date)
    side = None if nationality is None else parse_nationality(nationality)
    title = "Capabilities"
    if vehicle is not None:
        if notation:
            raise BadInput("option", "--vehicle", "give NOTATION or --vehicle, not both")
        if vasl_templates is None or side is None:
            raise BadInput("option", "--vehicle", "needs --vasl-templates DIR and --nationality")
        from ordnance.asl.vasl_templates import find_unit, plain_name  # noqa: PLC0415, RUF100

        entry = find_unit(vasl_templates, side, when, vehicle)
        text = format_capabilities(entry.tokens)
        title = f"{plain_name(entry.name)} ({entry.id}): {text or 'no special ammunition'}"
    elif not notation:
        raise BadInput("notation", "", "give the counter's tokens, or --vehicle NAME")
    else:
        text = " ".join(notation)
        named = _named_unit(text, vasl_templates, nationality, when)
        if named is not None:
            text, title = named
    context = AmmoContext(
        when,
        elite=elite,
        theater=None if theater is None else Theater.parse(theater),
        nationality=side,
    )
    ruling = evaluate_text(text, context, settings_of(ctx))
    heading = f"{title}: {context.label}"
    emit(ruling, as_json, lambda: _capability_table(heading, ruling.capabilities))


def _named_unit(
    text: str, folder: str | None, nationality: str | None, when: ScenarioDate
) -> tuple[str, str] | None:
    """NOTATION that is not notation but a vehicle's or Gun's name (``M4A3(76)W Sherman``):
    its counter's tokens and a title, when counter data is at hand; else the notation's fault
    and how to name a unit. None: ``text`` is notation."""
    from ordnance.asl.notation import parse_capabilities  # noqa: PLC0415

    try:
        parse_capabilities(text)
    except BadInput as fault:
        if fault.what != "notation":
            raise
        if folder is None or nationality is None:
            need = f"--vasl-templates DIR (a vasl-templates data folder, or ${TEMPLATES_ENV})"
            need = " and ".join(
                ([need] if folder is None else [])
                + (["--nationality"] if nationality is None else [])
            )
            problem = f"{fault.problem}; to name a vehicle or Gun instead, give {need}"
            raise BadInput("notation", text, problem, fault.position) from None
        entry = _find_by_name(folder, nationality, when, text, fault)
        tokens = format_capabilities(entry.tokens)
        return tokens, f"{_plain(entry.name)} ({entry.id}): {tokens or 'no special ammunition'}"
    return None


def _find_by_name(
    folder: str, nationality: str, when: ScenarioDate, text: str, fault: BadInput
) -> Any:
    """The unit named by ``text`` or by its first words (``M4A3(76)W Sherman``: the data
    names it ``M4A3(76)W``); none matching is one line saying neither reading fits."""
    from ordnance.asl.vasl_templates import find_unit  # noqa: PLC0415, RUF100

    words = text.split()
    for count in range(len(words), 0, -1):
        try:
            return find_unit(folder, nationality, when, " ".join(words[:count]))
        except BadInput as missing:
            if missing.what != "vehicle" or not missing.problem.startswith("no "):
                raise  # several units match: the line names them
    word = parse_nationality(nationality)
    where = "" if fault.position is None else f" at position {fault.position}"
    problem = (
        f"not notation ({fault.problem}{where}), nor the name of any {word} vehicle or Gun"
        f" in {folder}"
    )
    raise BadInput("notation", text, problem)


def _plain(name: str) -> str:
    from ordnance.asl.vasl_templates import plain_name  # noqa: PLC0415, RUF100

    return plain_name(name)


@asl_app.command("roster")
def roster_command(
    ctx: typer.Context,
    *,
    vasl_templates: VaslTemplates,
    nationality: Annotated[
        str,
        typer.Option(
            "--nationality", metavar="NATION", help="The side, e.g. german, canadian, polish, us."
        ),
    ],
    date: Date,
    elite: Elite = False,
    theater: TheaterOption = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", metavar="TEXT", help="Only units whose name contains TEXT (any case)."
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Every vehicle and Gun of a nationality and what it may fire on the date."""
    from rich.text import Text  # noqa: PLC0415

    from ordnance.asl.vasl_templates import plain_name, roster  # noqa: PLC0415

    context = AmmoContext(
        ScenarioDate.parse(date),
        elite=elite,
        theater=None if theater is None else Theater.parse(theater),
    )
    ruling = roster(vasl_templates, nationality, context, settings_of(ctx), name=name)
    table = titled_table(f"Roster: {ruling.nationality}, {context.label}")
    for column in ("unit", "kind", "available now", "not now"):
        table.add_column(column, overflow="fold")
    for unit in ruling.units:
        table.add_row(
            Text(plain_name(unit.name)),
            Text(unit.kind),
            Text(_present(unit.capabilities)),
            Text(" ".join(c.token for c in unit.capabilities if not c.available)),
        )
    emit(ruling, as_json, table)


def _capability_table(title: str, capabilities: Iterable[Capability]) -> Table:
    """One row per token; each token's reading, in words, below the table."""
    from rich.text import Text  # noqa: PLC0415

    capabilities = tuple(capabilities)
    table = titled_table(
        title,
        caption="\n".join(c.explanation for c in capabilities),
        caption_justify="left",
    )
    for column in ("token", "ammunition", "available", "number", "dated step", "rule"):
        table.add_column(column)
    for capability in capabilities:
        table.add_row(
            Text(capability.display),
            Text(capability.ammo),
            Text("yes" if capability.available else "no"),
            Text(_number(capability)),
            Text(capability.date_code or "-"),
            Text(capability.rule),
        )
    return table


def _number(capability: Capability) -> str:
    if capability.depletion_number is not None:
        return f"Depletion {capability.depletion_number}"
    if capability.usage_number is not None:
        return f"Usage {capability.usage_number}"
    return "-"


def _present(capabilities: Iterable[Capability]) -> str:
    """``APCR 5, sD 7, IR`` for the capabilities that exist."""
    words = []
    for capability in capabilities:
        if capability.available:
            number = "" if capability.number is None else f" {capability.number}"
            words.append(f"{capability.ammo}{number}")
    return ", ".join(words)
