"""An ASL Gun's Canister attack: the aim (hexes or an aiming point), the FP, the attack."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from ordnance.asl.canister import Adjacent, CanisterRuling, canister_attack, canister_may
from ordnance.asl.canister_target import canister_aiming_points, canister_building_levels
from ordnance.asl.game.fire_at import ROF_RULE, keeps_rof
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
from ordnance.asl.notation import Family
from ordnance.asl.smoke import Phase
from ordnance.core.dice import DiceSource
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.core.rulings import DRM

# --- canister ----------------------------------------------------------------------------------


def canister(state: AslState, command: Command, unit: Unit, dice: DiceSource) -> Resolution:
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
            breakdown=breakdown_of(state, unit),
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
        events.append(Event("record", unit_ammo(unit, Family.CANISTER, outcome=attack.depletion)))
    rof_kept, rof_words = keeps_rof(
        state,
        unit,
        roll,
        fired=attack.counts_as_fired,
        malfunctioned=attack.malfunctioned,
        intensive=False,
    )
    if attack.counts_as_fired:
        events.append(Event("fired", fired_data(unit, Family.CANISTER, False, rof_kept)))
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
