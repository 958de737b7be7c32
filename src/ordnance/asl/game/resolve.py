"""Check an ASL command against the state and resolve it into events and a ruling.

Every rule is the library's: the side record (record.py), what a counter gives on the scenario
date (capabilities.py, supply.py, heat.py), depletion (depletion.py), SMOKE/WP placement
(smoke.py) and canister (canister.py); D13 smoke dispensers and grenades go through
:mod:`.dispense`, movement and markers through :mod:`.movement`. This module only decides which
of them a command needs, feeds them from the tracked state, and turns their rulings into events.

Readings where C8 is silent (sequence of play, cited as ASL's A3):

* a side fires in its own Prep and Advancing Fire Phases, in the enemy's Defensive Fire
  Phase, and in either side's Movement Phase (Bounding or Defensive First Fire); never in the
  Rally, Rout, Advance or Close Combat Phases;
* only the owner of a phase (the defender in the DFPh, else the phasing side) ends it;
* WP counts as smoke for the SMOKE/WP phase rules: firing it does not close the phase to
  SMOKE (smoke.py treats WP as a smoke round too);
* a C8.9-gt shot (the Gun had none) is not fire: it closes nothing (C8.9-gt);
* a malfunctioned Gun may not fire (C8.9 keeps malfunction apart); repairing it is outside C8.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from ordnance.asl.canister import Adjacent, CanisterRuling, canister_attack, canister_may
from ordnance.asl.canister_target import canister_aiming_points, canister_building_levels
from ordnance.asl.capabilities import Capability, evaluate
from ordnance.asl.dates import COMMONWEALTH
from ordnance.asl.depletion import (
    Declaration,
    effective_breakdown,
    require_depletion_applies,
    resolve_depletion,
)
from ordnance.asl.game.dispense import dispense, grenades, later_fire_drm
from ordnance.asl.game.fire_at import ROF_RULE, aim_at, keeps_rof
from ordnance.asl.game.movement import mark, movement
from ordnance.asl.game.ordnance_smoke import smoke_marker, smoke_target
from ordnance.asl.game.rulings import SEQUENCE
from ordnance.asl.game.rulings import game_ruling as _ruling
from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.sight import smoke_leaving
from ordnance.asl.game.state import FOLLOWING, AslState, next_phase
from ordnance.asl.heat import DATA as HEAT_DATA
from ordnance.asl.heat import HeatTargetRuling, he_equivalency, heat_availability, heat_target
from ordnance.asl.notation import Family
from ordnance.asl.odds import hits
from ordnance.asl.settings import Settings
from ordnance.asl.smoke import Phase, smoke_placement
from ordnance.asl.supply import chart_number
from ordnance.core.dice import DR, DiceSource
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Hex
from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.core.rulings import DRM, jsonable

_SMOKE = frozenset({Family.SMOKE, Family.WP})
# The members the checks of every shot compare with, read off their enums once: a member read
# off its class (Family.HEAT) goes through the enum metaclass's attribute hook, which costs
# about as much as a function call; a module global costs a dictionary lookup.
_AP, _APCR, _APDS, _CANISTER, _HE, _HEAT, _IR = (
    Family.AP,
    Family.APCR,
    Family.APDS,
    Family.CANISTER,
    Family.HE,
    Family.HEAT,
    Family.IR,
)
_AFPH, _DFPH, _MPH, _PFPH = Phase.AFPH, Phase.DFPH, Phase.MPH, Phase.PFPH
_SPECIAL_AP = frozenset({Family.APCR, Family.APDS})
_TARGETED = _SMOKE | {Family.HEAT}  # the ammunition --target means something for


def resolve(state: AslState, command: Command, dice: DiceSource) -> Resolution:
    """Check and resolve one command; raises IllegalAction or BadInput, never half-applies."""
    if state.over:
        raise IllegalAction(SEQUENCE, "the scenario is over")
    if command.verb == "phase":
        return _phase(state, command)
    unit = state.sheet.unit(str(command.args["unit"]))
    if unit.side != command.side:
        raise IllegalAction(
            "SYS.record", f"{unit.id} belongs to {unit.side}; {command.side} cannot act for it"
        )
    if command.verb in ("move", "man"):
        return movement(state, command, unit)
    if command.verb == "mark":
        return mark(state, command, unit)
    if command.verb == "dispense":
        return dispense(state, command, unit, dice)
    if command.verb == "grenades":
        return grenades(state, command, unit, dice)
    if state.status[unit.id].malfunctioned:
        raise IllegalAction("C8.9-gt", f"{unit.id} has malfunctioned and may not fire")
    if command.verb == "fire":
        return _fire(state, command, unit, dice)
    if command.verb == "canister":
        return _canister(state, command, unit, dice)
    raise BadInput("command", command.text, "not an ASL command")


# --- phases ------------------------------------------------------------------------------------


def _phase(state: AslState, command: Command) -> Resolution:
    # A phase ends once per phase of a game: the owner (state.phase_owner) and the next phase
    # within the Player Turn (next_phase) are read here without their calls; the Player Turn's
    # last phase still goes through next_phase.
    phase = state.phase
    player = state.player
    owner = state.phase_owner if phase is _DFPH else player
    if command.side != owner:
        raise IllegalAction(SEQUENCE, f"the {phase} belongs to {owner}; only {owner} may end it")
    following = FOLLOWING.get(phase)
    if following is not None:
        turn, phase = state.turn, following
    else:
        after = next_phase(state)
        if after is None:
            return Resolution(
                (Event("over"),),
                _ruling(command, (SEQUENCE,), "The last Player Turn ends: the scenario is over."),
            )
        turn, player, phase = after
    words = f"Game Turn {turn}, {player} Player Turn: the {phase} begins."
    event = Event("phase", {"turn": turn, "player": player, "phase": str(phase)})
    clauses, gone = smoke_leaving(state, player, phase)
    return Resolution((event,), _ruling(command, (SEQUENCE, *clauses), f"{words}{gone}"))


def may_fire_now(state: AslState, side: str) -> None:
    """Refuse fire outside the side's fire phases (the A3 reading of the module docstring)."""
    phasing = side == state.player
    phase = state.phase
    if phase is _MPH:
        allowed = True
    elif phase is _PFPH or phase is _AFPH:
        allowed = phasing
    else:
        allowed = phase is _DFPH and not phasing
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
    if state.phase is _AFPH and state.status[unit_id].prep_fired:
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
    if not tokens and (family is _AP or family is _HE):
        return _ORDINARY_SUPPLY[family]
    state.record(unit.id).check_usable(unit.id, family)
    capability = _capability(state, unit, tokens)
    if family is _HEAT:
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


def _capability(state: AslState, unit: Unit, tokens: list[Any]) -> Capability:
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


def _fire(state: AslState, command: Command, unit: Unit, dice: DiceSource) -> Resolution:
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
    target = _heat_target(command) if family is _HEAT else None
    what = "Placement DR" if placement is not None else "To Hit DR"
    roll = dice.roll_dr(f"{what} ({ammo}) for {unit.id}")
    shot = _Shot(unit, family, roll, [supply.explanation], clauses=list(supply.clauses))
    if aim is not None:
        shot.detail.update(aim.data)
        shot.add(aim.clauses, aim.sentence)
    intensive = bool(args.get("intensive_fire"))
    _supply_and_breakdown(state, shot, supply.number, intensive)
    rof_kept, rof_words = keeps_rof(
        state, unit, roll, fired=shot.fired, malfunctioned=shot.malfunctioned, intensive=intensive
    )
    if shot.fired:
        shot.events.append(Event("fired", _fired_data(unit, family, smoke, rof_kept)))
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


def _supply_and_breakdown(
    state: AslState, shot: _Shot, number: int | None, intensive: bool
) -> None:
    """The shot's DR as the depletion check (C8.9) when a number applies, and as the breakdown
    check (Intensive Fire lowers only the B#, C8.92)."""
    settings = state.sheet.settings
    breakdown = _breakdown(state, shot.unit)
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
    outcome = _unit_ammo(shot.unit, shot.family, outcome=depletion.outcome)
    shot.events.append(Event("record", outcome))
    shot.fired, shot.malfunctioned = depletion.counts_as_fired, depletion.malfunctioned
    shot.resolved = depletion.resolved_with_special_ammo
    shot.detail["depletion"] = depletion.to_json()
    shot.add(depletion.clauses, depletion.explanation)


def _check_family(unit: Unit, family: Family) -> None:
    require_depletion_applies(family)
    if family is _IR:
        raise IllegalAction(
            "C8.7", "Illuminating Rounds are only recorded; firing them belongs to the Night rules"
        )
    if family is _CANISTER:
        raise BadInput("command", "fire", "Canister has no To Hit DR: use 'canister UNIT'")
    if unit.kind == "scw" and family is not _HEAT:
        raise BadInput("ammunition", family.ammo, f"{unit.id} is an SCW: it fires HEAT")
    if unit.kind == "atr" and family is not _AP:
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


def _breakdown(state: AslState, unit: Unit) -> int | None:
    if not unit.keeps_record:
        return None
    return unit.breakdown or state.sheet.settings.default_breakdown


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
    elif family is _AP and unit.calibre_mm is not None:
        weapon = "AP"
    elif family is _HEAT:
        token = next(t for t in unit.tokens if t.family is _HEAT)
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


# --- canister ----------------------------------------------------------------------------------


def _canister(state: AslState, command: Command, unit: Unit, dice: DiceSource) -> Resolution:
    """One IFT DR for the whole shot (C8.4-dr): the target and, for a same-level target, the
    hex(es) adjacent to the firer along the LOS (C8.41), each with its own attack and result."""
    args = command.args
    if not unit.keeps_record:
        raise BadInput("unit", unit.id, "only Guns and vehicles fire Canister")
    canister_may(str(args.get("purpose") or "attack"))
    may_fire_now(state, command.side)
    supply = depletion_number(state, unit, Family.CANISTER)
    one_shot(state, unit.id)
    fp = _canister_fp(unit, args.get("fp"))
    status = state.status[unit.id]
    aim = _aim(state, command, unit)
    adjacent = args.get("adjacent") if aim is None else aim.adjacent_kind
    roll = dice.roll_dr(f"Canister IFT DR for {unit.id}")

    def attack_on(
        kind: Adjacent | None, drms: Sequence[int], why: str, armored: bool
    ) -> CanisterRuling:
        return canister_attack(
            fp,
            roll,
            moved=status.moved,
            manned_after_moving=status.manned and state.phase is Phase.AFPH,
            drms=tuple(DRM(int(v), why, "C8.4-noth") for v in drms),
            adjacent=kind,
            armored=armored,
            depletion_number=supply.number,
            breakdown=_breakdown(state, unit),
            settings=state.sheet.settings,
        )

    given = "given DRM (TEM, LOS Hindrance or CA change)"
    attack = attack_on(None, args.get("drms") or (), given, bool(args.get("armored")))
    near = None
    if adjacent is not None:
        near_drms = args.get("adjacent_drms") or ()
        near = attack_on(adjacent, near_drms, "given DRM of the adjacent hex (its TEM)", False)
    events: list[Event] = []
    if attack.depletion is not None:
        events.append(Event("record", _unit_ammo(unit, Family.CANISTER, outcome=attack.depletion)))
    rof_kept, rof_words = keeps_rof(
        state,
        unit,
        roll,
        fired=attack.counts_as_fired,
        malfunctioned=attack.malfunctioned,
        intensive=False,
    )
    if attack.counts_as_fired:
        events.append(Event("fired", _fired_data(unit, Family.CANISTER, False, rof_kept)))
    if attack.malfunctioned:
        events.append(Event("malfunction", {"unit": unit.id}))
    detail = {
        "unit": unit.id,
        "ammo": Family.CANISTER.ammo,
        "aim": None if aim is None else aim.data,
        "canister": attack.to_json(),
        "adjacent": None if near is None else near.to_json(),
        "hexes": _canister_hexes(aim, attack, near, adjacent),
        "rof_kept": rof_kept if unit.rof is not None and attack.counts_as_fired else None,
    }
    where = "" if aim is None else f" {aim.words}"
    sentence = f"{supply.explanation}{where} Target: {attack.explanation}"
    clauses = [*supply.clauses, *(() if aim is None else (aim.clause,)), *attack.clauses]
    if near is not None:
        sentence += f" Adjacent hex(es), on the same DR: {_without_supply(near)}"
        clauses += near.clauses
    if rof_words is not None:
        sentence += f" {rof_words}"
        clauses.append(ROF_RULE)
    return Resolution(tuple(events), _ruling(command, clauses, sentence, detail))


def _without_supply(attack: CanisterRuling) -> str:
    """The adjacent attack's sentence without the supply notes the target's already gave."""
    text = attack.explanation
    cut = text.find(" Depletion check")
    return text if cut < 0 else text[:cut]


def _canister_hexes(
    aim: _Aim | None, attack: CanisterRuling, near: CanisterRuling | None, adjacent: str | None
) -> list[dict[str, Any]]:
    """Each hex the shot attacks, with its FP, Final DR and result (C8.4-target, C8.41)."""
    targets: list[str | None] = [None] if aim is None or not aim.targets else list(aim.targets)
    rows = [_hex_row(h, "target", attack) for h in targets]
    if near is not None:
        count = 2 if adjacent == "hexside" else 1
        hexes: list[str | None] = list(aim.adjacent) if aim is not None else [None] * count
        rows += [_hex_row(h, "adjacent", near) for h in hexes]
    return rows


def _hex_row(hex: str | None, role: str, attack: CanisterRuling) -> dict[str, Any]:
    data = attack.to_json()
    return {
        "hex": hex,
        "role": role,
        "fp": data["fp"],
        "column": attack.column,
        "final_dr": attack.final_dr,
        "result": attack.result,
    }


class _Aim(NamedTuple):
    """Where a canister shot goes (C8.4-target, C8.4-building, C8.41): its JSON, a sentence,
    the clause, the target hexes, the adjacent hexes and how they are attacked (None: not)."""

    data: dict[str, Any]
    words: str
    clause: str
    targets: tuple[str, ...]
    adjacent: tuple[str, ...]
    adjacent_kind: Adjacent | None


def _aim(state: AslState, command: Command, unit: Unit) -> _Aim | None:
    """Where the canister goes, when the command says; None when the command does not aim."""
    args, sheet = command.args, state.sheet
    aim, building = args.get("aim"), args.get("building")
    if aim is None and building is None:
        return None
    status = state.status[unit.id]
    if status.hex is None:
        raise BadInput("unit", unit.id, "the scenario gives it no hex, so it cannot aim")
    if aim is not None and building is not None:
        raise BadInput("command", command.text, "aim at a vertex or at a building, not both")
    if building is not None:
        target = sheet.hex(str(building))
        if args.get("level") is None or args.get("top") is None:
            raise BadInput("command", command.text, "--building needs --level L and --top T")
        levels = canister_building_levels(
            status.hex,
            target,
            aimed_level=int(args["level"]),
            building_levels=tuple(range(int(args["top"]) + 1)),
        )
        words = f"Aimed at levels {levels[0]}-{levels[2]} of the building in {sheet.label(target)}."
        data = {"building": sheet.label(target), "levels": list(levels)}
        given: Adjacent | None = args.get("adjacent")
        return _Aim(data, words, "C8.4-building", (sheet.label(target),), (), given)
    if status.ca is None:
        raise BadInput("unit", unit.id, "the scenario gives it no CA ('ca'), so it cannot aim")
    points = canister_aiming_points(status.hex, status.ca)
    aim = int(str(aim))
    if not 1 <= aim <= len(points):
        raise BadInput(
            "aim", str(aim), f"one of the {len(points)} aiming points, 1 to {len(points)}"
        )
    point = points[aim - 1]
    cluster = [sheet.label(h) for h in point.cluster]
    adjacent = [sheet.label(h) for h in point.adjacent]
    expected: Adjacent = "hexside" if len(adjacent) == 2 else "hex"
    game_map = sheet.game_map
    ground = (lambda h: 0) if game_map is None else game_map.elevation
    same_level = all(ground(h) == ground(status.hex) for h in point.cluster)
    given = args.get("adjacent")
    if given not in (None, expected) or (given is not None and not same_level):
        why = (
            f"the line to aiming point {aim} passes {' and '.join(adjacent)}: that attack is"
            f" --adjacent {expected}"
            if same_level
            else "the target is not at the firer's level, so no adjacent hex is attacked"
        )
        raise IllegalAction("C8.41", why)
    kind = expected if same_level else None
    words = f"Aimed at the vertex of {', '.join(cluster)}"
    if kind is None:
        words += "; not a same-level target, so no adjacent hex is attacked (C8.41)."
    else:
        words += (
            f"; the hex(es) next to the firer on the way, {' and '.join(adjacent)}, are attacked"
            f" on the same DR, {'quartered' if kind == 'hexside' else 'halved'} (C8.41)."
        )
    found = {"vertex": str(point.vertex), "cluster": cluster, "adjacent": adjacent}
    return _Aim(found, words, "C8.4-target", tuple(cluster), tuple(adjacent if kind else ()), kind)


def _canister_fp(unit: Unit, given: object) -> Fraction:
    if given is not None:
        if unit.canister_fp is not None:
            raise BadInput("command", f"--fp {given}", f"the scenario sets {unit.id}'s Canister FP")
        try:
            fp = Fraction(str(given))
        except (ValueError, ZeroDivisionError):
            raise BadInput("FP", str(given), "expected a number, e.g. 12") from None
        if fp <= 0:
            raise BadInput("FP", str(given), "Canister FP must be positive")
        return fp
    if unit.canister_fp is None:
        raise BadInput(
            "command", "canister", f"give --fp: the scenario sets no canister_fp for {unit.id}"
        )
    return unit.canister_fp


# --- shared ------------------------------------------------------------------------------------


def _fired_data(unit: Unit, family: Family, smoke: bool, rof_kept: bool) -> dict[str, Any]:
    """A ``fired`` event's data; ``rof_kept`` only when true (the events of a Gun without ROF
    stay as they were)."""
    data = _unit_ammo(unit, family, smoke=smoke)
    if rof_kept:
        data["rof_kept"] = True
    return data


def _unit_ammo(unit: Unit, family: Family, **more: Any) -> dict[str, Any]:
    return {"unit": unit.id, "ammo": _SYMBOLS[family], **more}


# Each family's symbol (its value), by a table lookup rather than the enum's ``value``
# descriptor: events name the ammunition of every shot by it.
_SYMBOLS: dict[Family, str] = {family: family.value for family in Family}
