"""The AI's movement: where its infantry stacks and unarmored vehicles go in its Movement Phase.

One ``move`` command at a time, through the same checks as a player's (r. 6, 7, 13.8); after
each step the opponent may Opportunity Fire, and the AI decides again from the new position.
For each stack of its infantry on foot that may move (not pinned, no Fire marker, MP left), the
AI scores every hex it can reach this phase (MP by terrain and hexside, uphill +1, the first
hex always allowed, never an enemy hex) and steps toward the best one, if it beats staying by
``margin``. The score, in expected CP (one CP about one point of unit value):

- objectives: the points of each objective the side does not control and no enemy stands in
  (no Close Assault is modelled: a held one is taken by emptying it with fire) that the move
  enters, on the way or at its end (entering takes control), minus ``ai_move_objective`` (2)
  per hex of distance to the nearest one still to take; both times the *urgency*
  ``1 + ai_move_urgency / (k + 1)``, ``k`` the Game Turns still to come after this one (the
  last turn pulls hardest: a hex taken then cannot be lost);
- cover: the hex's terrain and fortification cover (``cover`` per point);
- fire lanes: the expected CP the enemy's units could put on the stack there (each enemy hex
  with a clear LOS and the range, its units' APFP, the cover and hindrances), and ``path``
  times that of Opportunity Fire on each hex of the way (its -1 and -2 included), as a loss;
- next turn's fire: the best expected CP the stack could fire from there at an enemy hex
  (``fire`` times), while a Player Turn is still to come.

Unarmored vehicles (setting ``ai_vehicles_move``) are scored the same way, without the cover
term, over the hexes they can reach forward or in reverse with their turns (r. 7.2-7.3): they
leave the enemy's fire lanes, with their passengers, and make for free objectives when that
is safe. In its own Fire Phase such a vehicle keeps its fire when its move gains more than its
attack is worth (``ai_vehicles_hold_fire``; a unit that fired may not move, r. 5.33).

Leaders stay with squads that have stopped; a hex never receives more than four infantry
units (the stacking limit, r. 6.9, which the game does not check itself). AFVs and Guns do not
move (the AI's policy, not a rule).

>>> WEIGHTS.cover, WEIGHTS.fire, WEIGHTS.path, WEIGHTS.margin
(Fraction(1, 2), Fraction(1, 2), Fraction(1, 2), Fraction(1, 4))
>>> AiPolicy().move_objective, AiPolicy().move_urgency
(Fraction(2, 1), Fraction(2, 1))
"""

from __future__ import annotations

import heapq
import shlex
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import cast

from ordnance.core.hexgrid import Direction, Hex, Hexside
from ordnance.core.maps import GameMap
from ordnance.vv.ai import AiPolicy
from ordnance.vv.board import Board
from ordnance.vv.game.movement import allowance
from ordnance.vv.game.state import VvState, next_segment
from ordnance.vv.numbers import RULES
from ordnance.vv.odds import expected_cp
from ordnance.vv.settings import VvSettings
from ordnance.vv.units import Kind

STACKING = 4  # infantry units per hex (r. 6.9)
_EXPOSURE: dict[object, dict[object, float]] = {}
_CACHE_LIMIT = 20_000


@dataclass(frozen=True)
class Weights:
    """The movement score's fixed weights (module docstring; the objective's pull and urgency
    are settings, read through :class:`~ordnance.vv.ai.AiPolicy`)."""

    cover: Fraction = Fraction(1, 2)
    fire: Fraction = Fraction(1, 2)
    path: Fraction = Fraction(1, 2)
    margin: Fraction = Fraction(1, 4)


WEIGHTS = Weights()


def _stacks(board: Board, side: str) -> list[tuple[Hex, tuple[str, ...], int, bool]]:
    """Per hex: the infantry that may move on together, their MP left, whether any moved."""
    found: dict[Hex, list[str]] = {}
    stopped: set[Hex] = set()
    for unit_id in board.side_units(side):
        unit, status = board.unit(unit_id), board.status[unit_id]
        if not unit.kind.infantry or status.aboard is not None:
            continue
        hex = board.hex_of(unit_id)
        assert hex is not None
        left = allowance(board, unit_id) - status.mp_used
        if status.pinned or status.fired or (status.moved and left <= 0):
            if unit.kind is not Kind.LEADER:
                stopped.add(hex)
            continue
        found.setdefault(hex, []).append(unit_id)
    stacks = []
    for hex in sorted(found, key=lambda h: (h.q, h.r)):
        units = found[hex]
        if hex in stopped:
            # Leaders stay with the squads that stopped here; the others may go on.
            units = [u for u in units if board.unit(u).kind is not Kind.LEADER]
            if not units:
                continue
        left = min(allowance(board, u) - board.status[u].mp_used for u in units)
        moved = any(board.status[u].moved for u in units)
        stacks.append((hex, tuple(units), left, moved))
    return stacks


def _reach(
    board: Board, units: tuple[str, ...], start: Hex, *, left: int, moved: bool, occupied: set[Hex]
) -> dict[Hex, tuple[int, tuple[Hex, ...]]]:
    """Every hex the stack can reach this phase: MP spent and the path there (cheapest)."""
    best: dict[Hex, tuple[int, tuple[Hex, ...]]] = {start: (0, ())}
    queue: list[tuple[int, int, Hex]] = [(0, 0, start)]
    order = 0
    kinds = {board.unit(u).kind.infantry for u in units}
    while queue:
        spent, _, hex = heapq.heappop(queue)
        if spent > best[hex][0]:
            continue
        path = best[hex][1]
        for step in _neighbours(board.game_map, hex):
            if step in occupied:
                continue
            costs = [_cost(board.game_map, hex, step, infantry) for infantry in kinds]
            if None in costs:
                continue  # terrain the unit may not enter
            total = spent + max(c for c in costs if c is not None)
            first_free = not moved and not path  # a first hex is always allowed (r. 6.1)
            if total > left and not first_free:
                continue
            if step in best and best[step][0] <= total:
                continue
            best[step] = (total, (*path, step))
            order += 1
            if total < left:
                heapq.heappush(queue, (total, order, step))
    return best


@lru_cache(maxsize=65536)
def _neighbours(game_map: GameMap, hex: Hex) -> tuple[Hex, ...]:
    return tuple(h for h in hex.neighbours() if h in game_map)


@lru_cache(maxsize=65536)
def _cost(game_map: GameMap, start: Hex, to: Hex, infantry: bool) -> int | None:
    """The MP cost of one step, as :func:`~.movement.step_cost` charges it (None: prohibited)."""
    terrain = game_map.terrain(to)
    cost = RULES.hex_cost(terrain, vehicle=not infantry)
    if cost is None:
        return None
    feature = game_map.hexside(Hexside.between(start, to))
    if feature is not None:
        cost += RULES.hexside_costs.get(feature, 0)
    if game_map.elevation(to) > game_map.elevation(start):
        cost += RULES.uphill_mp
    return cost


def _enemy_hexes(board: Board, enemy: str) -> dict[Hex, list[str]]:
    found: dict[Hex, list[str]] = {}
    for unit_id in board.side_units(enemy):
        if board.status[unit_id].pinned and board.unit(unit_id).kind.infantry:
            continue  # it rallies, but not before our units have settled
        hex = board.hex_of(unit_id)
        if hex is not None:
            found.setdefault(hex, []).append(unit_id)
    return found


def _apfp(board: Board, units: list[str] | tuple[str, ...], distance: int) -> int:
    total = 0
    for unit_id in units:
        unit, status = board.unit(unit_id), board.status[unit_id]
        if unit.kind.infantry:
            total += unit.apfp_at(distance, reduced=status.reduced, passenger=bool(status.aboard))
        elif unit.kind is Kind.GUN and status.aboard is not None:
            continue
        else:
            total += sum(
                w.apfp for w in unit.weapons if w.max_range is None or distance <= w.max_range
            )
    return total


@lru_cache(maxsize=4096)
def _expected(apfp: int, drm: int, settings: VvSettings) -> float:
    return float(expected_cp(apfp, drm, settings))


class _Context:
    """One decision's view of the board: the enemy, where he is, the objectives still wanted,
    and the threat to each hex (remembered; the score is a heuristic, kept in floats)."""

    def __init__(self, state: VvState, side: str, policy: AiPolicy) -> None:
        board = state.board
        self.state, self.board, self.side = state, board, side
        factor = urgency(state, policy)
        self.points_weight = factor
        self.pull = float(policy.move_objective) * factor
        self.enemy = state.other(side)
        self.enemies = _enemy_hexes(board, self.enemy)
        self.occupied = {
            h for u in board.side_units(self.enemy) if (h := board.hex_of(u)) is not None
        }
        # Threats depend only on the enemy's units and their states, the smoke and the
        # settings: remembered across the decisions of a phase, which mostly see the same.
        self.fingerprint = (
            id(board.game_map),
            board.settings,
            tuple(sorted((board.label(h), level) for h, level in board.smoke.items())),
            tuple(sorted((u, board.hex_of(u), board.status[u]) for u in self.enemies_units())),
        )
        if len(_EXPOSURE) > _CACHE_LIMIT:
            _EXPOSURE.clear()
        self.exposure = _EXPOSURE.setdefault(self.fingerprint, {})
        objectives = state.sheet.victory.get("objectives", {})
        # The game has no Close Assault: an objective the enemy stands in is taken only by
        # emptying it with fire, so only free ones pull.
        self.wanted = [
            (at, points)
            for label, points in objectives.items()
            if state.control.get(at := board.parse(label)) != side and at not in self.occupied
        ]
        # Fire from the new hex counts while a Player Turn is still to come (the enemy's, in
        # which ours fire Opportunity and Defensive Fire, or our next).
        self.fire_weight = float(WEIGHTS.fire) if next_segment(state) is not None else 0.0
        self.infantry_at: dict[Hex, int] = {}
        for unit_id in board.side_units(side):
            where = board.hex_of(unit_id)
            if where is not None and board.unit(unit_id).kind.infantry:
                self.infantry_at[where] = self.infantry_at.get(where, 0) + 1

    def enemies_units(self) -> list[str]:
        return [u for units in self.enemies.values() for u in units]

    def threat(self, hex: Hex, *, opfire: bool) -> float:
        """Expected CP the enemy could put on a stack in ``hex``."""
        key = (hex, opfire)
        found = self.exposure.get(key)
        if found is not None:
            return found
        board = self.board
        total = 0.0
        cover = board.cover_of(hex)
        for where, units in self.enemies.items():
            verdict = board.los(where, hex)
            if not verdict.clear:
                continue
            distance = where.distance(hex)
            shooters = [u for u in units if not (opfire and board.status[u].fired)]
            apfp = _apfp(board, shooters, distance)
            if apfp <= 0:
                continue
            own = cover + (verdict.cover.value if verdict.cover is not None else 0)
            drm = own + verdict.total
            if opfire:
                drm += RULES.opfire_no_cover if own <= 0 else 0
                drm += RULES.opfire_adjacent if distance == 1 else 0
            total += _expected(apfp, drm, board.settings)
        self.exposure[key] = total
        return total

    def firepower(self, hex: Hex, units: tuple[str, ...]) -> float:
        """The best expected CP ``units`` could fire from ``hex`` at an enemy hex."""
        board = self.board
        key = (hex, tuple((u, board.status[u].reduced) for u in units))
        found = self.exposure.get(key)
        if found is not None:
            return found
        best = 0.0
        for where in self.enemies:
            verdict = board.los(hex, where)
            if not verdict.clear:
                continue
            apfp = _apfp(board, units, hex.distance(where))
            if apfp <= 0:
                continue
            cover = verdict.cover.value if verdict.cover is not None else 0
            drm = board.cover_of(where) + cover + verdict.total
            best = max(best, _expected(apfp, drm, board.settings))
        self.exposure[key] = best
        return best

    def score(
        self, hex: Hex, path: tuple[Hex, ...], units: tuple[str, ...], *, cover: bool = True
    ) -> float:
        value = 0.0
        if self.wanted:
            # Entering takes control, on the way as well as at the end of the move.
            crossed = {*path, hex}
            value += self.points_weight * sum(p for at, p in self.wanted if at in crossed)
            left = [at for at, _ in self.wanted if at not in crossed]
            if left:
                value -= self.pull * min(hex.distance(at) for at in left)
        if cover:
            value += float(WEIGHTS.cover) * self.board.cover_of(hex)
        value -= self.threat(hex, opfire=False)
        value -= float(WEIGHTS.path) * sum(self.threat(h, opfire=True) for h in path[:-1])
        if self.fire_weight:
            value += self.fire_weight * self.firepower(hex, units)
        return value

    def best(
        self, start: Hex, units: tuple[str, ...], left: int, moved: bool
    ) -> tuple[float, float, tuple[Hex, ...]]:
        """The stack's score staying, its best score elsewhere and the path there."""
        reach = _reach(self.board, units, start, left=left, moved=moved, occupied=self.occupied)
        stay = self.score(start, (), units)
        best, path = stay, cast(tuple[Hex, ...], ())
        for hex in reach:  # in the search's order: deterministic
            if hex == start:
                continue
            if self.infantry_at.get(hex, 0) + len(units) > STACKING:
                continue
            value = self.score(hex, reach[hex][1], units)
            if value > best:
                best, path = value, reach[hex][1]
        return stay, best, path

    def best_drive(self, vehicle: str) -> tuple[float, float, tuple[Step, ...]]:
        """A vehicle's score staying, its best score elsewhere and the steps there."""
        board = self.board
        status = board.status[vehicle]
        start = board.hex_of(vehicle)
        assert start is not None
        riders = (vehicle, *board.passengers(vehicle))
        left = allowance(board, vehicle) - status.mp_used
        reach = _drive(
            board, start, status.facing, left=left, moved=status.moved, avoid=self.occupied
        )
        stay = self.score(start, (), riders, cover=False)
        best, steps = stay, cast(tuple[Step, ...], ())
        for hex, (_, way) in reach.items():
            if hex == start:
                continue
            value = self.score(hex, tuple(h for h, _ in way), riders, cover=False)
            if value > best:
                best, steps = value, way
        return stay, best, steps


Step = tuple[Hex, Direction | None]  # a vehicle's step: the hex entered, its facing after it


def urgency(state: VvState, policy: AiPolicy) -> float:
    """How much objectives count this turn: ``1 + u / (k + 1)``, ``k`` the Game Turns after this
    one (module docstring); 1 in an open-ended scenario or with ``u = 0``."""
    turns = state.sheet.turns
    if turns is None or policy.move_urgency <= 0:
        return 1.0
    return 1.0 + float(policy.move_urgency) / (max(0, turns - state.turn) + 1)


def _drive(
    board: Board, start: Hex, facing: Direction | None, *, left: int, moved: bool, avoid: set[Hex]
) -> dict[Hex, tuple[int, tuple[Step, ...]]]:
    """Every hex a vehicle can reach this phase, as :func:`~.movement.move` charges it: forward
    into the faced hex, or in reverse at double cost, then turning up to three hexsides, the
    first free (r. 7.2-7.3); the first hex always allowed (r. 6.1). The cheapest way to each."""
    game_map = board.game_map
    seen: dict[tuple[Hex, Direction | None], int] = {(start, facing): 0}
    found: dict[Hex, tuple[int, tuple[Step, ...]]] = {start: (0, ())}
    queue: list[tuple[int, int, Hex, Direction | None, tuple[Step, ...]]] = [
        (0, 0, start, facing, ())
    ]
    order = 0
    while queue:
        spent, _, hex, face, way = heapq.heappop(queue)
        if spent > seen.get((hex, face), spent):
            continue
        moves: list[tuple[Direction, int, Direction | None]]
        if face is None:
            moves = [(d, 1, None) for d in Direction]
        else:
            moves = [(face, 1, face), (face.opposite, 2, face)]
        for direction, factor, old in moves:
            to = hex.neighbour(direction)
            if to not in game_map or to in avoid:
                continue
            base = _cost(game_map, hex, to, False)
            if base is None:
                continue
            turns: list[Direction | None] = [None] if old is None else list(Direction)
            for new in turns:
                cost = base * factor
                if new is not None and old is not None:
                    cost += max(0, min((new - old) % 6, (old - new) % 6) - 1)
                total = spent + cost
                first_free = not moved and not way
                if total > left and not first_free:
                    continue
                if seen.get((to, new), total + 1) <= total:
                    continue
                seen[(to, new)] = total
                step = (*way, (to, new))
                if to not in found or found[to][0] > total:
                    found[to] = (total, step)
                order += 1
                if total < left:
                    heapq.heappush(queue, (total, order, to, new, step))
    return found


def _vehicles(board: Board, side: str, policy: AiPolicy) -> list[str]:
    """The side's unarmored vehicles that may still move this phase."""
    if not policy.vehicles_move:
        return []
    found = []
    for unit_id in board.side_units(side):
        unit, status = board.unit(unit_id), board.status[unit_id]
        if unit.kind is not Kind.VEHICLE or status.aboard is not None:
            continue
        if status.pinned or status.fired or board.hex_of(unit_id) is None:
            continue
        if status.moved and allowance(board, unit_id) - status.mp_used <= 0:
            continue
        found.append(unit_id)
    return found


def _gain(stay: float, best: float) -> Fraction:
    gain = best - stay - float(WEIGHTS.margin)
    return Fraction(gain).limit_denominator(1000) if gain > 0 else Fraction(0)


def move_gain(state: VvState, side: str, hex: Hex, policy: AiPolicy | None = None) -> Fraction:
    """How much more the best destination of the stack in ``hex`` scores than staying, less the
    margin (0 when it stays, or when no free objective is left to take): the AI's Fire Phase
    lets a stack move instead of firing when this is more than its attack is worth."""
    policy = policy or AiPolicy()
    context = _Context(state, side, policy)
    if not context.wanted:
        return Fraction(0)  # nothing to take: fire first, the rest moves
    for start, units, left, moved in _stacks(state.board, side):
        if start == hex:
            stay, best, _ = context.best(start, units, left, moved)
            return _gain(stay, best)
    return Fraction(0)


def drive_gain(state: VvState, side: str, vehicle: str, policy: AiPolicy) -> Fraction:
    """How much more the best destination of ``vehicle`` scores than staying, less the margin
    (0 when it would stay, or may not move): its attack in the Fire Phase must beat this."""
    if not policy.vehicles_hold_fire or vehicle not in _vehicles(state.board, side, policy):
        return Fraction(0)
    stay, best, _ = _Context(state, side, policy).best_drive(vehicle)
    return _gain(stay, best)


def next_step(state: VvState, side: str, policy: AiPolicy) -> str | None:
    """The AI's next ``move`` command in its Movement Phase, or None when every unit stays."""
    context = _Context(state, side, policy)
    for start, units, left, moved in _stacks(state.board, side):
        if left <= 0 and moved:
            continue
        stay, best, path = context.best(start, units, left, moved)
        if path and best > stay + float(WEIGHTS.margin):
            label = state.board.label(path[0]) or ""
            return shlex.join(["move", ",".join(units), "--to", label])
    for vehicle in _vehicles(state.board, side, policy):
        stay, best, steps = context.best_drive(vehicle)
        if steps and best > stay + float(WEIGHTS.margin):
            to, facing = steps[0]
            words = ["move", vehicle, "--to", state.board.label(to) or ""]
            if facing is not None and facing != state.board.status[vehicle].facing:
                words += ["--facing", facing.name]
            return shlex.join(words)
    return None
