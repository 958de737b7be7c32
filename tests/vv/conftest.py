"""Builders for V&V positions: a plain grid map, counters by their printed numbers, statuses.

``pos = build(terrain={"C3": "woods"})`` then ``pos.squad("a", "us", "C6")``,
``pos.afv("t", "us", "E8", "N", gun=12, turret=True)``, ... and ``pos.board()``.
"""

from __future__ import annotations

from typing import Any

import pytest

from ordnance.core.hexgrid import Direction, GridLabels
from ordnance.core.maps import GameMap, parse_hexside
from ordnance.vv.board import Board, Status
from ordnance.vv.counters import Counter
from ordnance.vv.settings import VvSettings
from ordnance.vv.units import Kind, Mount, SupportWeapon, SwKind, Unit, Weapon


class Position:
    """A position under construction."""

    def __init__(
        self,
        *,
        columns: int = 12,
        rows: int = 10,
        terrain: dict[str, str] | None = None,
        hexsides: dict[str, str] | None = None,
        markers: dict[str, tuple[str, ...]] | None = None,
        fortifications: dict[str, str] | None = None,
        smoke: dict[str, int] | None = None,
        settings: dict[str, str] | None = None,
    ) -> None:
        grid = GridLabels(columns=columns, rows=rows)
        self.grid = grid
        self.map = GameMap(
            "test",
            "vv",
            grid,
            "open",
            {grid.parse(k): v for k, v in (terrain or {}).items()},
            {},
            {parse_hexside(grid, k): v for k, v in (hexsides or {}).items()},
            {grid.parse(k): v for k, v in (markers or {}).items()},
        )
        self.fortifications = {grid.parse(k): v for k, v in (fortifications or {}).items()}
        self.smoke = {grid.parse(k): v for k, v in (smoke or {}).items()}
        self.settings = VvSettings().override(settings or {})
        self.units: dict[str, Unit] = {}
        self.status: dict[str, Status] = {}

    def hex(self, label: str):
        return self.grid.parse(label)

    def add(self, unit: Unit, hex: str | None, facing: str | None = None, **status: Any) -> Unit:
        self.units[unit.id] = unit
        self.status[unit.id] = Status(
            None if hex is None else self.hex(hex),
            None if facing is None else Direction.parse(facing),
            **status,
        )
        return unit

    def squad(self, id, side, hex, *, counter="4-6-5", sw=None, **status) -> Unit:
        kind = Kind.SQUAD
        return self.add(
            Unit(id, side, kind, counter=Counter.parse(counter), sw=_sw(sw)), hex, **status
        )

    def half(self, id, side, hex, *, counter="2-6-3", sw=None, **status) -> Unit:
        unit = Unit(id, side, Kind.HALF_SQUAD, counter=Counter.parse(counter), sw=_sw(sw))
        return self.add(unit, hex, **status)

    def leader(self, id, side, hex, *, lm=-1, counter="1-3-1", sw=None, **status) -> Unit:
        unit = Unit(
            id, side, Kind.LEADER, counter=Counter.parse(counter), leadership=lm, sw=_sw(sw)
        )
        return self.add(unit, hex, **status)

    def gun(self, id, side, hex, facing="N", *, apfp=4, casualty=3, **status) -> Unit:
        unit = Unit(id, side, Kind.GUN, weapons=(Weapon(Mount.GUN, apfp),), casualty=casualty)
        return self.add(unit, hex, None if hex is None else facing, **status)

    def afv(
        self,
        id,
        side,
        hex,
        facing="N",
        *,
        gun=None,
        turret=False,
        mg360=None,
        ffmg=None,
        transport=None,
        **status,
    ) -> Unit:
        unit = Unit(
            id,
            side,
            Kind.AFV,
            weapons=_weapons(gun, turret, mg360, ffmg),
            transport=transport,
            mp=6,
        )
        return self.add(unit, hex, facing, **status)

    def vehicle(
        self,
        id,
        side,
        hex,
        facing="N",
        *,
        casualty=3,
        transport="T2",
        mg360=None,
        ffmg=None,
        **status,
    ) -> Unit:
        unit = Unit(
            id,
            side,
            Kind.VEHICLE,
            weapons=_weapons(None, False, mg360, ffmg),
            casualty=casualty,
            transport=transport,
            mp=8,
        )
        return self.add(unit, hex, facing, **status)

    def board(self) -> Board:
        return Board(
            self.map,
            dict(self.units),
            dict(self.status),
            self.fortifications,
            self.smoke,
            self.settings,
        )


def _sw(spec: tuple[str, int, int] | None) -> SupportWeapon | None:
    if spec is None:
        return None
    kind, apfp, range_ = spec
    return SupportWeapon(SwKind(kind), apfp, range_)


def _weapons(gun, turret, mg360, ffmg) -> tuple[Weapon, ...]:
    weapons = []
    if gun is not None:
        weapons.append(Weapon(Mount.GUN, gun, turret))
    if mg360 is not None:
        weapons.append(Weapon(Mount.MG360, mg360))
    if ffmg is not None:
        weapons.append(Weapon(Mount.FFMG, ffmg))
    return tuple(weapons)


@pytest.fixture
def build():
    """``build(**map_options)``: a new :class:`Position`."""
    return Position
