"""HEAT (C8.3, C8.31): when it is available, what it may be fired at, and its HE Equivalency.

The dates, target lists and the HE Equivalency table are data (``data/he_equivalency.toml``,
with its source note); this module holds the procedures.

>>> heat_availability("german", "1942-05").available
True
>>> heat_availability("russian", "1942-12").available
False
>>> heat_target("infantry", "building").allowed, heat_target("infantry", "woods").allowed
(True, False)
>>> ruling = he_equivalency("PSK")
>>> ruling.fp, ruling.residual
(12, True)
>>> he_equivalency("ordnance", he_fp=12).fp
8
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ordnance.asl.dates import COMMONWEALTH, ScenarioDate, parse_nationality
from ordnance.asl.ift import IFT
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.data import load_toml
from ordnance.core.errors import BadInput
from ordnance.core.rulings import Ruling

_RULES = frozenset({"fixed", "calibre", "only_at", "setting", "ift_left"})
_NEEDS = {
    "fixed": ("fp",),
    "calibre": ("split_mm", "fp_below", "fp_from"),
    "only_at": ("only_mm", "fp"),
    "setting": ("setting",),
    "ift_left": (),
}
# What a weapon's rule finds: the FP (None when there is none) and the sentence saying why.
_Found = tuple[int | None, str]


# ---------------------------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class Weapon:
    """One column of the HE Equivalency table, as ``he_equivalency.toml`` describes it."""

    name: str
    label: str  # how explanations print it (H#[9] for H9)
    family: str
    rule: str
    residual: bool
    clauses: tuple[str, ...]
    fp: int | None = None
    split_mm: int | None = None
    fp_below: int | None = None
    fp_from: int | None = None
    only_mm: int | None = None
    setting: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class HeatData:
    """Everything the HEAT rules look up."""

    starts: Mapping[str, ScenarioDate]
    always: frozenset[str]
    when_covered: frozenset[str]
    qualifying_tem: tuple[str, ...]
    all_tem: frozenset[str]
    weapons: Mapping[str, Weapon]
    not_weapons: frozenset[str]
    not_weapon_hint: str
    source: str


@cache
def load() -> HeatData:
    """Read and check ``he_equivalency.toml`` (once)."""
    data = load_toml("ordnance.asl", "he_equivalency.toml")
    starts = {parse_nationality(n): ScenarioDate.parse(d) for n, d in data["heat_start"].items()}
    targets = data["heat_targets"]
    qualifying = tuple(str(t) for t in targets["qualifying_tem"])
    others = frozenset(str(t) for t in targets["other_tem"])
    if others.intersection(qualifying):
        raise ValueError("he_equivalency.toml: a TEM is both qualifying and not")
    weapons = {name: _weapon(name, raw) for name, raw in data["weapons"].items()}
    return HeatData(
        starts=starts,
        always=frozenset(str(t) for t in targets["always"]),
        when_covered=frozenset(str(t) for t in targets["when_covered"]),
        qualifying_tem=qualifying,
        all_tem=others.union(qualifying),
        weapons=weapons,
        not_weapons=frozenset(str(w).upper() for w in data["not_weapons"]["words"]),
        not_weapon_hint=str(data["not_weapons"]["hint"]),
        source=str(data["source"]),
    )


def _weapon(name: str, raw: dict[str, Any]) -> Weapon:
    rule = str(raw["rule"])
    if rule not in _RULES:
        raise ValueError(f"he_equivalency.toml: {name} has unknown rule {rule!r}")
    missing = [key for key in _NEEDS[rule] if key not in raw]
    if missing:
        raise ValueError(f"he_equivalency.toml: {name} ({rule}) lacks {', '.join(missing)}")
    setting = raw.get("setting")
    if setting is not None and not hasattr(DEFAULT, setting):
        raise ValueError(f"he_equivalency.toml: {name} names unknown setting {setting!r}")
    return Weapon(
        name=name,
        label=str(raw.get("label", name)),
        family=str(raw["family"]),
        rule=rule,
        residual=bool(raw["residual"]),
        clauses=tuple(str(c) for c in raw["clauses"]),
        fp=raw.get("fp"),
        split_mm=raw.get("split_mm"),
        fp_below=raw.get("fp_below"),
        fp_from=raw.get("fp_from"),
        only_mm=raw.get("only_mm"),
        setting=setting,
        aliases=tuple(str(a) for a in raw.get("aliases", ())),
    )


DATA = load()


# ---------------------------------------------------------------------------------------------
# Availability (C8.3)


@dataclass(frozen=True, kw_only=True)
class HeatRuling(Ruling):
    """Whether a side's HEAT is available on a date, and whether a Depletion Number governs it."""

    available: bool
    depletion_number_applies: bool


def heat_availability(nationality: str, date: ScenarioDate | str, scw: bool = False) -> HeatRuling:
    """Is HEAT available to ``nationality``'s ordnance (or SCW, with ``scw``) on ``date``?

    Readings:

    - Commonwealth nationalities take the British date: C8.2-service counts Commonwealth
      Guns as British ordnance, and C8.3 names Britain only.
    - SCW: C8.3-scw fires their HEAT without a Depletion Number, their X# standing in for
      supply. The C8.3 start dates are read as dates for ordnance HEAT; an SCW that is in the
      order of battle has its HEAT (a bazooka in Tunisia in late 1942 is not refused).
    - A nationality C8.3 names no date for has no chart answer: the H number on the counter
      decides, so ``available`` is False with that explanation.

    >>> heat_availability("canadian", "1943-01").clauses
    ('C8.3-heat-date', 'C8.2-service')
    >>> ruling = heat_availability("american", "1942-11", scw=True)
    >>> ruling.available, ruling.depletion_number_applies
    (True, False)
    """
    side = parse_nationality(nationality)
    when = date if isinstance(date, ScenarioDate) else ScenarioDate.parse(date)
    if scw:
        return HeatRuling(
            available=True,
            depletion_number_applies=False,
            clauses=("C8.3-scw",),
            explanation="SCW fire HEAT with no Depletion Number (their X# already covers"
            " supply) and to the same effect as other HEAT; C8.3's start dates concern"
            " ordnance, so the SCW's presence decides.",
        )
    return _ordnance_heat(side, when)


def _ordnance_heat(side: str, when: ScenarioDate) -> HeatRuling:
    follows = "british" if side in COMMONWEALTH else side
    start = DATA.starts.get(follows)
    if start is None:
        return HeatRuling(
            available=False,
            depletion_number_applies=True,
            clauses=("C8.3-heat-date",),
            explanation=f"C8.3 sets no HEAT date for {side} ordnance; the H number on the"
            " counter decides.",
        )
    clauses: tuple[str, ...] = ("C8.3-heat-date",)
    service = ""
    if follows != side:
        clauses += ("C8.2-service",)
        service = f" ({side} Guns count as British ordnance)"
    available = when >= start
    verdict = "available" if available else "not available yet"
    return HeatRuling(
        available=available,
        depletion_number_applies=True,
        clauses=clauses,
        explanation=f"HEAT for {follows} ordnance starts {start.label}{service}; in"
        f" {when.label} it is {verdict}.",
    )


# ---------------------------------------------------------------------------------------------
# Targets (C8.31-target)


@dataclass(frozen=True, kw_only=True)
class HeatTargetRuling(Ruling):
    """May HEAT be fired at this target in this terrain?"""

    allowed: bool
    target: str
    tem: str | None


def heat_target(target: str, tem: str | None = None) -> HeatTargetRuling:
    """Check C8.31-target: vehicles and Guns always; Infantry/Cavalry only behind certain TEM.

    ``tem`` is the terrain whose TEM the target receives; Infantry and Cavalry need it named
    (``open`` when none). Only the four TEMs the rule names qualify; other terrain words are
    accepted and refused, with no analogy drawn (bocage, for one, is not in the list: say
    ``wall`` if your group plays it as one).

    >>> heat_target("Vehicle").allowed
    True
    >>> print(heat_target("cavalry", "open").explanation)  # doctest: +NORMALIZE_WHITESPACE
    HEAT may be fired at cavalry only when it receives a wall, building, rubble or pillbox TEM;
    open does not qualify.
    """
    if type(target) is not str or not (tem is None or type(tem) is str):
        return _heat_target.__wrapped__(target, tem)  # not a key for the cache (a stored log's)
    return _heat_target(target, tem)


# Every HEAT shot names its target kind (and maybe TEM): each pair is judged once. Safe to
# share: a pure function of two strings; the ruling is frozen.
@lru_cache(maxsize=256)
def _heat_target(target: str, tem: str | None) -> HeatTargetRuling:
    what = _word("target", target, DATA.always | DATA.when_covered)
    where = _word("TEM", tem, DATA.all_tem) if tem is not None else None
    clauses = ("C8.31-target",)
    if what in DATA.always:
        return HeatTargetRuling(
            allowed=True,
            target=what,
            tem=where,
            clauses=clauses,
            explanation=f"HEAT may always be fired at a {what}.",
        )
    if where is None:
        raise BadInput(
            "option", "--tem", f"a {what} target needs the TEM it receives, e.g. building or open"
        )
    allowed = where in DATA.qualifying_tem
    *first, last = DATA.qualifying_tem
    named = f"{', '.join(first)} or {last}"
    verdict = "qualifies" if allowed else "does not qualify"
    return HeatTargetRuling(
        allowed=allowed,
        target=what,
        tem=where,
        clauses=clauses,
        explanation=f"HEAT may be fired at {what} only when it receives a {named} TEM;"
        f" {where} {verdict}.",
    )


def _word(what: str, text: str, known: frozenset[str]) -> str:
    word = text.strip().lower()
    if word not in known:
        raise BadInput(what, text, f"unknown {what}; one of {', '.join(sorted(known))}")
    return word


# ---------------------------------------------------------------------------------------------
# HE Equivalency (C8.31-heq, C8.31-residual, C8.31-atr)


@dataclass(frozen=True, kw_only=True)
class HeEquivalencyRuling(Ruling):
    """The HE Equivalency FP of one attack (None when it has none) and its Residual FP."""

    weapon: str
    fp: int | None
    residual: bool


def parse_weapon(text: str) -> Weapon:
    """Find a weapon of the HE Equivalency table by name or alias, ignoring case.

    >>> parse_weapon("h#[9]").name, parse_weapon("pfk").name, parse_weapon("PF").name
    ('H9', 'PFk', 'PF')
    >>> parse_weapon("HMG")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad weapon 'HMG': MGs (12.7mm and 15mm included) have no ...
    """
    key = text.strip().upper()
    for weapon in DATA.weapons.values():
        if key in {weapon.name.upper(), *(a.upper() for a in weapon.aliases)}:
            return weapon
    if key in DATA.not_weapons:
        raise BadInput("weapon", text, DATA.not_weapon_hint)
    names = ", ".join(DATA.weapons)
    raise BadInput("weapon", text, f"unknown weapon; one of {names}")


def he_equivalency(
    weapon: str,
    caliber_mm: int | None = None,
    he_fp: int | None = None,
    settings: Settings = DEFAULT,
) -> HeEquivalencyRuling:
    """The HE Equivalency FP of an AP-type or HEAT attack, and whether it may leave Residual FP.

    ``caliber_mm`` is needed for AP and ATR, ``he_fp`` (the Gun's normal HE FP) for other
    ordnance HEAT; H#[9]'s value is the setting ``h9_he_equivalency``.

    >>> he_equivalency("AP", caliber_mm=36).fp, he_equivalency("AP", caliber_mm=37).fp
    (1, 2)
    >>> he_equivalency("ATR", caliber_mm=14).fp is None
    True
    >>> he_equivalency("H#[9]", settings=Settings(h9_he_equivalency=8)).fp
    8
    >>> he_equivalency("AP")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad option '--caliber': AP needs the Gun's calibre in mm; ...
    """
    found = parse_weapon(weapon)
    fp, sentence = _FINDERS[found.rule](found, caliber_mm, he_fp, settings)
    return HeEquivalencyRuling(
        weapon=found.name,
        fp=fp,
        # An attack with no HE Equivalency FP has nothing to leave behind.
        residual=found.residual and fp is not None,
        clauses=found.clauses,
        explanation=f"{sentence} {_residual_sentence(found, fp)}",
    )


def _residual_sentence(weapon: Weapon, fp: int | None) -> str:
    if fp is None and weapon.residual:
        return "With no HE Equivalency FP it leaves no Residual FP either."
    if weapon.residual:
        return "It may leave Residual FP under the normal rules."
    if weapon.family == "AP":
        return "AP-type attacks never leave Residual FP."
    return f"{weapon.label} HEAT cannot leave Residual FP."


def _needed(value: int | None, option: str, weapon: Weapon, what: str) -> int:
    if value is None:
        raise BadInput("option", option, f"{weapon.name} needs {what}; none was given")
    if value < 1:
        raise BadInput(option.removeprefix("--"), str(value), "must be a whole number above 0")
    return value


def _fixed(weapon: Weapon, _cal: int | None, _fp: int | None, _s: Settings) -> _Found:
    assert weapon.fp is not None
    note = " (all APCR/APDS count as AP under 37mm)" if weapon.family == "AP" else ""
    return weapon.fp, f"{weapon.name}{note}: HE Equivalency {weapon.fp} FP."


def _by_calibre(weapon: Weapon, cal: int | None, _fp: int | None, _s: Settings) -> _Found:
    assert weapon.split_mm is not None and weapon.fp_below is not None
    assert weapon.fp_from is not None
    mm = _needed(cal, "--caliber", weapon, "the Gun's calibre in mm")
    small = mm < weapon.split_mm
    fp = weapon.fp_below if small else weapon.fp_from
    side = "under" if small else "at or above"
    return fp, f"{weapon.name} of {mm}mm ({side} {weapon.split_mm}mm): HE Equivalency {fp} FP."


def _only_at(weapon: Weapon, cal: int | None, _fp: int | None, _s: Settings) -> _Found:
    assert weapon.only_mm is not None and weapon.fp is not None
    mm = _needed(cal, "--caliber", weapon, "its calibre in mm")
    if mm != weapon.only_mm:
        return None, (
            f"An {weapon.name} has the AP HE Equivalency only at {weapon.only_mm}mm;"
            f" a {mm}mm {weapon.name} has none."
        )
    return weapon.fp, f"A {mm}mm {weapon.name}: HE Equivalency {weapon.fp} FP (as AP under 37mm)."


def _from_setting(weapon: Weapon, _cal: int | None, _fp: int | None, s: Settings) -> _Found:
    assert weapon.setting is not None
    fp = int(getattr(s, weapon.setting))
    return fp, (
        f"{weapon.label} HEAT (German 37mm AT and AA Guns): HE Equivalency {fp} FP"
        f" (setting {weapon.setting})."
    )


def _ift_left(weapon: Weapon, _cal: int | None, he: int | None, _s: Settings) -> _Found:
    fp = _needed(he, "--he-fp", weapon, "the Gun's normal HE FP")
    used = IFT.column_for(fp)
    left = IFT.column_left_of(fp)
    lead = f"Ordnance HEAT takes the IFT column left of the {used} FP column its HE uses"
    if left is None:
        return None, f"{lead}; there is none, so it has no HE Equivalency."
    return left, f"{lead}: HE Equivalency {left} FP."


_FINDERS = {
    "fixed": _fixed,
    "calibre": _by_calibre,
    "only_at": _only_at,
    "setting": _from_setting,
    "ift_left": _ift_left,
}
