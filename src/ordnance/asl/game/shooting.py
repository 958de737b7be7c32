"""Whether an ASL unit may shoot now, with what supply, and the data its ``fired`` event holds
(shared by :mod:`.fire` and :mod:`.canister`)."""

from __future__ import annotations

from typing import Any, NamedTuple

from ordnance.asl.capabilities import Capability, evaluate
from ordnance.asl.dates import COMMONWEALTH
from ordnance.asl.game.fire_at import ROF_RULE
from ordnance.asl.game.rulings import SEQUENCE
from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.state import AslState
from ordnance.asl.heat import DATA as HEAT_DATA
from ordnance.asl.heat import heat_availability
from ordnance.asl.notation import Family
from ordnance.asl.smoke import Phase
from ordnance.asl.supply import chart_number
from ordnance.core.errors import IllegalAction

_SPECIAL_AP = frozenset({Family.APCR, Family.APDS})


def may_fire_now(state: AslState, side: str) -> None:
    """Refuse fire outside the side's fire phases (the A3 reading of the module docstring)."""
    phasing = side == state.player
    phase = state.phase
    if phase is Phase.MPH:
        allowed = True
    elif phase is Phase.PFPH or phase is Phase.AFPH:
        allowed = phasing
    else:
        allowed = phase is Phase.DFPH and not phasing
    if not allowed:
        role = "phasing" if phasing else "non-phasing"
        raise IllegalAction(
            SEQUENCE, f"the {role} side ({side}) does not fire in the {state.phase}"
        )


def one_shot(state: AslState, unit_id: str) -> None:
    """One shot per unit and phase, none in the AFPh after Prep Fire (the A3 reading), unless
    the unit's last shot this phase kept its Multiple ROF (C8.1-rof, :mod:`.fire_at`).

    A shot that counts as not fired (C8.9-gt: the Gun had none) is not listed among the
    phase's shots, so the Gun may fire again.
    """
    last = None
    for shot in state.shots:
        if shot.unit == unit_id:
            last = shot
    if last is not None and not last.rof_kept:
        rof = state.sheet.units[unit_id].rof
        why = (
            "the scenario gives it no Multiple Rate of Fire ('rof')"
            if rof is None
            else f"its last shot did not keep its Multiple Rate of Fire (ROF {rof})"
        )
        raise IllegalAction(
            SEQUENCE,
            f"{unit_id} has already fired in this {state.phase}: one shot per phase (A3), and a"
            f" further shot needs ROF kept ({ROF_RULE}); {why}",
        )
    if state.phase is Phase.AFPH and state.status[unit_id].prep_fired:
        raise IllegalAction(
            SEQUENCE, f"{unit_id} fired in this Player Turn's PFPh: it may not fire in the AFPh"
        )


# --- what a unit may fire --------------------------------------------------------------------


class Supply(NamedTuple):
    """The Depletion Number a declared ammunition is checked against (None: no check), why,
    and the clauses that decided it."""

    number: int | None
    explanation: str
    clauses: tuple[str, ...]


def depletion_number(state: AslState, unit: Unit, family: Family) -> Supply:
    """What the declared ammunition is checked against, or the refusal.

    Refuses what the side record (C8.0, C8.9-eq/gt), the date (C8.1-date, C8.91), the chart
    (C8.2-chart) or the HEAT dates (C8.3-heat-date) rule out.
    """
    sheet = state.sheet
    if unit.kind == "scw":
        return _SCW_SUPPLY
    if unit.kind == "atr":
        return _ATR_SUPPLY
    tokens = [t for t in unit.tokens if t.family is family]
    if not tokens and (family is Family.AP or family is Family.HE):
        return _ORDINARY_SUPPLY[family]
    state.record(unit.id).check_usable(unit.id, family)
    capability = capability_of(state, unit, tokens)
    if family is Family.HEAT:
        _check_heat_date(state, unit)
    if capability.depletion_number is None and family in _SPECIAL_AP:
        chart = chart_number(
            sheet.nationality[unit.side],
            unit.size or "",
            sheet.date,
            unit.elite,
            sheet.settings,
            origin=unit.origin,
        )
        if not chart.available:
            raise IllegalAction("C8.2-chart", chart.explanation)
        return Supply(chart.depletion_number, chart.explanation, chart.clauses)
    return Supply(capability.depletion_number, capability.explanation, capability.clauses)


# The answers that need nothing but the unit's kind or the family (a Supply is immutable, so
# the same one serves every shot).
_SCW_SUPPLY = Supply(None, "An SCW fires HEAT without a Depletion Number.", ("C8.3-scw",))
_ATR_SUPPLY = Supply(None, "An ATR fires AP with no Depletion Number.", ())
_ORDINARY_SUPPLY = {
    family: Supply(None, f"Ordinary {family.ammo}: the counter limits none.", ("C8.8",))
    for family in (Family.AP, Family.HE)
}


def capability_of(state: AslState, unit: Unit, tokens: list[Any]) -> Capability:
    context = state.sheet.context(unit)
    capabilities = [evaluate(t, context, state.sheet.settings) for t in tokens]
    for capability in capabilities:
        if capability.available:
            return capability
    first = capabilities[0]
    clause = "C8.1-date" if first.family in _SPECIAL_AP else "C8.91"
    raise IllegalAction(clause, first.explanation)


def _check_heat_date(state: AslState, unit: Unit) -> None:
    nationality = state.sheet.nationality[unit.side]
    ruling = heat_availability(nationality, state.sheet.date)
    # A nationality C8.3 gives no date for leaves it to the counter's own H number.
    dated = ("british" if nationality in COMMONWEALTH else nationality) in HEAT_DATA.starts
    if dated and not ruling.available:
        raise IllegalAction("C8.3-heat-date", ruling.explanation)


def breakdown_of(state: AslState, unit: Unit) -> int | None:
    if not unit.keeps_record:
        return None
    return unit.breakdown or state.sheet.settings.default_breakdown


def fired_data(unit: Unit, family: Family, smoke: bool, rof_kept: bool) -> dict[str, Any]:
    """A ``fired`` event's data; ``rof_kept`` only when true (the events of a Gun without ROF
    stay as they were)."""
    data = unit_ammo(unit, family, smoke=smoke)
    if rof_kept:
        data["rof_kept"] = True
    return data


def unit_ammo(unit: Unit, family: Family, **more: Any) -> dict[str, Any]:
    return {"unit": unit.id, "ammo": family.value, **more}
