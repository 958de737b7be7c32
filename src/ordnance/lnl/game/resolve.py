"""Check an LnLT command against the state and resolve it into events and a ruling.

Readings of LnLT's sequence of play, where the shell rules are silent (reference/lnl.md
section 2; cited as "LnLT sequence of play"):

* a turn is a Rally Phase, an Operations Phase of alternating impulses and an Admin Phase;
  the scenario's ``first`` side has the first impulse of every turn (no initiative roll) and
  ends the Rally and Admin Phases with ``phase next``;
* an impulse is one unit's action (a shell and then its MGs, MGs alone, or a move) or a pass;
  a unit acts once per turn; ``passes_end_operations`` passes in a row end the Operations
  Phase, and the Admin Phase that follows runs the markers' cycle at once;
* while the enemy side has to choose where a shell lands, only its ``choose`` is accepted.

>>> from ordnance.core.dice import ManualDice
>>> from ordnance.lnl.game.commands import parse_command
>>> from ordnance.lnl.game.scenario import Sheet, load_scenario
>>> from ordnance.lnl.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"map": "lnl-farm", "first": "american",
...     "sides": {"german": {}, "american": {}}})))
>>> to_move(state), str(state.phase)
('american', 'rally')
>>> done = resolve(state, parse_command("american", ["phase", "next"]), ManualDice([]))
>>> [(e.kind, e.data["phase"]) for e in done.events]
[('phase', 'operations')]
"""

from __future__ import annotations

from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.lnl.game.fire import choose, may_act, mg, shell
from ordnance.lnl.game.markers import WP, admin_cycle, wp_checks
from ordnance.lnl.game.outcome import SEQUENCE, Outcome
from ordnance.lnl.game.scenario import Unit
from ordnance.lnl.game.state import LnlState, Phase, apply


def to_move(state: LnlState) -> str | None:
    """The side expected to act: the chooser of a pending landing, the impulse's side in the
    Operations Phase, else the side with the first impulse."""
    if state.over:
        return None
    if state.pending is not None:
        return state.pending.chooser
    if state.phase is Phase.OPERATIONS:
        return state.impulse
    return state.sheet.first


def resolve(state: LnlState, command: Command, dice: DiceSource) -> Resolution:
    """Check and resolve one command; raises IllegalAction or BadInput, never half-applies."""
    if state.over:
        raise IllegalAction(SEQUENCE, "the scenario is over")
    if command.verb == "choose" or state.pending is not None:
        if command.verb != "choose":
            pending = state.pending
            assert pending is not None
            options = " or ".join(state.sheet.label(h) for h in pending.candidates)
            raise IllegalAction(
                "LNL.S-los",
                f"waiting for {pending.chooser} to choose where {pending.unit}'s shell lands"
                f" ({options})",
            )
        return choose(state, command, dice)
    acting = to_move(state)
    if command.side != acting:
        raise IllegalAction(SEQUENCE, f"it is {acting}'s turn to act ({state.phase} phase)")
    if command.verb == "phase":
        return _phase(state, command)
    if state.phase is not Phase.OPERATIONS:
        raise IllegalAction(SEQUENCE, f"units act in the Operations Phase, not the {state.phase}")
    if command.verb == "pass":
        return _pass(state, command)
    if command.verb == "end":
        return _end(state, command)
    unit = state.sheet.unit(str(command.args["unit"]))
    if unit.side != command.side:
        raise IllegalAction(SEQUENCE, f"{unit.id} belongs to {unit.side}")
    if command.verb in ("smoke-shell", "wp-shell"):
        return shell(state, command, unit, dice)
    if command.verb == "mg":
        return mg(state, command, unit)
    if command.verb == "move":
        return _move(state, command, unit, dice)
    raise BadInput("command", command.text, "not an LnLT command")


def _phase(state: LnlState, command: Command) -> Resolution:
    outcome = Outcome(command)
    first = state.sheet.first
    if state.phase is Phase.RALLY:
        data = {"turn": state.turn, "phase": str(Phase.OPERATIONS), "impulse": first}
        outcome.add(
            Event("phase", data),
            SEQUENCE,
            f"Turn {state.turn}: the Operations Phase begins; {first} has the first impulse.",
        )
    elif state.phase is Phase.ADMIN:
        turns = state.sheet.turns
        if turns is not None and state.turn >= turns:
            outcome.add(Event("over"), SEQUENCE, "The last turn ends: the scenario is over.")
        else:
            data = {"turn": state.turn + 1, "phase": str(Phase.RALLY), "impulse": first}
            outcome.add(
                Event("phase", data), SEQUENCE, f"Turn {state.turn + 1}: the Rally Phase begins."
            )
    else:
        raise IllegalAction(
            SEQUENCE,
            f"the Operations Phase ends after {state.sheet.settings.passes_end_operations}"
            " passes in a row: 'pass'",
        )
    return outcome.resolution()


def _pass(state: LnlState, command: Command) -> Resolution:
    if state.action is not None:
        raise IllegalAction(SEQUENCE, f"{state.action.unit}'s action is open: 'mg' or 'end' it")
    outcome = Outcome(command)
    passes = state.passes + 1
    limit = state.sheet.settings.passes_end_operations
    if passes < limit:
        other = state.sheet.other(command.side)
        outcome.add(
            Event("impulse", {"side": other, "passes": passes}),
            SEQUENCE,
            f"{command.side} passes ({passes} of {limit} in a row); the impulse goes to {other}.",
        )
        return outcome.resolution()
    data = {"turn": state.turn, "phase": str(Phase.ADMIN), "impulse": state.sheet.first}
    outcome.add(
        Event("phase", data),
        SEQUENCE,
        f"{passes} passes in a row end the Operations Phase: the Admin Phase of turn {state.turn}.",
    )
    admin_cycle(state, outcome)
    return outcome.resolution()


def _end(state: LnlState, command: Command) -> Resolution:
    action = state.action
    if action is None or state.sheet.units[action.unit].side != command.side:
        raise IllegalAction(SEQUENCE, "no action of yours is open")
    outcome = Outcome(command)
    other = state.sheet.other(command.side)
    outcome.add(
        Event("impulse", {"side": other, "passes": 0}),
        SEQUENCE,
        f"{action.unit}'s action ends without MG fire; the impulse goes to {other}.",
    )
    outcome.detail["unit"] = action.unit
    return outcome.resolution()


# LnLT's movement and melee rules (reference/lnl.md section 2): cited by name, not by number.
MOVE_RULE = "LnLT movement"
MELEE_RULE = "LnLT melee"


def _move(state: LnlState, command: Command, unit: Unit, dice: DiceSource) -> Resolution:
    """``move UNIT --to HEX...``: each hex entered in turn; a WP hex makes the unit check."""
    may_act(state, unit)
    sheet = state.sheet
    outcome = Outcome(command)
    path: list[str] = []
    checks = []
    now = state
    for text in command.args["to"]:
        here, there = now.units[unit.id].hex, sheet.hex(str(text))
        if here.direction_to(there) is None:
            raise IllegalAction(
                MOVE_RULE,
                f"{sheet.label(there)} is not adjacent to {sheet.label(here)}: a unit moves hex"
                " by hex; give every hex entered",
            )
        enemies = [u for u in now.units_in(there) if sheet.units[u].side != unit.side]
        if enemies:
            raise IllegalAction(
                MELEE_RULE,
                f"{sheet.label(there)} holds the enemy's {', '.join(enemies)}: moving in starts a"
                " Melee, which this engine does not model",
            )
        label = sheet.label(there)
        event = Event("moved", {"unit": unit.id, "hex": label})
        outcome.add(event)
        now = apply(now, event.kind, event.data)
        path.append(label)
        if now.has_marker(there, WP):
            entered = len(outcome.events)
            checks += wp_checks(now, there, (unit.id,), dice, outcome, entering=True)
            for later in outcome.events[entered:]:
                now = apply(now, later.kind, later.data)
    outcome.sentences.insert(0, f"{unit.id} moves to {', '.join(path)}.")
    other = sheet.other(command.side)
    outcome.add(Event("impulse", {"side": other, "passes": 0}), SEQUENCE)
    outcome.detail.update(unit=unit.id, path=path, checks=checks)
    return outcome.resolution()
