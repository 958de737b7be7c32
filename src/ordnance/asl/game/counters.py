"""The ASL units as counters on the map picture (:class:`~ordnance.core.maps.CounterView`).

A counter shows its special ammunition in short (``A5 s8 sD5``: each token's family and first
number; the tooltip has the whole notation), a Gun's or NT vehicle's facing (its CA), a turreted
vehicle's hull (VCA) as the arrow and its TCA as the turret line, and the D13 and C8 state as
badges: ``F`` fired (this phase, or a weapon this Player Turn), ``M`` moved, ``MAN`` manned,
``CE``/``BU``, ``MOT`` in Motion, ``STUN``/``SHOCK``/``BRK`` crew, ``ABAN`` Abandoned, ``MALF``
malfunctioned, ``sD✓`` (its dispenser's symbol) a smoke attempt this Player Turn, ``GREN``
smoke grenades tried, ``A✗`` a special ammunition gone for the scenario (C8.9).

>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"date": "1945-03", "boards": "4",
...     "sides": {"russian": {"units": {"t34": {"kind": "vehicle", "hex": "4G5", "ca": "E",
...     "notation": "A5(4)/6(5) s8", "ce": True}}}, "german": {"units": {}}}})))
>>> [(c.notation, c.glyph, [b.text for b in c.badges]) for c in counters(state)]
[('A5 s8', 'tank', ['CE'])]
"""

from __future__ import annotations

import re

from ordnance.asl.dispensers import Crew
from ordnance.asl.game.state import AslState
from ordnance.asl.notation import format_capabilities
from ordnance.core.maps import Badge, CounterView

_CREW = {Crew.STUNNED: "STUN", Crew.SHOCKED: "SHOCK", Crew.BROKEN: "BRK"}


def short_notation(text: str) -> str:
    """Each token's family and first number, for a counter's face.

    >>> short_notation("A5(2)/4(3)/3(4) s8 sD5 WP7(J4+)!3")
    'A5 s8 sD5 WP7'
    """
    words = []
    for token in text.split():
        head = re.split(r"[(/!†\[]", token, maxsplit=1)[0]
        words.append(head)
    return " ".join(words)


def counters(state: AslState) -> tuple[CounterView, ...]:
    """Every unit that stands on a hex, in scenario order (units without a hex are not drawn)."""
    views: list[CounterView] = []
    fired_now = {shot.unit for shot in state.shots}
    for unit in state.sheet.units.values():
        status = state.status[unit.id]
        if status.hex is None:
            continue
        afv, facts = status.afv, unit.afv
        badges: list[Badge] = []
        if unit.id in fired_now or (afv is not None and afv.fired):
            badges.append(Badge("fired", "F"))
        if status.moved:
            badges.append(Badge("moved", "M"))
        if status.manned:
            badges.append(Badge("manned", "MAN"))
        if afv is not None and facts is not None:
            if facts.armored:
                badges.append(Badge("ce", "CE") if afv.ce else Badge("bu", "BU"))
            if afv.motion:
                badges.append(Badge("motion", "MOT"))
            if afv.crew in _CREW:
                badges.append(Badge(str(afv.crew), _CREW[afv.crew]))
            if afv.abandoned:
                badges.append(Badge("abandoned", "ABAN"))
            if afv.dispenser_attempted:
                device = next((t.family.value for t in unit.tokens if t.family.is_dispenser), "s")
                badges.append(Badge("smoke-discharged", f"{device}✓"))
            if afv.grenades_attempted:
                badges.append(Badge("grenades-used", "GREN"))
        if status.malfunctioned:
            badges.append(Badge("malfunctioned", "MALF"))
        if unit.keeps_record:
            for family in sorted(state.record(unit.id).exhausted, key=lambda f: f.value):
                badges.append(Badge("out-of-ammo", f"{family.value}✗"))
        turreted = facts is not None and facts.mount.turreted
        notation = format_capabilities(unit.tokens)
        views.append(
            CounterView(
                unit=unit.id,
                hex=status.hex,
                side=unit.side,
                label=unit.id,
                notation=short_notation(notation) or (unit.weapon or unit.size or ""),
                glyph=_glyph(unit.kind, facts is None or facts.armored),
                facing=(afv.vca if afv is not None else None) if turreted else status.ca,
                turret=status.ca if turreted else None,
                badges=tuple(badges),
                name=f"{unit.name or unit.id}: {notation}" if notation else unit.name or unit.id,
            )
        )
    return tuple(views)


def _glyph(kind: str, armored: bool) -> str:
    if kind == "vehicle":
        return "tank" if armored else "vehicle"
    return {"gun": "gun", "scw": "weapon", "atr": "weapon"}.get(kind, "unit")
