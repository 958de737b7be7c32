"""VASSAL's save format read back: escaped sequences, the obfuscation, trait chains.

Every property writes data with the tests' own writer (``tests.vsav_writer``, built from
VASSAL's documented format) and checks that ``ordnance.core.vassal`` reads back exactly it.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.vsav_writer import ESC, PieceSpec, chain, encode, encode_commands, obfuscate

from ordnance.core.errors import BadInput
from ordnance.core.vassal import deobfuscate, read_piece
from ordnance.core.vassal.sequence import (
    MAX_COMMAND_DEPTH,
    commands,
    split,
    split_first,
    unchain,
    unchain_slowly,
)

DELIMITERS = ("\t", ";", "/", ",", ESC)
# Characters that make the escaping interesting: every delimiter, backslash and quote.
TRICKY = st.sampled_from(["a", "b", " ", "\\", "'", "\t", ";", "/", ",", ESC, "é", "\n"])


def fields_for(delimiter: str) -> st.SearchStrategy[str]:
    """Fields VASSAL writes so that it reads them back (the format's own limit): no field
    that ends in a backslash, and no backslash right before a delimiter inside one."""
    return (
        st.lists(TRICKY, max_size=12)
        .map("".join)
        .filter(lambda text: not text.endswith("\\") and "\\" + delimiter not in text)
    )


@st.composite
def delimited(draw: st.DrawFn) -> tuple[str, list[str]]:
    delimiter = draw(st.sampled_from(DELIMITERS))
    return delimiter, draw(st.lists(fields_for(delimiter), min_size=1, max_size=8))


@given(delimited())
def test_split_reads_back_what_the_encoder_wrote(case):
    delimiter, fields = case
    assert split(encode(fields, delimiter), delimiter) == fields


@given(delimited())
def test_split_first_reads_the_first_two_fields(case):
    delimiter, fields = case
    first, second = split_first(encode(fields, delimiter), delimiter)
    assert first == fields[0]
    assert second == (fields[1] if len(fields) > 1 else None)


def quoted(text: str) -> bool:
    return len(text) > 1 and text[0] == text[-1] == "'"


@given(st.lists(fields_for("\t").filter(lambda f: "\t" not in f), min_size=1, max_size=40))
def test_a_trait_chain_reads_back_level_by_level(parts):
    # The innermost level is written as it is, and read unquoted (VASSAL reads it so too).
    expected = [*parts[:-1], parts[-1][1:-1] if quoted(parts[-1]) else parts[-1]]
    assert unchain(chain(parts)) == expected


@given(st.lists(TRICKY, max_size=60).map("".join))
def test_the_one_pass_chain_reader_agrees_with_the_plain_one_on_any_text(text):
    assert unchain(text) == unchain_slowly(text)


def test_the_one_pass_chain_reader_keeps_delimiters_inside_a_level():
    parts = ["a\tb", "c", "d\t\te", "f"]
    assert unchain(chain(parts)) == unchain_slowly(chain(parts)) == parts


LEAF = (
    st.lists(st.sampled_from(["a", "+", "/", "\\", "\t", ";", "'"]), min_size=1, max_size=10)
    .map("".join)
    .filter(lambda t: not t.endswith("\\") and not t.startswith("'") and "\\\x1b" not in t)
)
TREES = st.recursive(LEAF, lambda inner: st.lists(inner, min_size=1, max_size=5), max_leaves=30)


def leaves(tree):
    if isinstance(tree, str):
        return [tree]
    return [leaf for part in tree for leaf in leaves(part)]


@given(TREES)
def test_commands_nested_in_commands_come_out_in_order(tree):
    assert commands(encode_commands(tree)) == leaves(tree)


@given(st.text(max_size=200), st.integers(0, 255))
def test_deobfuscation_undoes_the_obfuscation(body, key):
    text = "begin_save" + ESC + body
    assert deobfuscate(obfuscate(text, key)) == text


def test_deobfuscation_reads_upper_case_hex_and_plain_text():
    data = obfuscate("begin_save\x1bend_save", 0xAB)
    assert deobfuscate(data[:7] + data[7:].upper()) == "begin_save\x1bend_save"
    assert deobfuscate(b"begin_save\x1bend_save") == "begin_save\x1bend_save"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (obfuscate("begin_save", 0x2A) + b"0", "odd number of hex digits"),
        (obfuscate("begin_save", 0x2A)[:7] + b"zz", "not a hex digit at offset 7"),
        (b"!VCSKq1" + b"00", "key after !VCSK is not two hex digits"),
        (b"!VCSX2A" + b"00", "newer VASSAL obfuscation header"),
        (b"PK\x03\x04 junk", "neither the !VCSK header nor a plain"),
        (
            obfuscate("begin_save", 0x2A)[:5] + b"2B" + obfuscate("begin_save", 0x2A)[7:],
            "no VASSAL",
        ),
        (b"!VCSK00" + bytes([0xFF]).hex().encode(), "not UTF-8 text"),
    ],
)
def test_bad_obfuscated_text_is_one_clear_fault(data, problem):
    with pytest.raises(BadInput, match=problem):
        deobfuscate(data)


def test_commands_nested_without_end_are_refused():
    text = "x"
    for _ in range(MAX_COMMAND_DEPTH + 2):
        text = encode(["", text], ESC)
    with pytest.raises(BadInput, match="nested more than"):
        commands(text)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["hide;72,130;HIP", "mark;Owner", "PROP;x;1,2", "zzz;unknown;trait"]),
            fields_for("\t").filter(lambda f: "\t" not in f),
        ),
        max_size=12,
    ),
    st.sampled_from(["2598", "08d:75", "3b5:3741", ""]),
    st.integers(-5000, 5000),
)
def test_a_piece_reads_back_with_its_traits_and_basic_state(traits, gpid, x):
    spec = PieceSpec(name="PzKw VIE", gpid=gpid, x=x, y=7, traits=list(traits), image="ge/v")
    piece = read_piece(spec.command())
    assert piece is not None
    assert [(t.type, t.state) for t in piece.traits] == list(traits)
    assert (piece.name, piece.image, piece.id) == ("PzKw VIE", "ge/v", "1")
    assert (piece.basic.map, piece.basic.x, piece.basic.y, piece.basic.gpid) == (
        "Main Map",
        x,
        7,
        gpid,
    )


def test_stacks_and_other_commands_are_no_pieces():
    assert read_piece("+/9/stack/Main Map;1;2;7") is None
    assert read_piece("D/9/state") is None


def test_a_piece_off_every_map_and_a_bad_number_read_as_vassal_reads_them():
    piece = read_piece("+/1/piece;;;i;n/null;x;12;7487;0")
    assert piece is not None
    assert (piece.basic.map, piece.basic.x, piece.basic.y) == (None, 0, 12)
