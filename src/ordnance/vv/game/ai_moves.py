"""The AI's movement: where each of its infantry stacks goes in its Movement Phase (AI policy).

One ``move`` command at a time, through the same checks as a player's (r. 6, 13.8); after
each step the opponent may Opportunity Fire, and the AI decides again from the new position.
For each stack of its infantry on foot that may move (not pinned, no Fire marker, MP left), the
AI scores every hex it can reach this phase (MP by terrain and hexside, uphill +1, the first
hex always allowed, never an enemy hex) and steps toward the best one, if it beats staying by
``MARGIN``. The score, in expected CP (one CP about one point of unit value):

- objectives: for each objective hex the side does not control, its points over one plus the
  distance to it (``OBJECTIVE`` times); entering it takes control (victory);
- cover: the hex's terrain and fortification cover (``COVER`` per point);
- fire lanes: the expected CP the enemy's units could put on the stack there (each enemy hex
  with a clear LOS and the range, its units' APFP, the cover and hindrances), and half that of
  Opportunity Fire on each hex of the way (its -1 and -2 included), as a loss;
- next turn's fire: the best expected CP the stack could fire from there at an enemy hex
  (``FIRE`` times).

Leaders stay with squads that have stopped; a hex never receives more than four infantry
units (the stacking limit, r. 6.9, which the game does not check itself). Vehicles and Guns do
not move (the AI's policy, not a rule).

>>> WEIGHTS.objective, WEIGHTS.cover, WEIGHTS.fire, WEIGHTS.path, WEIGHTS.margin
(Fraction(2, 1), Fraction(1, 2), Fraction(1, 2), Fraction(1, 2), Fraction(1, 4))
"""

from __future__ import annotations

import heapq
import shlex
from dataclasses import dataclass
from fractions import Fraction

from ordnance.core.errors import IllegalAction
from ordnance.core.hexgrid import Hex
from ordnance.vv.ai import AiPolicy
from ordnance.vv.board import Board
from ordnance.vv.game.movement import allowance, step_cost
from ordnance.vv.game.state import VvState
from ordnance.vv.numbers import RULES
from ordnance.vv.odds import expected_cp
from ordnance.vv.units import Kind

STACKING = 4  # infantry units per hex (r. 6.9)


@dataclass(frozen=True)
class Weights:
    """The movement score's weights (module docstring)."""

    objective: Fraction = Fraction(2)
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
    for hex in board.game_map:
        units = found.get(hex)
        if not units:
            continue
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
    board: Board, units: tuple[str, ...], start: Hex, *, left: int, moved: bool, enemy: str
) -> dict[Hex, tuple[int, tuple[Hex, ...]]]:
    """Every hex the stack can reach this phase: MP spent and the path there (cheapest)."""
    best: dict[Hex, tuple[int, tuple[Hex, ...]]] = {start: (0, ())}
    queue: list[tuple[int, int, Hex]] = [(0, 0, start)]
    order = 0
    while queue:
        spent, _, hex = heapq.heappop(queue)
        if spent > best[hex][0]:
            continue
        path = best[hex][1]
        for step in hex.neighbours():
            if step not in board.game_map or any(
                board.unit(u).side == enemy for u in board.at(step)
            ):
                continue
            try:
                cost = max(step_cost(board, u, hex, step) for u in units)
            except IllegalAction:  # terrain the unit may not enter
                continue
            total = spent + cost
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


class _Scorer:
    """The score of the module docstring for one stack, remembering per-hex parts."""

    def __init__(self, state: VvState, side: str, units: tuple[str, ...]) -> None:
        self.state, self.board, self.side, self.units = state, state.board, side, units
        self.enemy = state.other(side)
        self.enemies = _enemy_hexes(self.board, self.enemy)
        self.exposure: dict[tuple[Hex, bool], Fraction] = {}
        victory = state.sheet.victory
        self.wanted = [
            (self.board.parse(label), points)
            for label, points in victory.get("objectives", {}).items()
            if state.control.get(self.board.parse(label)) != side
        ]

    def threat(self, hex: Hex, *, opfire: bool) -> Fraction:
        """Expected CP the enemy could put on the stack in ``hex``."""
        key = (hex, opfire)
        if key in self.exposure:
            return self.exposure[key]
        board = self.board
        total = Fraction(0)
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
            total += expected_cp(apfp, drm, board.settings)
        self.exposure[key] = total
        return total

    def firepower(self, hex: Hex) -> Fraction:
        board = self.board
        best = Fraction(0)
        for where in self.enemies:
            verdict = board.los(hex, where)
            if not verdict.clear:
                continue
            apfp = _apfp(board, self.units, hex.distance(where))
            if apfp <= 0:
                continue
            cover = verdict.cover.value if verdict.cover is not None else 0
            drm = board.cover_of(where) + cover + verdict.total
            best = max(best, expected_cp(apfp, drm, board.settings))
        return best

    def score(self, hex: Hex, path: tuple[Hex, ...]) -> Fraction:
        weights = WEIGHTS
        pull = max(
            (Fraction(points, 1 + hex.distance(at)) for at, points in self.wanted),
            default=Fraction(0),
        )
        value = weights.objective * pull
        value += weights.cover * self.board.cover_of(hex)
        value -= self.threat(hex, opfire=False)
        value -= weights.path * sum(self.threat(h, opfire=True) for h in path[:-1])
        value += weights.fire * self.firepower(hex)
        return value


def next_step(state: VvState, side: str, policy: AiPolicy) -> str | None:
    """The AI's next ``move`` command in its Movement Phase, or None when every stack stays."""
    board = state.board
    enemy = state.other(side)
    infantry_at: dict[Hex, int] = {}
    for unit_id in board.side_units(side):
        hex = board.hex_of(unit_id)
        if hex is not None and board.unit(unit_id).kind.infantry:
            infantry_at[hex] = infantry_at.get(hex, 0) + 1
    for start, units, left, moved in _stacks(board, side):
        if left <= 0 and moved:
            continue
        scorer = _Scorer(state, side, units)
        reach = _reach(board, units, start, left=left, moved=moved, enemy=enemy)
        stay = scorer.score(start, ())
        best, target = stay + WEIGHTS.margin, start
        for hex in board.game_map:
            if hex not in reach or hex == start:
                continue
            if infantry_at.get(hex, 0) + len(units) > STACKING:
                continue
            value = scorer.score(hex, reach[hex][1])
            if value > best:
                best, target = value, hex
        if target != start:
            step = reach[target][1][0]
            return shlex.join(["move", ",".join(units), "--to", board.label(step) or ""])
    return None
