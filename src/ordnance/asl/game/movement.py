"""Movement and markers in a game: ``move`` and ``man`` (MP/MF expenditures), ``mark``.

``move UNIT [--to HEX]... | --dest HEX [--ca CORNER] [--mp N]`` records one expenditure of the
side's own unit in its own MPh: along a path checked hex by hex (:mod:`.paths`), a vehicle
paying each hex's MP, plus N MP spent in place (starting, stopping, turning); without a path
N MP (default 1). Its ``mp`` allowance, when the scenario gives one, is never exceeded; an SCW
or ATR team spends MF. ``man UNIT`` is Infantry spending MF to
reach and man a Gun. Each expenditure is what the enemy's AFVs may answer with a dispenser or
grenades in that MPh when they see it (D13.2-defensive): the event names them, judged on the
scenario's map with the game's SMOKE on it (:func:`.sight.watchers`).

``mark UNIT [--ce | --bu] [--motion | --stopped] [--crew STATE] [--abandoned] [--fired]`` lets a
vehicle's owner record what happened outside this engine: its crew's exposure, Motion, a crew
stunned, shocked or broken, the vehicle Abandoned, or a weapon fired that the engine does not
resolve (an MG). The D13 checks read these (D13.2-state, D13.3, D13.33-.35).

>>> from dataclasses import replace
>>> from ordnance.asl.game.commands import parse_command
>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> sheet = Sheet.of(load_scenario({"date": "1944-09", "sides": {
...     "german": {"units": {"pz4": {"kind": "vehicle", "mp": 14}}},
...     "russian": {"units": {"t34": {"kind": "vehicle"}}}}}))
>>> state = replace(initial_state(sheet), phase=Phase.MPH)  # the German MPh
>>> pz4 = sheet.units["pz4"]
>>> moved = movement(state, parse_command("german", ["move", "pz4", "--mp", "2"]), pz4)
>>> moved.events[0].data  # no map: every opposing vehicle is taken to see it
{'unit': 'pz4', 'mp': 2, 'seen_by': ['t34']}
>>> mark(state, parse_command("german", ["mark", "pz4", "--ce"]), pz4).events[0].data
{'unit': 'pz4', 'ce': True}
"""

from __future__ import annotations

from typing import Any

from ordnance.asl.game.paths import MOVE_RULE, check_path, find_path, may_move
from ordnance.asl.game.rulings import SEQUENCE, game_ruling
from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.sight import UNSEEN, watchers
from ordnance.asl.game.state import AslState
from ordnance.asl.smoke import Phase
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Corner
from ordnance.core.ruleset import Command, Event, Resolution

MOVERS = ("vehicle", "scw", "atr")


def movement(state: AslState, command: Command, unit: Unit) -> Resolution:
    """``move`` or ``man`` in the side's own MPh."""
    if state.phase is not Phase.MPH or command.side != state.player:
        raise IllegalAction(SEQUENCE, "units move only in their own side's MPh")
    if command.verb == "move":
        return _move(state, command, unit)
    status = state.status[unit.id]
    if unit.kind != "gun":
        raise BadInput("unit", unit.id, "only a Gun is manned")
    if status.manned:
        raise BadInput("unit", unit.id, "already recorded as manned this MPh")
    seen = watchers(state, unit.id, status.hex)
    sentence = (
        f"Infantry moved to and manned {unit.id} in the MPh: Canister it fires in the AFPh is"
        " Area Fire (C8.4-halve)."
    )
    return Resolution(
        (Event("manned", {"unit": unit.id, "seen_by": list(seen)}),),
        game_ruling(
            command, ("C8.4-halve", *_seen_clause(seen)), _with_seen(sentence, seen, state)
        ),
    )


def _move(state: AslState, command: Command, unit: Unit) -> Resolution:
    if unit.kind not in MOVERS:
        raise BadInput("unit", unit.id, "a Gun does not move itself; Infantry man it ('man')")
    args, sheet, status = command.args, state.sheet, state.status[unit.id]
    path_words, dest = list(args.get("to") or ()), args.get("dest")
    if path_words and dest is not None:
        raise BadInput("command", command.text, "give the path (--to ...) or --dest, not both")
    if args.get("mp") is not None and int(args["mp"]) < 1:
        raise BadInput("MP", str(args["mp"]), "an expenditure is 1 MP/MF or more")
    may_move(state, unit)
    moving = bool(path_words) or dest is not None
    steps = []
    if path_words:
        steps = check_path(state, unit, path_words)
    elif dest is not None:
        steps = find_path(state, unit, str(dest))
    extra = int(args["mp"]) if args.get("mp") is not None else (0 if moving else 1)
    mp = (sum(s.mp for s in steps) if steps and unit.afv is not None else 0) + extra
    data: dict[str, Any] = {"unit": unit.id, "mp": mp}
    hex = status.hex
    if steps:
        hex = steps[-1].hex
        data["hex"] = sheet.label(hex)
        data["path"] = [sheet.label(s.hex) for s in steps]
    if args.get("ca") is not None:
        data["ca"] = Corner.parse(str(args["ca"])).name
    unit_word = "MP" if unit.afv is not None else "MF"
    words = [f"{unit.id} spent {mp} {unit_word}"]
    if steps:
        priced = "; ".join(f"{sheet.label(s.hex)}: {s.why}" for s in steps)
        words.append(f"entering {', '.join(data['path'])} ({priced}")
        words[-1] += f"; +{extra} in place)" if extra else ")"
    rules = tuple(dict.fromkeys(r for s in steps for r in s.rules)) if steps else ()
    if unit.afv is not None and status.afv is not None:
        spent = status.afv.mp_spent + mp
        allowance = unit.afv.mp
        if allowance is not None and spent > allowance:
            raise IllegalAction(
                MOVE_RULE, f"{unit.id} has {allowance - status.afv.mp_spent} MP left, not {mp}"
            )
        words.append(f"({spent} MP spent" + ("" if allowance is None else f" of {allowance}") + ")")
    if steps:
        seen = tuple(dict.fromkeys(u for s in steps for u in watchers(state, unit.id, s.hex)))
    else:  # MP spent in place: one hex, whose watchers are each named once already
        seen = watchers(state, unit.id, hex)
    data["seen_by"] = list(seen)
    sentence = (
        " ".join(words) + ". It moved this Player Turn: its Canister is Area Fire (C8.4-halve)."
    )
    clauses = ("C8.4-halve", *((MOVE_RULE, *rules) if steps else ()), *_seen_clause(seen))
    return Resolution(
        (Event("moved", data),),
        game_ruling(command, clauses, _with_seen(sentence, seen, state)),
    )


def _seen_clause(seen: tuple[str, ...]) -> tuple[str, ...]:
    return ("D13.2-defensive",) if seen else ()


def _with_seen(sentence: str, seen: tuple[str, ...], state: AslState) -> str:
    if not seen:
        return sentence
    unseen = f" {UNSEEN}" if state.sheet.game_map is None else ""
    return (
        f"{sentence} Seen by {', '.join(seen)}: each may now try its smoke dispenser or grenades"
        f" (D13.2-defensive).{unseen}"
    )


# --- mark --------------------------------------------------------------------------------------


def mark(state: AslState, command: Command, unit: Unit) -> Resolution:
    """Record markers and crew state of the side's own vehicle (any phase)."""
    args = command.args
    status = state.status[unit.id]
    if unit.afv is None or status.afv is None:
        raise BadInput("unit", unit.id, "only a vehicle's markers and crew are recorded")
    data: dict[str, Any] = {"unit": unit.id}
    for yes, no, key in (("ce", "bu", "ce"), ("motion", "stopped", "motion")):
        if args.get(yes) and args.get(no):
            raise BadInput("command", command.text, f"--{yes} or --{no}, not both")
        if args.get(yes) or args.get(no):
            data[key] = bool(args.get(yes))
    if "ce" in data and not unit.afv.armored:
        raise BadInput("unit", unit.id, "an unarmored vehicle is neither BU nor CE")
    if args.get("crew") is not None:
        data["crew"] = str(args["crew"])
    for flag in ("abandoned", "fired", "immobile"):
        if args.get(flag):
            data[flag] = True
    if len(data) == 1:
        raise BadInput(
            "command",
            command.text,
            "mark what? --ce, --bu, --motion, --stopped, --crew STATE, --abandoned, --fired or"
            " --immobile",
        )
    after = status.afv.marked(data)
    facts = [
        "CE" if after.ce else "BU" if unit.afv.armored else "unarmored",
        "in Motion" if after.motion else "not in Motion",
        f"crew {after.crew}",
    ]
    if after.abandoned:
        facts.append("Abandoned")
    if after.immobile:
        facts.append("immobile")
    if after.fired:
        facts.append("has fired a weapon this Player Turn")
    sentence = (
        f"{unit.id} is now {', '.join(facts)}. Its smoke attempts read this: crew and fire"
        " (D13.2-state), BU +1 (D13.3), sP only CE (D13.33), sN only BU (D13.34), grenades"
        " (D13.35)."
    )
    clauses = ("SYS.record", "D13.2-state", "D13.3")
    return Resolution((Event("marked", data),), game_ruling(command, clauses, sentence))
