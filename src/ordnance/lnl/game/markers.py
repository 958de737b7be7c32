"""What Smoke and WP markers do in a game: placing one (and the WP checks it causes), the check
of a unit entering a WP hex, and the Admin Phase's smoke cycle.

- A WP marker makes every Leg unit and Open vehicle in its hex check (LNL.W-check), and every
  one that enters the hex later (LNL.W-enter; once per entry, or once per marker under
  ``wp_check_every_entry=false``).
- The Admin Phase removes every WP marker (LNL.W-remove: in play for the turn it was fired)
  and runs the smoke cycle on the rest (LNL.S-cycle, setting ``smoke_cycle``): Smoke 2 goes,
  then Smoke 1 becomes Smoke 2 (or goes too).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ordnance.core.dice import DiceSource
from ordnance.core.hexgrid import Hex
from ordnance.core.ruleset import Event
from ordnance.lnl.game.outcome import Outcome
from ordnance.lnl.game.state import LnlState
from ordnance.lnl.shell import ShellKind
from ordnance.lnl.wp import Subject, closed_space, eligible, roll_wp_check

WP, SMOKE_1, SMOKE_2 = "wp", "smoke 1", "smoke 2"


def subject(state: LnlState, unit_id: str, hex: Hex) -> Subject:
    """The unit as its WP check in ``hex`` sees it: closed space, a friendly leader's LM."""
    unit = state.sheet.units[unit_id]
    leaders = [
        state.sheet.units[other].lm or 0
        for other in state.units_in(hex)
        if other != unit_id
        and state.sheet.units[other].kind == "leader"
        and state.sheet.units[other].side == unit.side
    ]
    return Subject(
        unit_id,
        unit.kind,
        open=unit.open,
        closed_space=closed_space(state.game_map, hex, state.sheet.settings),
        leader_lm=max(leaders, default=0),
    )


def wp_checks(
    state: LnlState,
    hex: Hex,
    units: Iterable[str],
    dice: DiceSource,
    outcome: Outcome,
    *,
    entering: bool = False,
) -> list[dict[str, Any]]:
    """Roll the WP check of each eligible unit among ``units`` in ``hex``; returns their JSON."""
    sheet = state.sheet
    checks: list[dict[str, Any]] = []
    for unit_id in units:
        unit = sheet.units[unit_id]
        if not eligible(unit.kind, unit.open):
            continue
        if entering and not sheet.settings.wp_check_every_entry and (unit_id, hex) in state.checked:
            outcome.add(
                clauses="LNL.W-enter",
                sentence=f"{unit_id} has already checked for this WP marker"
                " (wp_check_every_entry=false).",
            )
            continue
        check = roll_wp_check(
            subject(state, unit_id, hex),
            dice,
            hex=sheet.label(hex),
            settings=sheet.settings,
            dct=sheet.dct,
            entering=entering,
        )
        data = check.to_json()
        event = {k: data[k] for k in ("unit", "hex", "dice", "kept", "total", "result", "entering")}
        outcome.add(Event("wp-check", event), check.clauses, check.explanation)
        checks.append(data)
    return checks


def place(
    state: LnlState, hex: Hex, kind: ShellKind, dice: DiceSource, outcome: Outcome
) -> list[dict[str, Any]]:
    """Put the shell's marker in ``hex``; a WP marker's checks follow. Returns the checks."""
    label = state.sheet.label(hex)
    outcome.add(Event("marker-placed", {"hex": label, "marker": kind.marker}))
    if kind is not ShellKind.WP:
        return []
    here = state.units_in(hex)
    if not any(eligible(state.sheet.units[u].kind, state.sheet.units[u].open) for u in here):
        outcome.add(clauses="LNL.W-check", sentence=f"No Leg unit or Open vehicle in {label}.")
    return wp_checks(state, hex, here, dice, outcome)


def admin_cycle(state: LnlState, outcome: Outcome) -> None:
    """The markers' part of the Admin Phase (see the module docstring)."""
    settings = state.sheet.settings
    removed: list[str] = []
    flipped: list[str] = []
    for hex, names in sorted(state.markers.items()):
        label = state.sheet.label(hex)
        for name in names:
            if name == WP:
                outcome.add(Event("marker-removed", {"hex": label, "marker": WP}), "LNL.W-remove")
                removed.append(f"WP in {label}")
            elif name == SMOKE_2 or (name == SMOKE_1 and settings.smoke_cycle == "remove"):
                outcome.add(Event("marker-removed", {"hex": label, "marker": name}), "LNL.S-cycle")
                removed.append(f"{name} in {label}")
        if SMOKE_1 in names and settings.smoke_cycle == "flip":
            # Smoke 2 of this hex went first, so the flipped marker is the only one left.
            data = {"hex": label, "marker": SMOKE_1, "to": SMOKE_2}
            outcome.add(Event("marker-flipped", data), "LNL.S-cycle")
            flipped.append(label)
    if removed:
        outcome.add(sentence=f"Removed: {', '.join(removed)}.")
    if flipped:
        outcome.add(sentence=f"Smoke 1 becomes Smoke 2 in {', '.join(flipped)}.")
