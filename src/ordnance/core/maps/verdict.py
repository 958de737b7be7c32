"""A line-of-sight verdict on a map: clear or blocked (where, why), hindrances by range.

Each ruleset judges a line its own way (its terrain table, its :class:`SightRule`, its limit on
accumulated hindrance) on top of :func:`ordnance.core.hexgrid.trace`; this module turns the
result into one value that names places by the map's labels, prints one sentence and serialises
to the JSON of ``ordnance map los``.

>>> from ordnance.core.hexgrid import GridLabels, Sight, TerrainTable, trace
>>> from ordnance.core.maps.model import GameMap
>>> grid = GridLabels(columns=8, rows=6)
>>> m = GameMap("demo", "test", grid, "open")
>>> a, b = grid.parse("A3"), grid.parse("E3")
>>> terrain = TerrainTable({grid.parse("C3"): Sight(2, reason="orchard")})
>>> verdict = build_verdict(m, trace(a, b, terrain), game="test")
>>> verdict.clear, verdict.total, verdict.explanation
(True, 2, 'A3 to E3, range 4: clear; hindrance +2 (range 2: +2 orchard at C3)')
>>> cut = build_verdict(m, trace(a, b, terrain), game="test", block_at=2, block_reason="limit")
>>> cut.explanation
'A3 to E3, range 4: blocked at range 2 by limit (+2) (C3); hindrance +2 before it'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ordnance.core.hexgrid import (
    Hex,
    Hexside,
    Hindrance,
    SameRange,
    Sighting,
    SightLine,
    SightRule,
)
from ordnance.core.maps.model import GameMap, Place
from ordnance.core.maps.sweep_rule import SweepRule
from ordnance.core.maps.terrain import TerrainChart
from ordnance.core.rulings import Ruling


@dataclass(frozen=True)
class RangeHindrance:
    """The hindrance counted at one range from the firer, the places it came from, and why."""

    range: int
    places: tuple[Place, ...]
    drm: int
    reason: str


@dataclass(frozen=True)
class Obstruction:
    """What blocks a line: at which range, which hex(es) or hexside(s), and why."""

    range: int
    places: tuple[Place, ...]
    reason: str


@dataclass(frozen=True)
class Cover:
    """What the target's own hex (and a hexside of it the line crosses) gives the target."""

    value: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class LosVerdict(Ruling):
    """One line of sight judged on one map by one game's rules."""

    game: str
    game_map: GameMap = field(repr=False, compare=False)
    line: SightLine
    blocked: Obstruction | None
    hindrances: tuple[RangeHindrance, ...]
    cover: Cover | None = None
    rules: tuple[str, ...] = ()

    @property
    def clear(self) -> bool:
        return self.blocked is None

    @property
    def total(self) -> int:
        """The hindrance met (before the block, when blocked)."""
        return sum(h.drm for h in self.hindrances)

    @property
    def range(self) -> int:
        return self.line.range

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``ordnance map los`` (labels instead of coordinates)."""
        m = self.game_map
        blocked: dict[str, Any] | None = None
        if self.blocked is not None:
            hexes = [m.place_label(p) for p in self.blocked.places if isinstance(p, Hex)]
            sides = [m.place_label(p) for p in self.blocked.places if isinstance(p, Hexside)]
            blocked = {
                "range": self.blocked.range,
                "hex": _one_or_list(hexes),
                "hexside": _one_or_list(sides),
                "reason": self.blocked.reason,
            }
        return {
            "clauses": list(self.clauses),
            "explanation": self.explanation,
            "game": self.game,
            "map": m.name,
            "from": m.label(self.line.firer),
            "to": m.label(self.line.target),
            "range": self.range,
            "clear": self.clear,
            "blocked_by": blocked,
            "hexes": [_one_or_list([m.place_label(h) for h in s.hexes]) for s in self.line.steps],
            "hindrances": [
                {
                    "range": h.range,
                    "hexes": [m.place_label(p) for p in h.places if isinstance(p, Hex)],
                    "hexsides": [m.place_label(p) for p in h.places if isinstance(p, Hexside)],
                    "drm": h.drm,
                    "reason": h.reason,
                }
                for h in self.hindrances
            ],
            "total_hindrance": self.total,
            "target_cover": None
            if self.cover is None
            else {"value": self.cover.value, "reason": self.cover.reason},
            "rules": list(self.rules),
        }


@dataclass(frozen=True)
class LosJudge:
    """What a ruleset offers for maps: its terrain table and its LOS verdict.

    Each ruleset makes one from its own functions (``JUDGE`` in its ``los`` module); the CLI
    and the renderer pick it by the map's ``game``.

    >>> judge = LosJudge("demo", chart=lambda: "table", los=lambda m, f, t: "clear")
    >>> judge.game, judge.chart(), judge.los(None, None, None)
    ('demo', 'table', 'clear')
    """

    game: str
    chart: Callable[[], TerrainChart]
    los: Callable[[GameMap, Hex, Hex], LosVerdict]
    # How to judge many lines at once by the same rule (visibility.py); None: line by line.
    sweep: SweepRule | None = None


def build_verdict(
    game_map: GameMap,
    sighting: Sighting,
    *,
    game: str,
    block_at: int | None = None,
    block_reason: str = "accumulated hindrance",
    block_rules: Iterable[str] = (),
    clauses: Iterable[str] = (),
    rules: Iterable[str] = (),
    cover: Cover | None = None,
) -> LosVerdict:
    """Group a sighting's hindrances by range and apply a limit on their sum, if the game has one.

    ``block_at``: the accumulated hindrance at which the line counts as blocked (ASL's B.10
    total of 6; Lock 'n Load's third degrading hex). The block falls where the running sum
    reaches it: at that range, for a game counting the largest hindrance per range; at that
    hindrance, for a game counting every one (a hex clipped after it at the same range is
    beyond the block). Terrain blocking nearer, or at that same place, names the block
    instead; otherwise the verdict also cites ``block_rules``.
    """
    rules = list(rules)
    by_range = _group(sighting.hindrances, sighting.rule)
    blocked = None
    if sighting.blocked is not None:
        b = sighting.blocked
        blocked = Obstruction(b.range, b.at, b.reason)
    if block_at is not None:
        reached = _reach(sighting, by_range, block_at)
        if reached is not None:
            at, running, kept = reached
            if blocked is None or at.range < blocked.range or _met_before(at, blocked, sighting):
                reason = f"{block_reason} (+{running})"
                blocked = Obstruction(at.range, at.places, reason)
                by_range = kept
                rules.extend(block_rules)
    verdict = LosVerdict(
        clauses=tuple(dict.fromkeys(clauses)),
        explanation="",
        game=game,
        game_map=game_map,
        line=sighting.line,
        blocked=blocked,
        hindrances=tuple(by_range),
        cover=cover,
        rules=tuple(dict.fromkeys(rules)),
    )
    return replace(verdict, explanation=_explain(verdict))  # the words read the verdict


def _met_before(at: RangeHindrance, blocked: Obstruction, sighting: Sighting) -> bool:
    """Whether the limit, reached at ``at``, was reached before the terrain block at the same
    range: in a game counting every hindrance, at another hex the line met first (it clipped
    two hexes at that range). Reached at the blocking place itself, the terrain names it."""
    each = sighting.rule.same_range is SameRange.EACH
    return each and at.range == blocked.range and not set(at.places) & set(blocked.places)


def _group(hindrances: Sequence[Hindrance], rule: SightRule) -> list[RangeHindrance]:
    grouped: dict[int, list[tuple[int, tuple[Place, ...], str]]] = {}
    for h in hindrances:
        grouped.setdefault(h.range, []).append((h.value, h.at, h.reason))
    result = []
    for range_, items in sorted(grouped.items()):
        places = tuple(dict.fromkeys(p for _, at, _ in items for p in at))
        if rule.same_range is SameRange.MAX:
            # Only the largest counts at this range: report that one's places and reason.
            value, at, reason = max(items, key=lambda item: item[0])
            result.append(RangeHindrance(range_, at, value, reason))
        else:
            reasons = " + ".join(dict.fromkeys(reason for _, _, reason in items))
            result.append(RangeHindrance(range_, places, sum(v for v, _, _ in items), reasons))
    return result


def _reach(
    sighting: Sighting, by_range: list[RangeHindrance], block_at: int
) -> tuple[RangeHindrance, int, list[RangeHindrance]] | None:
    """Where the counted hindrance first reaches ``block_at``: that place, the sum, and the
    hindrances counted up to and including it; None when it never does.

    A game counting the largest per range reaches it at a range (all of that range counts); a
    game counting every hindrance reaches it at one of them, and what the line meets after it,
    even at the same range (a second hex the line clips there), is beyond the block.
    """
    running = 0
    if sighting.rule.same_range is SameRange.MAX:
        for index, counted in enumerate(by_range):
            running += counted.drm
            if running >= block_at:
                return counted, running, by_range[: index + 1]
        return None
    for index, h in enumerate(sighting.hindrances):
        running += h.value
        if running >= block_at:
            at = RangeHindrance(h.range, h.at, h.value, h.reason)
            return at, running, _group(sighting.hindrances[: index + 1], sighting.rule)
    return None


def _explain(verdict: LosVerdict) -> str:
    m = verdict.game_map
    head = f"{m.label(verdict.line.firer)} to {m.label(verdict.line.target)}, range {verdict.range}"
    if verdict.blocked is not None:
        where = " and ".join(m.place_label(p) for p in verdict.blocked.places)
        return (
            f"{head}: blocked at range {verdict.blocked.range} by {verdict.blocked.reason}"
            f" ({where}); hindrance +{verdict.total} before it"
        )
    if not verdict.hindrances:
        return f"{head}: clear; no hindrance"
    parts = ", ".join(
        f"range {h.range}: +{h.drm} {h.reason} at "
        + " and ".join(m.place_label(p) for p in h.places)
        for h in verdict.hindrances
    )
    return f"{head}: clear; hindrance +{verdict.total} ({parts})"


def _one_or_list(labels: list[str]) -> str | list[str] | None:
    if not labels:
        return None
    return labels[0] if len(labels) == 1 else labels
