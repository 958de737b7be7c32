"""Exact odds for LnLT Smoke and WP shells: where a shot lands, the WP check, a pool's shots.

Everything is built from :class:`~ordnance.core.odds.Distribution` by running the same
procedures the rulings use (:func:`~ordnance.lnl.shell.judge_roll` over the 36 ordered rolls,
:func:`~ordnance.lnl.landing.land` once per result, :func:`~ordnance.lnl.wp.wp_check` per
face), so odds and play cannot disagree.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> grid = GridLabels(columns=10, rows=8)
>>> m = GameMap("demo", "lnl", grid, "open")
>>> odds = shell_odds(m, grid.parse("B2"), grid.parse("E4"), to_hit=7)
>>> [(row.outcome, str(row.probability)) for row in odds.outcomes]
[('E4', '7/12'), ('D3', '1/6'), ('F4', '1/6'), ('none', '1/12')]
>>> expected_shots(2, 4)
Fraction(4, 1)
>>> expected_shots(2, None), expected_shots(1, 1)
(Fraction(2, 1), None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ordnance.core.hexgrid import Hex
from ordnance.core.maps import GameMap
from ordnance.core.odds import Distribution
from ordnance.core.rulings import DRM, Ruling
from ordnance.core.rulings import total as drm_total
from ordnance.lnl.landing import Landing, Nothing, Result, land
from ordnance.lnl.settings import DEFAULT, LnlSettings
from ordnance.lnl.shell import aim, judge_roll, shell_drms
from ordnance.lnl.wp import Dct, Subject, check_dice, wp_check

RESULT_ORDER = (Result.HIT, Result.SHORT, Result.BEYOND, Result.NONE)
NONE = "none"


def shell_results(to_hit: int, drm: int, settings: LnlSettings = DEFAULT) -> Distribution[Result]:
    """Hit, short, beyond or none over the 36 ordered To Hit rolls.

    >>> shell_results(7, 0)[Result.NONE]  # 4,4 5,5 6,6 miss on doubles
    Fraction(1, 12)
    """
    return Distribution.dr().map(lambda roll: judge_roll(roll, to_hit, drm, settings).result)


@dataclass(frozen=True)
class LandingOdds:
    """One row: where the marker lands (``none``, a hex, or ``A|B`` when the enemy picks),
    how likely, from which result, and the hexes involved."""

    outcome: str
    probability: Fraction
    result: Result
    hexes: tuple[str, ...]
    enemy_chooses: bool

    def to_json(self) -> dict[str, Any]:
        p = self.probability
        return {
            "outcome": self.outcome,
            "probability": f"{p.numerator}/{p.denominator}",
            "percent": float(p * 100),
            "result": str(self.result),
            "hexes": list(self.hexes),
            "enemy_chooses": self.enemy_chooses,
        }


@dataclass(frozen=True, kw_only=True)
class ShellOdds(Ruling):
    """Where a Smoke or WP shell lands, exactly: one row per landing hex (or pair the enemy
    picks from) and one ``none``; the results; why nothing is placed, by reason."""

    firer: str
    target: str
    range: int
    to_hit: int
    drms: tuple[DRM, ...]
    outcomes: tuple[LandingOdds, ...]
    results: dict[str, Fraction]
    nothing_placed: dict[str, Fraction]

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["outcomes"] = [row.to_json() for row in self.outcomes]
        return data


def _outcome(game_map: GameMap, landing: Landing) -> tuple[str, tuple[str, ...]]:
    if landing.hex is not None:
        return game_map.label(landing.hex), (game_map.label(landing.hex),)
    if landing.waits:
        labels = tuple(game_map.label(h) for h in landing.candidates)
        return "|".join(labels), labels
    return NONE, ()


def shell_odds(
    game_map: GameMap,
    firer: Hex,
    target: Hex,
    *,
    to_hit: int,
    opportunity: bool = False,
    drms: Sequence[int] = (),
    settings: LnlSettings = DEFAULT,
) -> ShellOdds:
    """The landing odds of one shot (refused like the shot itself when the target is not a hex
    in LOS)."""
    verdict = aim(game_map, firer, target, settings)
    modifiers = shell_drms(verdict, opportunity=opportunity, extra=drms, settings=settings)
    results = shell_results(to_hit, drm_total(modifiers), settings)
    landings = {r: land(game_map, firer, target, r, settings) for r in results}
    rows: list[LandingOdds] = []
    nothing: dict[str, Fraction] = {str(n): Fraction(0) for n in Nothing}
    none_total = Fraction(0)
    for result in RESULT_ORDER:
        p = results[result]
        if not p:
            continue
        landing = landings[result]
        outcome, hexes = _outcome(game_map, landing)
        if outcome == NONE:
            assert landing.nothing is not None
            nothing[str(landing.nothing)] += p
            none_total += p
            continue
        rows.append(LandingOdds(outcome, p, result, hexes, landing.waits))
    if none_total:
        rows.append(LandingOdds(NONE, none_total, Result.NONE, (), False))
    nothing["total"] = none_total
    blocked = nothing[str(Nothing.BLOCKED)]
    words = (
        f"From {game_map.label(firer)} at {game_map.label(target)}, To Hit {to_hit}"
        f"{''.join(f', {d.value:+d} {d.reason}' for d in modifiers)}: hit {results[Result.HIT]},"
        f" nothing placed {none_total} (of which LOS blocked {blocked})."
    )
    return ShellOdds(
        clauses=("LNL.S-mods", "LNL.S-hit", "LNL.S-miss", "LNL.S-los", "SYS.odds"),
        explanation=words,
        firer=game_map.label(firer),
        target=game_map.label(target),
        range=firer.distance(target),
        to_hit=to_hit,
        drms=modifiers,
        outcomes=tuple(rows),
        results={str(r): results[r] for r in RESULT_ORDER},
        nothing_placed=nothing,
    )


def wp_check_odds(
    subject: Subject, settings: LnlSettings = DEFAULT, dct: Dct | None = None
) -> Distribution[int | str]:
    """The modified totals of the subject's WP check (or the DCT results, when ``dct`` has
    bands for its class; a total outside every band stays a number).

    >>> squad = Subject("sq", "squad", closed_space=True)
    >>> wp_check_odds(squad)[7]  # two dice, the higher 6, +1
    Fraction(11, 36)
    """
    count = check_dice(subject)
    if count == 0:
        raise ValueError(f"{subject.unit} takes no WP check")

    def outcome(faces: tuple[int, ...]) -> int | str:
        check = wp_check(subject, faces, hex="", settings=settings, dct=dct)
        return check.total if check.result is None else check.result

    if count == 2:
        return Distribution.dr().map(lambda roll: outcome((roll.white, roll.colored)))
    return Distribution.die().map(lambda die: outcome((die.value,)))


def removal_chance(depletion_number: int | None) -> Fraction:
    """The chance that one shot loses its counter for good: a die below the number, or
    always when the optional rule is off."""
    if depletion_number is None:
        return Fraction(1)
    return Fraction(max(0, min(depletion_number, 7) - 1), 6)


def shots_odds(count: int, depletion_number: int | None, limit: int) -> Distribution[int]:
    """How many shots a pool of ``count`` counters gives when at most ``limit`` are wanted.

    >>> shots_odds(1, 4, 2)[2]  # the first shot's counter comes back: 1/2
    Fraction(1, 2)
    """
    lose = removal_chance(depletion_number)
    state: Distribution[tuple[int, int]] = Distribution.certain((count, 0))

    def shot(left_and_fired: tuple[int, int]) -> Distribution[tuple[int, int]]:
        left, fired = left_and_fired
        if left == 0:
            return Distribution.certain((left, fired))
        return Distribution({(left - 1, fired + 1): lose, (left, fired + 1): 1 - lose})

    for _ in range(limit):
        state = state.bind(shot)
    return state.map(lambda left_and_fired: left_and_fired[1])


def expected_shots(
    count: int, depletion_number: int | None, limit: int | None = None
) -> Fraction | None:
    """The expected number of shots from a pool, exactly; None when it never runs out (a
    Depletion Number of 1 removes nothing) and no ``limit`` caps it.

    Without a limit each counter lasts a geometric number of shots, 1 / (chance of removal)
    on average.
    """
    if limit is not None:
        return shots_odds(count, depletion_number, limit).expectation(lambda n: n)
    lose = removal_chance(depletion_number)
    if count == 0:
        return Fraction(0)
    return None if lose == 0 else count / lose
