"""VASSAL game saves (``.vsav``), read at the format level: no game's meaning here.

A save is a zip whose ``savedGame`` entry holds one command string (obfuscated, see
:mod:`.obfuscation`), made of commands separated and escaped as :mod:`.sequence` tells, among
them one ``AddPiece`` per piece (:mod:`.pieces`). :func:`read_save` puts it together; a ruleset
(``ordnance.asl.vsav``) gives the pieces their meaning.
"""

from __future__ import annotations

from ordnance.core.vassal.obfuscation import HEADER, deobfuscate
from ordnance.core.vassal.pieces import BasicState, Piece, Trait, read_piece
from ordnance.core.vassal.save import DEFAULT_LIMITS, Limits, SaveFile, read_save
from ordnance.core.vassal.sequence import commands, split

__all__ = [
    "DEFAULT_LIMITS",
    "HEADER",
    "BasicState",
    "Limits",
    "Piece",
    "SaveFile",
    "Trait",
    "commands",
    "deobfuscate",
    "read_piece",
    "read_save",
    "split",
]
