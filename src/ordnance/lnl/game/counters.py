"""The LnLT units as counters on the map picture (:class:`~ordnance.core.maps.CounterView`).

A vehicle's counter lists its shells (``SM WP``) and whether it is Open; a leader his Leadership
Modifier. Badges: ``ACT`` the unit acted this turn, ``F`` it fired (a shell or its MGs), ``ACQ``
it holds an Acquired marker (on the hex named in the tooltip).

>>> from ordnance.lnl.game.scenario import Sheet, load_scenario
>>> from ordnance.lnl.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"map": "lnl-farm", "sides": {
...     "german": {"smoke_shells": 1, "units": {"pz4": {"kind": "vehicle", "hex": "B5",
...         "shells": ["smoke"], "to_hit": {7: 9}, "acquired": "E5"}}},
...     "american": {"units": {"lt": {"kind": "leader", "lm": 1, "hex": "E5"}}}}})))
>>> [(c.unit, c.notation, [b.text for b in c.badges]) for c in counters(state)]
[('pz4', 'SM', ['ACQ']), ('lt', 'LM 1', [])]
"""

from __future__ import annotations

from ordnance.core.maps import Badge, CounterView
from ordnance.lnl.game.scenario import Unit
from ordnance.lnl.game.state import LnlState

_GLYPHS = {
    "squad": "squad",
    "half-squad": "half-squad",
    "team": "team",
    "leader": "leader",
    "hero": "leader",
    "vehicle": "tank",
}
_SHELLS = {"smoke": "SM", "wp": "WP"}


def counters(state: LnlState) -> tuple[CounterView, ...]:
    """Every unit on its hex, in scenario order."""
    views: list[CounterView] = []
    for unit in state.sheet.units.values():
        status = state.units[unit.id]
        flags = (
            (status.acted, "acted", "ACT"),
            (bool(status.fired), "fired", "F"),
            (status.acquired is not None, "acquired", "ACQ"),
        )
        name = unit.name or unit.id
        if status.acquired is not None:
            name += f", Acquired marker on {state.sheet.label(status.acquired)}"
        views.append(
            CounterView(
                unit=unit.id,
                hex=status.hex,
                side=unit.side,
                label=unit.id,
                notation=_numbers(unit),
                glyph=_GLYPHS.get(unit.kind, "unit"),
                badges=tuple(Badge(key, text) for on, key, text in flags if on),
                name=name,
            )
        )
    return tuple(views)


def _numbers(unit: Unit) -> str:
    if unit.lm is not None:
        return f"LM {unit.lm}"
    shells = " ".join(_SHELLS[str(k)] for k in sorted(unit.shells, key=str))
    return " ".join(w for w in (shells, "open" if unit.open else "") if w)
