"""What a chosen ASL unit may do where (:class:`~ordnance.core.offers.BoardOffers`).

Each legal action of the unit (the ruleset's ``legal_actions``, probed up to its roll) is
placed on the hexes it may act on, each offer's command checked the same way:

* ``move``: every hex it may end a move in now (:func:`.paths.reach`), as ``move U --dest
  HEX``, the note giving the MP of the cheapest path ("3 MP"; a team: "2 hexes"); a vehicle
  without an MP allowance is offered its adjacent hexes (``--to HEX``);
* ``fire``: every hex holding an enemy unit in the firer's LOS, as ``--at HEX`` (HEAT names
  the target's kind: a vehicle or a Gun; Infantry needs its TEM, typed); no maximum range is
  known for these weapons, so the note gives the range ("AP, range 4");
* SMOKE/WP: every hex in LOS at range 1 to :data:`SMOKE_OFFER_RANGE` but the firer's own (the
  texts give ordnance SMOKE no range: farther hexes are typed, ``--at HEX``);
* ``canister``: each of its five aiming points (C8.4-target), offered on each hex of the
  point's cluster ("aim 3: 4I4, 4I5, 4J5"); a unit without a hex or CA: its own hex;
* ``dispense``: the own hex; an sM each hex it may aim at (range 1-3, D13.32);
* ``grenades``, ``man``: the own hex.

The options the command table marks ``ask`` (the To Hit number) are left out: the board asks.
Offers are remembered per state, side and unit (a page asks again on every click), what a
hex sees per live map (every game on the map with the same SMOKE shares it).

>>> from ordnance.asl.game.ruleset import AslRuleset
>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state, apply
>>> state = initial_state(Sheet.of(load_scenario({"date": "1944-09", "map": "asl-village",
...     "sides": {"german": {"units": {"pz4": {"kind": "vehicle", "notation": "s8",
...                                            "hex": "4K3", "ca": "W", "mp": 3}}},
...               "american": {"units": {"m4": {"kind": "vehicle", "hex": "4G5"}}}}})))
>>> state = apply(state, "phase", {"turn": 1, "player": "german", "phase": "MPh"})
>>> rules = AslRuleset()
>>> [o for o in rules.offers(state, "german", "pz4") if o.hex == "4G5"]
[Offer(hex='4G5', verb='fire', command='fire pz4 --ammo AP --at 4G5', note='AP, range 4'), \
Offer(hex='4G5', verb='fire', command='fire pz4 --ammo HE --at 4G5', note='HE, range 4')]
>>> [o.note for o in rules.offers(state, "german", "pz4") if o.hex == "4J3"]
['1 MP']
"""

from __future__ import annotations

from collections.abc import Callable
from threading import Lock
from typing import Any, TypeVar

from ordnance.asl.canister_target import canister_aiming_points
from ordnance.asl.dispensers.aim import SM_RANGE
from ordnance.asl.game import resolve as rules
from ordnance.asl.game.commands import COMMANDS, command_text
from ordnance.asl.game.paths import reach
from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.sight import live_map, visibility
from ordnance.asl.game.state import AslState
from ordnance.asl.notation import Family
from ordnance.asl.smoke import Phase
from ordnance.core.command_words import split_words
from ordnance.core.hexgrid import Hex
from ordnance.core.offers import Offer
from ordnance.core.ruleset import Command, passes_checks

# How far the board offers a SMOKE/WP target (see the module docstring).
SMOKE_OFFER_RANGE = 6
_SMOKE_AMMO = frozenset({Family.SMOKE.ammo, Family.WP.ammo})
# HEAT's target kind for an enemy unit's kind (C8.31-target); Infantry needs its TEM.
_HEAT_TARGET = {"vehicle": "vehicle", "gun": "gun"}

LegalActions = Callable[[AslState, str], tuple[str, ...]]


def offers(state: AslState, side: str, unit_id: str, legal: LegalActions) -> tuple[Offer, ...]:
    """Every action of ``unit_id`` now, each on its hex (see the module docstring); none for
    another side's unit, an unknown one, or one the scenario places on no hex. ``legal`` is
    the ruleset's ``legal_actions``."""
    return _kept(
        _OFFERS, (id(state), side, unit_id), state, lambda: _offers(state, side, unit_id, legal)
    )


def _kept(kept: dict[Any, tuple[Any, Any]], key: Any, owner: Any, make: Callable[[], T]) -> T:
    """``make()``, remembered under ``key`` while ``owner`` (whose id the key holds) lives on
    in the entry: an id is only reused once its object is gone, and the entry keeps it."""
    with _LOCK:
        known = kept.get(key)
    if known is not None and known[0] is owner:
        made: T = known[1]
        return made
    made = make()
    with _LOCK:
        if len(kept) >= _KEEP:
            kept.clear()  # start again (a page asks about the newest states)
        kept[key] = (owner, made)
    return made


T = TypeVar("T")
_OFFERS: dict[Any, tuple[Any, Any]] = {}  # (state id, side, unit) -> (state, offers)
_LEGAL: dict[Any, tuple[Any, Any]] = {}  # (state id, side) -> (state, legal actions)
_SEEN: dict[Any, tuple[Any, Any]] = {}  # (live map id, labels, hex) -> (live map, hexes it sees)
_KEEP = 256
_LOCK = Lock()


def _offers(state: AslState, side: str, unit_id: str, legal: LegalActions) -> tuple[Offer, ...]:
    unit = state.sheet.units.get(unit_id)
    here = None if unit is None else state.status[unit.id].hex
    if unit is None or unit.side != side or here is None:
        return ()
    found: list[Offer] = []
    actions = _kept(_LEGAL, (id(state), side), state, lambda: legal(state, side))
    for text in actions:
        words = split_words(text)
        if len(words) < 2 or words[1] != unit_id:
            continue
        verb, args = COMMANDS.read(words)
        place = _PLACES.get(verb)
        if place is not None:
            found += place(state, unit, here, args, text)
    if state.phase is Phase.MPH and any(t.family is Family.SMOKE_MORTAR for t in unit.tokens):
        # legal_actions lists no sM (it needs a target): each target is checked here (a
        # dispenser is used in an MPh only, D13.2)
        _, args = COMMANDS.read(["dispense", unit.id, "--type", Family.SMOKE_MORTAR.value])
        found += _dispense(state, unit, here, args, "")
    return tuple(found)


def _checked(state: AslState, unit: Unit, verb: str, args: dict[str, Any]) -> str | None:
    """The command's canonical text when resolve accepts it up to its roll, else None.

    ``args`` are a read command's (every option present) with values in their read form (a
    hex's label, an aiming point's number), so the Command is made without reading its words
    again; the test of the offers reads each one back through ``parse_command``."""
    command = Command(unit.side, verb, args, command_text(verb, args))
    return command.text if passes_checks(rules.resolve, state, command) else None


def _own_hex(state: AslState, unit: Unit, here: Hex, args: Any, text: str) -> list[Offer]:
    return [Offer(state.sheet.label(here), split_words(text)[0], text)]


def _move(state: AslState, unit: Unit, here: Hex, args: Any, text: str) -> list[Offer]:
    sheet = state.sheet
    costs = reach(state, unit)  # kept across the states and games that share its ground
    found: list[Offer] = []
    if unit.afv is not None and unit.afv.mp is None:
        for there in here.neighbours():  # no allowance: a path is given hex by hex
            if sheet.labels is None or there not in sheet.labels:
                continue
            made = _checked(state, unit, "move", {**args, "to": [sheet.label(there)]})
            if made is not None:
                found.append(Offer(sheet.label(there), "move", made, "1 hex"))
        return found
    word = "MP" if unit.afv is not None else "hexes"
    for there, cost in sorted(costs.items(), key=lambda item: (item[1], sheet.label(item[0]))):
        command = command_text("move", {**args, "dest": sheet.label(there)})
        note = f"{cost} {word}" if cost != 1 or word == "MP" else "1 hex"
        found.append(Offer(sheet.label(there), "move", command, note))
    return found


def _fire(state: AslState, unit: Unit, here: Hex, args: Any, text: str) -> list[Offer]:
    if args["ammo"] in _SMOKE_AMMO:
        return _smoke(state, unit, here, args)
    sheet = state.sheet
    targets = dict.fromkeys(
        where
        for other in sheet.units.values()
        if other.side != unit.side
        and (where := state.status[other.id].hex) is not None
        and where != here
    )
    found: list[Offer] = []
    for where in targets:
        given = {**args, "at": sheet.label(where)}
        if args["ammo"] == Family.HEAT.ammo:
            kinds = [
                _HEAT_TARGET[u.kind]
                for u in sheet.units.values()
                if u.side != unit.side
                and state.status[u.id].hex == where
                and u.kind in _HEAT_TARGET
            ]
            if not kinds:
                continue
            given["target"] = kinds[0]
        made = _checked(state, unit, "fire", given)
        if made is not None:
            note = f"{args['ammo']}, range {here.distance(where)}"
            found.append(Offer(sheet.label(where), "fire", made, note))
    return found


def _smoke(state: AslState, unit: Unit, here: Hex, args: Any) -> list[Offer]:
    sheet = state.sheet
    if sheet.labels is None:
        return []
    seen = _seen_from(state, here)
    # One shot's checks stand for all: what differs between these hexes (own hex, LOS, the map)
    # is what was just checked, so each command is not probed again.
    found: list[Offer] = []
    sample = None
    for where in seen:
        given = {**args, "at": sheet.label(where)}
        if sample is None:
            sample = _checked(state, unit, "fire", given)
            if sample is None:
                return []
        command = command_text("fire", given)
        found.append(
            Offer(
                sheet.label(where), "fire", command, f"{args['ammo']}, range {here.distance(where)}"
            )
        )
    return found


def _seen_from(state: AslState, here: Hex) -> tuple[Hex, ...]:
    """:func:`_seen_near`, kept by the live map (the scenario's map with the game's SMOKE,
    one object for every game and version that has both, :func:`.sight.live_map`) rather than
    by game: on a table of many games of one scenario, each game's first look from a hex
    finds it worked out (an ASL board's SMOKE offers judge up to 126 lines; bench_web, two
    processes on PostgreSQL at 500 games: 9.5% of a server's busy time went to it before)."""
    live = live_map(state)
    owner: object = live if live is not None else state.sheet  # no map: the labels' hexes
    key = (id(owner), state.sheet.labels, here)
    return _kept(_SEEN, key, owner, lambda: _seen_near(state, here))


def _seen_near(state: AslState, here: Hex) -> tuple[Hex, ...]:
    """The hexes ``here`` sees at range 1 to :data:`SMOKE_OFFER_RANGE`, by the ASL judge
    (every such hex without a map)."""
    sheet = state.sheet
    assert sheet.labels is not None
    hexes = [h for h in sheet.labels.hexes() if 0 < here.distance(h) <= SMOKE_OFFER_RANGE]
    sight = visibility(state)
    if sight is None:
        return tuple(hexes)
    return tuple(h for h in hexes if sight.seen(here, h) is not None)


def _canister(state: AslState, unit: Unit, here: Hex, args: Any, text: str) -> list[Offer]:
    sheet = state.sheet
    ca = state.status[unit.id].ca
    if ca is None:
        return [Offer(sheet.label(here), "canister", text, "no CA: typed aim")]
    found: list[Offer] = []
    for number, point in enumerate(canister_aiming_points(here, ca), start=1):
        if sheet.labels is None or not all(h in sheet.labels for h in point.cluster):
            continue
        made = _checked(state, unit, "canister", {**args, "aim": number})
        if made is None:
            continue
        cluster = [sheet.label(h) for h in point.cluster]
        note = f"aim {number}: {', '.join(cluster)}"
        found += [Offer(where, "canister", made, note) for where in cluster]
    return found


def _dispense(state: AslState, unit: Unit, here: Hex, args: Any, text: str) -> list[Offer]:
    sheet = state.sheet
    if args.get("type") != Family.SMOKE_MORTAR.value:
        return [Offer(sheet.label(here), "dispense", text)]
    found: list[Offer] = []
    if sheet.labels is None:
        return found
    seen = _seen_from(state, here)
    for there in seen:  # an sM needs its target in LOS (D13.32-place): the others are not tried
        if here.distance(there) not in SM_RANGE:
            continue
        made = _checked(state, unit, "dispense", {**args, "target": sheet.label(there)})
        if made is not None:
            note = f"sM, range {here.distance(there)}"
            found.append(Offer(sheet.label(there), "dispense", made, note))
    return found


_PLACES: dict[str, Callable[[AslState, Unit, Hex, Any, str], list[Offer]]] = {
    "move": _move,
    "fire": _fire,
    "canister": _canister,
    "dispense": _dispense,
    "grenades": _own_hex,
    "man": _own_hex,
}
