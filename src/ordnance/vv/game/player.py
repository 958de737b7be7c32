"""The AI as a player: the next command for a side the scenario marks ``ai: true``.

It answers whatever the side must decide now, as command text that goes through the same
parsing and checks as a person's (VV.AP-phases):

- CP waiting for it: the allocation losing it the least value
  (:func:`~ordnance.vv.evaluate.least_loss_allocation`; with ``ai_evaluation=cp`` the engine's
  ``assign-cp --auto``);
- a stack that just entered a hex in the opponent's Movement Phase: the Opportunity Fire of
  :func:`~ordnance.vv.ai.opfire_choice` (with its look-ahead), or ``pass``;
- its Fire or Defensive Fire Phase: the first attack of :func:`~ordnance.vv.ai.plan_fire`,
  grenades and satchels included (the plan is made again after each attack), then
  ``phase next``; in its own Fire Phase an infantry stack whose move would gain more than its
  attack is worth (:func:`~ordnance.vv.game.ai_moves.move_gain`) holds its fire to move, and
  so does an unarmored vehicle (:func:`~ordnance.vv.game.ai_moves.drive_gain`);
- its Movement Phase: the next step of :func:`~ordnance.vv.game.ai_moves.next_step` (setting
  ``ai_moves``; its unarmored vehicles with ``ai_vehicles_move``), then ``phase next``;
- its After-Action Phase: a rally roll for each pinned unit, with the best unpinned leader in
  the hex, then ``phase next``;
- any other phase of its own: ``phase next``.
"""

from __future__ import annotations

import shlex

from ordnance.core.errors import IllegalAction
from ordnance.vv.ai import AiPolicy, PlannedAttack, opfire_choice, plan_fire
from ordnance.vv.evaluate import least_loss_allocation
from ordnance.vv.game.ai_moves import drive_gain, move_gain, next_step
from ordnance.vv.game.rally import leaders_for
from ordnance.vv.game.state import Phase, VvState
from ordnance.vv.units import Kind


def ai_command(state: VvState, side: str, policy: AiPolicy | None = None) -> str | None:
    """The AI's next command for ``side``, or None when ``side`` has nothing to decide.

    ``policy``: which parts of the AI play (default: the game's ``ai_*`` settings)."""
    if side not in state.sheet.ai_sides and policy is None:
        raise IllegalAction(
            "VV.AP-phases", f"the scenario does not have the AI play {side} (ai: true)"
        )
    if state.to_move != side:
        return None
    board = state.board
    policy = policy or AiPolicy.of(board.settings)
    pool = state.pools[side]
    if state.pending is not None:
        if policy.evaluation == "cp":
            return "assign-cp --auto"
        chosen = least_loss_allocation(policy.on(board), state.pending)
        return shlex.join(["assign-cp", *map(str, chosen)])
    window = state.window
    if window is not None:
        choice = opfire_choice(
            board,
            side,
            window.movers,
            window.hex,
            attacked=state.attacked,
            pool=pool,
            policy=policy,
        )
        return "pass" if choice is None else fire_text("opfire", choice, state)
    if state.phase in (Phase.FIRE, Phase.DEFENSIVE_FIRE):
        plan = plan_fire(board, side, attacked=state.attacked, pool=pool, policy=policy)
        moving = state.phase is Phase.FIRE and policy.moves
        for attack in plan.attacks:
            # In its own Fire Phase a stack that would gain more by moving keeps still.
            where = board.hex_of(attack.units[0])
            infantry = all(board.unit(u).kind.infantry for u in attack.units)
            if (
                moving
                and infantry
                and where is not None
                and move_gain(state, side, where, policy) > attack.expected
            ):
                continue
            # So does an unarmored vehicle whose move is worth more (ai_vehicles_hold_fire).
            vehicle = next((u for u in attack.units if board.unit(u).kind is Kind.VEHICLE), None)
            if (
                moving
                and vehicle is not None
                and drive_gain(state, side, vehicle, policy) > attack.expected
            ):
                continue
            return fire_text("fire", attack, state)
    if state.phase is Phase.MOVEMENT and policy.moves:
        step = next_step(state, side, policy)
        if step is not None:
            return step
    if state.phase is Phase.AFTER_ACTION:
        for unit_id in board.side_units(side):
            status = board.status[unit_id]
            if status.pinned and status.aboard is None and not status.rally_tried:
                leaders = leaders_for(board, unit_id)
                words = ["rally", unit_id]
                if leaders:
                    best = min(leaders, key=lambda leader: (leaders[leader], leader))
                    words += ["--leader", best]
                return shlex.join(words)
    return "phase next"


def fire_text(verb: str, attack: PlannedAttack, state: VvState) -> str:
    """The command that makes a planned attack."""
    words = [verb, ",".join(attack.units)]
    if verb == "fire":
        words += ["--at", state.board.label(attack.target) or ""]
    if attack.weapons:
        words += ["--weapons", ",".join(attack.weapons)]
    if attack.leader is not None:
        words += ["--leader", attack.leader]
    if attack.grenades:
        words += ["--grenades", ",".join(attack.grenades)]
    if attack.satchels:
        words += ["--satchels", ",".join(attack.satchels)]
    return shlex.join(words)
