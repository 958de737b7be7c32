"""The targets the AI's fire planner (:mod:`ordnance.vv.ai`) weighs for one grouping class:
per target, what each unit adds there (its APFP, with a satchel, its leadership), the DRM, and
the worth of an attack (:func:`~ordnance.vv.evaluate.attack_worth`), kept per (APFP column,
DRM) as the programme asks for the same ones many times.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

from ordnance.core.hexgrid import Hex
from ordnance.vv.board import Board
from ordnance.vv.combat_table import TABLE
from ordnance.vv.evaluate import attack_worth
from ordnance.vv.groups import affected, group_key, lends, may_join, member_apfp
from ordnance.vv.modifiers import hex_drms
from ordnance.vv.units import Kind, Mount


@dataclass
class Option:
    """One target of one class: per unit its APFP there (None: may not join), its APFP with a
    satchel (None: not infantry), whether it lends its LM, the DRM, and the target's worth."""

    target: Hex
    firer: Hex
    victims: tuple[str, ...]
    apfp: tuple[int | None, ...]
    satchel: tuple[int | None, ...]
    lends: tuple[bool, ...]
    weapons: tuple[Mount, ...] | None
    drm: int
    x_weapons: bool
    weight: Fraction = Fraction(1)
    now: bool = True

    def __post_init__(self) -> None:
        self.cache: dict[tuple[int, int], Fraction] = {}

    def worth(self, board: Board, apfp: int, drm: int) -> Fraction:
        key = (TABLE.index(apfp) if apfp > 0 else -1, drm)
        found = self.cache.get(key)
        if found is None:
            found = self.weight * attack_worth(
                board, self.firer, self.target, self.victims, apfp=apfp, drm=drm
            )
            self.cache[key] = found
        return found


def option_at(
    board: Board,
    side: str,
    units: tuple[str, ...],
    target: Hex,
    victims: tuple[str, ...],
    *,
    opfire: bool,
    x_weapons: bool,
    satchel_apfp: int,
) -> Option:
    firer = board.hex_of(units[0])
    assert firer is not None
    distance = firer.distance(target)
    apfp: list[int | None] = []
    satchel: list[int | None] = []
    lend: list[bool] = []
    weapons: tuple[Mount, ...] | None = None
    for unit_id in units:
        unit = board.unit(unit_id)
        value, used = member_apfp(board, unit_id, firer, target)
        if not unit.kind.infantry:
            weapons = used
        apfp.append(value if may_join(board, unit_id, value) else None)
        lend.append(unit.kind is Kind.LEADER and lends(board, unit_id, value))
        if unit.kind.infantry and distance == 1:
            counter = unit.printed(board.status[unit_id].reduced)
            own = counter.apfp if counter is not None and unit.kind is not Kind.LEADER else 0
            satchel.append(own + satchel_apfp)
        else:
            satchel.append(None)
    drm = sum(d.value for d in hex_drms(board, firer, target, victims, opfire=opfire))
    return Option(
        target,
        firer,
        victims,
        tuple(apfp),
        tuple(satchel),
        tuple(lend),
        weapons,
        drm,
        x_weapons and distance == 1,
    )


def class_options(
    board: Board,
    side: str,
    units: tuple[str, ...],
    *,
    targets: Collection[Hex],
    attacked: Collection[tuple[str, str]],
    movers: tuple[str, ...] | None,
    x_weapons: bool,
    satchel_apfp: int,
) -> list[Option]:
    """The targets one class (``units``) may attack."""
    key = group_key(board, units[0])
    firer = board.hex_of(units[0])
    assert firer is not None
    options: list[Option] = []
    for target in targets:
        if (key, board.label(target)) in attacked or not board.los(firer, target).clear:
            continue
        victims = affected(board, side, target, movers)
        if not victims:
            continue
        options.append(
            option_at(
                board,
                side,
                units,
                target,
                victims,
                opfire=movers is not None,
                x_weapons=x_weapons,
                satchel_apfp=satchel_apfp,
            )
        )
    return options


def later_options(
    board: Board,
    side: str,
    units: tuple[str, ...],
    *,
    later: Collection[tuple[Hex, tuple[str, ...]]],
    lookahead: Fraction,
    attacked: Collection[tuple[str, str]],
) -> list[Option]:
    """The look-ahead's pseudo-targets for one class: each stack not moved yet, where it is,
    its worth weighted by ``lookahead``."""
    if not later or lookahead <= 0:
        return []
    firer = board.hex_of(units[0])
    assert firer is not None
    key = group_key(board, units[0])
    options: list[Option] = []
    for hex, stack in later:
        if (key, board.label(hex)) in attacked or not board.los(firer, hex).clear:
            continue
        victims = affected(board, side, hex, stack)
        if not victims:
            continue
        option = option_at(
            board, side, units, hex, victims, opfire=True, x_weapons=False, satchel_apfp=0
        )
        option.weight = lookahead
        option.now = False
        options.append(option)
    return options
