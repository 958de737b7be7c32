"""The AFV state that D13 reads: an explicit, immutable value the game builds and keeps.

Every D13 procedure takes an :class:`AfvState` and returns the state after the attempt; none of
them keeps anything of its own. The game owns the state between calls, folds the ``state_after``
of each ruling back into its record, and calls :meth:`AfvState.next_player_turn` when a Player
Turn ends.

>>> state = AfvState(ce=True, moving=True)
>>> state.buttoned_up, state.moving_or_motion, state.sm_facing
(False, True, None)
>>> AfvState(armored=False, ce=True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad AFV state 'ce': an unarmored vehicle cannot button up, ...

Fields, in four groups:

* what the vehicle is: ``armored`` (False for an armed-but-unarmored vehicle), ``open_topped``
  (OT; False means CT), ``has_ma`` (a Main Armament is shown on the counter), ``mount`` (how its
  sM turns, for the Case A table);
* its status: ``abandoned``, ``crew``, ``ce`` (False means BU for an armored vehicle),
  ``moving`` and ``in_motion``, ``mp_spent`` in its current MPh and, when the game knows it,
  ``mp_allowance``; where it is and faces: ``hex``, ``vca`` and ``tca`` (hexgrid corners);
* what it did this Player Turn: ``fired_weapon`` (any weapon, Bounding and Defensive First Fire
  included; a dispenser is no weapon, D13.1), ``dispenser_attempted``, ``grenades_attempted``;
* now: ``phase``, ``own_turn`` (the Player Turn of the AFV's side) and
  ``enemy_expended_in_los`` (an opposing unit has just spent MP/MF in the AFV's LOS).

A Player Turn has exactly one MPh, and D13 attempts happen only in an MPh (D13.2-once), so
"attempted this Player Turn" and "attempted this MPh" are the same fact: one flag per device.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from ordnance.asl.smoke import Phase
from ordnance.core.dice import DR, DieRoll
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Corner, Direction, Hex
from ordnance.core.rulings import SCALARS, jsonable


class Crew(enum.StrEnum):
    """The inherent crew's condition; only ``ok`` may use smoke (D13.2-state)."""

    OK = "ok"
    STUNNED = "stunned"
    SHOCKED = "shocked"
    BROKEN = "broken"

    @classmethod
    def parse(cls, text: str) -> Crew:
        """Case-insensitive.

        >>> Crew.parse("Stunned")
        <Crew.STUNNED: 'stunned'>
        """
        for crew in cls:
            if crew.value == text.strip().lower():
                return crew
        raise BadInput("crew", text, "one of " + ", ".join(c.value for c in cls))


class Mount(enum.StrEnum):
    """How the sM's arc turns, by the Case A rows (C5.1, reference/asl.md section 2).

    ``T`` fast turret, ``ST`` slow turret, ``RST`` (grouped with ST by the one source that names
    it), ``NT`` no turret (and bow mounts): an NT AFV turns its whole hull, so its VCA.
    """

    T = "T"
    ST = "ST"
    RST = "RST"
    NT = "NT"

    @property
    def turreted(self) -> bool:
        return self is not Mount.NT

    @classmethod
    def parse(cls, text: str) -> Mount:
        """Case-insensitive; ``bow`` is read as ``NT`` (same Case A row).

        >>> Mount.parse("st"), Mount.parse("bow")
        (<Mount.ST: 'ST'>, <Mount.NT: 'NT'>)
        """
        word = text.strip().upper()
        if word == "BOW":
            return cls.NT
        for mount in cls:
            if mount.value == word:
                return mount
        raise BadInput("mount", text, "one of T, ST, RST, NT (or bow)")


@dataclass(frozen=True, kw_only=True)
class AfvState:
    """One vehicle as D13 sees it (see the module docstring for every field)."""

    armored: bool = True
    open_topped: bool = False
    has_ma: bool = True
    mount: Mount = Mount.T
    abandoned: bool = False
    crew: Crew = Crew.OK
    ce: bool = False
    moving: bool = False
    in_motion: bool = False
    mp_spent: int = 0
    mp_allowance: int | None = None
    hex: Hex | None = None
    vca: Corner | None = None
    tca: Corner | None = None
    fired_weapon: bool = False
    dispenser_attempted: bool = False
    grenades_attempted: bool = False
    phase: Phase = Phase.MPH
    own_turn: bool = True
    enemy_expended_in_los: bool = False

    def __post_init__(self) -> None:
        # A contradictory state is bad input, not a rules question: refuse to build it.
        if not self.armored and self.ce:
            raise BadInput(
                "AFV state",
                "ce",
                "an unarmored vehicle cannot button up, so it has no CE status either",
            )
        if not self.armored and self.open_topped:
            raise BadInput("AFV state", "open_topped", "OT/CT describes an armored vehicle")
        if not self.mount.turreted and self.tca is not None:
            raise BadInput("AFV state", "tca", "an NT vehicle has no turret, so no TCA")
        if self.mp_spent < 0:
            raise BadInput("AFV state", str(self.mp_spent), "MP spent cannot be negative")
        if self.mp_allowance is not None and self.mp_allowance < 0:
            raise BadInput("AFV state", str(self.mp_allowance), "an MP allowance is >= 0")

    @property
    def buttoned_up(self) -> bool:
        """BU: an armored vehicle whose crew is not exposed (an unarmored one never is)."""
        return self.armored and not self.ce

    @property
    def moving_or_motion(self) -> bool:
        return self.moving or self.in_motion

    @property
    def sm_facing(self) -> Corner | None:
        """The facing of the arc an sM fires in: the TCA, or the VCA of an NT AFV."""
        return self.tca if self.mount.turreted else self.vca

    @property
    def mp_left(self) -> int | None:
        """MP still to spend this MPh, when the allowance is known."""
        return None if self.mp_allowance is None else self.mp_allowance - self.mp_spent

    def changed(self, **changes: Any) -> AfvState:
        """The same state with ``changes`` (``dataclasses.replace``: checked by the same
        ``__post_init__``; each D13 attempt makes the state after it this way).

        >>> AfvState(ce=True).changed(mp_spent=2) == AfvState(ce=True, mp_spent=2)
        True
        >>> AfvState().changed(speed=1)
        Traceback (most recent call last):
        ...
        TypeError: AfvState.__init__() got an unexpected keyword argument 'speed'
        >>> AfvState().changed(mp_spent=-1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ordnance.core.errors.BadInput: bad AFV state '-1': MP spent cannot be negative
        """
        return dataclasses.replace(self, **changes)

    def facing_to(self, corner: Corner) -> AfvState:
        """The same state with the sM's arc (TCA, or VCA when NT) turned to ``corner``.

        >>> AfvState(tca=Corner.E).facing_to(Corner.W).tca
        Corner.W
        """
        if self.mount.turreted:
            return self.changed(tca=corner)
        return self.changed(vca=corner)

    def next_player_turn(self, *, own_turn: bool | None = None) -> AfvState:
        """The state at the start of the next Player Turn: the per-turn facts are cleared.

        Motion and facings persist; ``moving`` and MP spent belong to one MPh. ``own_turn``
        flips unless given.

        >>> s = AfvState(dispenser_attempted=True, fired_weapon=True, mp_spent=3, moving=True)
        >>> n = s.next_player_turn()
        >>> n.dispenser_attempted, n.fired_weapon, n.mp_spent, n.moving, n.own_turn
        (False, False, 0, False, False)
        """
        return self.changed(
            fired_weapon=False,
            dispenser_attempted=False,
            grenades_attempted=False,
            moving=False,
            mp_spent=0,
            phase=Phase.RPH,
            own_turn=not self.own_turn if own_turn is None else own_turn,
            enemy_expended_in_los=False,
        )


def hexspines_between(before: Corner, after: Corner) -> int:
    """How many hexspines a CA turns from one facing to another, the short way round (0-3).

    >>> hexspines_between(Corner.NNE, Corner.E), hexspines_between(Corner.NNE, Corner.NNW)
    (1, 1)
    >>> hexspines_between(Corner.E, Corner.W)
    3
    """
    clockwise = (after - before) % 6
    return min(clockwise, 6 - clockwise)


def plain(value: object) -> Any:
    """JSON-ready form of D13 values: corners and directions by name, hexes as ``q,r,s``.

    :func:`ordnance.core.rulings.jsonable` would print a corner as its number; a player reads
    ``E``, not ``1``.

    >>> plain(AfvState(hex=Hex(1, -1), tca=Corner.E))["tca"], plain(Hex(1, -1))
    ('E', '1,-1,0')
    """
    cls = type(value)
    if cls in SCALARS:
        return value
    how = _PLAIN.get(cls)
    if how is None:
        how = _how(cls)
    if how is _JSONABLE:
        return jsonable(value)
    # Most fields and items are plain scalars: kept as they are without a call for each.
    if type(how) is tuple:  # a dataclass: its fields' names
        made = {}
        for name in how:
            field = getattr(value, name)
            made[name] = field if type(field) in SCALARS else plain(field)
        return made
    if how is _ITEMS:
        return [v if type(v) in SCALARS else plain(v) for v in value]  # type: ignore[attr-defined]
    if how is _NAME:
        assert isinstance(value, Corner | Direction)
        return value.name
    return str(value)


# How plain writes a value of each type, decided once per type (by the same isinstance tests,
# in the same order), not once per value.
_NAME, _TEXT, _JSONABLE, _ITEMS = "name", "text", "jsonable", "items"
_PLAIN: dict[type, str | tuple[str, ...]] = {}


def _how(cls: type) -> str | tuple[str, ...]:
    how: str | tuple[str, ...]
    if issubclass(cls, Corner | Direction):
        how = _NAME
    elif issubclass(cls, Hex):
        how = _TEXT
    elif issubclass(cls, DR | DieRoll):
        how = _JSONABLE
    elif dataclasses.is_dataclass(cls) and not issubclass(cls, type):
        how = tuple(f.name for f in dataclasses.fields(cls))
    elif issubclass(cls, tuple | list):
        how = _ITEMS
    else:
        how = _JSONABLE
    _PLAIN[cls] = how
    return how
