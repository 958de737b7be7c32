"""A ``.vsav`` file read whole: its versions, its commands and its pieces.

The file is a zip. ``savedGame`` holds the command stream; ``moduledata`` names the module and
its version; ``savedata`` the VASSAL version that saved the game (small XML files, read here by
their few tags only). Every fault is one :class:`~ordnance.core.errors.BadInput` naming it, and
what is read is bounded (:class:`Limits`) so a crafted zip cannot fill the memory.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from ordnance.core.errors import BadInput
from ordnance.core.limits import read_limited
from ordnance.core.vassal.obfuscation import deobfuscate
from ordnance.core.vassal.pieces import ADD, Piece, read_piece
from ordnance.core.vassal.sequence import commands

GAME_ENTRY = "savedGame"
MODULE_ENTRY = "moduledata"
SAVE_ENTRY = "savedata"
_MIB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """How much of a save is read at most (bytes, entries); beyond it the file is refused.

    The defaults are far above real saves (a large VASL game is a few MB of hex).
    """

    file_bytes: int = 64 * _MIB
    game_bytes: int = 128 * _MIB
    metadata_bytes: int = _MIB
    entries: int = 1000


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class SaveFile:
    """What a save holds; versions are ``None`` when the save does not say."""

    module_name: str | None
    module_version: str | None
    vassal_version: str | None
    commands: tuple[str, ...]
    pieces: tuple[Piece, ...]


def _fault(source: str, problem: str) -> BadInput:
    return BadInput("VASSAL save", source, problem)


def _read_source(source: str | Path | bytes, limits: Limits) -> tuple[str, bytes]:
    if isinstance(source, bytes):
        return "(bytes)", source
    try:
        return str(source), read_limited(source, "VASSAL save", limits.file_bytes)
    except BadInput as error:
        raise _fault(str(source), error.problem) from None


def _entry(archive: zipfile.ZipFile, name: str, limit: int, shown: str) -> bytes | None:
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.file_size > limit:
        raise _fault(shown, f"entry {name} would expand to {info.file_size} bytes (limit {limit})")
    try:
        with archive.open(info) as handle:
            data = handle.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as error:
        raise _fault(shown, f"entry {name} is damaged ({error})") from None
    except (NotImplementedError, RuntimeError) as error:
        raise _fault(shown, f"entry {name} cannot be read ({error})") from None
    if len(data) > limit:
        raise _fault(shown, f"entry {name} expands beyond {limit} bytes")
    return data


def _tag(xml: bytes | None, tag: str) -> str | None:
    """The text of ``<tag>`` in a small metadata file; ``None`` when absent or empty."""
    if xml is None:
        return None
    found = re.search(rb"<" + tag.encode() + rb">([^<]{1,200})</" + tag.encode() + rb">", xml)
    if found is None:
        return None
    text = found.group(1).decode("utf-8", "replace").strip()
    return text or None


def read_save(source: str | Path | bytes, limits: Limits = DEFAULT_LIMITS) -> SaveFile:
    """Read a VASSAL save from a path or from its bytes.

    Raises BadInput (one line, naming the fault) for anything that is not a readable save.
    """
    shown, data = _read_source(source, limits)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise _fault(shown, "not a zip archive (truncated, or not a VASSAL save)") from None
    except (OSError, ValueError, EOFError) as error:
        raise _fault(shown, f"damaged zip archive ({error})") from None
    with archive:
        names = archive.namelist()
        if len(names) > limits.entries:
            raise _fault(shown, f"more than {limits.entries} zip entries")
        game = _entry(archive, GAME_ENTRY, limits.game_bytes, shown)
        if game is None:
            listed = ", ".join(names[:5]) or "none"
            raise _fault(shown, f"no '{GAME_ENTRY}' entry (entries: {listed}); not a game save")
        module = _entry(archive, MODULE_ENTRY, limits.metadata_bytes, shown)
        saved = _entry(archive, SAVE_ENTRY, limits.metadata_bytes, shown)
    try:
        text = deobfuscate(game)
    except BadInput as error:
        raise _fault(shown, f"entry {GAME_ENTRY}: {error.problem}") from None
    listed_commands = tuple(commands(text))
    pieces = tuple(
        piece
        for command in listed_commands
        if command.startswith(ADD)
        for piece in (read_piece(command),)
        if piece is not None
    )
    return SaveFile(
        module_name=_tag(module, "name"),
        module_version=_tag(module, "version"),
        vassal_version=_tag(saved, "VassalVersion") or _tag(module, "VassalVersion"),
        commands=listed_commands,
        pieces=pieces,
    )
