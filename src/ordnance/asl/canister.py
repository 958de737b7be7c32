"""Canister fire (C8.4, C8.41, C8.42): an IFT attack with no To Hit DR.

The one IFT DR does three jobs (C8.4-dr): it is the attack's DR, the Canister depletion check and
the Gun's breakdown check. Canister FP is halved as Area Fire after movement (C8.4-halve); the hex
adjacent to the firer along the LOS is attacked halved, or quartered when the LOS runs along a
hexside there (C8.41).

>>> ruling = canister_attack(12, DR(3, 4))
>>> ruling.column, ruling.final_dr, ruling.result
(12, 7, '1MC')
>>> ruling = canister_attack(16, DR(2, 3), moved=True, adjacent="hex")
>>> ruling.fp, ruling.column, ruling.result
(Fraction(8, 1), 8, '2MC')

Readings where the text is silent:

* Area Fire for two reasons halves once, and the along-hexside quartering replaces the halving
  (``settings.canister_area_fire_once``); when that setting is False the factors multiply.
* The depletion check reads the Original IFT DR (``settings.canister_depletion_on_original``),
  the breakdown check always does.
* A DR that malfunctions the Gun still resolves the attack only when
  ``settings.malf_shot_still_resolves`` (as for any special ammunition, depletion.py), whether or
  not a Canister Depletion Number is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from ordnance.asl.depletion import (
    Declaration,
    DepletionOutcome,
    effective_breakdown,
    resolve_depletion,
)
from ordnance.asl.ift import IFT
from ordnance.asl.notation import Family
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.rulings import DRM, Ruling, total

Adjacent = Literal["hex", "hexside"]
ADJACENT_CHOICES: tuple[Adjacent, ...] = ("hex", "hexside")

HALF = Fraction(1, 2)
QUARTER = Fraction(1, 4)

# What canister may be fired for; the C8.42 list is refused, the rest is an attack on units.
_FORBIDDEN_PURPOSES = {"rubble": "rubble a building", "fire": "set a Fire", "wire": "clear Wire"}
_ALLOWED_PURPOSES = ("attack",)


def canister_may(purpose: str) -> None:
    """Refuse the uses C8.42 forbids; return quietly for an ordinary attack.

    >>> canister_may("attack")
    >>> canister_may("Wire")
    Traceback (most recent call last):
    ...
    ordnance.core.errors.IllegalAction: refused by C8.42: Canister cannot clear Wire
    """
    key = purpose.strip().lower()
    if key in _FORBIDDEN_PURPOSES:
        raise IllegalAction("C8.42", f"Canister cannot {_FORBIDDEN_PURPOSES[key]}")
    if key not in _ALLOWED_PURPOSES:
        known = ", ".join((*_ALLOWED_PURPOSES, *_FORBIDDEN_PURPOSES))
        raise BadInput("purpose", purpose, f"unknown purpose; one of {known}")


def json_number(value: Fraction) -> int | float:
    """A whole Fraction as an int, any other as a float (halves and quarters are exact).

    >>> json_number(Fraction(8)), json_number(Fraction(7, 2))
    (8, 3.5)
    """
    return int(value) if value.denominator == 1 else float(value)


@dataclass(frozen=True, kw_only=True)
class CanisterRuling(Ruling):
    """One Canister attack: the FP after Area Fire, the IFT column and DRs, the result, and what
    the same DR did to the Canister supply and the Gun.

    ``fire_factor`` is what the base FP was multiplied by (1, 1/2, 1/4...). ``depletion`` is the
    C8.9 outcome when a Canister Depletion Number was given; when it is ``"none"`` the Canister
    was never fired (``counts_as_fired`` False) and the result is ``"-"``.
    """

    base_fp: Fraction
    fire_factor: Fraction
    fp: Fraction
    column: int | None
    dice: DR
    original_dr: int
    final_dr: int
    drms: tuple[DRM, ...]
    result: str
    adjacent: Adjacent | None
    armored: bool
    depletion: DepletionOutcome | None
    depletion_number: int | None
    exhausted: bool
    counts_as_fired: bool
    may_fire_again: bool
    breakdown: int | None
    malfunctioned: bool

    def to_json(self) -> dict[str, Any]:
        """As :meth:`Ruling.to_json`, with the FPs as JSON numbers rather than fraction text."""
        data = super().to_json()
        data["base_fp"] = json_number(self.base_fp)
        data["fp"] = json_number(self.fp)
        return data


@dataclass(frozen=True)
class _Supply:
    """What the IFT DR did as the depletion and breakdown check (C8.4-dr)."""

    depletion: DepletionOutcome | None
    exhausted: bool
    fired: bool
    resolved: bool
    breakdown: int | None
    malfunctioned: bool
    clauses: tuple[str, ...]
    explanation: str


def canister_attack(
    fp: int | Fraction,
    roll: DR,
    *,
    moved: bool = False,
    manned_after_moving: bool = False,
    drms: tuple[DRM, ...] = (),
    adjacent: Adjacent | None = None,
    armored: bool = False,
    depletion_number: int | None = None,
    breakdown: int | None = None,
    settings: Settings = DEFAULT,
) -> CanisterRuling:
    """Resolve one Canister attack on the IFT with the dice ``roll``.

    ``moved``: the AFV moved this Player Turn; ``manned_after_moving``: Infantry moved to and
    manned the Gun in the MPh and fire it in the AFPh (either halves, C8.4-halve). ``adjacent``:
    this attack is on the hex next to the firer along the LOS of a same-level shot (``"hex"``), or
    on both such hexes when the LOS runs along their hexside (``"hexside"``) (C8.41).

    >>> r = canister_attack(12, DR(6, 6), depletion_number=10)
    >>> r.depletion, r.counts_as_fired, r.result
    ('none', False, '-')
    >>> canister_attack(36, DR(1, 1), armored=True).result
    '-'
    """
    base = Fraction(fp)
    if base <= 0:
        raise BadInput("FP", str(fp), "Canister FP must be positive")
    if adjacent is not None and adjacent not in ADJACENT_CHOICES:
        raise BadInput("adjacent", str(adjacent), "expected hex or hexside")
    factor, fire_notes = fire_factor(moved, manned_after_moving, adjacent, settings)
    attack_fp = base * factor
    final = roll.total + total(drms)
    supply = _supply(roll, final, depletion_number, breakdown, settings)
    column = None if armored or not supply.resolved else IFT.column_for(attack_fp)
    result = "-" if column is None else IFT.result(column, final)
    clauses = _clauses(moved or manned_after_moving, adjacent, armored, supply, result)
    explanation = " ".join(
        [
            *fire_notes,
            _dr_note(roll, final, drms),
            _result_note(attack_fp, column, result, armored, supply),
            supply.explanation,
        ]
    ).strip()
    return CanisterRuling(
        base_fp=base,
        fire_factor=factor,
        fp=attack_fp,
        column=column,
        dice=roll,
        original_dr=roll.total,
        final_dr=final,
        drms=drms,
        result=result,
        adjacent=adjacent,
        armored=armored,
        depletion=supply.depletion,
        depletion_number=depletion_number,
        exhausted=supply.exhausted,
        counts_as_fired=supply.fired,
        may_fire_again=not supply.fired and not supply.malfunctioned,
        breakdown=supply.breakdown,
        malfunctioned=supply.malfunctioned,
        clauses=clauses,
        explanation=explanation,
    )


def fire_factor(
    moved: bool,
    manned_after_moving: bool,
    adjacent: Adjacent | None,
    settings: Settings = DEFAULT,
) -> tuple[Fraction, list[str]]:
    """What Area Fire multiplies Canister FP by (C8.4-halve, C8.41), and why.

    >>> fire_factor(True, False, "hexside")[0], fire_factor(False, False, None)[0]
    (Fraction(1, 4), Fraction(1, 1))
    >>> fire_factor(True, False, "hex", Settings(canister_area_fire_once=False))[0]
    Fraction(1, 4)
    """
    factors: list[Fraction] = []
    notes: list[str] = []
    if moved or manned_after_moving:
        who = (
            "The AFV moved this Player Turn"
            if moved
            else "Infantry moved to and manned the Gun in the MPh and fire it in the AFPh"
        )
        factors.append(HALF)
        notes.append(f"{who}, so the FP is halved as Area Fire (C8.4-halve).")
    if adjacent == "hex":
        factors.append(HALF)
        notes.append(
            "The adjacent hex along the LOS is attacked as Area Fire: halved, and never"
            " doubled for Point Blank Fire (C8.41)."
        )
    elif adjacent == "hexside":
        factors.append(QUARTER)
        notes.append(
            "The LOS runs along a hexside next to the firer: both adjacent hexes are attacked,"
            " quartered instead of halved, without PBF doubling (C8.41)."
        )
    if not factors:
        return Fraction(1), notes
    if settings.canister_area_fire_once:
        if len(factors) > 1:
            notes.append(
                "Area Fire for two reasons is applied once; quartering replaces halving"
                " (reading: setting canister_area_fire_once=true)."
            )
        return min(factors), notes
    product = Fraction(1)
    for factor in factors:
        product *= factor
    if len(factors) > 1:
        notes.append(
            "Each reason for Area Fire applies its own factor"
            " (reading: setting canister_area_fire_once=false)."
        )
    return product, notes


def _supply(
    roll: DR,
    final: int,
    depletion_number: int | None,
    breakdown: int | None,
    settings: Settings,
) -> _Supply:
    """The IFT DR as the Canister depletion and breakdown check (C8.4-dr)."""
    if depletion_number is None:
        b_number = effective_breakdown(breakdown, settings=settings)
        malfunctioned = b_number is not None and roll.total >= b_number
        note = ""
        if malfunctioned:
            resolves = settings.malf_shot_still_resolves
            note = (
                f"The Original DR reaches the B# {b_number}: the Gun malfunctions"
                + (" after the attack is resolved" if resolves else " and the attack is void")
                + f" (C8.4-dr; reading: malf_shot_still_resolves={_flag(resolves)})."
            )
        return _Supply(
            depletion=None,
            exhausted=False,
            fired=True,
            resolved=not malfunctioned or settings.malf_shot_still_resolves,
            breakdown=b_number,
            malfunctioned=malfunctioned,
            clauses=("C8.4-dr",) if b_number is not None else (),
            explanation=note,
        )
    ruling = resolve_depletion(
        depletion_number,
        roll,
        breakdown,
        declaration=Declaration(Family.CANISTER),
        depletion_dr=None if settings.canister_depletion_on_original else final,
        settings=settings,
    )
    which = "Original" if settings.canister_depletion_on_original else "Final"
    return _Supply(
        depletion=ruling.outcome,
        exhausted=ruling.exhausted,
        fired=ruling.counts_as_fired,
        resolved=ruling.resolved_with_special_ammo,
        breakdown=ruling.breakdown,
        malfunctioned=ruling.malfunctioned,
        clauses=("C8.4-dr", *ruling.clauses),
        explanation=(
            f"Depletion check on the {which} IFT DR (C8.4-dr; reading: setting"
            f" canister_depletion_on_original={_flag(settings.canister_depletion_on_original)}):"
            f" {ruling.explanation}"
        ),
    )


def _dr_note(roll: DR, final: int, drms: tuple[DRM, ...]) -> str:
    """No To Hit DR: the IFT DR with its TEM, Hindrance and CA-change DRMs (C8.4-noth)."""
    if not drms:
        return f"No To Hit DR is needed; IFT DR {roll} = {roll.total} (C8.4-noth)."
    listed = ", ".join(str(drm) for drm in drms)
    return (
        f"No To Hit DR is needed; IFT DR {roll} = {roll.total}, {listed}:"
        f" Final DR {final} (C8.4-noth)."
    )


def _flag(value: bool) -> str:
    return str(value).lower()


def _result_note(
    fp: Fraction, column: int | None, result: str, armored: bool, supply: _Supply
) -> str:
    shown = json_number(fp)
    if not supply.fired:
        return "No Canister was fired, so it has no effect."
    if not supply.resolved:
        return "The attack is not resolved."
    if armored:
        return (
            "Canister has no effect on an armored target (C8.4-armor); its Vulnerable PRC are"
            " not armored and are attacked normally (resolve them as an unarmored target)."
        )
    if column is None:
        return f"{shown} FP is below the IFT's 1 FP column: no effect."
    text = f"{shown} FP uses the {column} FP column: {result}."
    if result.endswith("KIA"):
        text += (
            " A SW in the hex is destroyed with the same chance as by an HE KIA; Canister never"
            " rubbles, sets a Fire or clears Wire (C8.42)."
        )
    return text


def _clauses(
    halved: bool, adjacent: Adjacent | None, armored: bool, supply: _Supply, result: str
) -> tuple[str, ...]:
    clauses = ["C8.4-noth"]
    if halved:
        clauses.append("C8.4-halve")
    if adjacent is not None:
        clauses.append("C8.41")
    if armored:
        clauses.append("C8.4-armor")
    clauses.extend(supply.clauses)
    if result.endswith("KIA"):
        clauses.append("C8.42")
    return tuple(clauses)
