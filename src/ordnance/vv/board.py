"""Where the units stand and what they did this turn: the position AP fire is decided on.

A :class:`Board` holds the map, the fixed counters, the fortifications and, per unit, a
:class:`Status` (hex, facing, pinned, Fire and Move markers, reduced, eliminated, aboard which
vehicle). Lines of sight are judged by :func:`ordnance.vv.los.vv_los` on the map with the smoke
now in play, and remembered: a position asks the same few lines many times.

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> from ordnance.vv.counters import Counter
>>> grid = GridLabels(columns=6, rows=6)
>>> m = GameMap("demo", "vv", grid, "open", {grid.parse("C3"): "woods"})
>>> units = {"a": Unit("a", "us", Kind.SQUAD, counter=Counter.parse("4-6-5")),
...          "t": Unit("t", "us", Kind.VEHICLE, casualty=3, transport="T1"),
...          "g": Unit("g", "de", Kind.SQUAD, counter=Counter.parse("4-6-5"))}
>>> board = Board(m, units, {"a": Status(aboard="t"), "t": Status(grid.parse("A1")),
...                          "g": Status(grid.parse("C3"))})
>>> board.label(board.hex_of("a")), board.passengers("t"), board.cover_of(grid.parse("C3"))
('A1', ('a',), 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ordnance.core.cached import cached_property
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Direction, Hex
from ordnance.core.maps import GameMap, LosVerdict
from ordnance.vv.los import vv_los
from ordnance.vv.numbers import RULES
from ordnance.vv.settings import DEFAULT, VvSettings
from ordnance.vv.terrain import vv_chart
from ordnance.vv.units import Kind, Unit

SMOKE_MARKERS = {1: "smoke 1", 2: "smoke 2"}


@dataclass(frozen=True)
class Status:
    """One unit now. ``hex`` is None for a passenger (it is where its vehicle is; ask
    :meth:`Board.hex_of`); ``mp_used`` counts an Assault Move's steps double (half the MP)."""

    hex: Hex | None = None
    facing: Direction | None = None
    pinned: bool = False
    fired: bool = False
    moved: bool = False
    reduced: bool = False
    eliminated: bool = False
    aboard: str | None = None
    assault: bool = False
    mp_used: int = 0
    rally_tried: bool = False


@dataclass(frozen=True)
class Board:
    """The map, the counters, fortifications, each unit's status and the smoke in play."""

    game_map: GameMap
    units: Mapping[str, Unit]
    status: Mapping[str, Status]
    fortifications: Mapping[Hex, str] = field(default_factory=dict)
    smoke: Mapping[Hex, int] = field(default_factory=dict)
    settings: VvSettings = DEFAULT

    # --- units ---------------------------------------------------------------------------

    def unit(self, unit_id: str) -> Unit:
        unit = self.units.get(unit_id)
        if unit is None:
            raise BadInput("unit", unit_id, "no such unit in this scenario")
        return unit

    def alive(self, unit_id: str) -> bool:
        return not self.status[unit_id].eliminated

    def hex_of(self, unit_id: str) -> Hex | None:
        """Where the unit is: its own hex, or its vehicle's when aboard (None: eliminated)."""
        status = self.status[unit_id]
        if status.eliminated:
            return None
        if status.aboard is not None:
            return self.hex_of(status.aboard)
        return status.hex

    def passengers(self, vehicle: str) -> tuple[str, ...]:
        """The living units aboard a vehicle (passengers and a towed Gun)."""
        return tuple(u for u, s in self.status.items() if s.aboard == vehicle and not s.eliminated)

    def at(self, hex: Hex) -> tuple[str, ...]:
        """The living units in a hex, passengers included."""
        return self._by_hex.get(hex, ())

    @cached_property
    def _by_hex(self) -> Mapping[Hex | None, tuple[str, ...]]:
        # The legal moves ask for the units of a hex for every Opportunity Fire line checked:
        # a scan of every unit each time was a third of a V&V page's time (bench_web).
        found: dict[Hex | None, list[str]] = {}
        for unit in self.units:
            if self.alive(unit):
                found.setdefault(self.hex_of(unit), []).append(unit)
        return {hex: tuple(units) for hex, units in found.items()}

    def side_units(self, side: str) -> Iterator[str]:
        return (u for u, unit in self.units.items() if unit.side == side and self.alive(u))

    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(unit.side for unit in self.units.values()))

    def carrier_is_afv(self, unit_id: str) -> bool:
        aboard = self.status[unit_id].aboard
        return aboard is not None and self.unit(aboard).kind is Kind.AFV

    def eligible_targets(self, hex: Hex, side: str) -> tuple[str, ...]:
        """Units of ``side`` in ``hex`` that AP fire affects (VV.AP-targets): infantry,
        unarmored vehicles and Guns; never AFVs, nor what rides on an AFV (open point 10)."""
        return tuple(
            u
            for u in self.at(hex)
            if self.unit(u).side == side
            and self.unit(u).kind is not Kind.AFV
            and not self.carrier_is_afv(u)
        )

    def casualty_rating(self, unit_id: str) -> int:
        return self.unit(unit_id).casualty_rating(self.status[unit_id].reduced)

    def with_status(self, changes: Mapping[str, Status]) -> Board:
        return replace(self, status={**self.status, **changes})

    # --- the map -------------------------------------------------------------------------

    def label(self, hex: Hex | None) -> str | None:
        return None if hex is None else self.game_map.label(hex)

    def parse(self, label: str) -> Hex:
        return self.game_map.parse(label)

    def cover_of(self, hex: Hex) -> int:
        """The hex's own terrain cover plus its fortification (without hexsides)."""
        terrain = vv_chart().hex(self.game_map.terrain(hex)).cover
        return terrain + RULES.fortifications.get(self.fortifications.get(hex, ""), 0)

    def smoked_map(self) -> GameMap:
        """The map with the smoke now in play as its markers."""
        return self._smoked_map

    @cached_property
    def _smoked_map(self) -> GameMap:
        # Asked for every line of sight: looked up once per board, not once per line.
        return _smoked(self.game_map, tuple(sorted(self.smoke.items())))

    def los(self, firer: Hex, target: Hex) -> LosVerdict:
        """The V&V verdict with the smoke now in play (remembered per map and smoke)."""
        return _los(self._smoked_map, firer, target)


@lru_cache(maxsize=64)
def _smoked(game_map: GameMap, smoke: tuple[tuple[Hex, int], ...]) -> GameMap:
    """The map with its smoke markers replaced by the smoke in play."""
    markers = {
        hex: tuple(m for m in names if m not in SMOKE_MARKERS.values())
        for hex, names in game_map.markers.items()
    }
    for hex, level in smoke:
        markers[hex] = (*markers.get(hex, ()), SMOKE_MARKERS[level])
    return replace(game_map, markers={h: m for h, m in markers.items() if m})


@lru_cache(maxsize=65536)
def _los(game_map: GameMap, firer: Hex, target: Hex) -> LosVerdict:
    return vv_los(game_map, firer, target)


def smoke_on(game_map: GameMap) -> dict[Hex, int]:
    """The smoke a map file places (its ``smoke 1`` / ``smoke 2`` markers)."""
    levels = {name: level for level, name in SMOKE_MARKERS.items()}
    found: dict[Hex, int] = {}
    for hex, names in game_map.markers.items():
        for name in names:
            if name in levels:
                found[hex] = max(found.get(hex, 0), levels[name])
    return found
