"""The ASL C8 game state and its fold: the side record, the turn and phase, what fired this phase.

The state changes only through events (:func:`apply`); each event is a plain fact:

=============  =====================================  ===========================================
kind           data                                   effect
=============  =====================================  ===========================================
``phase``      turn, player, phase                    a new phase; a new Player Turn also clears
                                                      movement and manning
``record``     unit, ammo (family symbol), outcome    the C8.9 outcome on the side record (C8.0)
``fired``      unit, ammo, smoke (bool), (rof_kept)   the unit fired this phase (and, in the
                                                      PFPh, this Player Turn's Prep Fire);
                                                      non-smoke fire closes SMOKE/WP for the
                                                      phase (C8.5, C8.6); ``rof_kept``: the
                                                      shot kept Multiple ROF (C8.1-rof)
``malfunction`` unit                                  the Gun may not fire again
``moved``      unit (hex, ca, mp, seen_by)            the unit spent MP/MF: the AFV moved this
                                                      Player Turn (C8.4-halve), to that hex and
                                                      CA when given, spending ``mp``; the
                                                      opposing AFVs in ``seen_by`` saw it
                                                      (D13.2-defensive)
``manned``     unit (seen_by)                         Infantry moved to and manned it this MPh
``marked``     unit (ce, motion, crew, abandoned,     the owner recorded a vehicle's markers
               fired)                                 and crew state (D13.2-state)
``dispensed``  unit, device, type, fired, mp (ca,     a D13 attempt (:mod:`.dispense`): tried,
               later_fire, he_in_cc, seen_by)         MP spent, CA turned on success
``smoke``      unit, side, hex, marker, removal       SMOKE placed on the map (:mod:`.markers`)
``over``       (none)                                 the last Player Turn has ended
=============  =====================================  ===========================================

A new phase removes the SMOKE whose time is up (:meth:`SmokeMarker.expires`), forgets the last
MP/MF expenditure and the Case A note of an sM turn; a new Player Turn also clears each
vehicle's per-turn D13 facts.

>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> sheet = Sheet.of(load_scenario({"date": "1945-03", "sides": {
...     "russian": {"units": {"t34": {"kind": "vehicle", "notation": "A5(4)/6(5) s8"}}},
...     "german": {"units": {}}}}))
>>> state = initial_state(sheet)
>>> state.phase, state.player
(<Phase.RPH: 'RPh'>, 'russian')
>>> state = apply(state, "record", {"unit": "t34", "ammo": "A", "outcome": "used-last"})
>>> state.records["russian"].guns["t34"].usable(Family.APCR)
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from ordnance.asl.game.afv import AfvStatus
from ordnance.asl.game.markers import SmokeMarker
from ordnance.asl.game.scenario import Sheet
from ordnance.asl.notation import Family
from ordnance.asl.record import GunRecord, SideRecord
from ordnance.asl.smoke import Phase
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Corner, Hex

# A Player Turn's phases in order (A3's sequence of play).
PHASES: tuple[Phase, ...] = tuple(Phase)


@dataclass(frozen=True)
class Shot:
    """One unit's shot this phase (C8.9-gt shots that never fired are not listed);
    ``rof_kept``: it kept the Gun's Multiple ROF, so the Gun may fire again (C8.1-rof)."""

    unit: str
    ammo: Family
    smoke: bool
    rof_kept: bool = False


@dataclass(frozen=True)
class UnitStatus:
    """What a unit did this Player Turn (``prep_fired``: it fired in the PFPh), whether its
    Gun is malfunctioned, where it stands."""

    moved: bool = False
    manned: bool = False
    malfunctioned: bool = False
    prep_fired: bool = False
    hex: Hex | None = None
    ca: Corner | None = None
    afv: AfvStatus | None = None


@dataclass(frozen=True)
class Expenditure:
    """The latest MP/MF expenditure this phase: whose, where, and which opposing AFVs saw it."""

    unit: str
    side: str
    hex: Hex | None
    seen_by: frozenset[str]


@dataclass(frozen=True)
class AslState:
    """The game between events: fixed ``sheet``, turn and phase, records, statuses, shots."""

    sheet: Sheet
    turn: int
    player: str
    phase: Phase
    records: Mapping[str, SideRecord]
    status: Mapping[str, UnitStatus]
    shots: tuple[Shot, ...] = ()
    non_smoke: frozenset[str] = field(default_factory=frozenset)
    over: bool = False
    smoke: tuple[SmokeMarker, ...] = ()
    expenditure: Expenditure | None = None

    @property
    def phase_owner(self) -> str:
        """Whose phase it is: the DFPh belongs to the defender, every other to the phasing side."""
        return self.sheet.other(self.player) if self.phase is Phase.DFPH else self.player

    def record(self, unit_id: str) -> GunRecord:
        """A Gun's side-record entry (C8.0)."""
        unit = self.sheet.unit(unit_id)
        return self.records[unit.side].entry(unit_id)


# The phase after each phase of a Player Turn (the last has none).
FOLLOWING: dict[Phase, Phase] = dict(pairwise(PHASES))


def initial_state(sheet: Sheet) -> AslState:
    """Game Turn 1, the first side's Rally Phase, every Gun with its full counter (C8.0)."""
    records = {
        side: SideRecord(
            {
                u.id: GunRecord(u.tokens)
                for u in sheet.units.values()
                if u.side == side and u.keeps_record
            }
        )
        for side in sheet.sides
    }
    return AslState(
        sheet=sheet,
        turn=1,
        player=sheet.first,
        phase=PHASES[0],
        records=records,
        status={
            u.id: UnitStatus(hex=u.hex, ca=u.ca, afv=None if u.afv is None else u.afv.start)
            for u in sheet.units.values()
        },
    )


def next_phase(state: AslState) -> tuple[int, str, Phase] | None:
    """The turn, phasing side and phase after this one; None when the scenario ends."""
    following = FOLLOWING.get(state.phase)
    if following is not None:
        return state.turn, state.player, following
    second = state.player != state.sheet.first
    turn = state.turn + 1 if second else state.turn
    if state.sheet.turns is not None and turn > state.sheet.turns:
        return None
    return turn, state.sheet.other(state.player), PHASES[0]


def apply(state: AslState, kind: str, data: Mapping[str, Any]) -> AslState:
    """The state after one event (see the module docstring for the kinds)."""
    if kind == "phase":
        return _new_phase(state, data)
    if kind == "over":
        return replace(state, over=True)
    if kind == "smoke":
        return replace(state, smoke=(*state.smoke, _marker(state, data)))
    unit_id = str(data["unit"])
    side = state.sheet.unit(unit_id).side
    if kind == "record":
        family = _family(data["ammo"])
        records = state.records[side].after(unit_id, family, str(data["outcome"]))
        return replace(state, records={**state.records, side: records})
    if kind == "fired":
        smoke = bool(data["smoke"])
        non_smoke = state.non_smoke
        return replace(
            state,
            shots=(
                *state.shots,
                Shot(unit_id, _family(data["ammo"]), smoke, data.get("rof_kept") is True),
            ),
            non_smoke=non_smoke if smoke or side in non_smoke else non_smoke | {side},
            status={**state.status, unit_id: _fired(state.status[unit_id], state.phase)},
        )
    status = state.status[unit_id]
    expenditure = state.expenditure
    if kind == "malfunction":
        status = replace(status, malfunctioned=True)
    elif kind == "manned":
        status = replace(status, manned=True)
        expenditure = _expenditure(state, unit_id, status.hex, data)
    elif kind == "moved":
        status = _moved(state, status, data)
        expenditure = _expenditure(state, unit_id, status.hex, data)
    elif kind == "marked" and status.afv is not None:
        status = replace(status, afv=status.afv.marked(data))
    elif kind == "dispensed" and status.afv is not None:
        ca = data.get("ca")
        status = replace(
            status,
            ca=status.ca if ca is None else _corner(ca),
            afv=status.afv.attempted(data),
        )
        if data.get("mp"):
            # The 1 MP of a successful firing is an expenditure the enemy may answer.
            expenditure = _expenditure(state, unit_id, status.hex, data)
    else:
        raise BadInput("event", kind, "not an ASL event")
    return replace(state, status={**state.status, unit_id: status}, expenditure=expenditure)


def _corner(name: Any) -> Corner:
    """The corner an event names."""
    return Corner.parse(str(name))


def _family(symbol: Any) -> Family:
    """The family an event names by its symbol."""
    return Family(symbol)


def _new_phase(state: AslState, data: Mapping[str, Any]) -> AslState:
    player = str(data["player"])
    text = str(data["phase"])
    phase = Phase.parse(text)
    new_turn = player != state.player or data["turn"] != state.turn
    # Most phase changes leave most units as they are: only the changed ones are replaced.
    changed: dict[str, UnitStatus] | None = None
    statuses = state.status
    if new_turn:
        for unit, status in statuses.items():
            if status.afv is None and not (status.moved or status.manned or status.prep_fired):
                continue  # nothing to clear
            after = _phase_status(status, new_turn=True)
            if after is not status:
                if changed is None:
                    changed = {}
                changed[unit] = after
    else:
        # Within a Player Turn only a vehicle's sM note (Case A) may lapse.
        for unit in state.sheet.vehicles:
            afv = statuses[unit].afv
            if afv is not None and afv.later_fire is not None:
                if changed is None:
                    changed = {}
                changed[unit] = _phase_status(statuses[unit], new_turn=False)
    # Built by the constructor, every field named (a phase change is most events of a log):
    # dataclasses.replace looks each field up by name first (bench_ledger, as Game.after_command).
    return AslState(
        sheet=state.sheet,
        turn=int(data["turn"]),
        player=player,
        phase=phase,
        records=state.records,
        status={**state.status, **changed} if changed else state.status,
        shots=(),
        non_smoke=_NO_SIDES,
        over=state.over,
        smoke=_smoke_after(state, player, phase) if state.smoke else state.smoke,
        expenditure=None,
    )


_NO_SIDES: frozenset[str] = frozenset()


def _smoke_after(state: AslState, player: str, phase: Phase) -> tuple[SmokeMarker, ...]:
    """The SMOKE left once the phase changes: some goes, full ordnance SMOKE flips (A24.4)."""
    flips = state.sheet.settings.ordnance_wp_flips
    after = (m.after(state.phase, player, phase, wp_flips=flips) for m in state.smoke)
    return tuple(m for m in after if m is not None)


def _phase_status(status: UnitStatus, *, new_turn: bool) -> UnitStatus:
    """A unit at a new phase: the sM's Case A note lasts one MPh, the rest one Player Turn."""
    afv = status.afv
    if afv is not None:
        if new_turn:
            afv = afv.next_player_turn()
        elif afv.later_fire is not None:
            afv = replace(afv, later_fire=None)
    # Most units have nothing to clear: the same (immutable) status serves.
    same = afv is status.afv
    if same and not (new_turn and (status.moved or status.manned or status.prep_fired)):
        return status
    if new_turn:
        return replace(status, moved=False, manned=False, prep_fired=False, afv=afv)
    return replace(status, afv=afv)


def _fired(status: UnitStatus, phase: Phase) -> UnitStatus:
    """A vehicle that fired a weapon may make no more smoke this Player Turn (D13.2-state);
    a unit that fired in the PFPh may not fire in the AFPh (A3)."""
    changes: dict[str, Any] = {}
    if phase is Phase.PFPH:
        changes["prep_fired"] = True
    if status.afv is not None:
        changes["afv"] = replace(status.afv, fired=True)
    return replace(status, **changes) if changes else status


def _moved(state: AslState, status: UnitStatus, data: Mapping[str, Any]) -> UnitStatus:
    to, ca = data.get("hex"), data.get("ca")
    afv = status.afv
    if afv is not None:
        spent = afv.mp_spent + int(data.get("mp", 0))
        if ca is not None:  # turned again: the sM's Case A note is moot
            afv = replace(afv, mp_spent=spent, later_fire=None)
        else:
            afv = replace(afv, mp_spent=spent)
    return replace(
        status,
        moved=True,
        hex=status.hex if to is None else state.sheet.hex(str(to)),
        ca=status.ca if ca is None else _corner(ca),
        afv=afv,
    )


def _expenditure(
    state: AslState, unit_id: str, hex: Hex | None, data: Mapping[str, Any]
) -> Expenditure:
    side = state.sheet.unit(unit_id).side
    return Expenditure(unit_id, side, hex, frozenset(map(str, data.get("seen_by", ()))))


def _marker(state: AslState, data: Mapping[str, Any]) -> SmokeMarker:
    where = data.get("hex")
    return SmokeMarker(
        hex=None if where is None else state.sheet.hex(str(where)),
        marker=str(data["marker"]),
        unit=str(data["unit"]),
        side=str(data["side"]),
        removal=str(data["removal"]),
    )
