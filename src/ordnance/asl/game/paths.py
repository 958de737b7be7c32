"""Checked movement: a path (``--to HEX`` for every hex entered) or a destination (``--dest``).

Each hex is checked as it is entered, in order, and the first fault refuses the whole move:

* the unit may move at all: a vehicle that is immobile, Abandoned or whose crew is not in good
  order does not (D2 reading; the players record these with ``mark``);
* each hex is adjacent to the one before (a vehicle moves hex by hex, D2);
* no hex holds an enemy unit (entering one would be an Overrun, D7, not modelled);
* a vehicle pays the MP of :mod:`ordnance.asl.mp_costs` for each hex (terrain, a wall or hedge
  crossed, levels climbed, SMOKE there; B.2 COT), never more than it has left (D2): the MP
  left never goes below zero. ALL (woods) needs the whole allowance unspent.

An SCW or ATR team's path is checked for adjacency and enemy units only: the scenario gives
Infantry no MF allowance, so its MF are not counted by terrain (README, Games).

``--dest`` finds the cheapest legal path to the hex (fewest MP; on a tie, the path that reads
first in label order), within the MP left; without a map every hex is Open Ground.

>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"date": "1944-09", "map": "asl-village",
...     "sides": {"american": {"units": {"m4": {"kind": "vehicle", "hex": "4G5", "mp": 12}}},
...               "german": {"units": {"pz4": {"kind": "vehicle", "hex": "4K3"}}}}})))
>>> steps = check_path(state, state.sheet.units["m4"], ["4H5", "4I6"])
>>> [(state.sheet.label(s.hex), s.mp) for s in steps]
[('4H5', 1), ('4I6', 1)]
>>> [state.sheet.label(s.hex) for s in find_path(state, state.sheet.units["m4"], "4K5")]
['4H4', '4I5', '4J5', '4K5']
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.state import AslState
from ordnance.asl.mp_costs import mp_table
from ordnance.core.errors import BadInput, IllegalAction, OrdnanceError
from ordnance.core.hexgrid import Hex

MOVE_RULE = "D2"
OVERRUN_RULE = "D7"


@dataclass(frozen=True)
class PathStep:
    """One hex entered: where, the MP it cost (0 for a team), why, and the rules that priced it."""

    hex: Hex
    mp: int
    why: str
    rules: tuple[str, ...]


def may_move(state: AslState, unit: Unit) -> None:
    """Refuse a vehicle that cannot move now (immobile, Abandoned, crew not in good order)."""
    afv = state.status[unit.id].afv
    if afv is None:
        return
    if afv.immobile:
        raise IllegalAction(MOVE_RULE, f"{unit.id} is immobile: it may not move")
    if afv.abandoned:
        raise IllegalAction(MOVE_RULE, f"{unit.id} has been Abandoned: no crew moves it")
    if str(afv.crew) != "ok":
        raise IllegalAction(MOVE_RULE, f"{unit.id}'s crew is {afv.crew}: it may not move")


def allowance_left(state: AslState, unit: Unit) -> int | None:
    """The MP a vehicle has left this Player Turn; None without an allowance (or a team)."""
    afv = state.status[unit.id].afv
    if unit.afv is None or unit.afv.mp is None or afv is None:
        return None
    return unit.afv.mp - afv.mp_spent


def check_path(state: AslState, unit: Unit, hexes: Sequence[str]) -> list[PathStep]:
    """Every hex of a path, checked in order (see the module docstring)."""
    sheet = state.sheet
    here = _start(state, unit)
    left = allowance_left(state, unit)
    spent_before = _spent(state, unit)
    steps: list[PathStep] = []
    total = 0
    for text in hexes:
        there = sheet.hex(text)
        if here.direction_to(there) is None:
            raise IllegalAction(
                MOVE_RULE,
                f"{sheet.label(there)} is not adjacent to {sheet.label(here)}: a unit moves hex"
                " by hex; give every hex entered (--to HEX --to HEX ...) or --dest HEX",
            )
        step = _enter(state, unit, here, there, first=not steps and spent_before == 0)
        total += step.mp
        if left is not None and total > left:
            raise IllegalAction(
                MOVE_RULE,
                f"entering {sheet.label(there)} brings the move to {total} MP; {unit.id} has"
                f" {left} MP left",
            )
        steps.append(step)
        here = there
    return steps


def find_path(state: AslState, unit: Unit, dest: str) -> list[PathStep]:
    """The cheapest legal path to ``dest`` within the MP left (see the module docstring)."""
    sheet = state.sheet
    start, goal = _start(state, unit), sheet.hex(dest)
    if goal == start:
        raise BadInput("move", dest, f"{unit.id} is already in {sheet.label(goal)}")
    left = allowance_left(state, unit)
    if unit.afv is not None and left is None:
        raise BadInput(
            "unit", unit.id, "the scenario gives it no MP allowance ('mp'): give the path"
        )
    fresh = unit.afv is not None and _spent(state, unit) == 0
    # Kept per ground: a preview resolves the move three times (probe, then two rolls).
    ground, enemies = _ground(state, unit)
    key = (start, goal, left, fresh, enemies)
    found = ground.paths.get(key)
    if found is None:
        try:
            found = tuple(_search(state, unit, start, goal, left, fresh=fresh))
        except OrdnanceError as refused:
            found = refused
        ground.paths[key] = found
    if isinstance(found, OrdnanceError):
        raise found.with_traceback(None)
    return list(found)


def _search(
    state: AslState, unit: Unit, start: Hex, goal: Hex, left: int | None, *, fresh: bool
) -> list[PathStep]:
    """:func:`find_path`'s search from ``start`` to ``goal`` with ``left`` MP."""
    sheet = state.sheet
    limit = left if left is not None else 2 * start.distance(goal)
    assert sheet.labels is not None  # _start refuses a sheet without labels
    board = sheet.board
    best: dict[Hex, int] = {start: 0}
    queue: list[tuple[int, tuple[str, ...], Hex, tuple[PathStep, ...]]] = [(0, (), start, ())]
    refusals: list[str] = []
    # Each hex's label is worked out once (a tie is broken by the labels of the whole path).
    names: dict[Hex, str] = {}

    def name(hex: Hex) -> str:
        found = names.get(hex)
        if found is None:
            found = names[hex] = sheet.label(hex)
        return found

    while queue:
        cost, labels, here, path = heapq.heappop(queue)
        if here == goal:
            return list(path)
        if cost > best.get(here, cost):
            continue
        for there in here.neighbours():
            if there not in board:
                continue
            try:
                step = _enter(state, unit, here, there, first=fresh and not path)
            except IllegalAction as refused:
                if there == goal:
                    refusals.append(refused.sentence)
                continue
            # A team's MF are not counted: its search takes the fewest hexes instead.
            total = cost + (step.mp if unit.afv is not None else 1)
            if total > limit or total >= best.get(there, total + 1):
                continue
            best[there] = total
            heapq.heappush(queue, (total, (*labels, name(there)), there, (*path, step)))
    why = f" ({refusals[0]})" if refusals else ""
    raise IllegalAction(
        MOVE_RULE,
        f"no legal path takes {unit.id} to {sheet.label(goal)} with"
        f" {'its' if left is None else left} MP left{why}",
    )


# How far the board offers a team's move: Infantry has 4 MF (A4.1, outside these texts) and a
# team's MF are not counted by terrain here, so a path of at most this many hexes.
TEAM_REACH = 4


def reach(state: AslState, unit: Unit) -> Mapping[Hex, int]:
    """Every hex ``unit`` may end a move in now, with the MP the cheapest path costs (a team:
    the fewest hexes, at most :data:`TEAM_REACH`), as :func:`find_path` prices it; empty for a
    unit without a hex, or a vehicle without an MP allowance (its moves are checked hex by
    hex, :func:`check_path`). Kept per ground (:func:`_ground`), hex, MP left and the enemy's
    hexes: the next versions of a game, and other games of the scenario, ask again."""
    sheet = state.sheet
    here = state.status[unit.id].hex
    if here is None or sheet.labels is None:
        return {}
    left = allowance_left(state, unit) if unit.afv is not None else TEAM_REACH
    if left is None:
        return {}
    fresh = unit.afv is not None and _spent(state, unit) == 0
    ground, enemies = _ground(state, unit)
    kept = ground.reaches.get((here, left, fresh, enemies))
    if kept is not None:
        return kept
    board = sheet.board
    best: dict[Hex, int] = {here: 0}
    queue: list[tuple[int, int, Hex]] = [(0, 0, here)]
    while queue:
        cost, steps, at = heapq.heappop(queue)
        if cost > best.get(at, cost):
            continue
        for there in at.neighbours():
            if there not in board:
                continue
            try:
                step = _enter(state, unit, at, there, first=fresh and steps == 0)
            except (IllegalAction, BadInput):
                continue
            total = cost + (step.mp if unit.afv is not None else 1)
            if total > left or total >= best.get(there, total + 1):
                continue
            best[there] = total
            heapq.heappush(queue, (total, steps + 1, there))
    del best[here]
    ground.reaches[(here, left, fresh, enemies)] = best
    return best


def _spent(state: AslState, unit: Unit) -> int:
    afv = state.status[unit.id].afv
    return 0 if afv is None else afv.mp_spent


def _start(state: AslState, unit: Unit) -> Hex:
    here = state.status[unit.id].hex
    if here is None or state.sheet.labels is None:
        raise BadInput("unit", unit.id, "the scenario gives it no hex, so it cannot move to one")
    return here


def _enter(state: AslState, unit: Unit, here: Hex, there: Hex, *, first: bool) -> PathStep:
    """Check one hex entered from ``here`` and price it (0 MP for a team).

    A hex holding an enemy unit is refused first (D7); the price (or refusal) of any other
    step is remembered per ground (:func:`_ground`): a search prices the same steps again and
    again, a board probes a move to every hex it reaches, and the versions of a game (and the
    games of a scenario) price a step alike while its ground stays."""
    ground, enemies = _ground(state, unit)
    if there in enemies:
        _overrun(state, unit, there)
    found = ground.steps.get((here, there, first))
    if found is None:
        try:
            found = _step(state, unit, here, there, first=first)
        except (IllegalAction, BadInput) as refused:
            found = refused
        ground.steps[(here, there, first)] = found
    if isinstance(found, PathStep):
        return found
    raise found.with_traceback(None)


def _overrun(state: AslState, unit: Unit, there: Hex) -> None:
    """Refuse to enter a hex that holds an enemy unit."""
    sheet = state.sheet
    enemies = [
        u.id
        for u in sheet.units.values()
        if u.side != unit.side and state.status[u.id].hex == there
    ]
    if enemies:
        label = sheet.label(there)
        raise IllegalAction(
            OVERRUN_RULE,
            f"{label} holds the enemy's {', '.join(enemies)}: entering it would be an Overrun,"
            " which this engine does not model",
        )


def _step(state: AslState, unit: Unit, here: Hex, there: Hex, *, first: bool) -> PathStep:
    if unit.afv is None:
        return PathStep(there, 0, "a team's MF are not counted", ())
    return _price(state, unit, here, there, first=first)


@dataclass
class _Ground:
    """What a unit's steps are priced on, and what was worked out on it: each step (or its
    refusal), each reach and each cheapest path (by hexes, MP left, freshness and the
    enemy's hexes)."""

    owner: object  # the object whose id the ground's key holds
    steps: dict[tuple[Hex, Hex, bool], PathStep | OrdnanceError] = field(default_factory=dict)
    reaches: dict[tuple[Any, ...], dict[Hex, int]] = field(default_factory=dict)
    paths: dict[tuple[Any, ...], tuple[PathStep, ...] | OrdnanceError] = field(default_factory=dict)


def _ground(state: AslState, unit: Unit) -> tuple[_Ground, frozenset[Hex | None]]:
    """The ground ``unit`` moves on in ``state`` and the hexes of the enemy's units.

    The ground is all that pricing a step (:func:`_step`) reads: the map (the sheet without
    one: its labels), the unit (its id names it in a refusal; its allowance prices ALL) and
    the SMOKE's hexes. So a new version (a phase, a shot, a move of either side) keeps it, and
    so do the other games of the scenario: bench_first.py, the M24's and the PzIV's first
    move offers in the D13 demo's MPh, 50-100 ms of CPU when every state priced its steps
    afresh."""
    key = (id(state), unit.id)
    kept = _BY_STATE.get(key)
    if kept is not None and kept[0] is state:
        return kept[1], kept[2]
    sheet = state.sheet
    owner: object = sheet if sheet.game_map is None else sheet.game_map
    allowance = None if unit.afv is None else (unit.afv.mp,)
    ground = (id(owner), unit.id, allowance, frozenset(m.hex for m in state.smoke))
    found = _GROUNDS.get(ground)
    if found is None or found.owner is not owner:
        if len(_GROUNDS) >= _KEPT:
            _GROUNDS.clear()  # start again (safe beside other threads, unlike eviction)
        found = _GROUNDS[ground] = _Ground(owner)
    enemies = frozenset(state.status[u.id].hex for u in sheet.units.values() if u.side != unit.side)
    if len(_BY_STATE) >= _KEPT:
        _BY_STATE.clear()
    _BY_STATE[key] = (state, found, enemies)
    return found, enemies


# (state id, unit) -> the state (whose id it is), its ground and the enemy's hexes; (owner id,
# unit, allowance, SMOKE hexes) -> the ground.
_BY_STATE: dict[tuple[int, str], tuple[AslState, _Ground, frozenset[Hex | None]]] = {}
_GROUNDS: dict[tuple[Any, ...], _Ground] = {}
_KEPT = 64


def _price(state: AslState, unit: Unit, here: Hex, there: Hex, *, first: bool) -> PathStep:
    table, sheet, game_map = mp_table(), state.sheet, state.sheet.game_map
    terrain = "open" if game_map is None else game_map.terrain(there)
    cost = table.hex(terrain)
    if not cost.allowed:
        raise IllegalAction(
            cost.rule,
            f"a vehicle does not enter {terrain} ({sheet.label(there)}) here: not modelled",
        )
    mp, parts, rules = cost.mp, [f"{terrain} {cost.mp}"], [cost.rule, "B.2"]
    if cost.all:
        allowance = None if unit.afv is None else unit.afv.mp
        if allowance is None:
            raise BadInput(
                "unit", unit.id, f"{terrain} costs ALL its MP: the scenario must give its 'mp'"
            )
        if not first:
            raise IllegalAction(
                cost.rule,
                f"{terrain} ({sheet.label(there)}) costs ALL of {unit.id}'s MP: only a vehicle"
                " that has spent none this MPh enters it",
            )
        mp, parts = allowance, [f"{terrain} ALL ({allowance})"]
    if game_map is not None:
        feature = game_map.between(here, there)
        if feature is not None:
            side = table.hexside(feature)
            if not side.allowed:
                raise IllegalAction(
                    side.rule,
                    f"a vehicle does not cross {feature} into {sheet.label(there)}: not modelled",
                )
            mp, parts, rules = mp + side.mp, [*parts, f"{feature} +{side.mp}"], [*rules, side.rule]
        climb = game_map.elevation(there) - game_map.elevation(here)
        if climb > 0:
            up = climb * table.per_level_up
            mp, parts = mp + up, [*parts, f"{climb} level(s) up +{up}"]
    if any(m.hex == there for m in state.smoke) or (
        game_map is not None and game_map.markers_in(there)
    ):
        mp, parts, rules = mp + table.smoke, [*parts, f"SMOKE +{table.smoke}"], [*rules, "A24.7"]
    return PathStep(there, mp, ", ".join(parts), tuple(rules))
