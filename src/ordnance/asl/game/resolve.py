"""Check an ASL command against the state and resolve it into events and a ruling.

Every rule is the library's: the side record (record.py), what a counter gives on the scenario
date (capabilities.py, supply.py, heat.py), depletion (depletion.py), SMOKE/WP placement
(smoke.py) and canister (canister.py); D13 smoke dispensers and grenades go through
:mod:`.dispense`, movement and markers through :mod:`.movement`, a shot through :mod:`.fire` and
:mod:`.canister` (what both check: :mod:`.shooting`). This module only decides which
of them a command needs, feeds them from the tracked state, and turns their rulings into events.

Readings where C8 is silent (sequence of play, cited as ASL's A3):

* a side fires in its own Prep and Advancing Fire Phases, in the enemy's Defensive Fire
  Phase, and in either side's Movement Phase (Bounding or Defensive First Fire); never in the
  Rally, Rout, Advance or Close Combat Phases;
* only the owner of a phase (the defender in the DFPh, else the phasing side) ends it;
* WP counts as smoke for the SMOKE/WP phase rules: firing it does not close the phase to
  SMOKE (smoke.py treats WP as a smoke round too);
* a C8.9-gt shot (the Gun had none) is not fire: it closes nothing (C8.9-gt);
* a malfunctioned Gun may not fire (C8.9 keeps malfunction apart); repairing it is outside C8.
"""

from __future__ import annotations

from ordnance.asl.game.canister import canister
from ordnance.asl.game.dispense import dispense, grenades
from ordnance.asl.game.fire import fire
from ordnance.asl.game.movement import mark, movement
from ordnance.asl.game.rulings import SEQUENCE
from ordnance.asl.game.rulings import game_ruling as _ruling
from ordnance.asl.game.shooting import depletion_number
from ordnance.asl.game.sight import smoke_leaving
from ordnance.asl.game.state import FOLLOWING, AslState, next_phase
from ordnance.asl.smoke import Phase
from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.ruleset import Command, Event, Resolution

# The ruleset reads a unit's supply through this module too (asl/game/ruleset.py).
__all__ = ["depletion_number", "resolve"]


def resolve(state: AslState, command: Command, dice: DiceSource) -> Resolution:
    """Check and resolve one command; raises IllegalAction or BadInput, never half-applies."""
    if state.over:
        raise IllegalAction(SEQUENCE, "the scenario is over")
    if command.verb == "phase":
        return _phase(state, command)
    unit = state.sheet.unit(str(command.args["unit"]))
    if unit.side != command.side:
        raise IllegalAction(
            "SYS.record", f"{unit.id} belongs to {unit.side}; {command.side} cannot act for it"
        )
    if command.verb in ("move", "man"):
        return movement(state, command, unit)
    if command.verb == "mark":
        return mark(state, command, unit)
    if command.verb == "dispense":
        return dispense(state, command, unit, dice)
    if command.verb == "grenades":
        return grenades(state, command, unit, dice)
    if state.status[unit.id].malfunctioned:
        raise IllegalAction("C8.9-gt", f"{unit.id} has malfunctioned and may not fire")
    if command.verb == "fire":
        return fire(state, command, unit, dice)
    if command.verb == "canister":
        return canister(state, command, unit, dice)
    raise BadInput("command", command.text, "not an ASL command")


# --- phases ------------------------------------------------------------------------------------


def _phase(state: AslState, command: Command) -> Resolution:
    # A phase ends once per phase of a game: the owner (state.phase_owner) and the next phase
    # within the Player Turn (next_phase) are read here without their calls; the Player Turn's
    # last phase still goes through next_phase.
    phase = state.phase
    player = state.player
    owner = state.phase_owner if phase is Phase.DFPH else player
    if command.side != owner:
        raise IllegalAction(SEQUENCE, f"the {phase} belongs to {owner}; only {owner} may end it")
    following = FOLLOWING.get(phase)
    if following is not None:
        turn, phase = state.turn, following
    else:
        after = next_phase(state)
        if after is None:
            return Resolution(
                (Event("over"),),
                _ruling(command, (SEQUENCE,), "The last Player Turn ends: the scenario is over."),
            )
        turn, player, phase = after
    words = f"Game Turn {turn}, {player} Player Turn: the {phase} begins."
    event = Event("phase", {"turn": turn, "player": player, "phase": str(phase)})
    clauses, gone = smoke_leaving(state, player, phase)
    return Resolution((event,), _ruling(command, (SEQUENCE, *clauses), f"{words}{gone}"))
