r"""A small writer of VASSAL/VASL saves, for tests and the benchmark (imported as
``tests.vsav_writer``): the reader in ``ordnance.core.vassal`` must read back what this writes.

It writes what VASSAL writes, from VASSAL's documented format (``SequenceEncoder``,
``ObfuscatingOutputStream``, ``BasicCommandEncoder``): fields joined by a delimiter, a delimiter
inside a field escaped by a backslash, a field that starts with a backslash (or starts and ends
with a quote) wrapped in quotes; traits nested with TAB; commands with ESC.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field

ESC = "\x1b"


def encode(fields: Sequence[str], delimiter: str) -> str:
    """Join ``fields`` as VASSAL's ``SequenceEncoder.append(String)`` does."""
    out = []
    for text in fields:
        escaped = text.replace(delimiter, "\\" + delimiter)
        if text and (text[0] == "\\" or (text[0] == "'" and text[-1] == "'")):
            escaped = f"'{escaped}'"
        out.append(escaped)
    return delimiter.join(out)


def chain(parts: Sequence[str]) -> str:
    """A trait chain: the outer part, a TAB, then the rest nested (as Decorator.getType)."""
    if len(parts) == 1:
        return parts[0]
    return encode([parts[0], chain(parts[1:])], "\t")


CommandTree = str | list["CommandTree"]


def encode_commands(tree: CommandTree) -> str:
    """A command, or a list of commands (each maybe a list), as GameModule.encode writes it."""
    if isinstance(tree, str):
        return tree
    return encode([encode_commands(part) for part in tree], ESC)


def obfuscate(text: str, key: int) -> bytes:
    """``!VCSK``, the key as two hex digits, then each UTF-8 byte XORed with it, in hex."""
    body = bytes(byte ^ key for byte in text.encode("utf-8"))
    return b"!VCSK" + f"{key:02x}".encode() + body.hex().encode()


@dataclass
class PieceSpec:
    """One piece: traits (type, state) from the outside in, then its BasicPiece."""

    name: str
    gpid: str
    x: int
    y: int
    map: str = "Main Map"
    traits: list[tuple[str, str]] = field(default_factory=list)
    image: str = "img"
    piece_id: str = "1"

    def command(self) -> str:
        own = encode(["piece", "", "", self.image, self.name], ";")
        types = [t for t, _ in self.traits] + [own]
        basic = encode([self.map, str(self.x), str(self.y), self.gpid], ";")
        states = [s for _, s in self.traits] + [basic]
        return "+/" + encode([self.piece_id, chain(types), chain(states)], "/")


def hidden_traits(*, hip: bool = False, concealed: bool = False, nation: str = "ge") -> list:
    """VASL's Hideable and Concealable traits, in a given state."""
    return [
        ("hide;72,130;HIP;;player:;0.3", "player1" if hip else "null"),
        (f"conceal;C;{nation}/{nation}qmark58;{nation};;", "password;|0" if concealed else "null;"),
    ]


def filler_traits(count: int) -> list[tuple[str, str]]:
    """Traits like the many a VASL counter carries (menus, reports, layers): text to skip."""
    return [
        (f"emb2;;2;;Layer{index};2;S;;2;;;;0;false;0;0;ML/a{index},ML/b{index};+ a,+ b;true", "1")
        for index in range(count)
    ]


def board_command(boards: Sequence[tuple[int, int, str]]) -> str:
    """VASL's ``bd`` command: each board's column, row and name (``r`` first: reversed)."""
    if not boards:
        return "bd\t"
    return "bd\t" + "bd\t".join(f"{x}\t{y}\t{name}\tVER\t6.0\t" for x, y, name in boards)


def save_text(pieces: Sequence[PieceSpec], boards: Sequence[tuple[int, int, str]] = ()) -> str:
    """The command stream of a save holding these pieces on these boards."""
    for number, piece in enumerate(pieces):
        piece.piece_id = str(1_000_000 + number)
    tree: CommandTree = [
        "begin_save",
        "",
        ["", *(piece.command() for piece in pieces)],
        "INFO\tAxis\tAxis\t1\t",
        board_command(boards),
        "end_save",
    ]
    return encode_commands(tree)


def save_zip(
    text: str,
    *,
    key: int = 0xD8,
    module: str = "VASL",
    version: str = "6.6.2",
    vassal: str = "3.6.7",
    game: bytes | None = None,
) -> bytes:
    """A .vsav: the obfuscated text in ``savedGame`` and the two metadata files."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", obfuscate(text, key) if game is None else game)
        archive.writestr(
            "moduledata",
            f"<?xml version='1.0'?><data version='1'><version>{version}</version>"
            f"<VassalVersion>{vassal}</VassalVersion><name>{module}</name></data>",
        )
        archive.writestr(
            "savedata",
            f"<?xml version='1.0'?><data version='1'><VassalVersion>{vassal}</VassalVersion>"
            "</data>",
        )
    return buffer.getvalue()
