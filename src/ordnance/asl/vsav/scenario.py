"""An ASL scenario (the game service's input) made from a VASL save's AFVs and Guns.

Each unit of :func:`~ordnance.asl.vsav.reader.read_vsav` becomes a scenario unit with its
counter's name, kind (``vehicle``, or ``gun`` for ordnance) and notation, under the side of its
nationality. Its hex is kept when the scenario can name it: with a ``map`` file, by that map's
labels; otherwise when the save's boards are numbered geomorphic boards in a full rectangle,
none turned or cropped (written as ``boards: "4,3"`` and hexes ``4F2``). What could not be kept
is said in :class:`VsavScenario`'s ``notes``, which the file carries as comments to edit.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ordnance.asl.dates import NATIONALITIES, ScenarioDate
from ordnance.asl.game.mapfile import map_of, read_map
from ordnance.asl.vsav.boards import Board
from ordnance.asl.vsav.reader import VsavRuling, VsavUnit
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import GeomorphicLabels
from ordnance.core.maps import Labels, MapFiles

_UNIT_ID_LENGTH = 32


@dataclass(frozen=True)
class VsavScenario:
    """The scenario mapping, and what the user should check or finish by hand."""

    data: dict[str, Any]
    notes: tuple[str, ...]

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides the scenario has (an ASL game needs exactly two)."""
        return tuple(self.data["sides"])


def geomorphic_layout(boards: Sequence[Board]) -> str | None:
    """The ``boards`` text of the layout (``"4,3/2,1"``), if it is one the engine names:
    numbered boards filling a rectangle, none turned, cropped or zoomed.

    >>> geomorphic_layout([Board("4", 0, 0), Board("3", 1, 0)])
    '4,3'
    >>> geomorphic_layout([Board("00", 0, 0)]) is None, geomorphic_layout([]) is None
    (True, True)
    """
    if not boards:
        return None
    if any(
        not b.name.isdigit() or int(b.name) < 1 or b.reversed or b.crop or b.zoom != 1.0
        for b in boards
    ):
        return None
    grid = {(b.column, b.row): b.name for b in boards}
    columns = 1 + max(b.column for b in boards)
    rows = 1 + max(b.row for b in boards)
    if len(grid) != len(boards) or len(grid) != columns * rows:
        return None
    text = "/".join(
        ",".join(str(int(grid[column, row])) for column in range(columns)) for row in range(rows)
    )
    try:
        GeomorphicLabels.of(text)
    except (BadInput, ValueError):
        return None
    return text


def unit_key(vasl_id: str, taken: set[str]) -> str:
    """A scenario unit id from a vasl-templates id (``br/v:054`` -> ``br-v-054``), unique.

    >>> taken = set()
    >>> unit_key("ge/o:029", taken), unit_key("ge/o:029", taken)
    ('ge-o-029', 'ge-o-029.2')
    """
    base = re.sub(r"[^A-Za-z0-9_.#-]+", "-", vasl_id).strip("-") or "unit"
    if not base[0].isalpha():
        base = "u" + base
    base = base[: _UNIT_ID_LENGTH - 4]
    key, number = base, 1
    while key in taken:
        number += 1
        key = f"{base}.{number}"
    taken.add(key)
    return key


def scenario_from_vsav(
    ruling: VsavRuling,
    date: ScenarioDate,
    *,
    map_file: str | Path | None = None,
    name: str | None = None,
) -> VsavScenario:
    """The scenario of a read save (see the module docstring)."""
    notes: list[str] = []
    data: dict[str, Any] = {
        "ruleset": "asl",
        "name": name or f"From the VASL save {Path(ruling.file).name}",
        "description": (
            f"Made by 'ordnance game new --from-vsav' from {ruling.file}"
            f" (VASL {ruling.vasl_version or '?'}): its AFVs and Guns, {ruling.hidden}"
            " hidden or concealed left out."
        ),
        "date": str(date),
    }
    map_name = None if map_file is None else _map_name(map_file)
    labels, layout = _labels(ruling, map_name, notes)
    if map_name is not None:
        data["map"] = map_name
    elif layout is not None:
        data["boards"] = layout
    sides: dict[str, dict[str, Any]] = {}
    taken: set[str] = set()
    for unit in ruling.units:
        # A unit of a shared data file (axis-minor, un-common) gets that group as its side,
        # for the user to rename: the save does not say which nation it serves.
        side = unit.nationality
        body = sides.setdefault(side, {"nationality": side, "units": {}})
        key = unit_key(unit.id, taken)
        entry: dict[str, Any] = {
            "name": unit.name,
            "kind": "vehicle" if unit.kind == "vehicle" else "gun",
            "notation": " ".join(unit.tokens),
        }
        place = _place(unit, labels, several_boards=len(ruling.boards) > 1)
        if place is not None:
            entry["hex"] = place
            if unit.location != unit.hex:
                # VASL names a hexside's two hexes (a vehicle in bypass); the scenario has one.
                notes.append(f"{key} ({unit.id}) stands on the hexside {unit.location}: in {place}")
        elif unit.hex is not None:
            board = f" on board {unit.board}" if unit.board else ""
            notes.append(f"{key} ({unit.id}) stands at VASL hex {unit.hex}{board}: set its hex")
        body["units"][key] = entry
    for side in sides:
        if side not in NATIONALITIES:
            notes.append(f"side {side}: a group of the data, not a nationality; name one")
    if len(sides) != 2:
        found = ", ".join(sides) or "none"
        notes.append(f"the save gives {len(sides)} sides ({found}); an ASL scenario has two")
    data["sides"] = sides
    return VsavScenario(data, tuple(notes))


def _map_name(map_file: str | Path) -> str:
    """A map file as an absolute path (the scenario file lies elsewhere), or a bundled map's
    name as given."""
    path = Path(map_file).expanduser()
    return str(path.resolve()) if path.is_file() else str(map_file)


def _labels(
    ruling: VsavRuling, map_file: str | None, notes: list[str]
) -> tuple[Labels | None, str | None]:
    """The labels hexes are checked against, and the ``boards`` layout text if one fits."""
    layout = geomorphic_layout(ruling.boards)
    if map_file is not None:
        # The CLI's --map: a bundled map, or a file relative to the working folder.
        game_map = map_of(read_map(str(map_file), MapFiles.folder(Path())))
        return (None if game_map is None else game_map.labels), layout
    if layout is not None:
        return GeomorphicLabels.of(layout), layout
    if ruling.boards:
        shown = ", ".join(("r" if b.reversed else "") + b.name for b in ruling.boards)
        notes.append(
            f"the save's boards ({shown}) are not numbered geomorphic boards in a rectangle"
            " (none turned or cropped): give 'boards' or 'map' and the hexes by hand"
        )
    return None, None


def _place(unit: VsavUnit, labels: Labels | None, *, several_boards: bool) -> str | None:
    """The unit's hex as the scenario's labels name it (board and hex), when they can."""
    if labels is None or unit.hex is None or unit.board is None:
        return None
    # VASL names a hex without its board on a one-board map, with it otherwise.
    hex_name = unit.hex.removeprefix(unit.board) if several_boards else unit.hex
    try:
        return labels.label(labels.parse(f"{unit.board}{hex_name}"))
    except BadInput:
        return None


def scenario_comments(scenario: VsavScenario) -> str:
    """The header a written scenario file starts with: its origin and the notes, as comments."""
    lines = [
        "# An ASL scenario made from a VASL save; edit it, then: ordnance game new FILE",
        "# Schema: src/ordnance/asl/data/scenario.schema.json in the ordnance project.",
    ]
    for note in scenario.notes:
        lines += textwrap.wrap(
            note, width=96, initial_indent="# TO CHECK: ", subsequent_indent="#   "
        )
    return "\n".join(lines) + "\n"


def side_units(scenario: VsavScenario) -> Mapping[str, int]:
    """How many units each side holds."""
    return {side: len(body["units"]) for side, body in scenario.data["sides"].items()}
