"""A vehicle's Smoke or WP shell in a game, its MGs, and the enemy's choice of landing hex.

The checks, in order, each refusing with its clause and changing nothing: the vehicle is the
side's and may act now (the impulse, one action per unit and turn: LnLT's sequence of play); it
is equipped for that shell (LNL.S-fire; for WP, LNL.W-proc); its MGs have not fired before it
(LNL.S-mg); the pool holds a counter (LNL.S-pool, LNL.W-pool); the target hex holds an enemy
unit (setting ``target_needs_enemy``) and is in LOS (LNL.S-hex); the range is in its to-hit
table (LNL.S-fire).

Then the dice, in this order: the To Hit DR, the WP checks when the marker lands at once, and
the depletion die when the side's pool has a Depletion Number. The depletion die is rolled in
the firing command even when the landing hex waits for the enemy's choice: its result cannot
depend on that choice, and the firer should roll his own die (a reading: 14.2.2 only says it
comes after the fire procedure). The WP checks of a chosen hex are rolled with the choice.
"""

from __future__ import annotations

from typing import Any

from ordnance.core.dice import DiceSource
from ordnance.core.errors import IllegalAction
from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.lnl.game.markers import place
from ordnance.lnl.game.outcome import SEQUENCE, Outcome
from ordnance.lnl.game.scenario import Unit
from ordnance.lnl.game.state import LnlState
from ordnance.lnl.landing import Landing, Result, settle
from ordnance.lnl.los import LOS_RULE, lnl_los
from ordnance.lnl.pool import spend
from ordnance.lnl.shell import ShellKind, aim, shoot


def may_act(state: LnlState, unit: Unit) -> None:
    """Refuse a unit that cannot start an action now (an open action, or it acted)."""
    if state.action is not None:
        raise IllegalAction(
            SEQUENCE,
            f"{state.action.unit}'s action is still open: its MGs may fire ('mg') or 'end' it",
        )
    if state.units[unit.id].acted:
        raise IllegalAction(SEQUENCE, f"{unit.id} has already acted this turn")


def shell(state: LnlState, command: Command, unit: Unit, dice: DiceSource) -> Resolution:
    """``smoke-shell`` / ``wp-shell``: see the module docstring."""
    sheet, args = state.sheet, command.args
    kind = ShellKind.SMOKE if command.verb == "smoke-shell" else ShellKind.WP
    status = state.units[unit.id]
    if state.action is not None and state.action.unit == unit.id:
        raise IllegalAction("LNL.S-fire", f"{unit.id} has fired its shell in this action")
    if kind not in unit.shells:
        clause = "LNL.S-fire" if kind is ShellKind.SMOKE else "LNL.W-proc"
        what = "a smoke-shell-equipped vehicle" if kind is ShellKind.SMOKE else "equipped for WP"
        raise IllegalAction(clause, f"{unit.id} is not {what}")
    if "mg" in status.fired:
        raise IllegalAction(
            "LNL.S-mg", f"{unit.id}'s MGs have fired: the shell may come before them, not after"
        )
    may_act(state, unit)
    pool = state.pool(unit.side, kind)
    pool.require(kind)
    target = sheet.hex(str(args["at"]))
    enemies = [u for u in state.units_in(target) if sheet.units[u].side != unit.side]
    if sheet.settings.target_needs_enemy and not enemies:
        raise IllegalAction(
            "LNL.S-hex",
            f"no enemy unit in {sheet.label(target)} (the target is a hex where enemy units"
            " are; setting target_needs_enemy)",
        )
    verdict = aim(state.game_map, status.hex, target, sheet.settings)
    assert unit.to_hit is not None  # the scenario requires one with shells
    to_hit = unit.to_hit.number(verdict.range)
    roll = dice.roll_dr(f"To Hit DR ({kind.counter}) for {unit.id}")
    shot, landing = shoot(
        verdict,
        kind=kind,
        to_hit=to_hit,
        roll=roll,
        opportunity=bool(args.get("opportunity")),
        drms=[int(d) for d in args.get("drms") or ()],
        settings=sheet.settings,
    )
    outcome = Outcome(command)
    outcome.add(
        Event("fired", {"unit": unit.id, "weapon": str(kind), "at": sheet.label(target)}),
        shot.clauses,
        f"{unit.id}: {shot.explanation}",
    )
    acquired = None
    if status.acquired is not None:
        acquired = sheet.label(status.acquired)
        outcome.add(
            Event("acquired-removed", {"unit": unit.id}),
            "LNL.S-mods",
            f"{unit.id}'s Acquired marker on {acquired} is removed.",
        )
    checks = _land(state, unit, kind, landing, dice=dice, outcome=outcome)
    die = None
    if pool.depletion_number is not None:
        die = dice.roll_die(f"Depletion dr ({kind.counter}, {unit.side})")
    spent = spend(pool, kind, die)
    outcome.add(
        Event(
            "pool",
            {
                "side": unit.side,
                "kind": str(kind),
                "before": spent.before,
                "left": spent.left,
                "depletion_number": spent.depletion_number,
                "die": spent.die,
                "removed": spent.removed,
            },
        ),
        spent.clauses,
        spent.explanation,
    )
    data = shot.to_json()
    outcome.detail.update(
        {key: value for key, value in data.items() if key not in ("clauses", "explanation")}
    )
    outcome.detail.update(
        unit=unit.id,
        checks=checks,
        pool=spent.to_json(),
        acquired_removed=acquired,
        waits_for=sheet.other(unit.side) if landing.waits else None,
    )
    outcome.add(sentence="Its MGs may fire now ('mg'), or 'end' the action.")
    return outcome.resolution()


def _land(
    state: LnlState,
    unit: Unit,
    kind: ShellKind,
    landing: Landing,
    *,
    dice: DiceSource,
    outcome: Outcome,
) -> list[dict[str, Any]]:
    """Place the marker, or leave the choice to the enemy side."""
    sheet = state.sheet
    if landing.waits:
        outcome.add(
            Event(
                "pending",
                {
                    "unit": unit.id,
                    "side": unit.side,
                    "chooser": sheet.other(unit.side),
                    "kind": str(kind),
                    "result": str(landing.result),
                    "candidates": [sheet.label(h) for h in landing.candidates],
                },
            ),
            "LNL.S-los",
        )
        return []
    if landing.hex is None:
        return []
    return place(state, landing.hex, kind, dice, outcome)


def choose(state: LnlState, command: Command, dice: DiceSource) -> Resolution:
    """``choose HEX``: the enemy side picks where a pending shell lands (LNL.S-los)."""
    pending, sheet = state.pending, state.sheet
    if pending is None:
        raise IllegalAction("LNL.S-los", "no shell is waiting for a choice of landing hex")
    if command.side != pending.chooser:
        raise IllegalAction("LNL.S-los", f"the enemy side, {pending.chooser}, chooses")
    firer = state.units[pending.unit].hex
    kind = ShellKind(pending.kind)
    waiting = Landing(Result(pending.result), candidates=pending.candidates)
    landing = settle(
        state.game_map, firer, waiting, sheet.hex(str(command.args["hex"])), sheet.settings
    )
    outcome = Outcome(command)
    chosen = sheet.label(sheet.hex(str(command.args["hex"])))
    outcome.add(Event("chosen", {"hex": chosen}), "LNL.S-los", f"{command.side} chooses {chosen}.")
    checks: list[dict[str, Any]] = []
    if landing.hex is None:
        outcome.add(sentence="No clear LOS from the firer to it: nothing is placed.")
    else:
        marker = "Smoke 1" if kind is ShellKind.SMOKE else "A WP marker"
        outcome.add(sentence=f"{marker} is placed in {chosen}.")
        checks = place(state, landing.hex, kind, dice, outcome)
    outcome.detail.update(
        unit=pending.unit,
        kind=str(kind),
        hex=chosen if landing.hex is not None else None,
        candidates=[sheet.label(h) for h in pending.candidates],
        checks=checks,
    )
    return outcome.resolution()


def mg(state: LnlState, command: Command, unit: Unit) -> Resolution:
    """``mg UNIT --at HEX``: the vehicle's MGs, after its shell in the same action or alone.

    The MG attack itself is resolved on the DFT, which this engine does not model: the command
    records that the MGs fired (so no shell may follow them, LNL.S-mg) and ends the action.
    """
    sheet = state.sheet
    if unit.kind != "vehicle":
        raise IllegalAction(SEQUENCE, f"{unit.id} is not a vehicle: 'mg' is a vehicle's MGs")
    after_shell = state.action is not None and state.action.unit == unit.id
    if not after_shell:
        may_act(state, unit)
    target = sheet.hex(str(command.args["at"]))
    here = state.units[unit.id].hex
    if target == here or not lnl_los(state.game_map, here, target).clear:
        raise IllegalAction(LOS_RULE, f"{sheet.label(target)} is not in LOS from {unit.id}")
    outcome = Outcome(command)
    outcome.add(Event("fired", {"unit": unit.id, "weapon": "mg", "at": sheet.label(target)}))
    if after_shell:
        outcome.add(
            clauses="LNL.S-mg",
            sentence=f"{unit.id}'s MGs fire at {sheet.label(target)} after its shell, in the"
            " same action.",
        )
    else:
        outcome.add(sentence=f"{unit.id}'s MGs fire at {sheet.label(target)}; no shell may follow.")
    outcome.add(sentence="Resolve the attack on the DFT (not modelled here).")
    outcome.add(Event("impulse", {"side": sheet.other(command.side), "passes": 0}), SEQUENCE)
    outcome.detail.update(unit=unit.id, at=sheet.label(target), after_shell=after_shell)
    return outcome.resolution()
