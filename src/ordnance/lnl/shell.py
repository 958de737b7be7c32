r"""Firing an LnLT Smoke or WP shell at a hex: the aim, the To Hit roll, where the marker lands.

The procedure (LNL.S-fire, LNL.W-proc), in the order this module runs it:

1. The target is a hex in LOS, not a unit (LNL.S-hex); otherwise the shot is refused.
2. The To Hit number comes from the vehicle's to-hit table by range (:class:`ToHitTable`).
3. Modifiers: only those on the firer's side and the LOS count (LNL.S-mods): each degrading hex
   between firer and target +1, Opportunity Fire +2, and any other firer-side modifier the
   caller gives. Target modifiers (moving, size), the target hex's TM and Acquired modifiers are
   left out, and no Acquisition marker is used (a game removes the firer's own).
4. The roll (:func:`judge_roll`), tested in this order: a natural 2 hits and a natural 12
   misses whatever the modifiers (LnLT's ordnance rule); a final roll at most the To Hit number
   hits, even on a double, since the double rule speaks only of a failed shot; a missed double
   places nothing; then an odd miss goes one hex short, an even one one hex beyond
   (LNL.S-miss). Every double is even, so doubles must be tested before parity. Parity reads
   the natural dice by default (setting ``parity_of``).
5. Where the marker lands (:mod:`ordnance.lnl.landing`): Smoke 1 for a Smoke Shell, a WP
   marker for a WP Shell (LNL.S-hit, LNL.W-proc).

F in A3 fires at E3 on an open 10 x 8 grid: the LOS runs along hexsides, so one beyond E3 is
the pair F2|F3 and the enemy chooses; with 5,6 (11, odd) the miss lands short in the pair D2|D3:

>>> from ordnance.core.dice import DR
>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> grid = GridLabels(columns=10, rows=8)
>>> m = GameMap("demo", "lnl", grid, "open", {grid.parse("C3"): "brush"})
>>> shot = fire_shell(m, grid.parse("A3"), grid.parse("E3"), kind=ShellKind.SMOKE, to_hit=7,
...                   roll=DR(2, 4))
>>> shot.final_dr, shot.result, shot.hex, shot.marker
(7, <Result.HIT: 'hit'>, 'E3', 'smoke 1')
>>> fire_shell(m, grid.parse("A3"), grid.parse("E3"), kind=ShellKind.WP, to_hit=7,
...            roll=DR(5, 6)).candidates
('D2', 'D3')
>>> judge_roll(DR(4, 4), to_hit=7, drm=0).result
<Result.NONE: 'none'>
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Hex
from ordnance.core.maps import GameMap, LosVerdict
from ordnance.core.rulings import DRM, Ruling
from ordnance.core.rulings import total as drm_total
from ordnance.lnl.landing import Landing, Nothing, Result, land, settle
from ordnance.lnl.los import lnl_los
from ordnance.lnl.settings import DEFAULT, LnlSettings

# What the To Hit roll of a Smoke or WP shell leaves out (LNL.S-mods).
IGNORED = (
    "target modifiers (moving, size...)",
    "the target hex's TM",
    "Acquired modifiers (no Acquisition marker is used)",
)
# LnLT's ordnance rule: these natural rolls decide the shot whatever the modifiers.
NATURAL_HIT, NATURAL_MISS = 2, 12


class ShellKind(enum.StrEnum):
    """A Smoke Shell (14.2.2) or a WP Shell (14.2.3)."""

    SMOKE = "smoke"
    WP = "wp"

    @property
    def marker(self) -> str:
        """The marker it places (a terrain-table marker name)."""
        return "smoke 1" if self is ShellKind.SMOKE else "wp"

    @property
    def counter(self) -> str:
        return "Smoke Shell" if self is ShellKind.SMOKE else "WP Shell"

    @property
    def pool_clause(self) -> str:
        return "LNL.S-pool" if self is ShellKind.SMOKE else "LNL.W-pool"

    @property
    def depletion_clause(self) -> str:
        return "LNL.S-deplete" if self is ShellKind.SMOKE else "LNL.W-deplete"

    @classmethod
    def parse(cls, text: str) -> ShellKind:
        word = text.strip().lower()
        if word not in {k.value for k in cls}:
            raise BadInput("shell", text, "one of smoke, wp")
        return cls(word)


@dataclass(frozen=True)
class ToHitTable:
    """A vehicle's To Hit numbers by range, as its counter prints them: each band is the
    longest range it covers and its number.

    >>> table = ToHitTable.of({7: 9, 14: 7, 21: 5})
    >>> table.number(4), table.number(8), str(table)
    (9, 7, '1-7: 9, 8-14: 7, 15-21: 5')
    >>> table.number(22)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.IllegalAction: refused by LnL 14.2.2 (LNL.S-fire): range 22 is beyond ...
    """

    bands: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, raw: Mapping[int, int] | Mapping[str, int]) -> ToHitTable:
        """From ``{longest range: To Hit number}``; refuses what no counter prints."""
        bands: list[tuple[int, int]] = []
        for key, value in raw.items():
            text = str(key).strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 3 or int(text) < 1:
                raise BadInput("to-hit table", text, "a band is named by its longest range")
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 12:
                raise BadInput("to-hit table", f"{text}: {value}", "a To Hit number is 2 to 12")
            bands.append((int(text), value))
        if not bands:
            raise BadInput("to-hit table", "{}", "give at least one band, e.g. {7: 9}")
        return cls(tuple(sorted(bands)))

    def number(self, range: int) -> int:
        """The To Hit number at ``range`` (LNL.S-fire refuses a range past the last band)."""
        for longest, number in self.bands:
            if range <= longest:
                return number
        raise IllegalAction(
            "LNL.S-fire", f"range {range} is beyond the vehicle's to-hit table ({self})"
        )

    def to_json(self) -> dict[str, int]:
        return {str(longest): number for longest, number in self.bands}

    def __str__(self) -> str:
        parts, low = [], 1
        for longest, number in self.bands:
            parts.append(f"{low}-{longest}: {number}")
            low = longest + 1
        return ", ".join(parts)


@dataclass(frozen=True)
class RollVerdict:
    """What the To Hit roll did, the final roll, and why in a few words."""

    result: Result
    final: int
    why: str


def judge_roll(roll: DR, to_hit: int, drm: int, settings: LnlSettings = DEFAULT) -> RollVerdict:
    """Read one To Hit roll (step 4 of the module docstring)."""
    natural = roll.total
    final = natural + drm
    if natural == NATURAL_HIT:
        return RollVerdict(Result.HIT, final, "a natural 2 always hits")
    if natural == NATURAL_MISS:
        return RollVerdict(
            Result.NONE, final, "a natural 12 always misses; a double places nothing"
        )
    if final <= to_hit:
        return RollVerdict(Result.HIT, final, f"{final} is at most {to_hit}: a hit")
    if roll.is_doubles:
        return RollVerdict(Result.NONE, final, f"a miss on doubles ({roll}) places nothing")
    parity = natural if settings.parity_of == "natural" else final
    which = "natural roll" if settings.parity_of == "natural" else "final roll"
    if parity % 2:
        return RollVerdict(Result.SHORT, final, f"a miss; the {which} {parity} is odd: short")
    return RollVerdict(Result.BEYOND, final, f"a miss; the {which} {parity} is even: beyond")


def aim(game_map: GameMap, firer: Hex, target: Hex, settings: LnlSettings = DEFAULT) -> LosVerdict:
    """The LOS to the target hex, or the refusal: it must be another hex of the map, in LOS."""
    for hex in (firer, target):
        if hex not in game_map:
            raise BadInput("hex", str(hex), "not on the map")
    if firer == target:
        raise IllegalAction("LNL.S-hex", "the target is a hex in LOS, not the firer's own hex")
    verdict = lnl_los(game_map, firer, target)
    if not verdict.clear:
        raise IllegalAction(
            "LNL.S-hex",
            f"{game_map.label(target)} is not in LOS from {game_map.label(firer)}"
            f" ({verdict.explanation})",
        )
    return verdict


def shell_drms(
    verdict: LosVerdict,
    *,
    opportunity: bool = False,
    extra: Sequence[int] = (),
    settings: LnlSettings = DEFAULT,
) -> tuple[DRM, ...]:
    """The modifiers a Smoke or WP shell's To Hit roll keeps (LNL.S-mods)."""
    drms: list[DRM] = []
    if settings.degrading_hexes_count and verdict.total:
        reasons = "; ".join(h.reason for h in verdict.hindrances)
        drms.append(DRM(verdict.total, f"degrading hexes on the LOS ({reasons})", "LNL.S-mods"))
    if opportunity:
        drms.append(DRM(settings.opportunity_fire_drm, "Opportunity Fire", "LNL.S-mods"))
    drms += [DRM(value, "firer-side modifier given", "LNL.S-mods") for value in extra]
    return tuple(drms)


@dataclass(frozen=True, kw_only=True)
class ShellRuling(Ruling):
    """One Smoke or WP shell: the roll, the result and where its marker lands (labels).

    ``hex`` is where the marker lands (None when nothing is placed, or while the enemy still
    has to pick one of the ``candidates``); ``nothing_placed`` says why nothing is.
    """

    kind: ShellKind
    firer: str
    target: str
    range: int
    to_hit: int
    dice: DR
    original_dr: int
    final_dr: int
    drms: tuple[DRM, ...]
    result: Result
    hex: str | None
    candidates: tuple[str, ...]
    waits_for_enemy: bool
    marker: str | None
    nothing_placed: Nothing | None
    ignored: tuple[str, ...] = IGNORED

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        # Text enums are str already; plain strings keep the JSON (and the log) free of them.
        for key in ("kind", "result", "nothing_placed"):
            data[key] = None if data[key] is None else str(data[key])
        return data


def fire_shell(
    game_map: GameMap,
    firer: Hex,
    target: Hex,
    *,
    kind: ShellKind,
    to_hit: int,
    roll: DR,
    opportunity: bool = False,
    drms: Sequence[int] = (),
    choice: Hex | None = None,
    settings: LnlSettings = DEFAULT,
) -> ShellRuling:
    """Resolve one shot with the given roll (see the module docstring); ``choice`` is the
    enemy's pick when the landing hex is ambiguous (else the ruling lists the candidates)."""
    verdict = aim(game_map, firer, target, settings)
    ruling, _ = shoot(
        verdict,
        kind=kind,
        to_hit=to_hit,
        roll=roll,
        opportunity=opportunity,
        drms=drms,
        choice=choice,
        settings=settings,
    )
    return ruling


def shoot(
    verdict: LosVerdict,
    *,
    kind: ShellKind,
    to_hit: int,
    roll: DR,
    opportunity: bool = False,
    drms: Sequence[int] = (),
    choice: Hex | None = None,
    settings: LnlSettings = DEFAULT,
) -> tuple[ShellRuling, Landing]:
    """Steps 3 to 5 for a target already aimed at (``verdict`` from :func:`aim`): the ruling,
    and the landing a game places (hexes, not labels)."""
    game_map, firer, target = verdict.game_map, verdict.line.firer, verdict.line.target
    modifiers = shell_drms(verdict, opportunity=opportunity, extra=drms, settings=settings)
    judged = judge_roll(roll, to_hit, drm_total(modifiers), settings)
    landing = land(game_map, firer, target, judged.result, settings)
    if choice is not None:
        landing = settle(game_map, firer, landing, choice, settings)
    ruling = shell_ruling(
        game_map,
        firer,
        target,
        kind=kind,
        to_hit=to_hit,
        roll=roll,
        drms=modifiers,
        judged=judged,
        landing=landing,
    )
    return ruling, landing


def shell_ruling(
    game_map: GameMap,
    firer: Hex,
    target: Hex,
    *,
    kind: ShellKind,
    to_hit: int,
    roll: DR,
    drms: tuple[DRM, ...],
    judged: RollVerdict,
    landing: Landing,
) -> ShellRuling:
    """The ruling of a shot whose roll was judged and whose landing is known."""
    label = game_map.label
    clauses = ["LNL.S-fire", "LNL.S-hex", "LNL.S-mods"]
    if kind is ShellKind.WP:
        clauses.insert(0, "LNL.W-proc")
    clauses.append("LNL.S-hit" if judged.result is Result.HIT else "LNL.S-miss")
    if (
        landing.nothing is Nothing.BLOCKED
        or landing.candidates
        or judged.result
        in (
            Result.SHORT,
            Result.BEYOND,
        )
    ):
        clauses.append("LNL.S-los")
    if landing.hex is not None:
        clauses += ["LNL.S-cycle"] if kind is ShellKind.SMOKE else ["LNL.W-smoke", "LNL.W-remove"]
    modifiers = "".join(f", {d.value:+d} {d.reason}" for d in drms)
    words = (
        f"{kind.counter} from {label(firer)} at {label(target)} (range {firer.distance(target)},"
        f" To Hit {to_hit}): dice {roll} = {roll.total}{modifiers}, final {judged.final};"
        f" {judged.why}."
    )
    return ShellRuling(
        clauses=tuple(clauses),
        explanation=f"{words} {_where(game_map, kind, landing)}",
        kind=kind,
        firer=label(firer),
        target=label(target),
        range=firer.distance(target),
        to_hit=to_hit,
        dice=roll,
        original_dr=roll.total,
        final_dr=judged.final,
        drms=drms,
        result=judged.result,
        hex=None if landing.hex is None else label(landing.hex),
        candidates=tuple(label(h) for h in landing.candidates),
        waits_for_enemy=landing.waits,
        marker=None if landing.hex is None else kind.marker,
        nothing_placed=landing.nothing,
    )


def _where(game_map: GameMap, kind: ShellKind, landing: Landing) -> str:
    """One sentence on where the marker went (or why it did not)."""
    marker = "Smoke 1" if kind is ShellKind.SMOKE else "A WP marker (Smoke 2 for LOS and terrain)"
    if landing.hex is not None:
        return f"{marker} is placed in {game_map.label(landing.hex)}."
    if landing.waits:
        options = " or ".join(game_map.label(h) for h in landing.candidates)
        return f"The LOS runs along a hexside: the enemy side chooses {options} (LNL.S-los)."
    reasons = {
        Nothing.DOUBLE: "Nothing is placed.",
        Nothing.BLOCKED: "No clear LOS from the firer to the landing hex: nothing is placed.",
        Nothing.OFF_MAP: "The landing hex is off the map: nothing is placed.",
        Nothing.OWN_HEX: "It would land in the firer's own hex: nothing is placed"
        " (short_into_own_hex=false).",
    }
    assert landing.nothing is not None
    return reasons[landing.nothing]
