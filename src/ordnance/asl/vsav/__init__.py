"""VASL saves (``.vsav``) read for ASL: every AFV and Gun, its counter and its hex; every other
piece a player can see named as matching no counter data.

:func:`read_vsav` reads the save with ``ordnance.core.vassal``, matches pieces to the
vasl-templates data (:mod:`.matching`), places them on the boards (:mod:`.boards`), and
:func:`scenario_from_vsav` turns the result into an ASL scenario for the game service.
"""

from __future__ import annotations

from ordnance.asl.vsav.boards import (
    DEFAULT_GEOMETRY,
    Board,
    Geometry,
    board_location,
    locate,
    read_boards,
)
from ordnance.asl.vsav.reader import UnmatchedPiece, VsavRuling, VsavUnit, is_hidden, read_vsav

__all__ = [
    "DEFAULT_GEOMETRY",
    "Board",
    "Geometry",
    "UnmatchedPiece",
    "VsavRuling",
    "VsavUnit",
    "board_location",
    "is_hidden",
    "locate",
    "read_boards",
    "read_vsav",
]
