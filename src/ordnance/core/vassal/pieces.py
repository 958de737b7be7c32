"""One piece of a save: the ``AddPiece`` command, its trait chain and its BasicPiece state.

An ``AddPiece`` command is ``+/ID/TYPE/STATE`` (fields split on ``/``). ``TYPE`` is the outer
trait's type, a TAB, then the type of the piece it wraps, and so on down to the BasicPiece
(``piece;CLONE;DELETE;IMAGE;NAME``); ``STATE`` nests the traits' states the same way, down to
the BasicPiece state ``MAP;X;Y;GPID;N;key;value...``. A trait is known by the word before the
first ``;`` of its type (``hide``, ``mark``, ``PROP``...); this module keeps every trait as
text, and the game's reader picks those it knows, skipping the others.

>>> piece = read_piece("+/7/hide;x\\tpiece;;;img;Tiger/me\\tMain Map;681;528;1390")
>>> piece.name, piece.basic, [trait.id for trait in piece.traits]
('Tiger', BasicState(map='Main Map', x=681, y=528, gpid='1390', properties={}), ['hide'])
>>> piece.trait("hide").state
'me'
>>> read_piece("+/9/stack/Main Map;1;2;7") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from ordnance.core.errors import BadInput
from ordnance.core.vassal.sequence import split, unchain

ADD = "+/"
BASIC_ID = "piece"
# More traits than any real counter has (VASL's carry about 40); the bound stops crafted input.
MAX_TRAITS = 500
# The map id VASSAL writes for a piece on no map.
NO_MAP = "null"


class Trait(NamedTuple):
    """One decorator of a piece: its type and its state, as text.

    (A tuple, not a dataclass: a save has tens of thousands of traits, made in a loop.)
    """

    type: str
    state: str

    @property
    def id(self) -> str:
        """The word that names the trait class: ``hide`` for ``hide;72,130;HIP;...``."""
        return self.type.split(";", 1)[0]

    @property
    def fields(self) -> list[str]:
        """The type's ``;`` fields after the id."""
        return split(self.type, ";")[1:]


@dataclass(frozen=True)
class BasicState:
    """Where a piece lies and which module slot made it (``gpid``, empty when unknown)."""

    map: str | None
    x: int
    y: int
    gpid: str
    properties: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Piece:
    """A piece: its id, its traits from the outside in, and its BasicPiece."""

    id: str
    traits: tuple[Trait, ...]
    name: str
    image: str
    basic: BasicState

    def trait(self, trait_id: str) -> Trait | None:
        """The outermost trait with this id, if the piece has one."""
        prefix = trait_id + ";"
        for trait in self.traits:
            if trait.type.startswith(prefix) or trait.type == trait_id:
                return trait
        return None


def _number(text: str) -> int:
    """VASSAL's ``nextInt(0)``: a bad or missing number reads as 0."""
    try:
        return int(text)
    except ValueError:
        return 0


def read_basic_state(state: str) -> BasicState:
    """``MAP;X;Y;GPID;N;key;value...`` (fields after the map are optional, as in VASSAL).

    >>> read_basic_state("null;350;100;7488;1;OldX;3")
    BasicState(map=None, x=350, y=100, gpid='7488', properties={'OldX': '3'})
    """
    fields_ = split(state, ";")
    fields_ += [""] * (5 - len(fields_))
    map_id, x, y, gpid, count = fields_[:5]
    pairs = fields_[5:]
    properties = {
        pairs[index]: pairs[index + 1]
        for index in range(0, min(2 * _number(count), len(pairs) - 1), 2)
    }
    return BasicState(
        map=None if map_id in (NO_MAP, "") else map_id,
        x=_number(x),
        y=_number(y),
        gpid=gpid,
        properties=properties,
    )


def read_piece(command: str) -> Piece | None:
    """The piece an ``AddPiece`` command adds; ``None`` for other commands and for pieces
    that are not built on a BasicPiece (stacks, decks).

    Raises BadInput for a piece whose trait chain is longer than any real one.
    """
    if not command.startswith(ADD):
        return None
    parts = split(command[len(ADD) :], "/")
    piece_id = parts[0]
    types = unchain(parts[1] if len(parts) > 1 else "")
    if len(types) > MAX_TRAITS + 1:
        raise BadInput("piece", piece_id[:40], f"more than {MAX_TRAITS} traits")
    states = unchain(parts[2] if len(parts) > 2 else "")
    # A state chain shorter than the type chain leaves the inner pieces' states empty.
    states += [""] * (len(types) - len(states))
    traits = [Trait(own, state) for own, state in zip(types[:-1], states, strict=False)]
    own_type, own_state = types[-1], states[len(types) - 1]
    basic_fields = split(own_type, ";")
    if basic_fields[0] != BASIC_ID:
        return None
    basic_fields += [""] * (5 - len(basic_fields))
    return Piece(
        id=piece_id,
        traits=tuple(traits),
        name=basic_fields[4],
        image=basic_fields[3],
        basic=read_basic_state(own_state),
    )
