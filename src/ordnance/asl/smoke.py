"""When and how ordnance may place SMOKE and WP (C8.5, C8.51, C8.52, C8.6).

A placement question always gets an answer, never an exception: ``allowed`` says yes or no and the
explanation names the rule that decided.

>>> ruling = smoke_placement("SMOKE", "pfph", after_non_smoke_fire=False)
>>> ruling.allowed, ruling.dispersed, str(ruling.phase), ruling.level
(True, False, 'PFPh', 'ground')
>>> smoke_placement("WP", "AFPh", after_non_smoke_fire=False).dispersed
True
>>> smoke_placement("SMOKE", "AFPh", after_non_smoke_fire=False).allowed
False

Readings where the text is silent:

* WP may be fired in "any friendly fire phase": the PFPh, DFPh and AFPh. The RPh, MPh, RtPh, APh
  and CCPh are refused because they are not fire phases (Defensive First Fire in the MPh is not
  a fire phase of its own).
* The own-hex ban (C8.52) and the Interior Building level rule (C8.52) speak of SMOKE
  ammunition; WP is a smoke round too, so both apply to it.
* ``level``, ``dispersed`` and ``hindrance_levels`` are None when nothing is placed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

from ordnance.asl.notation import Family
from ordnance.core.errors import BadInput
from ordnance.core.rulings import Ruling

SmokeAmmo = Literal["SMOKE", "WP"]

# SMOKE is a Hindrance two levels high (C8.5-effect), whichever kind is placed.
HINDRANCE_LEVELS = 2


class Phase(enum.StrEnum):
    """The eight phases of an ASL Player Turn, by their abbreviations."""

    RPH = "RPh"
    PFPH = "PFPh"
    MPH = "MPh"
    DFPH = "DFPh"
    AFPH = "AFPh"
    RTPH = "RtPh"
    APH = "APh"
    CCPH = "CCPh"

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Case-insensitive: ``pfph``, ``DFPH``...

        >>> Phase.parse("dfph")
        <Phase.DFPH: 'DFPh'>
        >>> Phase.parse("fire")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ordnance.core.errors.BadInput: bad phase 'fire': unknown phase; one of RPh, PFPh, MPh, ...
        """
        found = _BY_LOWER.get(text.strip().lower())
        if found is not None:
            return found
        names = ", ".join(p.value for p in cls)
        raise BadInput("phase", text, f"unknown phase; one of {names}")

    @property
    def is_fire_phase(self) -> bool:
        return self in _FIRE_PHASES


_BY_LOWER = {phase.value.lower(): phase for phase in Phase}  # read once per phase event
_FIRE_PHASES = frozenset({Phase.PFPH, Phase.DFPH, Phase.AFPH})
# SMOKE goes in only at the start of the owner's Prep or Defensive Fire (C8.5-phase).
_SMOKE_PHASES = frozenset({Phase.PFPH, Phase.DFPH})


def parse_smoke_ammo(text: str) -> SmokeAmmo:
    """``SMOKE`` (or its symbol ``s``) or ``WP``, any case.

    >>> parse_smoke_ammo("s"), parse_smoke_ammo("wp")
    ('SMOKE', 'WP')
    """
    try:
        family = Family.from_ammo(text.strip())
    except BadInput:
        family = None
    if family is Family.SMOKE:
        return "SMOKE"
    if family is Family.WP:
        return "WP"
    raise BadInput("ammunition", text, "smoke ammunition is SMOKE (s) or WP")


@dataclass(frozen=True, kw_only=True)
class SmokeRuling(Ruling):
    """Whether a Gun may place SMOKE/WP now, and what it would place."""

    ammo: SmokeAmmo
    phase: Phase
    allowed: bool
    dispersed: bool | None
    level: str | None
    hindrance_levels: int | None


def smoke_placement(
    ammo: str,
    phase: str | Phase,
    after_non_smoke_fire: bool,
    own_hex: bool = False,
    interior_building: bool = False,
) -> SmokeRuling:
    """May a Gun fire SMOKE or WP now, and is the result Dispersed?

    ``after_non_smoke_fire`` says whether anything other than SMOKE has already been fired in this
    phase (by any unit for SMOKE, by a friendly unit for WP). ``interior_building``: the target
    is an Interior Building hex, where the smoke goes to the level targeted rather than ground.

    >>> smoke_placement("SMOKE", "DFPh", after_non_smoke_fire=False).dispersed
    True
    >>> r = smoke_placement("WP", "PFPh", after_non_smoke_fire=False, own_hex=True)
    >>> r.allowed, r.clauses
    (False, ('C8.52',))
    """
    kind = parse_smoke_ammo(ammo)
    when = phase if isinstance(phase, Phase) else Phase.parse(phase)
    refusal = _refusal(kind, when, after_non_smoke_fire, own_hex)
    if refusal is not None:
        clause, sentence = refusal
        return SmokeRuling(
            ammo=kind,
            phase=when,
            allowed=False,
            dispersed=None,
            level=None,
            hindrance_levels=None,
            clauses=(clause,),
            explanation=f"Refused ({clause}): {sentence}",
        )
    return _placed(kind, when, interior_building)


def _refusal(
    kind: SmokeAmmo, when: Phase, after_non_smoke_fire: bool, own_hex: bool
) -> tuple[str, str] | None:
    """The clause and sentence that forbid this placement, or None when it is allowed."""
    if own_hex:
        return "C8.52", f"a Gun may never place {kind} in its own hex."
    if kind == "SMOKE":
        if when not in _SMOKE_PHASES:
            return (
                "C8.5-phase",
                f"ordnance SMOKE is fired only in its owner's PFPh or DFPh, not the {when}.",
            )
        if after_non_smoke_fire:
            return (
                "C8.5-phase",
                f"a unit has already fired something other than SMOKE in this {when}.",
            )
        return None
    if not when.is_fire_phase:
        return (
            "C8.6",
            f"WP is fired only in a friendly fire phase (PFPh, DFPh, AFPh); the {when} is not one.",
        )
    if after_non_smoke_fire:
        return (
            "C8.6",
            f"a friendly unit has already fired something other than SMOKE in this {when}.",
        )
    return None


def _placed(kind: SmokeAmmo, when: Phase, interior_building: bool) -> SmokeRuling:
    dispersed = when is not Phase.PFPH
    strength = "Dispersed (white) " if dispersed else "full-strength "
    rule = "C8.51" if kind == "SMOKE" else "C8.6"
    why = (
        "outside the PFPh it lands Dispersed"
        if dispersed
        else "fired in the PFPh before other fire, it has full effect"
    )
    level = "targeted" if interior_building else "ground"
    where = (
        "at the level targeted (an Interior Building hex)"
        if interior_building
        else "at ground level of the target hex, even if only an upper building level is seen"
    )
    clauses = ("C8.5-phase", "C8.51") if kind == "SMOKE" else ("C8.6",)
    return SmokeRuling(
        ammo=kind,
        phase=when,
        allowed=True,
        dispersed=dispersed,
        level=level,
        hindrance_levels=HINDRANCE_LEVELS,
        clauses=(*clauses, "C8.52", "C8.5-effect"),
        explanation=(
            f"Allowed: {strength}{kind} in the {when} ({rule}: {why}), placed {where} (C8.52);"
            f" it hinders LOS {HINDRANCE_LEVELS} levels high and blocks none (C8.5-effect)."
        ),
    )
