"""A .vsav read whole, and every way a file can fail to be one: one BadInput naming the fault."""

from __future__ import annotations

import io
import os
import random
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.vsav_writer import PieceSpec, filler_traits, hidden_traits, save_text, save_zip

from ordnance.core.errors import BadInput
from ordnance.core.vassal import DEFAULT_LIMITS, Limits, read_save


def a_save(**kwargs) -> bytes:
    pieces = [PieceSpec("PzKw VIE", "2598", 681, 528, traits=filler_traits(3) + hidden_traits())]
    return save_zip(save_text(pieces, [(0, 0, "4")]), **kwargs)


def zipped(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_generated_save_reads_back():
    save = read_save(a_save(version="6.6.2", vassal="3.7.0"))
    assert (save.module_name, save.module_version, save.vassal_version) == (
        "VASL",
        "6.6.2",
        "3.7.0",
    )
    assert [piece.basic.gpid for piece in save.pieces] == ["2598"]
    assert save.commands[0] == "begin_save" and save.commands[-1] == "end_save"
    assert "bd\t0\t0\t4\tVER\t6.0\t" in save.commands


def test_a_save_read_from_a_path(tmp_path):
    path = tmp_path / "game.vsav"
    path.write_bytes(a_save())
    assert len(read_save(path).pieces) == 1


def test_a_save_without_metadata_has_no_versions():
    data = zipped({"savedGame": zipfile.ZipFile(io.BytesIO(a_save())).read("savedGame")})
    save = read_save(data)
    assert (save.module_name, save.module_version, save.vassal_version) == (None, None, None)


def test_an_unobfuscated_save_reads_too():
    text = save_text([PieceSpec("x", "1", 0, 0)])
    assert len(read_save(zipped({"savedGame": text.encode()})).pieces) == 1


def fault(data: bytes, limits: Limits = DEFAULT_LIMITS) -> str:
    with pytest.raises(BadInput) as caught:
        read_save(data, limits)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_truncated_zip():
    assert "not a zip archive" in fault(a_save()[:-40])
    assert "not a zip archive" in fault(a_save()[:200])


def test_a_megabyte_of_junk():
    junk = random.Random(15).randbytes(1 << 20)
    assert "not a zip archive" in fault(junk)
    assert "not a zip archive" in fault(os.urandom(0))


def test_a_zip_without_the_game_entry():
    assert "no 'savedGame' entry (entries: notes.txt)" in fault(zipped({"notes.txt": b"hi"}))


def test_a_bad_key():
    good = zipfile.ZipFile(io.BytesIO(a_save())).read("savedGame")
    wrong = good[:5] + b"2B" + good[7:]
    assert "a wrong key?" in fault(zipped({"savedGame": wrong}))


def test_odd_length_hex_and_a_bad_digit():
    good = zipfile.ZipFile(io.BytesIO(a_save())).read("savedGame")
    assert "odd number of hex digits" in fault(zipped({"savedGame": good + b"0"}))
    assert "not a hex digit" in fault(zipped({"savedGame": good[:20] + b"g" + good[21:]}))


def test_a_newer_header():
    good = zipfile.ZipFile(io.BytesIO(a_save())).read("savedGame")
    assert "newer VASSAL obfuscation header" in fault(zipped({"savedGame": b"!VCSZ" + good[5:]}))


def test_a_zip_bomb_is_refused_before_it_is_expanded():
    bomb = zipped({"savedGame": b"0" * (8 << 20)})
    assert len(bomb) < 100_000
    assert "would expand to 8388608 bytes" in fault(bomb, Limits(game_bytes=1 << 20))


def test_a_lying_size_is_refused_while_reading():
    data = bytearray(zipped({"savedGame": b"0" * 5000}, zipfile.ZIP_STORED))
    # Shrink the declared size in both headers: the reader must not trust it.
    for header, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.find(header)
        data[at + offset : at + offset + 4] = (100).to_bytes(4, "little")
    message = fault(bytes(data), Limits(game_bytes=1000))
    assert "entry savedGame" in message


def test_too_large_a_file_and_too_many_entries(tmp_path):
    path = tmp_path / "big.vsav"
    path.write_bytes(a_save())
    assert "larger than 100 bytes" in fault_path(path, Limits(file_bytes=100))
    many = zipped({f"e{index}": b"" for index in range(20)})
    assert "more than 10 zip entries" in fault(many, Limits(entries=10))


def fault_path(path, limits: Limits) -> str:
    with pytest.raises(BadInput) as caught:
        read_save(path, limits)
    return str(caught.value)


def test_a_missing_file(tmp_path):
    with pytest.raises(BadInput, match="cannot be read"):
        read_save(tmp_path / "nothing.vsav")


# The format's own limits, which VASSAL shares: no TAB in a name (the innermost type is not
# escaped, so a TAB would split the piece), no name ending in a backslash (it would escape the
# delimiter after it), no quoted name (the innermost level is read unquoted).
NAMES = (
    st.lists(st.sampled_from(["a", "Z", " ", "/", ";", "'", "é", "-", "\\"]), max_size=10)
    .map("".join)
    .filter(lambda text: not (len(text) > 1 and text[0] == text[-1] == "'"))
    .filter(lambda text: not text.endswith("\\"))
)
TRAITS = st.lists(
    st.tuples(
        st.sampled_from(["hide;72,130;HIP;;player:;0.3", "mark;x", "emb2;;2;;a/b;c\\d", "odd"]),
        st.sampled_from(["null", "me", "1;2", "a/b", ""]),
    ),
    max_size=6,
)


@given(
    st.lists(
        st.tuples(NAMES, st.sampled_from(["2598", "08d:75", ""]), st.integers(0, 5000), TRAITS),
        max_size=6,
    ),
    st.integers(0, 255),
)
def test_a_whole_save_reads_back(pieces, key):
    specs = [PieceSpec(name, gpid, x, 9, traits=traits) for name, gpid, x, traits in pieces]
    save = read_save(save_zip(save_text(specs), key=key))
    assert [(p.name, p.basic.gpid, p.basic.x, p.basic.y) for p in save.pieces] == [
        (name, gpid, x, 9) for name, gpid, x, _ in pieces
    ]
    assert [[(t.type, t.state) for t in p.traits] for p in save.pieces] == [
        traits for *_, traits in pieces
    ]
