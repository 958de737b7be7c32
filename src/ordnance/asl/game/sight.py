"""Lines of sight in a game: the scenario's map with the game's SMOKE on it, judged by ASL rules.

Without a map (or where a unit's hex is unknown) the engine cannot see; it then takes every
line as in LOS and says so, leaving the check to the players at the table (README, Games).

>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"date": "1944-09", "map": "asl-village",
...     "sides": {"american": {"units": {"m4": {"kind": "vehicle", "hex": "4G5"}}},
...               "german": {"units": {"pz4": {"kind": "vehicle", "hex": "4K3"}}}}})))
>>> watchers(state, "m4", state.sheet.hex("4H5"))
('pz4',)
>>> los(state, state.sheet.hex("4G5"), state.sheet.hex("4I5")).total  # grain in 4H5
1
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ordnance.asl.game.markers import GRENADE_SMOKE, SmokeMarker, on_map
from ordnance.asl.game.state import AslState
from ordnance.asl.los import JUDGE, asl_los
from ordnance.asl.smoke import Phase
from ordnance.core.hexgrid import Hex
from ordnance.core.maps import GameMap, LosVerdict

if TYPE_CHECKING:
    from ordnance.core.maps.visibility import Visibility

UNSEEN = (
    "The scenario has no map (or a unit has no hex), so the engine cannot judge LOS: it is"
    " taken as given and the players check it at the table."
)


def live_map(state: AslState, extra: Iterable[SmokeMarker] = ()) -> GameMap | None:
    """The scenario's map with every SMOKE the game placed (and ``extra``) on it.

    The same map and SMOKE give the same object, and the verdicts judged on it are kept
    (:func:`los`): a board asks for many lines from one state."""
    kept = _live(state, (*state.smoke, *extra))
    return None if kept is None else kept[1]


def los(
    state: AslState, firer: Hex, target: Hex, extra: Iterable[SmokeMarker] = ()
) -> LosVerdict | None:
    """The ASL verdict from ``firer`` to ``target`` on the live map; None without a map."""
    kept = _live(state, (*state.smoke, *extra))
    if kept is None:
        return None
    verdicts = kept[2]
    verdict = verdicts.get((firer, target))
    if verdict is None:
        verdict = asl_los(kept[1], firer, target)
        if len(verdicts) < _VERDICTS_KEPT:
            verdicts[(firer, target)] = verdict
    return verdict


def visibility(state: AslState) -> Visibility | None:
    """Every line of sight of the live map at once (:class:`~ordnance.core.maps.visibility.
    Visibility`, by the ASL judge); None without a map.

    Kept with the live map, so every state with the same map and SMOKE shares it, whatever
    its game or version: a board's first offers at a new version (a phase, a move) build none
    (bench_first.py: 14 of the M24's 31 ms in the D13 demo's Prep Fire Phase)."""
    kept = _live(state, state.smoke)
    if kept is None:
        return None
    if kept[3]:
        return kept[3][0]
    from ordnance.core.maps.visibility import Visibility  # noqa: PLC0415 (numpy: on use)

    made = Visibility(kept[1], JUDGE)
    kept[3][:] = [made]  # two threads may both build one: the same value either way
    return made


_Live = tuple[GameMap, GameMap, dict[tuple[Hex, Hex], LosVerdict], list["Visibility"]]


def _live(state: AslState, markers: tuple[SmokeMarker, ...]) -> _Live | None:
    """The scenario's map, the live map with ``markers`` on it, its verdicts so far, and its
    :class:`Visibility` once one was asked for."""
    game_map = state.sheet.game_map
    if game_map is None:
        return None
    key = (id(game_map), markers)
    kept = _LIVE.get(key)
    if kept is None or kept[0] is not game_map:
        if len(_LIVE) >= _KEPT:
            _LIVE.clear()  # start again (safe beside other threads, unlike eviction)
        kept = _LIVE[key] = (game_map, on_map(game_map, markers), {}, [])
    return kept


# (id of the scenario's map, SMOKE) -> that map (whose id it is), the live map, its verdicts,
# its Visibility.
_LIVE: dict[tuple[int, tuple[SmokeMarker, ...]], _Live] = {}
_KEPT = 16
_VERDICTS_KEPT = 2048  # a verdict holds its line: a few KiB each


def watchers(
    state: AslState, mover: str, hex: Hex | None, extra: Iterable[SmokeMarker] = ()
) -> tuple[str, ...]:
    """The opposing vehicles that see ``mover`` spend MP/MF in ``hex`` (D13.2-defensive)."""
    side = state.sheet.unit(mover).side
    seen: list[str] = []
    markers = tuple(extra)
    for unit in state.sheet.units.values():
        if unit.side == side or unit.afv is None:
            continue
        where = state.status[unit.id].hex
        if hex is None or where is None or state.sheet.game_map is None:
            seen.append(unit.id)
            continue
        verdict = los(state, where, hex, markers) if where != hex else None
        if verdict is None or verdict.clear:
            seen.append(unit.id)
    return tuple(seen)


def smoke_leaving(state: AslState, player: str, phase: Phase) -> tuple[tuple[str, ...], str]:
    """The clauses and the sentence for the SMOKE a phase change removes or flips (none:
    ``((), "")``)."""
    if not state.smoke:
        return (), ""
    flips = state.sheet.settings.ordnance_wp_flips
    changed = [m for m in state.smoke if m.expires(state.phase, player, phase)]
    flipped = [m for m in changed if m.after(state.phase, player, phase, wp_flips=flips)]
    gone = [m for m in changed if m not in flipped]
    turned = ""
    if flipped:
        turned = f" Flipped to Dispersed: {', '.join(_where(state, m) for m in flipped)} (A24.4)."
    if not gone:
        return (), turned
    where = [_where(state, m) for m in gone]
    grenade = any(m.marker == GRENADE_SMOKE for m in gone)
    clauses = ("D13.35",) if grenade else ()
    why = "grenade SMOKE at the end of its MPh (D13.35)" if grenade else ""
    dispersed = any(m.marker != GRENADE_SMOKE for m in gone)
    if dispersed:
        why += ("; " if why else "") + "a side's Dispersed SMOKE at its next PFPh (A24.4)"
    return clauses, f"{turned} Removed: {', '.join(where)} ({why})."


def _where(state: AslState, marker: SmokeMarker) -> str:
    labels = state.sheet.labels
    place = "" if marker.hex is None or labels is None else f" in {labels.label(marker.hex)}"
    return f"{marker.marker} of {marker.unit}{place}"
