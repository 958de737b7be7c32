"""Check a V&V command against the state and resolve it into events and a ruling.

The rules are the library's: fire groups and targets (:mod:`ordnance.vv.groups`), the AP Combat
Table (:mod:`ordnance.vv.combat_table`), Casualty Points (:mod:`ordnance.vv.casualties`); this
module decides which of them a command needs, feeds them from the state, rolls through the
game's dice and turns the answers into events. Sequence of play (VV.AP-phases, r. 5):

- the phasing side fires in its Fire Phase; the other side in the Defensive Fire Phase and,
  as Opportunity Fire, at each stack of the mover that enters a hex in the Movement Phase;
- pending CP are answered by the defender before anything else happens; a stack that entered
  a hex waits while the other side fires at it or passes (a window opens only when some unit
  could fire at it, and closes once none can);
- the phasing side rallies its pinned units by roll in its After-Action Phase; the rest rally
  by themselves in their side's next Command Phase (r. 14.7-14.8).

Movement and its Opportunity Fire windows are :mod:`.movement`'s, rally rolls :mod:`.rally`'s.
"""

from __future__ import annotations

from typing import Any

from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.hexgrid import Hex
from ordnance.core.ruleset import Command, Event, Resolution, passes_checks
from ordnance.vv.board import Board
from ordnance.vv.casualties import (
    Action,
    Allocation,
    auto_allocation,
    check_allocation,
    gun_shield,
    parse_allocations,
)
from ordnance.vv.combat_table import TABLE
from ordnance.vv.game.movement import can_opfire, check_move, move, pass_fire
from ordnance.vv.game.rally import rally
from ordnance.vv.game.rulings import PHASES_CLAUSE, RESOLVE, SEQUENCE, ruling
from ordnance.vv.game.state import PHASES, Phase, VvState, apply, next_segment
from ordnance.vv.game.victory import VICTORY, result
from ordnance.vv.groups import Attack, FireOrder, check_attack
from ordnance.vv.odds import expected_cp
from ordnance.vv.units import Mount


def resolve(state: VvState, command: Command, dice: DiceSource) -> Resolution:
    """Check and resolve one command; raises IllegalAction or BadInput, never half-applies."""
    _check_turn(state, command)
    verb = command.verb
    if verb == "assign-cp":
        return _assign(state, command, dice)
    handlers = {
        "phase": _phase,
        "pass": pass_fire,
        "fire": _fire,
        "opfire": _fire,
        "move": move,
        "rally": rally,
    }
    if verb not in handlers:
        raise BadInput("command", command.text, "not a V&V command")
    return handlers[verb](state, command, dice)


def allows(state: VvState, command: Command) -> bool:
    """Whether :func:`resolve` accepts ``command`` (probed up to its first roll). A step is
    asked only its checks (:func:`.movement.check_move`): whether it opens a window is worked
    out when it is taken, and does not change whether it may be."""
    if command.verb != "move":
        return passes_checks(resolve, state, command)
    try:
        _check_turn(state, command)
        check_move(state, command)
    except OrdnanceError:
        return False
    return True


def _check_turn(state: VvState, command: Command) -> None:
    """The refusals of the sequence of play before any command's own: the scenario over, CP
    waiting, a window open."""
    if state.over:
        raise IllegalAction(SEQUENCE, "the scenario is over")
    verb = command.verb
    pending = state.pending
    if pending is not None and verb != "assign-cp":
        raise IllegalAction(
            RESOLVE,
            f"{pending.cp} CP wait in {state.board.label(pending.hex)}: {pending.defender}"
            " fulfils them first (assign-cp)",
        )
    window = state.window
    if window is not None and verb not in ("opfire", "pass", "assign-cp"):
        raise IllegalAction(
            PHASES_CLAUSE,
            f"{', '.join(window.movers)} entered {state.board.label(window.hex)}:"
            f" {state.other(state.player)} may Opportunity Fire first (opfire, or pass)",
        )


# --- phases ----------------------------------------------------------------------------------


def _phase(state: VvState, command: Command, dice: DiceSource) -> Resolution:
    owner = state.phase_owner
    if command.side != owner:
        raise IllegalAction(
            SEQUENCE, f"the {state.phase} phase belongs to {owner}; only {owner} may end it"
        )
    events: list[Event] = []
    if state.phase is not Phase.AFTER_ACTION:
        phase = PHASES[PHASES.index(state.phase) + 1]
        events.append(_phase_event(state.turn, state.player, phase))
        words = f"Turn {state.turn}, {state.player}: the {phase} phase begins."
        return Resolution(tuple(events), ruling(command, (PHASES_CLAUSE,), words))
    # After-Action: both sides' markers come off, smoke thins (r. 5.36); then the next turn.
    events.append(Event("cleanup"))
    after = next_segment(state)
    if after is None:
        sheet = state.sheet
        outcome = result(sheet.victory, state.board, state.control, sheet.sides)
        events.append(Event("over", {"result": outcome}))
        scores = ", ".join(f"{side} {points}" for side, points in outcome["points"].items())
        winner = outcome["winner"]
        words = (
            "The last Player Turn ends: the scenario is over."
            f" Victory points: {scores}; {f'{winner} wins' if winner else 'a draw'}."
        )
        verdict = ruling(command, (SEQUENCE, VICTORY), words, result=outcome)
        return Resolution(tuple(events), verdict)
    turn, player = after
    events.append(_phase_event(turn, player, Phase.COMMAND))
    rallied = [u for u in state.board.side_units(player) if state.board.status[u].pinned]
    events += [Event("rally", {"unit": u, "rallied": True, "auto": True}) for u in rallied]
    words = f"Turn {turn}, {player}: the command phase begins."
    if rallied:
        words += f" Pinned units rally by themselves: {', '.join(rallied)} (r. 14.7)."
    return Resolution(tuple(events), ruling(command, (SEQUENCE,), words, rallied=rallied))


def _phase_event(turn: int, player: str, phase: Phase) -> Event:
    return Event("phase", {"turn": turn, "player": player, "phase": str(phase)})


# --- fire ------------------------------------------------------------------------------------


def _order(
    state: VvState, command: Command, target: Hex, movers: tuple[str, ...] | None
) -> FireOrder:
    args = command.args
    weapons = args.get("weapons")
    return FireOrder(
        command.side,
        tuple(args["units"]),
        target,
        None if weapons is None else tuple(Mount(w) for w in weapons),
        args.get("leader"),
        tuple(args.get("grenades") or ()),
        tuple(args.get("satchels") or ()),
        movers,
    )


def attack_of(state: VvState, command: Command) -> Attack:
    """The attack a ``fire`` or ``opfire`` command asks for, checked against the state."""
    if command.verb == "opfire":
        window = state.window
        if window is None:
            raise IllegalAction(
                PHASES_CLAUSE, "Opportunity Fire answers a stack that has just entered a hex"
            )
        if command.side == state.player:
            raise IllegalAction(PHASES_CLAUSE, "the moving side does not Opportunity Fire")
        target, movers = window.hex, window.movers
    elif command.verb == "fire":
        _check_fire_phase(state, command.side)
        target, movers = state.board.parse(str(command.args["at"])), None
    else:
        raise BadInput("command", command.text, "not an AP attack (fire, opfire)")
    return check_attack(
        state.board,
        _order(state, command, target, movers),
        attacked=state.attacked,
        pool=state.pools[command.side],
    )


def _check_fire_phase(state: VvState, side: str) -> None:
    phasing = side == state.player
    if (state.phase is Phase.FIRE and phasing) or (
        state.phase is Phase.DEFENSIVE_FIRE and not phasing
    ):
        return
    role = "phasing" if phasing else "non-phasing"
    raise IllegalAction(
        PHASES_CLAUSE,
        f"the {role} side ({side}) makes no AP attack in the {state.phase} phase",
    )


def _fire(state: VvState, command: Command, dice: DiceSource) -> Resolution:
    return _attack(state, command, attack_of(state, command), dice)


def _attack(state: VvState, command: Command, attack: Attack, dice: DiceSource) -> Resolution:
    board = state.board
    label = board.label(attack.order.target)
    units = attack.order.units
    roll = dice.roll_dr(f"AP attack by {','.join(units)} at {label}")
    final = roll.total + attack.drm
    rolled = TABLE.cp(attack.apfp, final, board.settings)
    shield = gun_shield(board, attack.firer, attack.victims) if rolled else None
    cp = rolled - (1 if shield is not None else 0)
    defender = board.unit(attack.victims[0]).side
    events = (
        Event(
            "fired",
            {
                "side": command.side,
                "units": list(units),
                "key": attack.key,
                "target": label,
                "grenades": list(attack.order.grenades),
                "satchels": list(attack.order.satchels),
            },
        ),
        Event(
            "attack",
            {
                "side": command.side,
                "defender": defender,
                "target": label,
                "cp": cp,
                "units": list(attack.victims),
                **({"shield": shield} if shield is not None else {}),
            },
        ),
    )
    row = TABLE.row(attack.apfp).label
    result = f"{cp} CP for {defender} to fulfil" if cp else "no effect"
    if shield is not None:
        result = f"{rolled} CP, the first ignored by {shield}'s Gun Shield (r. 14.63): " + result
    parts = "+".join(map(str, attack.contributions.values()))
    words = (
        f"{parts + ' = ' if len(attack.contributions) > 1 else ''}{attack.apfp} APFP"
        f" ({row} row) at {label}, range {attack.range}: DR {roll} = {roll.total}"
        f" {attack.drm:+d} = {final}: {result}."
    )
    verdict = ruling(
        command,
        (*attack.clauses, "VV.AP-resolve"),
        words,
        units=list(units),
        target=label,
        range=attack.range,
        contributions=dict(attack.contributions),
        apfp=attack.apfp,
        row=row,
        drms=list(attack.drms),
        drm=attack.drm,
        leader=attack.leader,
        weapons=[str(w) for w in attack.weapons],
        dice=roll,
        final=final,
        cp=cp,
        gun_shield=shield,
        affected=list(attack.victims),
        expected_cp=expected_cp(attack.apfp, attack.drm, board.settings),
        opportunity_fire=attack.order.movers is not None,
    )
    return Resolution(events, verdict)


# --- Casualty Points -------------------------------------------------------------------------


def _assign(state: VvState, command: Command, dice: DiceSource) -> Resolution:
    pending = state.pending
    if pending is None:
        raise IllegalAction(RESOLVE, "no Casualty Points are waiting")
    if command.side != pending.defender:
        raise IllegalAction(RESOLVE, f"only {pending.defender} decides how its units fulfil the CP")
    board = state.board
    if command.args.get("auto"):
        allocations = auto_allocation(board, pending)
    else:
        chosen = parse_allocations(command.args["allocations"])
        allocations = check_allocation(board, pending, chosen)
    events: list[Event] = []
    rolls: list[dict[str, Any]] = []
    for allocation in allocations:
        events += _casualties(board, allocation, dice, rolls)
    events.append(Event("allocated"))
    after = state
    for event in events:
        after = apply(after, event.kind, event.data)
    if after.window is not None and not can_opfire(after):
        events.append(Event("window-closed"))
    results = [f"{e.data['unit']} {e.data['result']}" for e in events if e.kind == "casualty"]
    words = (
        f"{pending.cp} CP in {board.label(pending.hex)}: "
        + (", ".join(results) or "nothing to take them")
        + "."
    )
    verdict = ruling(
        command,
        (RESOLVE,),
        words,
        cp=pending.cp,
        allocations=[str(a) for a in allocations],
        survival_rolls=rolls,
        results=results,
    )
    return Resolution(tuple(events), verdict)


def _casualties(
    board: Board, allocation: Allocation, dice: DiceSource, rolls: list[dict[str, Any]]
) -> list[Event]:
    """The events of one unit's part; a vehicle's fate is its riders' (r. 14.64)."""
    unit_id, action = allocation.unit, allocation.action
    result = {
        Action.PIN: "pinned",
        Action.REDUCE: "reduced",
        Action.REDUCE_PIN: "reduced+pinned",
        Action.ELIMINATE: "eliminated",
    }.get(action)
    if action is Action.ABSORB:
        rating = board.casualty_rating(unit_id)
        roll = dice.roll_die(f"survival roll for {unit_id} (rating {rating})")
        result = "pinned" if roll.value <= rating else "eliminated"
        rolls.append({"unit": unit_id, "cp": allocation.cp, "die": roll.value, "result": result})
    assert result is not None
    events = [Event("casualty", {"unit": unit_id, "result": result})]
    if result in ("pinned", "eliminated"):
        for rider in board.passengers(unit_id):
            if result == "eliminated" or not board.status[rider].pinned:
                events.append(Event("casualty", {"unit": rider, "result": result}))
    return events
