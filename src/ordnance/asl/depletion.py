"""Special-ammunition depletion (C8.9, C8.92) and the breakdown check that rides on the same DR.

A Gun that declares special ammunition before its To Hit (or Placement) DR compares the Original DR
with the Depletion Number D:

========  ===========  =================================================================
Original  ``outcome``  what happens
========  ===========  =================================================================
< D       used         the shot is resolved with the special ammunition (C8.9-lt)
= D       used-last    resolved with it, and the Gun is out of it for the scenario (C8.9-eq)
> D       none         the Gun had none: not fired, except for malfunction (C8.9-gt)
========  ===========  =================================================================

The same Original DR is the Gun's breakdown check when a B# is given (Original DR >= B#).
Intensive Fire lowers the B# but never the Depletion Number (C8.92).

Readings where the texts are silent (reference/asl.md section 3, "the open question"):

* DR above D and at or above the B#: the Gun malfunctions, counts as not having fired and has
  lost that ammunition. C8.9 keeps the malfunction check alive for a DR that is otherwise no
  shot; this is the seed text's own reading.
* DR at most D and at or above the B#: the shot is still resolved with the special ammunition
  before the Gun is marked malfunctioned when ``settings.malf_shot_still_resolves`` (default
  True); when False the Gun malfunctions without resolving the shot. Either way the depletion
  comparison stands, so a DR equal to D still exhausts the ammunition.

>>> ruling = resolve_depletion(7, DR(3, 4))
>>> ruling.outcome, ruling.exhausted, ruling.counts_as_fired
('used-last', True, True)
>>> resolve_depletion(7, DR(6, 5), breakdown=11).malfunctioned
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from ordnance.asl.notation import Family
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.rulings import Ruling

DepletionOutcome = Literal["used", "used-last", "none"]
OUTCOMES: tuple[DepletionOutcome, ...] = ("used", "used-last", "none")

_OUTCOME_CLAUSE: Mapping[DepletionOutcome, str] = {
    "used": "C8.9-lt",
    "used-last": "C8.9-eq",
    "none": "C8.9-gt",
}

# Depletion Numbers, like every number on an ammo token, run 1 to 12 (notation.MAX_NUMBER).
DEPLETION_RANGE = range(1, 13)
# A B# is compared with an Original DR, which runs 2 to 12.
BREAKDOWN_RANGE = range(2, 13)


@dataclass(frozen=True)
class Declaration:
    """One shot's declared ammunition, and whether it was declared before the DR was rolled.

    A declaration made after the roll is refused (C8.1-announce); a dispenser has no Depletion
    Number to declare against (C8.9-scope).

    >>> check_declaration(Declaration(Family.APCR))
    >>> check_declaration(Declaration(Family.APCR, before_roll=False))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.IllegalAction: refused by C8.1 (C8.1-announce): APCR must be declared ...
    """

    family: Family
    before_roll: bool = True


def check_declaration(declaration: Declaration) -> None:
    """Refuse a declaration the rules do not allow; return quietly otherwise."""
    require_depletion_applies(declaration.family)
    if not declaration.before_roll:
        raise IllegalAction(
            "C8.1-announce",
            f"{declaration.family.ammo} must be declared before the To Hit DR is rolled",
        )


def require_depletion_applies(family: Family) -> None:
    """Refuse to deplete a smoke dispenser: it has a Usage Number instead (C8.9-scope, D13.1).

    OBA is not a counter ammunition family, so it never reaches this guard; callers resolving OBA
    simply do not call the depletion procedure.

    >>> require_depletion_applies(Family.SMOKE_DISCHARGER)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.IllegalAction: refused by C8.9 (C8.9-scope): sD is a smoke dispenser: ...
    """
    if family.is_dispenser:
        raise IllegalAction(
            "C8.9-scope",
            f"{family.ammo} is a smoke dispenser: it has a Usage Number, not a Depletion Number",
        )


def effective_breakdown(
    breakdown: int | None, intensive_fire: bool = False, settings: Settings = DEFAULT
) -> int | None:
    """The B# the Original DR is checked against: Intensive Fire lowers it (C8.92 leaves D alone).

    >>> effective_breakdown(12, intensive_fire=True)
    10
    >>> effective_breakdown(None, intensive_fire=True) is None
    True
    """
    if breakdown is None:
        return None
    if breakdown not in BREAKDOWN_RANGE:
        raise BadInput("B#", str(breakdown), "a breakdown number is 2 to 12")
    return breakdown - settings.intensive_fire_breakdown_drop if intensive_fire else breakdown


def depletion_outcome(depletion_number: int, dr: int) -> DepletionOutcome:
    """The C8.9 comparison of a DR with the Depletion Number.

    >>> [depletion_outcome(7, dr) for dr in (6, 7, 8)]
    ['used', 'used-last', 'none']
    """
    if depletion_number not in DEPLETION_RANGE:
        raise BadInput("Depletion Number", str(depletion_number), "a Depletion Number is 1 to 12")
    if dr < depletion_number:
        return "used"
    return "used-last" if dr == depletion_number else "none"


@dataclass(frozen=True, kw_only=True)
class DepletionRuling(Ruling):
    """What one declared special-ammunition DR did to the shot, the ammunition and the Gun.

    ``may_fire_again`` is C8.9-gt's free re-fire: True only when the DR counted as no shot and
    the Gun did not malfunction. A shot that was fired gets further shots only from its ROF,
    which this ruling does not judge. ``breakdown`` is the B# actually checked (after Intensive
    Fire), or None when no B# was given and no breakdown check was made.
    """

    outcome: DepletionOutcome
    ammo: str
    dice: DR
    original_dr: int
    depletion_dr: int
    depletion_number: int
    breakdown: int | None
    intensive_fire: bool
    exhausted: bool
    counts_as_fired: bool
    malfunctioned: bool
    may_fire_again: bool
    resolved_with_special_ammo: bool


def resolve_depletion(
    depletion_number: int,
    roll: DR,
    breakdown: int | None = None,
    intensive_fire: bool = False,
    *,
    declaration: Declaration | None = None,
    depletion_dr: int | None = None,
    settings: Settings = DEFAULT,
) -> DepletionRuling:
    """Resolve the depletion (and breakdown) check of one declared special-ammunition DR.

    ``declaration``, when given, is checked first (C8.1-announce, C8.9-scope) and names the
    ammunition. ``depletion_dr`` replaces the Original DR in the depletion comparison only; Canister
    uses it when the settings read its Final IFT DR (C8.4-dr). The breakdown check always reads the
    Original DR.

    >>> r = resolve_depletion(7, DR(5, 6), breakdown=11)
    >>> r.outcome, r.malfunctioned, r.counts_as_fired, r.may_fire_again, r.exhausted
    ('none', True, False, False, True)
    >>> resolve_depletion(5, DR(2, 2), breakdown=5, intensive_fire=True).depletion_number
    5
    >>> resolve_depletion(13, DR(1, 1))
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad Depletion Number '13': a Depletion Number is 1 to 12
    """
    if declaration is not None:
        check_declaration(declaration)
    ammo = declaration.family.ammo if declaration is not None else "the special ammunition"
    compared = roll.total if depletion_dr is None else depletion_dr
    outcome = depletion_outcome(depletion_number, compared)
    b_number = effective_breakdown(breakdown, intensive_fire, settings)
    malfunctioned = b_number is not None and roll.total >= b_number
    fired = outcome != "none"
    resolved = fired and (not malfunctioned or settings.malf_shot_still_resolves)
    clauses = [_OUTCOME_CLAUSE[outcome]]
    if intensive_fire:
        clauses.append("C8.92")
    return DepletionRuling(
        outcome=outcome,
        ammo=ammo,
        dice=roll,
        original_dr=roll.total,
        depletion_dr=compared,
        depletion_number=depletion_number,
        breakdown=b_number,
        intensive_fire=intensive_fire,
        exhausted=outcome != "used",
        counts_as_fired=fired,
        malfunctioned=malfunctioned,
        may_fire_again=not fired and not malfunctioned,
        resolved_with_special_ammo=resolved,
        clauses=tuple(clauses),
        explanation=_explain(
            outcome,
            ammo=ammo,
            dr=compared,
            number=depletion_number,
            b_number=b_number,
            malfunctioned=malfunctioned,
            settings=settings,
        )
        + _intensive_note(intensive_fire, breakdown, b_number),
    )


def _explain(
    outcome: DepletionOutcome,
    *,
    ammo: str,
    dr: int,
    number: int,
    b_number: int | None,
    malfunctioned: bool,
    settings: Settings,
) -> str:
    head = {
        "used": f"DR {dr} is below the Depletion Number {number}: {ammo} is used for this shot.",
        "used-last": (
            f"DR {dr} equals the Depletion Number {number}: {ammo} is used for this shot, and"
            " it is the last round: none is left for the rest of the scenario."
        ),
        "none": (
            f"DR {dr} exceeds the Depletion Number {number}: there was no {ammo}. The Gun counts"
            f" as not having fired (except for malfunction) and may not use {ammo} again this"
            " scenario."
        ),
    }[outcome]
    return head + " " + _explain_breakdown(outcome, b_number, malfunctioned, settings)


def _explain_breakdown(
    outcome: DepletionOutcome, b_number: int | None, malfunctioned: bool, settings: Settings
) -> str:
    if b_number is None:
        tail = "No B# was given, so no breakdown check was made."
        if outcome == "none":
            tail += " It may fire again now with other ammunition, or not fire."
        return tail
    if not malfunctioned:
        tail = f"The DR is below the B# {b_number}: no malfunction."
        if outcome == "none":
            tail += " It may fire again now with other ammunition, or not fire."
        return tail
    if outcome == "none":
        return (
            f"The DR reaches the B# {b_number}: the Gun malfunctions although it did not fire,"
            " so it may not fire again (reading: C8.9 keeps the malfunction check for a DR that"
            " is otherwise no shot)."
        )
    if settings.malf_shot_still_resolves:
        return (
            f"The DR reaches the B# {b_number}: the shot is resolved with the special ammunition"
            " first, then the Gun malfunctions (reading: setting malf_shot_still_resolves=true)."
        )
    return (
        f"The DR reaches the B# {b_number}: the Gun malfunctions and the shot is not resolved"
        " (reading: setting malf_shot_still_resolves=false); the depletion result still stands."
    )


def _intensive_note(intensive_fire: bool, breakdown: int | None, b_number: int | None) -> str:
    if not intensive_fire:
        return ""
    if breakdown is None:
        return " Intensive Fire leaves the Depletion Number unchanged (C8.92)."
    return (
        f" Intensive Fire lowered the B# from {breakdown} to {b_number} but leaves the Depletion"
        " Number unchanged (C8.92)."
    )


def resolve_shots(
    shots: Iterable[tuple[Declaration, DR]],
    depletion_numbers: Mapping[Family, int],
    breakdown: int | None = None,
    *,
    settings: Settings = DEFAULT,
) -> list[DepletionRuling | None]:
    """The shots of one Gun with multiple ROF, each with its own declaration (C8.1-rof).

    Each shot declares its ammunition afresh and independently of the shots before it. A family
    without a Depletion Number (ordinary AP/HE) needs no depletion check: its entry is None. An
    ammunition exhausted by an earlier shot is refused (C8.9-eq / C8.9-gt), and so is any shot
    after a malfunction (every shot's Original DR is checked against ``breakdown``).

    >>> rulings = resolve_shots(
    ...     [(Declaration(Family.APCR), DR(2, 3)), (Declaration(Family.HE), DR(4, 4))],
    ...     {Family.APCR: 6},
    ... )
    >>> [r.outcome if r else None for r in rulings]
    ['used', None]
    """
    exhausted: dict[Family, str] = {}
    rulings: list[DepletionRuling | None] = []
    malfunctioned = False
    for declaration, roll in shots:
        check_declaration(declaration)
        if malfunctioned:
            raise IllegalAction("C8.9-gt", "a malfunctioned Gun may not fire again")
        if declaration.family in exhausted:
            raise IllegalAction(
                exhausted[declaration.family],
                f"the Gun has no {declaration.family.ammo} left for this scenario",
            )
        number = depletion_numbers.get(declaration.family)
        if number is None:
            b_number = effective_breakdown(breakdown, settings=settings)
            malfunctioned = b_number is not None and roll.total >= b_number
            rulings.append(None)
            continue
        ruling = resolve_depletion(
            number, roll, breakdown, declaration=declaration, settings=settings
        )
        rulings.append(ruling)
        malfunctioned = ruling.malfunctioned
        if ruling.exhausted:
            exhausted[declaration.family] = _OUTCOME_CLAUSE[ruling.outcome]
    return rulings
