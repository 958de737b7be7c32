"""A vehicle's D13 facts in a game: what its counter is (fixed) and its status (changed by events).

The scenario gives both under a vehicle's keys (asl/data/scenario.schema.json); every key is
optional and the defaults describe an ordinary tank:

==================  =========  ==============================================================
key                 default    meaning
==================  =========  ==============================================================
``armored``         true       false: an armed-but-unarmored vehicle (D13.35)
``open_topped``     false      OT; false means CT
``main_armament``   true       the counter shows a Main Armament (who may use grenades, D13.35)
``mount``           T          T, ST, RST, NT (or bow): the Case A row of its sM (D13.32-drm)
``mp``              none       MP allowance; with it an own-MPh attempt needs 1 MP left
``ce``              OT only    the crew is CE (false: BU); an open-topped vehicle's crew is
                               exposed, so it starts CE unless the scenario says false
``motion``          false      the vehicle is in Motion
``crew``            ok         ok, stunned, shocked or broken (D13.2-state)
``abandoned``       false      the crew has Abandoned the vehicle
``immobile``        false      the vehicle is immobile: it may not move (D2)
``vca``             none       a turreted AFV's hull facing (its ``ca`` is the TCA; an NT
                               AFV's ``ca`` is its VCA)
==================  =========  ==============================================================

>>> data = read_afv({"mount": "st", "ce": True, "mp": 12}, "sides.us.units.m4", "vehicle")
>>> data["mount"], data["ce"], data["mp"]
('ST', True, 12)
>>> facts = Afv.of(data)
>>> facts.mount, facts.start.ce, facts.start.mp_spent
(<Mount.ST: 'ST'>, True, 0)
>>> read_afv({"open_topped": True}, "u", "vehicle")["ce"]  # OT: CE unless told otherwise
True
>>> read_afv({"armored": False, "ce": True}, "u", "vehicle")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario 'u.ce': an unarmored vehicle cannot button up, ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ordnance.asl.dispensers import AfvState, Crew, LaterFire, Mount
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Corner

AFV_KEYS = frozenset(
    {
        "armored",
        "open_topped",
        "main_armament",
        "mount",
        "mp",
        "ce",
        "motion",
        "crew",
        "abandoned",
        "immobile",
        "vca",
    }
)
_FLAGS = {
    "armored": True,
    "open_topped": False,
    "main_armament": True,
    "ce": False,
    "motion": False,
    "abandoned": False,
    "immobile": False,
}


def _fault(where: str, problem: str) -> BadInput:
    return BadInput("scenario", where, problem)


def read_afv(body: Mapping[str, Any], where: str, kind: str) -> dict[str, Any] | None:
    """A vehicle's D13 keys, checked, as JSON; None for other kinds (which may not have them)."""
    given = sorted(AFV_KEYS & set(body))
    if kind != "vehicle":
        if given:
            raise _fault(f"{where}.{given[0]}", "only a vehicle has this key (D13)")
        return None
    data: dict[str, Any] = {}
    for key, default in _FLAGS.items():
        # An open-topped AFV's crew is exposed unless the scenario buttons it up (a
        # documented default: nothing on the counter closes it, and D13.33's sP needs CE).
        start = data["open_topped"] and data["armored"] if key == "ce" else default
        data[key] = body.get(key, start)
    # Types, names and ranges passed the scenario schema (ordnance/asl/data).
    data["mount"] = str(Mount.parse(body.get("mount", "T")))
    data["crew"] = str(Crew.parse(body.get("crew", "ok")))
    data["mp"] = body.get("mp")
    vca = body.get("vca")
    data["vca"] = None if vca is None else Corner.parse(vca).name
    if vca is not None and data["mount"] == Mount.NT:
        raise _fault(f"{where}.vca", "an NT vehicle's 'ca' is its VCA; give that instead")
    try:
        # The library refuses contradictions (an unarmored vehicle that is CE or OT).
        AfvState(armored=data["armored"], open_topped=data["open_topped"], ce=data["ce"])
    except BadInput as error:
        raise _fault(f"{where}.{error.text}", error.problem) from None
    return data


@dataclass(frozen=True)
class AfvStatus:
    """What changes: crew and markers, the hull facing, and what it did this Player Turn.

    ``later_fire`` is the Case A note of a successful sM turn (D13.32-drm), kept until the
    MPh ends.
    """

    ce: bool = False
    motion: bool = False
    crew: Crew = Crew.OK
    abandoned: bool = False
    vca: Corner | None = None
    mp_spent: int = 0
    fired: bool = False
    dispenser_attempted: bool = False
    grenades_attempted: bool = False
    later_fire: LaterFire | None = None
    immobile: bool = False

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> AfvStatus:
        """The status a scenario sets up (:func:`read_afv`'s JSON)."""
        vca = data["vca"]
        return cls(
            ce=data["ce"],
            motion=data["motion"],
            crew=Crew.parse(data["crew"]),
            abandoned=data["abandoned"],
            vca=None if vca is None else Corner.parse(vca),
            immobile=bool(data.get("immobile", False)),
        )

    def next_player_turn(self) -> AfvStatus:
        """Per-Player-Turn facts cleared; markers, crew and facing stay (D13.2-once).

        >>> AfvStatus(ce=True, fired=True, mp_spent=3).next_player_turn()
        AfvStatus(ce=True, motion=False, crew=<Crew.OK: 'ok'>, abandoned=False, vca=None, \
mp_spent=0, fired=False, dispenser_attempted=False, grenades_attempted=False, later_fire=None, \
immobile=False)
        """
        if not (
            self.mp_spent
            or self.fired
            or self.dispenser_attempted
            or self.grenades_attempted
            or self.later_fire is not None
        ):
            return self  # nothing to clear: the same (immutable) value serves
        return replace(
            self,
            mp_spent=0,
            fired=False,
            dispenser_attempted=False,
            grenades_attempted=False,
            later_fire=None,
        )

    def marked(self, data: Mapping[str, Any]) -> AfvStatus:
        """After a ``marked`` event: the markers and crew state the owner recorded.

        >>> AfvStatus().marked({"ce": True, "crew": "stunned"}).crew
        <Crew.STUNNED: 'stunned'>
        """
        changes: dict[str, Any] = {
            key: bool(data[key])
            for key in ("ce", "motion", "abandoned", "fired", "immobile")
            if key in data
        }
        if "crew" in data:
            changes["crew"] = Crew.parse(str(data["crew"]))
        return replace(self, **changes)

    def attempted(self, data: Mapping[str, Any]) -> AfvStatus:
        """After a ``dispensed`` event (see :mod:`ordnance.asl.game.dispense`).

        >>> s = AfvStatus().attempted({"device": "grenades", "fired": True, "mp": 1})
        >>> s.grenades_attempted, s.dispenser_attempted, s.mp_spent
        (True, False, 1)
        """
        changes: dict[str, Any] = {"mp_spent": self.mp_spent + int(data.get("mp", 0))}
        if data.get("he_in_cc"):
            # The sN's HE in Close Combat is a weapon (D13.1 EXC), not a smoke attempt.
            changes["fired"] = self.fired or bool(data["fired"])
        elif data["device"] == "grenades":
            changes["grenades_attempted"] = True
        else:
            changes["dispenser_attempted"] = True
        note = data.get("later_fire")
        if note is not None:
            facing, drm, applies = Corner.parse(note["facing"]), int(note["drm"]), note["applies"]
            changes["later_fire"] = LaterFire(
                facing=facing,
                drm=drm,
                applies=bool(applies),
                fire=str(note["fire"]),
                explanation=f"{note['fire']} in the arc now facing {facing.name}"
                f" {'adds' if applies else 'does not add'} Case A {drm:+d} (D13.32-drm).",
            )
        return replace(self, **changes)


@dataclass(frozen=True)
class Afv:
    """What the counter is (it never changes during a game) and the status it starts with."""

    armored: bool = True
    open_topped: bool = False
    main_armament: bool = True
    mount: Mount = Mount.T
    mp: int | None = None
    start: AfvStatus = AfvStatus()

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Afv:
        """From :func:`read_afv`'s JSON."""
        return cls(
            armored=data["armored"],
            open_topped=data["open_topped"],
            main_armament=data["main_armament"],
            mount=Mount.parse(data["mount"]),
            mp=data["mp"],
            start=AfvStatus.of(data),
        )


def afv_view(facts: Afv, status: AfvStatus, ca: Corner | None) -> dict[str, Any]:
    """The D13 part of a vehicle in ``game status --json``.

    >>> view = afv_view(Afv(mp=16), AfvStatus(), Corner.E)
    >>> view["bu"], view["tca"], view["mp_left"]
    (True, 'E', 16)
    """
    turreted = facts.mount.turreted
    vca = status.vca if turreted else ca
    note = status.later_fire
    return {
        "armored": facts.armored,
        "open_topped": facts.open_topped,
        "main_armament": facts.main_armament,
        "mount": str(facts.mount),
        "ce": status.ce,
        "bu": facts.armored and not status.ce,
        "motion": status.motion,
        "crew": str(status.crew),
        "abandoned": status.abandoned,
        "immobile": status.immobile,
        "vca": None if vca is None else vca.name,
        "tca": None if not turreted or ca is None else ca.name,
        "mp": facts.mp,
        "mp_spent": status.mp_spent,
        "mp_left": None if facts.mp is None else facts.mp - status.mp_spent,
        "fired": status.fired,
        "dispenser_attempted": status.dispenser_attempted,
        "grenades_attempted": status.grenades_attempted,
        "later_fire": None
        if note is None
        else {
            "facing": note.facing.name,
            "drm": note.drm,
            "applies": note.applies,
            "fire": note.fire,
        },
    }
