"""``ordnance vv ...``: Valor & Victory AP fire, its odds and its settings.

- ``vv odds --apfp N --drm D``: the exact distribution of an attack's Casualty Points;
- ``vv targets GAME --hex H --units U1,U2``: where those units may fire now in a game, with the
  modifiers and odds of each attack, and why the other enemy hexes are refused;
- ``vv settings``: the engine's readings (``ordnance vv --set NAME=VALUE`` overrides one).

Errors are raised and printed as one line by ``ordnance.cli.app.main``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

import typer
from rich.text import Text

from ordnance.cli.game_common import AsJson, Db, GameId, open_service
from ordnance.cli.groups import vv_app
from ordnance.cli.output import (
    SettingOverrides,
    console,
    emit_json,
    fraction_text,
    number_odds,
    number_odds_table,
    parse_overrides,
    settings_in,
    show_settings,
    titled_table,
)
from ordnance.core.clauses import cite, cite_all
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_DRM, MAX_NUMBER
from ordnance.core.rulings import jsonable
from ordnance.vv.combat_table import TABLE
from ordnance.vv.game import VvRuleset
from ordnance.vv.game.state import VvState
from ordnance.vv.odds import cp_odds, expected_cp
from ordnance.vv.settings import VvSettings
from ordnance.vv.targets import Target, valid_targets

OVERRIDES = "ordnance.vv.overrides"


@vv_app.callback()
def vv_options(
    ctx: typer.Context,
    overrides: SettingOverrides = None,
) -> None:
    """Valor & Victory: AP fire groups, valid targets, exact odds of the AP Combat Table."""
    changes = parse_overrides(overrides or [])
    ctx.obj = VvSettings().override(changes)
    # A game command applies the same overrides on top of the game's own settings.
    ctx.meta[OVERRIDES] = changes


@vv_app.command("odds")
def odds_command(
    ctx: typer.Context,
    *,
    apfp: Annotated[
        int, typer.Option("--apfp", metavar="N", max=MAX_NUMBER, help="Total APFP of the attack.")
    ],
    drm: Annotated[
        int,
        typer.Option(
            "--drm",
            metavar="D",
            min=-MAX_DRM,
            max=MAX_DRM,
            help="Total DRM (cover, hindrance, leader...).",
        ),
    ] = 0,
    as_json: AsJson = False,
) -> None:
    """Exact odds of each Casualty Point result of one AP attack (2d6 + DRM on the table)."""
    settings = settings_in(ctx, VvSettings)
    if apfp < 1:
        raise BadInput("APFP", str(apfp), "an AP attack has at least 1 APFP")
    odds = cp_odds(apfp, drm, settings)
    expected = expected_cp(apfp, drm, settings)
    row = TABLE.row(apfp).label
    low = "read on the 2 column" if settings.low_roll == "clamp" else "extend the table"
    explanation = (
        f"APFP {apfp} reads the {row} row; 2d6 {drm:+d} over the 36 ordered rolls; a final"
        f" roll of 12 or more has no effect, below 2 the rolls {low} (setting low_roll)."
        f" Expected CP {expected} ({float(expected):.3f})."
    )
    clauses = ["VV.AP-resolve", "SYS.odds"]
    if as_json:
        emit_json(
            {
                "apfp": apfp,
                "drm": drm,
                "row": row,
                "outcomes": number_odds(odds, "cp"),
                "expected": fraction_text(expected),
                "expected_cp": jsonable(expected),
                "clauses": clauses,
                "explanation": explanation,
            }
        )
        return
    console.print(number_odds_table(f"CP of {apfp} APFP at {drm:+d} (0: no effect)", odds, "CP"))
    console.print(Text(explanation))
    console.print(Text(f"Rules: {cite_all(clauses)}", style="dim"))


@vv_app.command("settings")
def settings_command(ctx: typer.Context, as_json: AsJson = False) -> None:
    """Every overridable reading: current value, default, provenance and rule."""
    show_settings(
        settings_in(ctx, VvSettings).rows(),
        "V&V settings (override with: ordnance vv --set NAME=VALUE ...)",
        as_json,
    )


def _vv_game(game: Any) -> tuple[VvRuleset, VvState]:
    if not isinstance(game.rules, VvRuleset):
        raise BadInput("game", game.id, f"a {game.scenario.ruleset} game, not a V&V one")
    return game.rules, game.state


@vv_app.command("targets")
def targets_command(
    ctx: typer.Context,
    game: GameId,
    *,
    hex: Annotated[str, typer.Option("--hex", metavar="HEX", help="The firing units' hex.")],
    units: Annotated[
        str, typer.Option("--units", metavar="U1,U2", help="The units of the fire group.")
    ],
    grenades: Annotated[
        str | None,
        typer.Option("--grenades", metavar="U1,U2", help="Units that throw a grenade (-1 each)."),
    ] = None,
    satchels: Annotated[
        str | None,
        typer.Option("--satchels", metavar="U1,U2", help="Units that use a satchel charge."),
    ] = None,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """The hexes the fire group may attack now, with each attack's DRMs and odds (VV.AP-select)."""
    with open_service(db) as service:
        folded = service.game(game)
    _, state = _vv_game(folded)
    changes: dict[str, str] = ctx.meta.get(OVERRIDES) or {}
    # --set answers "what if": the game's settings with these changed, for this listing only.
    board = replace(state.board, settings=state.board.settings.override(changes))
    where = board.parse(hex)
    group = _ids(units)
    if not group:
        raise BadInput("units", units, "name at least one unit")
    for unit_id in group:
        board.unit(unit_id)  # an unknown id is bad input, named
        if board.hex_of(unit_id) != where and board.alive(unit_id):
            raise BadInput("units", unit_id, f"is not in {board.label(where)}")
    side = board.unit(group[0]).side
    window = state.window if state.window is not None and side != state.player else None
    found = valid_targets(
        board,
        side,
        group,
        movers=None if window is None else window.movers,
        at=None if window is None else window.hex,
        attacked=state.attacked,
        pool=state.pools[side],
        grenades=_ids(grenades),
        satchels=_ids(satchels),
    )
    rows = [_target_json(board, t) for t in found.targets]
    refused = [
        {"hex": board.label(h), "clause": r.clause, "reason": r.sentence} for h, r in found.refused
    ]
    kind = "Opportunity Fire" if window is not None else "AP fire"
    explanation = (
        f"{kind} by {','.join(group)} from {board.label(where)}: {len(rows)} valid target(s)"
        f" of {len(rows) + len(refused)} enemy-held hex(es)."
    )
    if changes:
        explanation += " With --set " + ", ".join(f"{k}={v}" for k, v in changes.items())
        explanation += " over the game's settings (this listing only)."
    clauses = ["VV.AP-select", "VV.AP-targets", "VV.AP-resolve"]
    if as_json:
        emit_json(
            {
                "game": game,
                "hex": board.label(where),
                "units": list(group),
                "side": side,
                "opportunity_fire": window is not None,
                "targets": rows,
                "refused": refused,
                "settings": board.settings.to_json(),
                "clauses": clauses,
                "explanation": explanation,
            }
        )
        return
    table = titled_table(explanation)
    for column in ("hex", "range", "APFP", "DRM", "modifiers", "expected CP", "affects"):
        table.add_column(column)
    for row in rows:
        table.add_row(
            row["hex"],
            str(row["range"]),
            str(row["apfp"]),
            f"{row['drm']:+d}",
            Text("; ".join(f"{d['value']:+d} {d['reason']}" for d in row["drms"]) or "-"),
            f"{row['expected_cp_float']:.2f}",
            ", ".join(row["affects"]),
        )
    console.print(table)
    for row in refused:
        why = f"refused by {cite(str(row['clause']))}: {row['reason']}"
        console.print(Text(f"{row['hex']}: {why}", style="dim"))


def _ids(text: str | None) -> tuple[str, ...]:
    return tuple(u.strip() for u in (text or "").split(",") if u.strip())


def _target_json(board: Any, target: Target) -> dict[str, Any]:
    attack = target.attack
    return {
        "hex": board.label(attack.order.target),
        "range": attack.range,
        "apfp": attack.apfp,
        "contributions": dict(attack.contributions),
        "row": TABLE.row(attack.apfp).label,
        "drms": jsonable(list(attack.drms)),
        "drm": attack.drm,
        "leader": attack.leader,
        "weapons": [str(w) for w in attack.weapons],
        "expected_cp": jsonable(target.expected),
        "expected_cp_float": float(target.expected),
        "affects": list(attack.victims),
    }
