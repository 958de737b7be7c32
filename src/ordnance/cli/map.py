"""``ordnance map ...``: line of sight, range, arcs, canister aims and pictures of a map.

MAP is a map file (YAML, see README "Maps") or the short name of a bundled example
(``asl-village``, ``lnl-farm``, ``vv-hedgerows``). Hexes are named by the map's labels (``4G5``,
``C7``). Facings: the hexside directions ``N NE SE S SW NW`` and the corner (hexspine)
directions ``NNE E SSE SSW W NNW``; an ASL CA/TCA opens toward a corner (or a hexside), a V&V
FFA faces a hexside. Errors are raised and printed by ``ordnance.cli.app.main`` as one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from ordnance.asl.canister_target import canister_aiming_points
from ordnance.asl.terrain import GAME as ASL
from ordnance.cli.groups import map_app
from ordnance.cli.map_games import bundled_maps, judge_for, open_map
from ordnance.cli.options import Force
from ordnance.cli.output import console, emit_json, output_file, ruling_table, titled_table
from ordnance.cli.pictures import scenario_picture, write_picture
from ordnance.core.clauses import cite_all
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import (
    Arc,
    ArcKind,
    Corner,
    GeomorphicLabels,
    GridLabels,
    Hex,
    LabelScheme,
    distance,
)
from ordnance.core.limits import MAX_RANGE
from ordnance.core.maps import GameMap, LosVerdict, label_or_none, vertex_label
from ordnance.core.maps.loader import schema
from ordnance.core.maps.svg import ArcView
from ordnance.game.picture import GamePicture

MapName = Annotated[
    str, typer.Argument(metavar="MAP", help="A map file, or a bundled map's name (asl-village).")
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
FacingHelp = "N NE SE S SW NW (hexsides) or NNE E SSE SSW W NNW (corners)."
FFA_CLAUSE = "VV.AP-arc"
CANISTER_CLAUSE = "C8.4-target"


def _hex(game_map: GameMap, label: str) -> Hex:
    return game_map.parse(label)


def _step_text(labels: Any) -> str:
    return labels if isinstance(labels, str) else "|".join(labels)


@map_app.command("los")
def los_command(
    map_name: MapName,
    firer: Annotated[str, typer.Argument(metavar="FROM", help="The firer's hex, e.g. 4G5.")],
    target: Annotated[str, typer.Argument(metavar="TO", help="The target's hex.")],
    as_json: AsJson = False,
) -> None:
    """Line of sight from FROM to TO by the map's game: clear or blocked, hindrances by range."""
    game_map = open_map(map_name)
    verdict = judge_for(game_map).los(game_map, _hex(game_map, firer), _hex(game_map, target))
    _print_los(verdict, as_json)


def _print_los(verdict: LosVerdict, as_json: bool) -> None:
    data = verdict.to_json()
    if as_json:
        emit_json(data)
        return
    blocked = data["blocked_by"]
    where = None
    if blocked is not None:
        place = blocked["hex"] or blocked["hexside"]
        where = f"{_step_text(place)} at range {blocked['range']}: {blocked['reason']}"
    hindrances = "; ".join(
        f"range {h['range']}: +{h['drm']} {h['reason']}" for h in data["hindrances"]
    )
    cover = data["target_cover"]
    table = ruling_table(
        f"LOS {data['from']} to {data['to']} ({data['game']}: {data['map']})",
        [
            ("range", data["range"]),
            ("verdict", "clear" if data["clear"] else "blocked"),
            ("blocked by", where),
            ("hexes", " > ".join(_step_text(step) for step in data["hexes"])),
            ("hindrances", hindrances or "none"),
            ("total hindrance", f"+{data['total_hindrance']}"),
            ("target's cover", None if cover is None else cover["reason"]),
        ],
    )
    console.print(table)
    console.print(Text(verdict.explanation))
    rules = cite_all([*data["clauses"], *data["rules"]])
    console.print(Text(f"Rules: {rules}", style="dim"))


@map_app.command("range")
def range_command(
    first: Annotated[str, typer.Argument(metavar="FROM", help="A hex label, or q,r,s.")],
    second: Annotated[str, typer.Argument(metavar="TO", help="A hex label, or q,r,s.")],
    map_name: Annotated[
        str | None,
        typer.Option(
            "--map", metavar="MAPFILE", help="Read the labels on this map (needed across boards)."
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """The range from FROM to TO: hexes counted to the target, not the firer's own."""
    if map_name is not None:
        labels: LabelScheme = open_map(map_name).labels
        a, b = labels.parse(first.strip()), labels.parse(second.strip())
    else:
        a, b = _loose_hex(first, second), _loose_hex(second, first)
    result = distance(a, b)
    explanation = f"{first} to {second}: range {result}"
    if as_json:
        emit_json({"clauses": [], "explanation": explanation, "range": result})
        return
    console.print(Text(explanation))


def _board(label: str) -> str:
    """The board number a geomorphic label starts with (``"4"`` of ``4G5``), or ``""``."""
    return label[: len(label) - len(label.lstrip("0123456789"))]


def _kind(text: str) -> str:
    """How a hex is named without a map: cube coordinates, a board label or a grid label."""
    if "," in text:
        return "cube coordinates"
    return "a board label" if _board(text) else "a grid label"


def _loose_hex(text: str, other: str) -> Hex:
    """A hex without a map: cube coordinates, a plain grid label, or a label on one board."""
    text, other = text.strip(), other.strip()
    kinds = {_kind(text), _kind(other)}
    if len(kinds) > 1:
        ways = " and ".join(sorted(kinds))
        problem = f"{text} and {other} are named two ways ({ways}): name both one way"
        raise BadInput("hex label", text, problem)
    if "," in text:
        return Hex.parse(text)
    board = _board(text)
    if board:
        other_board = _board(other)
        if other_board and other_board != board:
            problem = f"{text} and {other.strip()} lie on two boards: --map places the boards"
            raise BadInput("hex label", text, problem)
        return GeomorphicLabels.of(board).parse(text)
    return GridLabels(columns=26 * 4, rows=999).parse(text)


@map_app.command("arc")
def arc_command(
    map_name: MapName,
    hex_label: Annotated[str, typer.Argument(metavar="HEX", help="The unit's hex.")],
    *,
    facing: Annotated[
        str | None,
        typer.Option("--facing", metavar="DIR", help=f"Where the arc opens: {FacingHelp}"),
    ] = None,
    kind: Annotated[
        str, typer.Option("--kind", metavar="ARC", help="CA, TCA (ASL), FFA (V&V), or ANY.")
    ] = "CA",
    max_range: Annotated[
        int | None,
        typer.Option(
            "--range",
            metavar="HEXES",
            min=1,
            max=MAX_RANGE,
            help="Farthest range (default: the map edge).",
        ),
    ] = None,
    open_boundary: Annotated[
        bool, typer.Option("--open", help="Hexes cut by a boundary ray are outside.")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """The hexes of the map inside a unit's arc, nearest first."""
    game_map = open_map(map_name)
    origin = _hex(game_map, hex_label)
    arc = _arc(kind, facing, open_boundary)
    edge = max(origin.distance(h) for h in game_map)
    reach = edge if max_range is None else min(max_range, edge)  # no rings beyond the map
    inside = [h for h in arc.hexes(origin, reach) if h in game_map]
    labels = [game_map.label(h) for h in inside]
    clauses = [FFA_CLAUSE] if arc.kind is ArcKind.FFA else []
    explanation = (
        f"{len(labels)} hexes of {game_map.name} in {arc} from {hex_label} out to range {reach}"
    )
    if as_json:
        emit_json(
            {
                "clauses": clauses,
                "explanation": explanation,
                "hex": game_map.label(origin),
                "arc": str(arc),
                "kind": arc.kind.value,
                "facing": None if arc.facing is None else str(arc.facing),
                "range": reach,
                "hexes": labels,
            }
        )
        return
    table = titled_table(f"Arc {arc} from {game_map.label(origin)}")
    table.add_column("range", justify="right")
    table.add_column("hexes")
    for range_ in range(1, reach + 1):
        row = [game_map.label(h) for h in inside if origin.distance(h) == range_]
        if row:
            table.add_row(str(range_), Text(" ".join(row)))
    console.print(table)
    console.print(Text(explanation))


def _arc(kind: str, facing: str | None, open_boundary: bool) -> Arc:
    if kind.upper() == ArcKind.ANY.value:
        if facing is not None:
            raise BadInput("option", "--facing", "an ANY arc has no facing")
        return Arc.parse("ANY")
    if facing is None:
        raise BadInput("option", "--facing", f"a {kind.upper()} arc needs --facing ({FacingHelp})")
    return Arc.parse(f"{kind}:{facing}" + (":open" if open_boundary else ""))


@map_app.command("canister")
def canister_command(
    map_name: MapName,
    hex_label: Annotated[str, typer.Argument(metavar="HEX", help="The firing Gun's hex.")],
    facing: Annotated[
        str,
        typer.Option("--facing", metavar="DIR", help="The CA's corner: NNE, E, SSE, SSW, W, NNW."),
    ],
    as_json: AsJson = False,
) -> None:
    """The five canister aiming vertices of an ASL CA, their clusters and adjacent hexes (C8.4)."""
    game_map = open_map(map_name)
    if game_map.game != ASL:  # C8.4 is ASL's own rule
        raise BadInput(
            "map", map_name, f"canister (C8.4) is an ASL rule; this map is {game_map.game}"
        )
    firer = _hex(game_map, hex_label)
    corner = Corner.parse(facing)
    aims = canister_aiming_points(firer, corner)
    rows = [
        {
            "vertex": vertex_label(game_map.labels, aim.vertex),
            "cluster": [label_or_none(game_map.labels, h) for h in aim.cluster],
            "adjacent": [label_or_none(game_map.labels, h) for h in aim.adjacent],
        }
        for aim in aims
    ]
    explanation = (
        f"canister from {game_map.label(firer)} with its CA facing {corner}: {len(rows)} aiming"
        " vertices two hexsides out; each hits its three hexes and the hex(es) next to the Gun"
        " on the way (C8.41)"
    )
    if as_json:
        emit_json({"clauses": [CANISTER_CLAUSE, "C8.41"], "explanation": explanation, "aims": rows})
        return
    table = titled_table(f"Canister aims from {game_map.label(firer)}, CA {corner}")
    for column in ("vertex", "cluster", "adjacent"):
        table.add_column(column)
    for row in rows:
        table.add_row(
            Text(str(row["vertex"])),
            Text(" ".join(str(h or "off map") for h in row["cluster"])),
            Text(" and ".join(str(h or "off map") for h in row["adjacent"])),
        )
    console.print(table)
    console.print(Text(explanation))


@map_app.command("render")
def render_command(
    map_name: MapName,
    *,
    out: Annotated[
        Path,
        typer.Option(
            "--out", metavar="FILE", help="The SVG (or .png) file to write.", callback=output_file
        ),
    ],
    los: Annotated[
        tuple[str, str] | None,
        typer.Option("--los", metavar="FROM TO", help="Draw this line of sight."),
    ] = None,
    arc_text: Annotated[
        str | None,
        typer.Option("--arc", metavar="HEX:KIND:FACING", help="Draw an arc, e.g. 4G5:CA:E."),
    ] = None,
    arc_range: Annotated[
        int | None,
        typer.Option(
            "--arc-range", metavar="HEXES", min=1, max=MAX_RANGE, help="How far to shade the arc."
        ),
    ] = None,
    png: Annotated[bool, typer.Option("--png", help="Also write a PNG beside the SVG.")] = False,
    size: Annotated[
        float | None,
        typer.Option(
            "--size",
            metavar="PX",
            min=8.0,
            max=200.0,
            help="Hex size in pixels (26; 48 with units).",
        ),
    ] = None,
    as_json: AsJson = False,
    force: Force = False,
) -> None:
    """Draw the map (terrain, markers, an arc, a LOS) as SVG, and as PNG if a converter exists.

    MAP may also be a scenario file: its map is drawn at set-up, with every unit's counter.
    """
    scenario = scenario_picture(map_name)
    if scenario is not None:
        game_map, title = scenario[0].game_map, f"{scenario[1]}: set-up"
        picture = scenario[0]
    else:
        game_map, title = open_map(map_name), None
        picture = GamePicture(game_map, judge_for(game_map).chart(), ())
    judge = judge_for(game_map)
    verdict = None
    if los is not None:
        verdict = judge.los(game_map, _hex(game_map, los[0]), _hex(game_map, los[1]))
    view = None
    if arc_text is not None:
        label, colon, rest = arc_text.partition(":")
        if not colon:
            raise BadInput("arc", arc_text, "expected HEX:KIND:FACING, e.g. 4G5:CA:E")
        view = ArcView(_hex(game_map, label), Arc.parse(rest), arc_range, rest)
    written = write_picture(
        picture, out, png=png, los=verdict, arc=view, size=size, title=title, force=force
    )
    written_json = {
        "svg": str(written.svg),
        "png": written.png_text,
        "converter": written.converter,
    }
    units = len(picture.counters)
    explanation = f"wrote {written.files}" + (f" with {units} units" if units else "")
    if as_json:
        payload = {"clauses": [] if verdict is None else list(verdict.clauses)}
        emit_json({**payload, "explanation": explanation, **written_json, "units": units})
        return
    console.print(Text(explanation))
    if verdict is not None:
        console.print(Text(verdict.explanation))


@map_app.command("examples")
def examples_command(as_json: AsJson = False) -> None:
    """The example maps shipped with ordnance, by the short name the map commands accept."""
    rows = []
    for name in bundled_maps():
        game_map = open_map(name)
        rows.append(
            {"name": name, "game": game_map.game, "title": game_map.name, "hexes": len(game_map)}
        )
    if as_json:
        emit_json({"clauses": [], "explanation": f"{len(rows)} bundled maps", "maps": rows})
        return
    table = titled_table("Bundled maps")
    for column in ("name", "game", "title", "hexes"):
        table.add_column(column)
    for row in rows:
        table.add_row(*(Text(str(row[key])) for key in ("name", "game", "title", "hexes")))
    console.print(table)


@map_app.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of the map file format."""
    emit_json(schema())
