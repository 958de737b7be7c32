"""The AI's AP fire: fire groups and targets that maximise the expected Casualty Points, exactly.

The problem. Each unit that may fire joins at most one attack (r. 13.1). Units may share an
attack only within a *grouping class* (:func:`~ordnance.vv.groups.group_key`): the infantry on
foot in one hex, or one vehicle or Gun with whatever rides in it (VV.AP-groups,
VV.AP-vehicles, VV.AP-passengers); and a class attacks each target at most once a turn, so its
units attacking one target are one group (must-combine). An attack's value is its expected CP,
which depends only on its total APFP and final DRM (:func:`~ordnance.vv.odds.expected_cp`,
cached). The objective is the sum of the attacks' expected CP.

Why the answer is exact. No constraint links two classes (the AI spends no single-use X
weapons: see below), and the objective is a sum over attacks, each inside one class; so the
best plan is the best plan of each class, side by side. Inside a class, a plan is a partition of
some of its units into groups, each with its own target: the dynamic programme below takes the
targets one by one and, for every subset ``mask`` of the class's units still free, keeps the
best value ``F_t(mask)`` reachable with the first ``t`` targets::

    F_0(mask) = 0
    F_t(mask) = max( F_{t-1}(mask),  max over non-empty S within mask:  v_t(S) + F_{t-1}(mask - S) )

where ``v_t(S)`` is the expected CP of group ``S`` at target ``t`` (or S is invalid there: a
member out of reach, say). Every partition into target-labelled groups is one path through
this recursion, so ``F_T(all)`` is the optimum (3^n subsets pairs per target; a class holds a
hex's stack, a handful of units). Values are kept as whole multiples of 1/36 (every expected CP
is one), so comparisons are exact and fast.

Policies (documented readings, not rules): the AI keeps its grenades and satchel charges for
Close Assault and never spends them in AP fire; it Opportunity Fires at an entering stack with
the best group of a class when that group's expected CP reaches the setting
``ai_opfire_threshold``; it makes its attacks one at a time, biggest first, and plans again
after each (the defender's CP choices change the targets).

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
>>> plan = plan_fire(board, "us")
>>> [(a.units, board.label(a.target), a.apfp, a.drm) for a in plan.attacks]
[(('a', 'b'), 'E5', 8, 0)]
>>> plan.expected
Fraction(14, 9)
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from fractions import Fraction

from ordnance.core.hexgrid import Hex
from ordnance.vv.board import Board
from ordnance.vv.groups import FireOrder, affected, group_key, may_join, member_apfp
from ordnance.vv.modifiers import hex_drms
from ordnance.vv.odds import expected_cp
from ordnance.vv.targets import enemy_hexes
from ordnance.vv.units import Kind, Mount

SCALE = 36  # every expected CP is a whole number of 36ths (the 36 rolls of 2d6)
NO_LEADER = 1 << 20  # above any Leadership Modifier: min() keeps the best leader's


@dataclass(frozen=True)
class PlannedAttack:
    """One attack of a plan: the group, its target and what the validation will find."""

    key: str
    units: tuple[str, ...]
    target: Hex
    apfp: int
    drm: int
    expected: Fraction
    weapons: tuple[Mount, ...] | None
    leader: str | None

    def order(self, side: str, movers: tuple[str, ...] | None = None) -> FireOrder:
        return FireOrder(side, self.units, self.target, self.weapons, self.leader, movers=movers)


@dataclass(frozen=True)
class Plan:
    """The attacks, biggest expected CP first."""

    attacks: tuple[PlannedAttack, ...]

    @property
    def expected(self) -> Fraction:
        return sum((a.expected for a in self.attacks), Fraction(0))


def ready_units(board: Board, side: str) -> Iterator[str]:
    """Units of ``side`` that may fire now: alive, unpinned, no Fire marker, not a towed Gun."""
    for unit_id in board.side_units(side):
        status, unit = board.status[unit_id], board.unit(unit_id)
        if status.pinned or status.fired:
            continue
        if unit.kind is Kind.GUN and status.aboard is not None:
            continue
        yield unit_id


def classes(board: Board, side: str) -> dict[str, tuple[str, ...]]:
    """The side's ready units by grouping class."""
    found: dict[str, list[str]] = {}
    for unit_id in ready_units(board, side):
        found.setdefault(group_key(board, unit_id), []).append(unit_id)
    return {key: tuple(units) for key, units in found.items()}


@dataclass(frozen=True)
class _Option:
    """One target of one class: per unit its APFP there (None: may not join) and the DRM."""

    target: Hex
    apfp: tuple[int | None, ...]
    weapons: tuple[Mount, ...] | None
    drm: int


def _options(
    board: Board,
    side: str,
    units: tuple[str, ...],
    *,
    targets: Collection[Hex],
    attacked: Collection[tuple[str, str]],
    movers: tuple[str, ...] | None,
) -> list[_Option]:
    """The targets one class (``units``) may attack, with each unit's APFP and the DRM."""
    key = group_key(board, units[0])
    firer = board.hex_of(units[0])
    assert firer is not None
    options: list[_Option] = []
    for target in targets:
        if (key, board.label(target)) in attacked or not board.los(firer, target).clear:
            continue
        victims = affected(board, side, target, movers)
        if not victims:
            continue
        apfp: list[int | None] = []
        weapons: tuple[Mount, ...] | None = None
        for unit_id in units:
            value, used = member_apfp(board, unit_id, firer, target)
            if not board.unit(unit_id).kind.infantry:
                weapons = used
            apfp.append(value if may_join(board, unit_id, value) else None)
        drm = sum(
            d.value for d in hex_drms(board, firer, target, victims, opfire=movers is not None)
        )
        options.append(_Option(target, tuple(apfp), weapons, drm))
    return options


def _best_partition(
    board: Board, key: str, units: tuple[str, ...], options: list[_Option]
) -> list[PlannedAttack]:
    """The dynamic programme of the module docstring for one class."""
    n = len(units)
    full = (1 << n) - 1
    leadership = [
        board.unit(u).leadership if board.unit(u).kind is Kind.LEADER else None for u in units
    ]
    best = [0] * (full + 1)
    choices: list[list[int]] = []
    for option in options:
        values = _group_values(board, option, leadership, n)
        after = best[:]
        choice = [0] * (full + 1)
        for mask in range(1, full + 1):
            sub = mask
            while sub:
                gain = values[sub]
                if gain > 0 and gain + best[mask ^ sub] > after[mask]:
                    after[mask] = gain + best[mask ^ sub]
                    choice[mask] = sub
                sub = (sub - 1) & mask
        best = after
        choices.append(choice)
    attacks: list[PlannedAttack] = []
    mask = full
    for option, choice in zip(reversed(options), reversed(choices), strict=True):
        sub = choice[mask]
        if not sub:
            continue
        mask ^= sub
        attacks.append(_planned(board, key, units, option, leadership=leadership, sub=sub))
    return attacks


def _group_values(board: Board, option: _Option, leadership: list[int | None], n: int) -> list[int]:
    """``v_t(S)`` in 36ths for every subset S of the class (0: S may not fire at this target)."""
    values = [0] * (1 << n)
    total = [0] * (1 << n)
    lm = [NO_LEADER] * (1 << n)
    valid = [True] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        index = low.bit_length() - 1
        rest = mask ^ low
        apfp = option.apfp[index]
        valid[mask] = valid[rest] and apfp is not None
        total[mask] = total[rest] + (apfp or 0)
        own = leadership[index]
        lm[mask] = min(lm[rest], own) if own is not None else lm[rest]
        if valid[mask] and total[mask] > 0:
            led = 0 if lm[mask] == NO_LEADER else lm[mask]
            expected = expected_cp(total[mask], option.drm + led, board.settings)
            values[mask] = int(expected * SCALE)
    return values


def _planned(
    board: Board,
    key: str,
    units: tuple[str, ...],
    option: _Option,
    *,
    leadership: list[int | None],
    sub: int,
) -> PlannedAttack:
    members = tuple(u for i, u in enumerate(units) if sub >> i & 1)
    apfp = sum(option.apfp[i] or 0 for i in range(len(units)) if sub >> i & 1)
    leaders = [(leadership[i], units[i]) for i in range(len(units)) if sub >> i & 1]
    led = [pair for pair in leaders if pair[0] is not None]
    leader = min(led)[1] if led else None
    drm = option.drm + (board.unit(leader).leadership if leader else 0)
    weapons = option.weapons if any(not board.unit(u).kind.infantry for u in members) else None
    expected = expected_cp(apfp, drm, board.settings)
    return PlannedAttack(key, members, option.target, apfp, drm, expected, weapons, leader)


def plan_fire(
    board: Board,
    side: str,
    *,
    attacked: Collection[tuple[str, str]] = (),
    movers: tuple[str, ...] | None = None,
    at: Hex | None = None,
) -> Plan:
    """The plan with the most expected CP (see the module docstring).

    ``attacked``: this turn's (grouping class, target label) pairs, which may not attack again.
    ``movers`` and ``at``: Opportunity Fire at the stack that entered ``at``.
    """
    targets = (at,) if at is not None else enemy_hexes(board, side)
    attacks: list[PlannedAttack] = []
    for key, units in classes(board, side).items():
        options = _options(board, side, units, targets=targets, attacked=attacked, movers=movers)
        attacks += _best_partition(board, key, units, options)
    attacks.sort(key=lambda a: (-a.expected, a.key, board.label(a.target) or ""))
    return Plan(tuple(attacks))


def opfire_choice(
    board: Board,
    side: str,
    movers: tuple[str, ...],
    at: Hex,
    *,
    attacked: Collection[tuple[str, str]] = (),
) -> PlannedAttack | None:
    """The Opportunity Fire the AI makes at a stack that entered ``at``: the class's best group
    with the most expected CP, if that reaches ``ai_opfire_threshold``; else None (hold fire)."""
    plan = plan_fire(board, side, attacked=attacked, movers=movers, at=at)
    if plan.attacks and plan.attacks[0].expected >= board.settings.ai_opfire_threshold:
        return plan.attacks[0]
    return None
