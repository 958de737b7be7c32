"""The AI's AP fire: fire groups, targets and X weapons that maximise the evaluation, exactly.

The problem. Each unit that may fire joins at most one attack (r. 13.1). Units may share an
attack only within a *grouping class* (:func:`~ordnance.vv.groups.group_key`): the infantry on
foot in one hex, or one vehicle or Gun with whatever rides in it (VV.AP-groups,
VV.AP-vehicles, VV.AP-passengers); and a class attacks each target at most once a turn, so its
units attacking one target are one group (must-combine). At an adjacent target the group's
infantry may add grenades (-1 each) and satchel charges (their APFP instead of the unit's
weapon) from the side's pool (r. 12.51-12.52). An attack's value is its *worth*
(:func:`~ordnance.vv.evaluate.attack_worth`: the expected loss of enemy value from what the hex
can absorb, or with ``ai_evaluation=cp`` its expected CP), less ``ai_grenade_value`` per
grenade and ``ai_satchel_value`` per satchel spent. The objective is the sum over the attacks,
each valued against the hex as it stands now (the AI re-plans after every roll, so two attacks
at one hex are judged one after the other, not together).

Why the answer is exact. Only the pool links two classes. Inside a class, a plan is a
partition of some of its units into groups, each with its own target and X weapons: the
dynamic programme (:mod:`.ai_programme`) takes the targets one by one and, for every subset
``mask`` of the class's units still free and every pool budget ``r`` (grenades, satchels),
keeps the best value ``F_t(mask, r)`` reachable with the first ``t`` targets::

    F_0(mask, r) = 0
    F_t(mask, r) = max( F_{t-1}(mask, r),
                        max over non-empty S within mask, x within r:
                            v_t(S, x) + F_{t-1}(mask - S, r - x) )

where ``v_t(S, x)`` is the value of group ``S`` at target ``t`` using ``x`` X weapons (the
satchels go to the members they add most APFP to). Every plan is one path through this
recursion, so ``F_T(all, r)`` is the class's optimum for budget ``r``; a knapsack over the
classes then shares the pool exactly. Values are Fractions: comparisons are exact.

Opportunity Fire with look-ahead (setting ``ai_opfire_lookahead``, weight ``w``): at a stack
that entered a hex, each class may fire at it now, or keep units for the stacks the mover has
not moved yet. Each such stack is a pseudo-target valued as an Opportunity Fire attack where it
stands, times ``w`` (it may not come into view, or not so close); the same programme splits the
class between now and later, and the AI fires the part aimed at the stack in view when it is
worth ``ai_opfire_threshold``. With ``w = 0`` this is the greedy policy: the best group at the
first stack worth the threshold. Units that keep their fire still have the Defensive Fire Phase.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> from ordnance.vv.board import Board, Status
>>> from ordnance.vv.counters import Counter
>>> from ordnance.vv.units import Kind, Unit
>>> grid = GridLabels(columns=8, rows=8)
>>> m = GameMap("demo", "vv", grid, "open", {grid.parse("C2"): "woods"})
>>> c = Counter.parse
>>> units = {"a": Unit("a", "us", Kind.SQUAD, counter=c("4-6-5")),
...          "b": Unit("b", "us", Kind.SQUAD, counter=c("4-6-5")),
...          "g": Unit("g", "de", Kind.SQUAD, counter=c("4-6-5")),
...          "h": Unit("h", "de", Kind.SQUAD, counter=c("4-6-5"))}
>>> here = grid.parse("C5")
>>> board = Board(m, units, {"a": Status(here), "b": Status(here),
...     "g": Status(grid.parse("C2")), "h": Status(grid.parse("E5"))})
>>> plan = plan_fire(board, "us", policy=AiPolicy(evaluation="cp"))
>>> [(a.units, board.label(a.target), a.apfp, a.drm) for a in plan.attacks]
[(('a', 'b'), 'E5', 8, 0)]
>>> plan.expected
Fraction(14, 9)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

from ordnance.core.hexgrid import Hex
from ordnance.vv.ai_programme import ZERO, ClassPlan, Variant, programme, share_pool
from ordnance.vv.ai_targets import Option, class_options, later_options
from ordnance.vv.board import Board
from ordnance.vv.groups import FireOrder, Pool
from ordnance.vv.numbers import RULES
from ordnance.vv.ready import classes, ready_units
from ordnance.vv.settings import VvSettings
from ordnance.vv.targets import enemy_hexes
from ordnance.vv.units import Kind, Mount


@dataclass(frozen=True)
class AiPolicy:
    """Which parts of the AI are on (the settings ``ai_*``; the benchmark switches them).

    ``AiPolicy.greedy()`` is the first AI: raw expected CP, no X weapons, the first stack worth
    the threshold, no movement. The ``move_*`` and ``vehicles_*`` fields are the movement
    policy's (:mod:`ordnance.vv.game.ai_moves`)."""

    evaluation: str = "value"
    x_weapons: bool = True
    lookahead: Fraction = Fraction(1, 2)
    moves: bool = True
    opfire_threshold: Fraction = Fraction(1)
    move_objective: Fraction = Fraction(2)
    move_urgency: Fraction = Fraction(2)
    vehicles_move: bool = True
    vehicles_hold_fire: bool = True

    @classmethod
    def of(cls, settings: VvSettings) -> AiPolicy:
        return cls(
            settings.ai_evaluation,
            settings.ai_x_weapons,
            settings.ai_opfire_lookahead,
            settings.ai_moves,
            settings.ai_opfire_threshold,
            settings.ai_move_objective,
            settings.ai_move_urgency,
            settings.ai_vehicles_move,
            settings.ai_vehicles_hold_fire,
        )

    @classmethod
    def greedy(cls, threshold: Fraction = Fraction(1)) -> AiPolicy:
        return cls("cp", False, ZERO, False, threshold, Fraction(1), ZERO, False, False)

    def on(self, board: Board) -> Board:
        """The board with this policy's evaluation in its settings (what the worth reads)."""
        if board.settings.ai_evaluation == self.evaluation:
            return board
        settings = dataclasses.replace(board.settings, ai_evaluation=self.evaluation)
        return dataclasses.replace(board, settings=settings)


@dataclass(frozen=True)
class PlannedAttack:
    """One attack of a plan: the group, its target, what the validation will find, its value
    (``expected``: the evaluation's worth less the X weapons spent) and its X weapons."""

    key: str
    units: tuple[str, ...]
    target: Hex
    apfp: int
    drm: int
    expected: Fraction
    weapons: tuple[Mount, ...] | None
    leader: str | None
    grenades: tuple[str, ...] = ()
    satchels: tuple[str, ...] = ()
    now: bool = True  # False: a look-ahead pseudo-target (units kept for a later stack)

    def order(self, side: str, movers: tuple[str, ...] | None = None) -> FireOrder:
        return FireOrder(
            side,
            self.units,
            self.target,
            self.weapons,
            self.leader,
            self.grenades,
            self.satchels,
            movers=movers,
        )


@dataclass(frozen=True)
class Plan:
    """The attacks, biggest value first."""

    attacks: tuple[PlannedAttack, ...]

    @property
    def expected(self) -> Fraction:
        return sum((a.expected for a in self.attacks), ZERO)


def _rebuild(
    board: Board, key: str, plan: ClassPlan, budget: tuple[int, int]
) -> list[PlannedAttack]:
    attacks: list[PlannedAttack] = []
    mask = (1 << len(plan.units)) - 1
    g, s = budget
    for option, choice in zip(reversed(plan.options), reversed(plan.choices), strict=True):
        picked = choice.get((mask, (g, s)))
        if picked is None:
            continue
        sub, variant = picked
        mask ^= sub
        g, s = g - variant[0], s - variant[1]
        attacks.append(
            _planned(board, key, units=plan.units, option=option, sub=sub, variant=variant)
        )
    return attacks


def _planned(
    board: Board,
    key: str,
    *,
    units: tuple[str, ...],
    option: Option,
    sub: int,
    variant: Variant,
) -> PlannedAttack:
    thrown, _, value, users = variant
    picked = [i for i in range(len(units)) if sub >> i & 1]
    members = tuple(units[i] for i in picked)
    satchels = tuple(units[i] for i in picked if users >> i & 1)
    infantry = [units[i] for i in picked if board.unit(units[i]).kind.infantry]
    grenades = tuple(u for u in infantry if u not in satchels)[:thrown]
    apfp = sum(
        (option.satchel[i] or 0) if users >> i & 1 else (option.apfp[i] or 0) for i in picked
    )
    led = [(board.unit(units[i]).leadership, units[i]) for i in picked if option.lends[i]]
    leader = min(led)[1] if led else None
    drm = (
        option.drm
        + (board.unit(leader).leadership if leader else 0)
        + RULES.grenade_drm * (len(grenades) if board.settings.grenade_each else min(1, thrown))
    )
    weapons = option.weapons if any(not board.unit(u).kind.infantry for u in members) else None
    return PlannedAttack(
        key,
        members,
        option.target,
        apfp,
        drm,
        value,
        weapons,
        leader,
        grenades,
        satchels,
        option.now,
    )


def plan_fire(
    board: Board,
    side: str,
    *,
    attacked: Collection[tuple[str, str]] = (),
    movers: tuple[str, ...] | None = None,
    at: Hex | None = None,
    pool: Pool | None = None,
    policy: AiPolicy | None = None,
    later: Collection[tuple[Hex, tuple[str, ...]]] = (),
) -> Plan:
    """The plan of greatest value (see the module docstring).

    ``attacked``: this turn's (grouping class, target label) pairs, which may not attack again.
    ``movers`` and ``at``: Opportunity Fire at the stack that entered ``at``; ``later``: the
    look-ahead's stacks not moved yet (hex, units), weighted by ``policy.lookahead``.
    ``pool``: the side's X weapons (none when not given).
    """
    policy = policy or AiPolicy.of(board.settings)
    board = policy.on(board)
    pool = pool or Pool()
    x_weapons = policy.x_weapons
    budget = (pool.grenades, pool.satchels) if x_weapons else (0, 0)
    targets = (at,) if at is not None else enemy_hexes(board, side)
    plans: dict[str, ClassPlan] = {}
    for key, units in classes(board, side).items():
        options = class_options(
            board,
            side,
            units,
            targets=targets,
            attacked=attacked,
            movers=movers,
            x_weapons=x_weapons,
            satchel_apfp=pool.satchel_apfp,
        )
        options += later_options(
            board, side, units, later=later, lookahead=policy.lookahead, attacked=attacked
        )
        infantry = sum(board.unit(u).kind.infantry for u in units)
        mine = (min(budget[0], infantry), min(budget[1], infantry))
        plans[key] = programme(board, units, options, mine)
    shares = share_pool(plans, budget)
    attacks: list[PlannedAttack] = []
    for key, plan in plans.items():
        attacks += _rebuild(board, key, plan, shares.get(key, (0, 0)))
    attacks.sort(key=lambda a: (-a.expected, a.key, board.label(a.target) or ""))
    return Plan(tuple(attacks))


def unmoved_stacks(board: Board, mover: str) -> list[tuple[Hex, tuple[str, ...]]]:
    """The moving side's stacks that may still move this phase: no Move or Fire marker, not
    pinned (passengers ride along), by hex."""
    stacks: dict[Hex, list[str]] = {}
    for unit_id in board.side_units(mover):
        status, unit = board.status[unit_id], board.unit(unit_id)
        if status.aboard is not None or status.moved or status.fired or status.pinned:
            continue
        if unit.kind is Kind.GUN or (not unit.kind.infantry and unit.mp <= 0):
            continue
        hex = board.hex_of(unit_id)
        assert hex is not None
        stacks.setdefault(hex, []).extend([unit_id, *board.passengers(unit_id)])
    return [(hex, tuple(units)) for hex, units in stacks.items()]


def opfire_choice(
    board: Board,
    side: str,
    movers: tuple[str, ...],
    at: Hex,
    *,
    attacked: Collection[tuple[str, str]] = (),
    pool: Pool | None = None,
    policy: AiPolicy | None = None,
) -> PlannedAttack | None:
    """The Opportunity Fire the AI makes at a stack that entered ``at``: the best group aimed at
    it now (after the look-ahead kept what later stacks are worth more to), if its value
    reaches ``ai_opfire_threshold``; else None (hold fire)."""
    policy = policy or AiPolicy.of(board.settings)
    mover = board.unit(movers[0]).side
    later = unmoved_stacks(board, mover) if policy.lookahead > 0 else []
    plan = plan_fire(
        board,
        side,
        attacked=attacked,
        movers=movers,
        at=at,
        pool=pool,
        policy=policy,
        later=later,
    )
    now = [a for a in plan.attacks if a.now]
    if now and now[0].expected >= policy.opfire_threshold:
        return now[0]
    return None


__all__ = [
    "AiPolicy",
    "Plan",
    "PlannedAttack",
    "classes",
    "opfire_choice",
    "plan_fire",
    "ready_units",
    "unmoved_stacks",
]
