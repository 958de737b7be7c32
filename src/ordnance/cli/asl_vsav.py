"""``ordnance asl vsav``: the AFVs and Guns of a VASL save, with hexes and capabilities, and
the pieces that matched no counter data, by name.

The reading lives in ``ordnance.asl.vsav``; this module parses options and prints. Errors are
raised and printed as one line by ``ordnance.cli.app.main``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from ordnance.asl.dates import ScenarioDate
from ordnance.cli.groups import asl_app, settings_of
from ordnance.cli.output import console, emit_json, titled_table
from ordnance.core.clauses import cite_all
from ordnance.core.errors import BadInput
from ordnance.core.outfiles import write_output

if TYPE_CHECKING:
    from ordnance.asl.vsav import Geometry, UnmatchedPiece, VsavRuling, VsavUnit
    from ordnance.asl.vsav.scenario import VsavScenario

VsavFile = Annotated[Path, typer.Argument(metavar="FILE", help="A VASL game save (.vsav).")]
VaslTemplates = Annotated[
    str,
    typer.Option(
        "--vasl-templates",
        metavar="DIR",
        help="vasl-templates data folder (or a checkout of the project).",
    ),
]
EdgeBuffer = Annotated[
    str | None,
    typer.Option(
        "--edge-buffer",
        metavar="X,Y",
        help="The main map's edge buffer in pixels (default 400,400, VASL 6's).",
    ),
]


def geometry_of(edge_buffer: str | None) -> Geometry:
    """The default board geometry with the edge buffer given as ``X,Y``.

    >>> geometry_of("0,0").edge_x, geometry_of(None).edge_y
    (0, 400)
    """
    # Imported here, as the reader below: every other command would pay for it at start-up.
    from ordnance.asl.vsav import DEFAULT_GEOMETRY, Geometry  # noqa: PLC0415, RUF100

    if edge_buffer is None:
        return DEFAULT_GEOMETRY
    x, comma, y = edge_buffer.partition(",")
    if not comma or not x.strip().isdigit() or not y.strip().isdigit():
        raise BadInput("edge buffer", edge_buffer, "expected two whole numbers X,Y, e.g. 400,400")
    edge_x, edge_y = int(x), int(y)
    if max(edge_x, edge_y) > 100_000:
        raise BadInput("edge buffer", edge_buffer, "at most 100000 pixels")
    return Geometry(edge_x=edge_x, edge_y=edge_y)


def read(
    ctx: typer.Context,
    file: Path,
    vasl_templates: str,
    date: str | None,
    edge_buffer: str | None,
) -> VsavRuling:
    """Read the save with the group's settings (shared with ``game new --from-vsav``)."""
    from ordnance.asl.vsav import read_vsav  # noqa: PLC0415, RUF100

    return read_vsav(
        file,
        vasl_templates,
        None if date is None else ScenarioDate.parse(date),
        settings_of(ctx),
        geometry=geometry_of(edge_buffer),
    )


@asl_app.command("vsav")
def vsav_command(
    ctx: typer.Context,
    file: VsavFile,
    *,
    vasl_templates: VaslTemplates,
    date: Annotated[
        str | None,
        typer.Option(
            "--date", metavar="YYYY-MM", help="Scenario date as YYYY-MM: read capabilities on it."
        ),
    ] = None,
    edge_buffer: EdgeBuffer = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The AFVs and Guns of a VASL save: counter, hex and capabilities (C8.0); then the
    pieces that match no vehicle or Gun of the data, by name (each with gpid and hex in JSON)."""
    ruling = read(ctx, file, vasl_templates, date, edge_buffer)
    if as_json:
        emit_json(ruling.to_json())
        return
    boards = ", ".join(("r" if b.reversed else "") + b.name for b in ruling.boards) or "none"
    console.print(
        Text(
            f"{ruling.file}: VASL {ruling.vasl_version or '?'}, saved by VASSAL"
            f" {ruling.vassal_version or '?'}; boards: {boards}",
            style="bold",
        )
    )
    for nationality in dict.fromkeys(unit.nationality for unit in ruling.units):
        units = [unit for unit in ruling.units if unit.nationality == nationality]
        console.print(_table(nationality, units, dated=ruling.date is not None))
    console.print(Text(ruling.explanation))
    if ruling.unmatched:
        console.print(Text(unmatched_text(ruling.unmatched, console.width)))
    console.print(Text(f"Rules: {cite_all(ruling.clauses)}", style="dim"))


# The lines of names the text gives the unmatched pieces at most; JSON names every piece.
UNMATCHED_LINES = 6


def unmatched_text(pieces: Sequence[UnmatchedPiece], width: int = 80) -> str:
    """The unmatched pieces by name, most numerous first, in at most ``UNMATCHED_LINES`` lines
    of ``width`` (80 at most) that never split a name from its count.

    >>> from ordnance.asl.vsav import UnmatchedPiece
    >>> squad = UnmatchedPiece("1074", "4-6-7", "F2", "F2")
    >>> print(unmatched_text([squad, squad, UnmatchedPiece("", "", None, None)]))
    Not matched to counter data (3 pieces; --json lists each with gpid and hex):
      4-6-7 (2), (no name) (1)
    """
    width = max(40, min(width, 80))
    kinds = Counter(piece.name or "(no name)" for piece in pieces)
    named = sorted(kinds.items(), key=lambda item: (-item[1], item[0]))
    words = [f"{name} ({count})" for name, count in named]
    shown = len(words)
    lines = _packed(words, width)
    while len(lines) > UNMATCHED_LINES:
        shown -= 1
        lines = _packed([*words[:shown], f"and {len(words) - shown} more names"], width)
    number = f"{len(pieces)} piece{'' if len(pieces) == 1 else 's'}"
    head = f"Not matched to counter data ({number}; --json lists each with gpid and hex):"
    return "\n".join([head, *lines])


def _packed(words: Sequence[str], width: int) -> list[str]:
    """Words joined by commas in indented lines of ``width``, a line break only between words."""
    lines: list[str] = []
    line = ""
    for index, word in enumerate(words):
        text = word + ("," if index < len(words) - 1 else "")
        if line and len(line) + 1 + len(text) > width:
            lines.append(line)
            line = ""
        line = f"{line} {text}" if line else f"  {text}"
    return [*lines, line]


def _table(nationality: str, units: list[VsavUnit], *, dated: bool) -> Table:
    table = titled_table(f"{nationality} ({len(units)})")
    for column in ("hex", "unit", "id", "kind"):
        table.add_column(column, overflow="fold")
    table.add_column("available now" if dated else "capabilities", overflow="fold")
    for unit in units:
        table.add_row(
            Text(unit.hex or "-"),
            Text(unit.name),
            Text(unit.id),
            Text(unit.kind),
            Text(_capabilities(unit, dated=dated)),
        )
    return table


def _capabilities(unit: VsavUnit, *, dated: bool) -> str:
    """``APCR 5, sD 7`` on the date; the printed tokens without one."""
    if not dated:
        return " ".join(unit.tokens) or "-"
    words = [
        f"{c.ammo}{'' if c.number is None else f' {c.number}'}"
        for c in unit.capabilities
        if c.available
    ]
    return ", ".join(words) or "-"


def write_scenario(
    file: Path,
    vasl_templates: str,
    date: str,
    map_file: str | None = None,
    edge_buffer: str | None = None,
) -> tuple[Path, VsavScenario]:
    """Write the scenario of a save beside it (``NAME.scenario.yaml``) for ``game new``.

    Refuses to overwrite a file of that name: it may hold the user's edits.
    """
    # Imported here: YAML and the map reader cost the other commands start-up time.
    import yaml  # noqa: PLC0415, RUF100

    from ordnance.asl.vsav import read_vsav  # noqa: PLC0415, RUF100
    from ordnance.asl.vsav.scenario import scenario_comments, scenario_from_vsav  # noqa: PLC0415, RUF100

    when = ScenarioDate.parse(date)
    ruling = read_vsav(file, vasl_templates, when, geometry=geometry_of(edge_buffer))
    scenario = scenario_from_vsav(ruling, when, map_file=map_file)
    target = file.with_name(f"{file.stem}.scenario.yaml")
    if target.exists():
        raise BadInput(
            "scenario file",
            str(target),
            "already exists (it may hold your edits): start from it with"
            f" 'ordnance game new {target}', or remove it",
        )
    text = scenario_comments(scenario) + yaml.safe_dump(
        scenario.data, sort_keys=False, allow_unicode=True, width=96
    )
    write_output(target, text, "scenario")
    if len(scenario.sides) != 2:
        raise BadInput(
            "scenario file",
            str(target),
            f"written with {len(scenario.sides)} sides ({', '.join(scenario.sides) or 'none'});"
            f" an ASL game needs two: edit it, then run 'ordnance game new {target}'",
        )
    return target, scenario
