"""D13 in a game: the ``dispense`` and ``grenades`` commands, fed from the tracked state.

Every rule is the library's (:mod:`ordnance.asl.dispensers`); this module builds the
:class:`~ordnance.asl.dispensers.AfvState` it reads from the game (:func:`afv_state`), takes
LOS and the sM's Hindrance DRM from the scenario's map with the game's SMOKE on it
(:mod:`.sight`), rolls with the game's dice only after every check passed, and turns the
ruling into events: ``dispensed`` (the attempt, its MP and the CA turned on success) and
``smoke`` (the counter placed).

Readings (README, Games):

* the AFV is "moving" (the sM's +2, D13.32-drm) in its own MPh once it has spent MP on a
  ``move``; the 1 MP of the smoke itself is an expenditure of its own, never part of another
  (D13.2-mp), and does not make the AFV a moving one;
* an sM aimed without ``--ca`` turns its arc the fewest hexspines that bring the target in,
  clockwise first on a tie; the map's LOS verdict from the AFV's hex to the target hex decides
  "in LOS" and its total hindrance is the D13.32 Hindrance DRM; without a map the players give
  ``--hindrance`` and LOS is taken as given;
* a successful firing in the AFV's own MPh is an MP expenditure the enemy's AFVs in LOS may
  answer (D13.2-defensive), judged with the new SMOKE already on the map.

>>> from dataclasses import replace
>>> from ordnance.asl.game.commands import parse_command
>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> from ordnance.core.dice import DR, ManualDice
>>> sheet = Sheet.of(load_scenario({"date": "1944-09", "sides": {
...     "german": {"units": {"pz4": {"kind": "vehicle", "notation": "sD5"}}},
...     "russian": {"units": {}}}}))
>>> state = replace(initial_state(sheet), phase=Phase.MPH)  # the German MPh
>>> pz4 = sheet.units["pz4"]
>>> afv_state(state, pz4).buttoned_up
True
>>> done = dispense(state, parse_command("german", ["dispense", "pz4"]), pz4,
...                 ManualDice([DR(2, 2)]))
>>> [e.kind for e in done.events], done.ruling["final_dr"], done.ruling["mp_cost"]
(['dispensed', 'smoke'], 5, 1)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ordnance.asl.dispensers import (
    SM_RANGE,
    AfvState,
    SmokeMortarAim,
    check_dispenser,
    check_grenades,
    dispenser_family,
    pick_dispenser,
    resolve_dispenser,
    resolve_grenades,
)
from ordnance.asl.dispensers.placement import OWNER_NEXT_PFPH, SmokePlacement
from ordnance.asl.dispensers.state import plain
from ordnance.asl.game.markers import DISPERSED_SMOKE, GRENADE_SMOKE, SmokeMarker
from ordnance.asl.game.rulings import game_ruling
from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.sight import UNSEEN, los, watchers
from ordnance.asl.game.state import AslState
from ordnance.asl.notation import Family
from ordnance.asl.smoke import Phase
from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Arc, Corner, Hex, distance
from ordnance.core.maps import LosVerdict
from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.core.rulings import DRM

# The order an sM's arc is tried in when the command names no facing: no turn, then one
# hexspine clockwise, one anticlockwise, and so on.
_TURNS = (0, 1, -1, 2, -2, 3)


def vehicle(unit: Unit, clause: str, device: str) -> None:
    """Refuse a unit that is not a vehicle: only vehicles carry ``device``."""
    if unit.afv is None:
        raise IllegalAction(clause, f"{unit.id} is a {unit.kind}; only a vehicle has {device}")


def afv_state(state: AslState, unit: Unit) -> AfvState:
    """The vehicle as D13 sees it now: counter, crew, markers, position, this Player Turn."""
    facts = unit.afv
    status = state.status[unit.id]
    afv = status.afv
    assert facts is not None and afv is not None
    turreted = facts.mount.turreted
    own = unit.side == state.player
    spent = state.expenditure
    return AfvState(
        armored=facts.armored,
        open_topped=facts.open_topped,
        has_ma=facts.main_armament,
        mount=facts.mount,
        abandoned=afv.abandoned,
        crew=afv.crew,
        ce=afv.ce,
        moving=own and state.phase is Phase.MPH and status.moved,
        in_motion=afv.motion,
        mp_spent=afv.mp_spent,
        mp_allowance=facts.mp,
        hex=status.hex,
        vca=afv.vca if turreted else status.ca,
        tca=status.ca if turreted else None,
        fired_weapon=afv.fired,
        dispenser_attempted=afv.dispenser_attempted,
        grenades_attempted=afv.grenades_attempted,
        phase=state.phase,
        own_turn=own,
        enemy_expended_in_los=spent is not None
        and spent.side != unit.side
        and unit.id in spent.seen_by,
    )


# --- dispense ----------------------------------------------------------------------------------


def dispense(state: AslState, command: Command, unit: Unit, dice: DiceSource) -> Resolution:
    """``dispense UNIT [--type T] [--target HEX [--ca C] [--hindrance N]] [--cc-he]``."""
    args = command.args
    vehicle(unit, "D13.1", "smoke dispensers")
    afv = afv_state(state, unit)
    kind = None if args.get("type") is None else dispenser_family(str(args["type"]))
    sheet = state.sheet
    dispenser = pick_dispenser(unit.tokens, sheet.context(unit), kind, sheet.settings)
    he_in_cc = bool(args.get("cc_he"))
    aimed = dispenser.family is Family.SMOKE_MORTAR and not he_in_cc
    if not aimed and (args.get("target") or args.get("ca") or args.get("hindrance") is not None):
        raise BadInput("command", command.text, "only an sM is aimed (--target, --ca, --hindrance)")
    aim, verdict = _aim(state, command, afv) if aimed else (None, None)
    check_dispenser(afv, dispenser, aim=aim, he_in_cc=he_in_cc)
    roll = dice.roll_dr(f"{dispenser.kind} usage DR for {unit.id}")
    ruling = resolve_dispenser(
        afv, dispenser, roll, aim=aim, he_in_cc=he_in_cc, settings=sheet.settings
    )
    data: dict[str, Any] = {
        "unit": unit.id,
        "device": "dispenser",
        "type": dispenser.kind,
        "fired": ruling.fired,
        "mp": ruling.mp_cost,
    }
    if he_in_cc:
        data["he_in_cc"] = True
    if ruling.new_facing is not None:
        data["ca"] = ruling.new_facing.name
    if ruling.later_fire is not None:
        note = ruling.later_fire
        data["later_fire"] = {
            "facing": note.facing.name,
            "drm": note.drm,
            "applies": note.applies,
            "fire": note.fire,
        }
    detail = _detail(ruling)
    detail["target"] = None if aim is None else sheet.label(aim.target)
    detail["los"] = None if verdict is None else _los_json(verdict)
    sentences = [ruling.explanation]
    if aimed:
        sentences.insert(
            0, UNSEEN if verdict is None else f"LOS on the map: {verdict.explanation}."
        )
    return _smoke_resolution(
        state,
        command,
        unit,
        data,
        placement=ruling.placement,
        said=(ruling.clauses, sentences, detail),
    )


def _detail(ruling: Any) -> dict[str, Any]:
    """``ruling.to_json()`` without ``state_after`` (the vehicle's state is not written at all)."""
    cls = type(ruling)
    told = _TOLD.get(cls)
    if told is None:
        told = _TOLD[cls] = tuple(
            f.name for f in dataclasses.fields(cls) if f.name != "state_after"
        )
    return {name: plain(getattr(ruling, name)) for name in told}


# The fields of each D13 ruling class a game's ruling tells, in order.
_TOLD: dict[type, tuple[str, ...]] = {}


def _aim(
    state: AslState, command: Command, afv: AfvState
) -> tuple[SmokeMortarAim, LosVerdict | None]:
    """Where the sM is aimed, its facing, and LOS and the Hindrance DRM from the map."""
    args, sheet = command.args, state.sheet
    if args.get("target") is None:
        raise BadInput("command", command.text, "an sM needs --target HEX (range 1-3, D13.32)")
    if afv.hex is None:
        raise BadInput("unit", command.args["unit"], "the scenario gives it no hex to aim from")
    if afv.sm_facing is None:
        arc = "TCA" if afv.mount.turreted else "VCA"
        raise BadInput("unit", command.args["unit"], f"the scenario gives it no {arc} ('ca')")
    target = sheet.hex(str(args["target"]))
    facing = _fewest_turns(afv, target) if args.get("ca") is None else Corner.parse(str(args["ca"]))
    if sheet.game_map is not None and args.get("hindrance") is not None:
        raise BadInput("command", command.text, "the map gives the LOS Hindrance; drop --hindrance")
    verdict = los(state, afv.hex, target) if distance(afv.hex, target) in SM_RANGE else None
    if verdict is None:
        in_los, hindrance = True, int(args.get("hindrance") or 0)
    else:
        in_los, hindrance = verdict.clear, verdict.total
    aim = SmokeMortarAim(target=target, in_los=in_los, hindrance=hindrance, facing=facing)
    return aim, verdict


def _fewest_turns(afv: AfvState, target: Hex) -> Corner:
    current = afv.sm_facing
    assert current is not None and afv.hex is not None
    for steps in _TURNS:
        corner = current.turned(steps)
        if Arc.covered(corner, turret=afv.mount.turreted).contains(afv.hex, target):
            return corner
    return current  # nothing in reach: the library refuses the range (D13.32-place)


def _los_json(verdict: LosVerdict) -> dict[str, Any]:
    data = verdict.to_json()
    keys = ("from", "to", "range", "clear", "blocked_by", "hindrances", "total_hindrance")
    return {key: data[key] for key in keys}


def later_fire_drm(state: AslState, unit: Unit) -> DRM | None:
    """The Case A DRM an sM turn made in the opponent's MPh adds to the AFV's later Defensive
    First Fire in that MPh (D13.32-drm, D3.51); None when there is none to add.

    In its own MPh the turn was paid for (C5.13): nothing is added, so nothing is returned.
    """
    status = state.status[unit.id]
    note = None if status.afv is None else status.afv.later_fire
    if note is None or not note.applies or state.phase is not Phase.MPH:
        return None
    return DRM(note.drm, f"Case A of the sM's turn to {note.facing.name}", "D13.32-drm")


# --- grenades ----------------------------------------------------------------------------------


def grenades(state: AslState, command: Command, unit: Unit, dice: DiceSource) -> Resolution:
    """``grenades UNIT``: one usage dr (D13.35)."""
    vehicle(unit, "D13.35", "vehicular smoke grenades")
    afv = afv_state(state, unit)
    check_grenades(afv)
    roll = dice.roll_die(f"smoke grenade usage dr for {unit.id}")
    ruling = resolve_grenades(afv, roll, state.sheet.settings)
    data: dict[str, Any] = {
        "unit": unit.id,
        "device": "grenades",
        "placed": ruling.placed,
        "mp": ruling.mp_cost,
    }
    detail = _detail(ruling)
    return _smoke_resolution(
        state,
        command,
        unit,
        data,
        placement=ruling.placement,
        said=(ruling.clauses, [ruling.explanation], detail),
    )


# --- shared ------------------------------------------------------------------------------------


def _smoke_resolution(
    state: AslState,
    command: Command,
    unit: Unit,
    data: dict[str, Any],
    *,
    placement: SmokePlacement | None,
    said: tuple[tuple[str, ...], list[str], dict[str, Any]],
) -> Resolution:
    """The events and ruling of an attempt: the attempt, its SMOKE, who saw its MP spent."""
    clauses, sentences, detail = said
    hex = state.status[unit.id].hex
    events = [Event("dispensed", data)]
    placed: list[SmokeMarker] = []
    if placement is not None:
        marker = _marker(unit, placement, grenade=data["device"] == "grenades")
        placed.append(marker)
        smoke = {
            "unit": unit.id,
            "side": unit.side,
            "hex": None if marker.hex is None else state.sheet.label(marker.hex),
            "marker": marker.marker,
            "removal": marker.removal,
        }
        events.append(Event("smoke", smoke))
        detail["placement"] = {**detail["placement"], "hex": smoke["hex"], "marker": marker.marker}
        detail["placement"]["removal"] = marker.removal
    if data["mp"]:
        seen = watchers(state, unit.id, hex, placed)
        data["seen_by"] = list(seen)
        if seen:
            sentences.append(
                f"Its 1 MP is an expenditure seen by {', '.join(seen)}, which may answer it"
                " (D13.2-defensive)."
            )
    detail = {"unit": unit.id, "device": data["device"], **detail}
    return Resolution(tuple(events), game_ruling(command, clauses, " ".join(sentences), detail))


def _marker(unit: Unit, placement: SmokePlacement, *, grenade: bool) -> SmokeMarker:
    """The counter on the map: grenade SMOKE goes as D13.35 says, a dispenser's by A24.4."""
    return SmokeMarker(
        hex=placement.hex,
        marker=GRENADE_SMOKE if grenade else DISPERSED_SMOKE,
        unit=unit.id,
        side=unit.side,
        removal=(placement.removal or OWNER_NEXT_PFPH) if grenade else OWNER_NEXT_PFPH,
    )
