"""A VASL save's AFVs and Guns: each piece matched to its vasl-templates counter, on its hex.

Every other piece a player can see (infantry, markers, terrain, and a vehicle the data does not
know) is named in ``unmatched``, with its gpid and hex, never dropped without a word. A piece
that is hidden (VASSAL's Hideable trait, VASL's HIP) or concealed (VASL's Concealable trait) is
left out, as a player reading the save could not see it either, and counted when it is an AFV
or Gun; a piece under a separate concealment counter is not concealed by that reading (the save
does not tie them).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ordnance.asl.capabilities import AmmoContext, Capability, evaluate
from ordnance.asl.dates import NATIONALITIES, ScenarioDate
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.asl.vasl_templates import Entry, load
from ordnance.asl.vsav.boards import (
    BOARD_COMMAND,
    DEFAULT_GEOMETRY,
    Board,
    Geometry,
    first_hex,
    hex_label,
    locate,
    read_boards,
)
from ordnance.asl.vsav.matching import GpidIndex, data_gpids
from ordnance.core.errors import BadInput
from ordnance.core.rulings import Ruling
from ordnance.core.vassal import DEFAULT_LIMITS, Limits, Piece, read_save

MODULE = "VASL"
# The map the boards lie on: "Main Map" from VASL 6.5, "Map0" before.
MAIN_MAPS = frozenset({"Main Map", "Map0"})
HIDE_TRAIT = "hide"
CONCEAL_TRAIT = "conceal"
_NOT_SET = frozenset({"", "null"})


@dataclass(frozen=True, kw_only=True)
class VsavUnit:
    """One AFV or Gun of the save: its counter, where it stands, what it may fire.

    ``hex`` is VASL's label of the hex it is in (``F2`` on a one-board map, ``4F2`` with
    several boards), ``None`` off the boards; ``location`` VASL's name of the place, which
    names two hexes for a piece on a hexside (``4M4/N4``: in bypass, in M4); ``tokens`` the
    counter's capabilities in the notation; ``capabilities`` their reading on the date (empty
    without a date).
    """

    id: str
    name: str
    kind: str
    nationality: str
    hex: str | None
    location: str | None
    board: str | None
    map: str | None
    x: int
    y: int
    gpid: str
    piece: str
    tokens: tuple[str, ...]
    capabilities: tuple[Capability, ...]


@dataclass(frozen=True)
class UnmatchedPiece:
    """A piece a player can see that matches no vehicle or Gun of the data: its gpid as saved
    (empty when the piece has none), its VASL name, and its hex and place as for a unit."""

    gpid: str
    name: str
    hex: str | None
    location: str | None


@dataclass(frozen=True, kw_only=True)
class VsavRuling(Ruling):
    """What a save holds for the side record."""

    file: str
    module: str | None
    vasl_version: str | None
    vassal_version: str | None
    date: ScenarioDate | None
    boards: tuple[Board, ...]
    units: tuple[VsavUnit, ...]
    hidden: int
    unmatched: tuple[UnmatchedPiece, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON with the date as ``YYYY-MM`` (or null)."""
        return {**super().to_json(), "date": None if self.date is None else str(self.date)}


def is_hidden(piece: Piece) -> bool:
    """HIP or concealed: a Hideable state or a Concealable state other than ``null``."""
    hide = piece.trait(HIDE_TRAIT)
    if hide is not None and hide.state.strip() not in _NOT_SET:
        return True
    conceal = piece.trait(CONCEAL_TRAIT)
    return conceal is not None and conceal.state.split(";", 1)[0].strip() not in _NOT_SET


def side_code(piece: Piece) -> str | None:
    """The side code a VASL Concealable trait names (``am`` in ``conceal;C;am/amqmark58;am``)."""
    conceal = piece.trait(CONCEAL_TRAIT)
    if conceal is None:
        return None
    fields = conceal.fields
    return fields[2] if len(fields) > 2 and fields[2] else None


def read_vsav(
    file: str | Path | bytes,
    vasl_templates: str | Path,
    date: ScenarioDate | None = None,
    settings: Settings = DEFAULT,
    *,
    geometry: Geometry = DEFAULT_GEOMETRY,
    limits: Limits = DEFAULT_LIMITS,
) -> VsavRuling:
    """Read a VASL save's AFVs and Guns (see the module docstring).

    Raises BadInput for a file that is no readable VASSAL save or a save of another module.
    """
    save = read_save(file, limits)
    shown = "(bytes)" if isinstance(file, bytes) else str(file)
    if save.module_name is not None and save.module_name != MODULE:
        raise BadInput("VASL save", shown, f"a save of the module {save.module_name!r}, not VASL")
    index = GpidIndex.of(load(vasl_templates))
    # VASL writes the layout more than once in some saves; the last one stands.
    board_commands = [c for c in save.commands if c.startswith(BOARD_COMMAND)]
    boards = read_boards(board_commands[-1]) if board_commands else ()
    units: list[VsavUnit] = []
    unmatched: list[UnmatchedPiece] = []
    hidden = 0
    for piece in save.pieces:
        gpids = data_gpids(piece.basic.gpid, save.module_version)
        entry = index.match(gpids, side_code=side_code(piece), date=date)
        if is_hidden(piece):
            # Hidden pieces the data does not know are not named either: nobody sees them.
            if entry is not None:
                hidden += 1
            continue
        place = _place(piece, boards, geometry)
        if entry is None:
            unmatched.append(
                UnmatchedPiece(piece.basic.gpid, piece.name, place.hex, place.location)
            )
            continue
        units.append(_unit(piece, entry, place=place, date=date, settings=settings))
    return VsavRuling(
        file=shown,
        module=save.module_name,
        vasl_version=save.module_version,
        vassal_version=save.vassal_version,
        date=date,
        boards=boards,
        units=tuple(units),
        hidden=hidden,
        unmatched=tuple(unmatched),
        clauses=_clauses(units),
        explanation=_sentence(units, hidden, boards, len(unmatched)),
    )


class _Place(NamedTuple):
    board: str | None = None
    hex: str | None = None
    location: str | None = None


def _place(piece: Piece, boards: tuple[Board, ...], geometry: Geometry) -> _Place:
    """The board a piece lies on (main map only), its hex label and VASL's name of its place."""
    basic = piece.basic
    place = locate(basic.x, basic.y, boards, geometry) if basic.map in MAIN_MAPS else None
    if place is None:
        return _Place()
    board, location = place
    return _Place(
        board, hex_label(board, first_hex(location), boards), hex_label(board, location, boards)
    )


def _unit(
    piece: Piece,
    entry: Entry,
    *,
    place: _Place,
    date: ScenarioDate | None,
    settings: Settings,
) -> VsavUnit:
    basic = piece.basic
    capabilities: tuple[Capability, ...] = ()
    if date is not None:
        nationality = entry.nationality if entry.nationality in NATIONALITIES else None
        context = AmmoContext(date, nationality=nationality)
        capabilities = tuple(evaluate(token, context, settings) for token in entry.tokens)
    return VsavUnit(
        id=entry.id,
        name=entry.name,
        kind=entry.kind,
        nationality=entry.nationality,
        hex=place.hex,
        location=place.location,
        board=place.board,
        map=basic.map,
        x=basic.x,
        y=basic.y,
        gpid=basic.gpid,
        piece=piece.name,
        tokens=tuple(str(token) for token in entry.tokens),
        capabilities=capabilities,
    )


def _clauses(units: list[VsavUnit]) -> tuple[str, ...]:
    seen: dict[str, None] = {"C8.0": None}
    for unit in units:
        for capability in unit.capabilities:
            seen.update(dict.fromkeys(capability.clauses))
    return tuple(seen)


def _sentence(units: list[VsavUnit], hidden: int, boards: tuple[Board, ...], unmatched: int) -> str:
    kinds = Counter(unit.kind for unit in units)
    nations = ", ".join(dict.fromkeys(unit.nationality for unit in units)) or "no side"
    placed = sum(unit.hex is not None for unit in units)
    return (
        f"{_count(len(units), 'AFV or Gun', 'AFVs and Guns')}"
        f" ({_count(kinds['vehicle'], 'vehicle')}, {kinds['ordnance']} ordnance) of {nations};"
        f" {placed} on a hex of {_count(len(boards), 'board')};"
        f" {hidden} hidden or concealed left out;"
        f" {_count(unmatched, 'other piece')} matched no vehicle or Gun of the data."
    )


def _count(number: int, one: str, many: str | None = None) -> str:
    """``1 board``, ``2 boards``.

    >>> _count(1, "board"), _count(0, "board"), _count(2, "AFV or Gun", "AFVs and Guns")
    ('1 board', '0 boards', '2 AFVs and Guns')
    """
    return f"{number} {one if number == 1 else many or one + 's'}"
