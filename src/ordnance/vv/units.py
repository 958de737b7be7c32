"""V&V units as their counters print them: infantry, leaders, support weapons, Guns, vehicles.

A :class:`Unit` is the fixed part (what the counter says); where it stands and what happened to
it this turn is the board's (:mod:`ordnance.vv.board`). What a unit adds to an AP attack at a
given range is decided here, by r. 12.2-12.3 (reference/vv.md section 11):

- a squad fires its own APFP plus its support weapon's; beyond its own range but within the
  weapon's, the weapon's APFP only;
- a half squad adds a Light (L) weapon to its own APFP, but fires a Heavy (H) one alone;
- a leader fires his own APFP or his weapon's, not both;
- a passenger may use only a Light MG (and the X weapons: grenades, satchels) (VV.AP-passengers).

A vehicle's AP weapons (Gun, 360-degree MG, forward-firing MG) are :class:`Mount` values
(VV.AP-weapons); a Gun has one.

>>> squad = Unit("a", "us", Kind.SQUAD, counter=Counter.parse("4-6-5"),
...              sw=SupportWeapon(SwKind.LMG, 2, 8))
>>> [squad.apfp_at(d) for d in (1, 6, 7, 9)]
[6, 6, 2, 0]
>>> squad.apfp_at(1, passenger=True)
6
>>> half = Unit("b", "us", Kind.HALF_SQUAD, counter=Counter.parse("2-6-3"),
...             sw=SupportWeapon(SwKind.MMG, 4, 10))
>>> half.apfp_at(3), half.apfp_at(3, passenger=True)
(4, 2)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ordnance.vv.ap_reach import MG_RANGE, ApWeapon
from ordnance.vv.counters import Counter
from ordnance.vv.numbers import RULES


class Kind(enum.StrEnum):
    SQUAD = "squad"
    HALF_SQUAD = "half-squad"
    LEADER = "leader"
    GUN = "gun"
    AFV = "afv"
    VEHICLE = "vehicle"  # unarmored

    @property
    def infantry(self) -> bool:
        return self in (Kind.SQUAD, Kind.HALF_SQUAD, Kind.LEADER)

    @property
    def has_facing(self) -> bool:
        """AFVs, vehicles and Guns face a hexside (r. 7.1); infantry has no facing."""
        return not self.infantry


class SwKind(enum.StrEnum):
    """Support weapons that fire AP. Mortars (H) are not modelled: their fire is indirect."""

    LMG = "lmg"
    MMG = "mmg"
    HMG = "hmg"
    FLAMETHROWER = "flamethrower"

    @property
    def sw_class(self) -> str:
        """L (light) or H (heavy), r. 12.1."""
        return "H" if self in (SwKind.MMG, SwKind.HMG) else "L"


@dataclass(frozen=True)
class SupportWeapon:
    """A carried support weapon: its kind, APFP and range."""

    kind: SwKind
    apfp: int
    range: int

    def __str__(self) -> str:
        return f"{self.kind} {self.apfp}-{self.range}"


class Mount(enum.StrEnum):
    """The AP weapons a vehicle or Gun may carry, by the name commands use."""

    GUN = "gun"
    MG360 = "mg360"
    FFMG = "ffmg"


@dataclass(frozen=True)
class Weapon:
    """One AP weapon of a vehicle or Gun: which mount, its APFP, and whether it is turreted."""

    mount: Mount
    apfp: int
    turret: bool = False

    @property
    def reach(self) -> ApWeapon:
        """Its range and arc class (VV.AP-range, VV.AP-arc)."""
        if self.mount is Mount.GUN:
            return ApWeapon.TURRETED_GUN if self.turret else ApWeapon.GUN
        return ApWeapon.MG_360 if self.mount is Mount.MG360 else ApWeapon.FF_MG

    @property
    def max_range(self) -> int | None:
        return None if self.mount is Mount.GUN else MG_RANGE


@dataclass(frozen=True)
class Unit:
    """A unit's counter. Infantry: ``counter`` (and ``reduced`` for a squad), ``leadership``
    for a leader, ``sw``. Guns and vehicles: ``weapons``, ``casualty`` and (vehicles)
    ``transport`` class and ``mp``; a Gun's ``shield`` (the Gun Shield symbol)."""

    id: str
    side: str
    kind: Kind
    name: str = ""
    counter: Counter | None = None
    reduced: Counter | None = None
    leadership: int = 0
    elite: bool = False
    sw: SupportWeapon | None = None
    weapons: tuple[Weapon, ...] = ()
    casualty: int = 0
    transport: str | None = None
    mp: int = 0
    shield: bool = False  # a Gun printed with the Gun Shield symbol (r. 1, 13.5, 14.63)

    def printed(self, reduced: bool = False) -> Counter | None:
        """The counter in play: a squad that was reduced shows its half-squad side (``reduced``,
        else :meth:`~ordnance.vv.counters.Counter.halved`)."""
        if reduced and self.kind is Kind.SQUAD and self.counter is not None:
            return self.reduced or self.counter.halved()
        return self.counter

    def casualty_rating(self, reduced: bool = False) -> int:
        counter = self.printed(reduced)
        return counter.casualty if counter is not None else self.casualty

    def plays_as(self, reduced: bool) -> Kind:
        """A reduced squad fires and absorbs as a half squad."""
        return Kind.HALF_SQUAD if reduced and self.kind is Kind.SQUAD else self.kind

    def apfp_at(self, distance: int, *, reduced: bool = False, passenger: bool = False) -> int:
        """What this infantry unit adds to an AP attack at ``distance`` (0: it cannot reach)."""
        counter = self.printed(reduced)
        if counter is None:
            return 0
        own = counter.apfp if distance <= counter.range else 0
        sw = self.sw
        if sw is None or distance > sw.range or (passenger and sw.kind is not SwKind.LMG):
            return own
        kind = self.plays_as(reduced)
        if kind is Kind.SQUAD or (kind is Kind.HALF_SQUAD and sw.kind.sw_class == "L"):
            return own + sw.apfp
        # A half squad's H weapon, and any leader's weapon, fires alone (r. 12.3).
        return max(own, sw.apfp)

    def weapon(self, mount: Mount) -> Weapon | None:
        return next((w for w in self.weapons if w.mount is mount), None)


def overrun_apfp(afv: Unit, passengers: int = 0) -> int:
    """An Overrun's AP attack (r. 19): the AFV's AP weapons combined and doubled, plus its
    passengers' APFP, not doubled. The M4A3E8's 12 + 4 + 3:

    >>> sherman = Unit("m4", "us", Kind.AFV, weapons=(Weapon(Mount.GUN, 12, turret=True),
    ...                Weapon(Mount.MG360, 4), Weapon(Mount.FFMG, 3)))
    >>> overrun_apfp(sherman), overrun_apfp(sherman, passengers=4)
    (38, 42)
    """
    return RULES.overrun_factor * sum(w.apfp for w in afv.weapons) + passengers
