"""The WP damage check (LNL.W-check, LNL.W-closed, LNL.W-enter) from ``data/wp_check.toml``.

Every Leg unit and Open vehicle in a hex where a WP marker lands checks, and so does one that
enters such a hex later. The table file says who rolls how many dice and which die counts, and
what is added; the settings say the rest (which hexes are a closed space, a leader's LM, the
Hero chance). The LnLT Damage Check Table is not public, so the check returns its modified
total; with a table given (a scenario's ``damage_check_table``) it also returns the result.

A squad in a stone building (a closed space) rolls 2 and 5, keeps the 5 and adds 1; a leader
with LM 1 beside it takes 1 off:

>>> squad = Subject("sq1", "squad", open=False, closed_space=True, leader_lm=1)
>>> check = wp_check(squad, (2, 5), hex="I3")
>>> check.kept, check.modifier, check.leader_lm, check.total
(5, 1, 1, 5)
>>> wp_check(Subject("ht", "vehicle", open=True), (1,), hex="I3").total
2
>>> eligible("vehicle", open=False)
False
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ordnance.core.data import load_toml
from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Hex
from ordnance.core.maps import GameMap
from ordnance.core.rulings import Ruling
from ordnance.lnl.settings import DEFAULT, LnlSettings

# Leg units are the MMCs and SMCs (reference/lnl.md section 2).
LEG_KINDS = ("squad", "half-squad", "team", "leader", "hero")
VEHICLE = "vehicle"
UNIT_KINDS = (*LEG_KINDS, VEHICLE)
HERO_MAKERS = ("squad", "half-squad")  # units whose natural 1 may produce a Hero
CLASSES = ("leg", "open vehicle", "closed vehicle")


@dataclass(frozen=True)
class Band:
    """One row of a Damage Check Table: totals ``low`` to ``high`` (None: and above)."""

    low: int
    high: int | None
    result: str

    def holds(self, total: int) -> bool:
        return self.low <= total and (self.high is None or total <= self.high)

    @classmethod
    def parse(cls, key: str, result: object, where: str) -> Band:
        """``"1-3"``, ``"4"`` or ``"7+"`` and the result's name."""
        text = key.strip()
        try:
            if text.endswith("+"):
                low, high = int(text[:-1]), None
            elif "-" in text.lstrip("-"):
                first, _, last = text.rpartition("-")
                low, high = int(first), int(last)
            else:
                low = high = int(text)
        except ValueError:
            raise BadInput(where, key, "a band is N, N-M or N+ (e.g. 1-3, 7+)") from None
        if high is not None and high < low:
            raise BadInput(where, key, "a band runs from low to high")
        if not isinstance(result, str) or not result.strip():
            raise BadInput(where, key, "name the band's result")
        return cls(low, high, result.strip())


Dct = Mapping[str, tuple[Band, ...]]


def parse_dct(raw: object, where: str = "damage_check_table") -> dict[str, tuple[Band, ...]]:
    """A Damage Check Table: unit class (``leg``, ``open vehicle``) -> bands that do not overlap.

    >>> table = parse_dct({"leg": {"1-3": "No Effect", "4-6": "Shaken", "7+": "Eliminated"}})
    >>> [b.result for b in table["leg"] if b.holds(7)]
    ['Eliminated']
    """
    if not isinstance(raw, Mapping):
        raise BadInput(where, str(raw)[:40], "expected unit class -> {band: result}")
    table: dict[str, tuple[Band, ...]] = {}
    for name, bands in raw.items():
        if name not in CLASSES[:2]:
            raise BadInput(where, str(name), "a class is leg or open vehicle")
        if not isinstance(bands, Mapping):
            raise BadInput(f"{where}.{name}", str(bands)[:40], "expected {band: result}")
        parsed = sorted(
            (Band.parse(str(k), v, f"{where}.{name}") for k, v in bands.items()),
            key=lambda b: b.low,
        )
        for before, after in itertools.pairwise(parsed):
            if before.high is None or before.high >= after.low:
                raise BadInput(f"{where}.{name}", str(after.low), "bands overlap")
        table[str(name)] = tuple(parsed)
    return table


@dataclass(frozen=True)
class CheckRow:
    """Who checks (unit class and where) with how many dice, and which die counts."""

    unit: str
    where: str
    dice: int
    keep: str
    note: str


@dataclass(frozen=True)
class WpTable:
    """``data/wp_check.toml``: the +1, the rows of who rolls what, the (empty) shipped DCT."""

    modifier: int
    rows: tuple[CheckRow, ...]
    dct: Dct
    source: str

    def row(self, unit_class: str, closed_space: bool) -> CheckRow:
        """The row for a unit of ``unit_class`` (closed space matters only to Leg units)."""
        where = ("closed space" if closed_space else "open") if unit_class == "leg" else "any"
        return next(r for r in self.rows if r.unit == unit_class and r.where == where)


@cache
def wp_table() -> WpTable:
    """The WP check table, read once and checked."""
    data: dict[str, Any] = load_toml("ordnance.lnl", "wp_check.toml")
    check = data["check"]
    rows = tuple(
        CheckRow(str(r["unit"]), str(r["where"]), int(r["dice"]), str(r["keep"]), str(r["note"]))
        for r in check["row"]
    )
    for row in rows:
        if row.unit not in CLASSES or row.dice not in (0, 1, 2):
            raise ValueError(f"wp_check.toml: bad row {row}")
        if row.keep not in ("only", "highest", "none"):
            raise ValueError(f"wp_check.toml: {row.unit} keeps only, highest or none")
    for unit_class, where in (("leg", "open"), ("leg", "closed space")):
        if not any(r.unit == unit_class and r.where == where for r in rows):
            raise ValueError(f"wp_check.toml: no row for {unit_class} in {where}")
    return WpTable(int(check["modifier"]), rows, parse_dct(data["dct"]), str(data["source"]))


def eligible(kind: str, open: bool) -> bool:
    """Whether a unit of this kind takes WP checks: Leg units and Open vehicles (LNL.W-check)."""
    return kind in LEG_KINDS or (kind == VEHICLE and open)


def closed_space(game_map: GameMap, hex: Hex, settings: LnlSettings = DEFAULT) -> bool:
    """Whether ``hex`` is a closed space: its terrain or a marker in it is one the setting
    ``wp_closed_space`` names (LNL.W-closed)."""
    names = {game_map.terrain(hex), *game_map.markers_in(hex)}
    return bool(settings.closed_spaces & {n.lower() for n in names})


@dataclass(frozen=True)
class Subject:
    """A unit as the WP check sees it: what it is, and what its hex gives it."""

    unit: str
    kind: str
    open: bool = False
    closed_space: bool = False
    leader_lm: int = 0  # the best LM of another leader in its hex

    @property
    def unit_class(self) -> str:
        if self.kind in LEG_KINDS:
            return "leg"
        return "open vehicle" if self.open else "closed vehicle"


@dataclass(frozen=True, kw_only=True)
class WpCheck(Ruling):
    """One WP damage check: the dice, the die kept, what was added, the total, the result."""

    unit: str
    hex: str
    unit_class: str
    closed_space: bool
    dice: tuple[int, ...]
    kept: int
    modifier: int
    leader_lm: int
    total: int
    result: str | None
    hero_chance: bool
    entering: bool = False


def check_dice(subject: Subject) -> int:
    """How many dice the subject rolls (0: it does not check)."""
    if not eligible(subject.kind, subject.open):
        return 0
    return wp_table().row(subject.unit_class, subject.closed_space).dice


def wp_check(
    subject: Subject,
    faces: tuple[int, ...],
    *,
    hex: str,
    settings: LnlSettings = DEFAULT,
    dct: Dct | None = None,
    entering: bool = False,
) -> WpCheck:
    """The check with these dice (one face, or two for a Leg unit in a closed space)."""
    table = wp_table()
    row = table.row(subject.unit_class, subject.closed_space)
    if row.dice == 0:
        raise BadInput("unit", subject.unit, "a closed vehicle takes no WP check")
    if len(faces) != row.dice:
        raise BadInput("dice", str(faces), f"the check rolls {row.dice} dice")
    kept = max(faces)
    leg = subject.unit_class == "leg"
    lm = subject.leader_lm if leg and settings.wp_leader_lm else 0
    total = kept + table.modifier - lm
    bands = (dct if dct is not None else table.dct).get(subject.unit_class, ())
    result = next((b.result for b in bands if b.holds(total)), None)
    hero = settings.wp_hero_on_one and subject.kind in HERO_MAKERS and kept == 1
    clauses = ["LNL.W-enter"] if entering else []
    clauses += ["LNL.W-check", *(["LNL.W-closed"] if row.dice == 2 else [])]
    how = f"dice {','.join(map(str, faces))}, the higher {kept}" if row.dice == 2 else f"die {kept}"
    words = f"{subject.unit} in {hex} checks for WP: {how} {table.modifier:+d}"
    if lm:
        words += f" -{lm} (leader's LM)"
    words += f" = {total}"
    words += f": {result}." if result is not None else " (read it on the module's DCT)."
    if hero:
        words += " A natural 1: roll for a Hero as in a core damage check."
    return WpCheck(
        clauses=tuple(clauses),
        explanation=words,
        unit=subject.unit,
        hex=hex,
        unit_class=subject.unit_class,
        closed_space=subject.closed_space,
        dice=faces,
        kept=kept,
        modifier=table.modifier,
        leader_lm=lm,
        total=total,
        result=result,
        hero_chance=hero,
        entering=entering,
    )


def roll_wp_check(
    subject: Subject,
    dice: DiceSource,
    *,
    hex: str,
    settings: LnlSettings = DEFAULT,
    dct: Dct | None = None,
    entering: bool = False,
) -> WpCheck:
    """Roll the subject's check with ``dice`` (two dice as one DR, the higher kept)."""
    count = check_dice(subject)
    purpose = f"WP damage check for {subject.unit}"
    if count == 2:
        roll = dice.roll_dr(purpose)
        faces: tuple[int, ...] = (roll.white, roll.colored)
    else:
        faces = (dice.roll_die(purpose).value,)
    return wp_check(subject, faces, hex=hex, settings=settings, dct=dct, entering=entering)
