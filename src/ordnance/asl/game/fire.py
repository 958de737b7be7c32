"""An ASL Gun's shot at a target: supply and depletion, the hit, HEAT and SMOKE placement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ordnance.asl.depletion import (
    Declaration,
    effective_breakdown,
    require_depletion_applies,
    resolve_depletion,
)
from ordnance.asl.game.dispense import later_fire_drm
from ordnance.asl.game.fire_at import ROF_RULE, aim_at, keeps_rof
from ordnance.asl.game.ordnance_smoke import smoke_marker, smoke_target
from ordnance.asl.game.rulings import game_ruling as _ruling
from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.shooting import (
    breakdown_of,
    depletion_number,
    fired_data,
    may_fire_now,
    one_shot,
    unit_ammo,
)
from ordnance.asl.game.state import AslState
from ordnance.asl.heat import HeatTargetRuling, he_equivalency, heat_target
from ordnance.asl.notation import Family
from ordnance.asl.odds import hits
from ordnance.asl.settings import Settings
from ordnance.asl.smoke import smoke_placement
from ordnance.core.dice import DR, DiceSource
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Hex
from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.core.rulings import DRM, jsonable

_SMOKE = frozenset({Family.SMOKE, Family.WP})
_SPECIAL_AP = frozenset({Family.APCR, Family.APDS})
_TARGETED = _SMOKE | {Family.HEAT}  # the ammunition --target means something for


# --- fire --------------------------------------------------------------------------------------


@dataclass
class _Shot:
    """What one shot has produced so far: events, clauses, sentences and the ruling's fields."""

    unit: Unit
    family: Family
    roll: DR
    sentences: list[str]
    events: list[Event] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)
    fired: bool = True
    resolved: bool = True
    malfunctioned: bool = False

    def add(self, clauses: Sequence[str], sentence: str | None = None) -> None:
        self.clauses += clauses
        if sentence:
            self.sentences.append(sentence)


def fire(state: AslState, command: Command, unit: Unit, dice: DiceSource) -> Resolution:
    args = command.args
    family = Family.from_ammo(str(args["ammo"]))
    ammo = family.ammo
    smoke = family in _SMOKE
    _check_family(unit, family)
    may_fire_now(state, command.side)
    placement = _placement(state, command, family) if smoke else None
    if args.get("target") is not None and family not in _TARGETED:
        raise BadInput(
            "command", command.text, "--target is a hex for SMOKE/WP or a target kind for HEAT"
        )
    at = args.get("at")
    aim = None if at is None else aim_at(state, unit, str(at), smoke=smoke)
    smoke_hex = (
        smoke_target(state, command, unit, None if aim is None else aim.hex)
        if placement is not None
        else None
    )
    supply = depletion_number(state, unit, family)
    one_shot(state, unit.id)
    target = _heat_target(command) if family is Family.HEAT else None
    what = "Placement DR" if placement is not None else "To Hit DR"
    roll = dice.roll_dr(f"{what} ({ammo}) for {unit.id}")
    shot = _Shot(unit, family, roll, [supply.explanation], clauses=list(supply.clauses))
    if aim is not None:
        shot.detail.update(aim.data)
        shot.add(aim.clauses, aim.sentence)
    intensive = bool(args.get("intensive_fire"))
    _supply_andbreakdown(state, shot, supply.number, intensive)
    rof_kept, rof_words = keeps_rof(
        state, unit, roll, fired=shot.fired, malfunctioned=shot.malfunctioned, intensive=intensive
    )
    if shot.fired:
        shot.events.append(Event("fired", fired_data(unit, family, smoke, rof_kept)))
    if shot.malfunctioned:
        shot.events.append(Event("malfunction", {"unit": unit.id}))
    case_a = later_fire_drm(state, unit)
    hit = _hit(state, args, roll.total, shot.fired and shot.resolved, shot.sentences, case_a=case_a)
    shot.detail["hit"] = hit
    if hit is not None and case_a is not None:
        shot.add(("D13.32-drm",))
    shot.detail["placement"] = None if placement is None else placement.to_json()
    if placement is not None:
        _place_smoke(state, shot, placement, smoke_hex, hit)
    if target is not None:
        shot.add(target.clauses)
    he = _he_equivalency(unit, family, state) if shot.fired else None
    shot.detail["he_equivalency"] = he
    if he is not None:
        shot.add(he["clauses"], he["explanation"])
    if rof_words is not None:
        shot.add((ROF_RULE,), rof_words)
    detail = {
        "unit": unit.id,
        "ammo": ammo,
        "dice": jsonable(roll),
        **shot.detail,
        "fired": shot.fired,
        "malfunctioned": shot.malfunctioned,
        # None when ROF does not apply (no ROF, or not fired): the odds then leave it out.
        "rof_kept": rof_kept if unit.rof is not None and shot.fired else None,
    }
    ruling = _ruling(command, shot.clauses, " ".join(shot.sentences), detail)
    return Resolution(tuple(shot.events), ruling)


def _place_smoke(
    state: AslState, shot: _Shot, placement: Any, smoke_hex: Hex | None, hit: bool | None
) -> None:
    """A SMOKE/WP shot's placement: its marker on a hit at a hex, else why nothing lands."""
    shot.add(placement.clauses, placement.explanation if shot.fired else None)
    if smoke_hex is None:
        return
    if hit:
        ammo = shot.family.ammo
        event, words = smoke_marker(state, shot.unit, ammo, bool(placement.dispersed), smoke_hex)
        shot.events.append(event)
        shot.add(("C8.52",), words)
        shot.detail["marker"] = event.data
    elif hit is None and shot.fired and shot.resolved:
        shot.add((), "Without --to-hit N the shot cannot hit: nothing is placed.")
    else:
        shot.add((), "Nothing is placed: only a hit puts the marker on the map.")


def _heat_target(command: Command) -> HeatTargetRuling:
    """HEAT's target must be one C8.31 allows; the command must say what it is."""
    if command.args.get("target") is None:
        raise BadInput("command", command.text, "HEAT needs --target vehicle|gun|infantry|cavalry")
    target = heat_target(str(command.args["target"]), command.args.get("tem"))
    if not target.allowed:
        raise IllegalAction("C8.31-target", target.explanation)
    return target


def _supply_andbreakdown(state: AslState, shot: _Shot, number: int | None, intensive: bool) -> None:
    """The shot's DR as the depletion check (C8.9) when a number applies, and as the breakdown
    check (Intensive Fire lowers only the B#, C8.92)."""
    settings = state.sheet.settings
    breakdown = breakdown_of(state, shot.unit)
    if number is None:
        checked = effective_breakdown(breakdown, intensive, settings)
        shot.malfunctioned = checked is not None and shot.roll.total >= checked
        shot.resolved = not shot.malfunctioned or settings.malf_shot_still_resolves
        shot.detail["depletion"] = None
        shot.sentences.append(f"DR {shot.roll} = {shot.roll.total}.")
        if shot.malfunctioned:
            shot.add([], f"The DR reaches the B# {checked}: the Gun malfunctions.")
        return
    depletion = resolve_depletion(
        number,
        shot.roll,
        breakdown,
        intensive,
        declaration=Declaration(shot.family),
        settings=settings,
    )
    outcome = unit_ammo(shot.unit, shot.family, outcome=depletion.outcome)
    shot.events.append(Event("record", outcome))
    shot.fired, shot.malfunctioned = depletion.counts_as_fired, depletion.malfunctioned
    shot.resolved = depletion.resolved_with_special_ammo
    shot.detail["depletion"] = depletion.to_json()
    shot.add(depletion.clauses, depletion.explanation)


def _check_family(unit: Unit, family: Family) -> None:
    require_depletion_applies(family)
    if family is Family.IR:
        raise IllegalAction(
            "C8.7", "Illuminating Rounds are only recorded; firing them belongs to the Night rules"
        )
    if family is Family.CANISTER:
        raise BadInput("command", "fire", "Canister has no To Hit DR: use 'canister UNIT'")
    if unit.kind == "scw" and family is not Family.HEAT:
        raise BadInput("ammunition", family.ammo, f"{unit.id} is an SCW: it fires HEAT")
    if unit.kind == "atr" and family is not Family.AP:
        raise BadInput("ammunition", family.ammo, f"{unit.id} is an ATR: it fires AP")


def _placement(state: AslState, command: Command, family: Family) -> Any:
    """SMOKE/WP from the tracked phase and what fired in it (C8.5, C8.51, C8.52, C8.6)."""
    ammo = family.ammo
    # SMOKE stops once any unit fired other ammunition this phase; WP once a friendly one did.
    after = bool(state.non_smoke) if family is Family.SMOKE else command.side in state.non_smoke
    ruling = smoke_placement(
        ammo,
        state.phase,
        after_non_smoke_fire=after,
        own_hex=bool(command.args.get("own_hex")),
        interior_building=bool(command.args.get("interior_building")),
    )
    if not ruling.allowed:
        clause = ruling.clauses[0]
        raise IllegalAction(clause, ruling.explanation.removeprefix(f"Refused ({clause}): "))
    return ruling


def _hit(
    state: AslState,
    args: Mapping[str, Any],
    original: int,
    resolved: bool,
    sentences: list[str],
    *,
    case_a: DRM | None = None,
) -> bool | None:
    if args.get("to_hit") is None or not resolved:
        return None
    final = original + sum(int(d) for d in args.get("drms") or ())
    if case_a is not None:
        final += case_a.value
        sentences.append(f"{case_a} adds to this Defensive First Fire (D13.32-drm).")
    hit = hits(final, int(args["to_hit"]), state.sheet.settings)
    sentences.append(
        f"Final DR {final} against To Hit {args['to_hit']}: {'a hit' if hit else 'a miss'}."
    )
    return hit


def _he_equivalency(unit: Unit, family: Family, state: AslState) -> dict[str, Any] | None:
    """The shot's HE Equivalency (C8.31) when the scenario gives what it needs, else None."""
    weapon: str | None = None
    if unit.kind == "scw":
        weapon = unit.weapon
    elif unit.kind == "atr":
        weapon = "ATR"
    elif family in _SPECIAL_AP:
        weapon = family.ammo
    elif family is Family.AP and unit.calibre_mm is not None:
        weapon = "AP"
    elif family is Family.HEAT:
        token = next(t for t in unit.tokens if t.family is Family.HEAT)
        if token.steps and token.steps[0].second == 9:
            weapon = "H9"
        elif unit.he_fp is not None:
            weapon = "ordnance"
    if weapon is None:
        return None
    found = _he_equivalency_json(weapon, unit.calibre_mm, unit.he_fp, state.sheet.settings)
    return {**found, "clauses": list(found["clauses"])}  # a fresh copy for each ruling


@lru_cache(maxsize=256)
def _he_equivalency_json(
    weapon: str, calibre: int | None, he_fp: int | None, settings: Settings
) -> dict[str, Any]:
    """The HE Equivalency ruling's JSON (a pure function of its arguments: worked out once)."""
    return he_equivalency(weapon, calibre, he_fp, settings).to_json()
