"""Every reader of a user's file is bounded: regular files only, the size checked before a byte
is read, and YAML counted as it is parsed, so a hostile file is refused fast, in one line."""

from __future__ import annotations

import os
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_NODES, MAX_TEXT_FILE_BYTES, read_limited
from ordnance.core.maps import load_map
from ordnance.game.scenario import load_scenario_file

SECONDS = 5.0  # the bound is 2 s: a generous margin for a busy machine
MEGABYTES = 50


@pytest.mark.clause("SYS.record")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    outcome: list[str] = []

    def read() -> None:
        try:
            read_limited(fifo, "token file", 100)
        except BadInput as error:
            outcome.append(str(error))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # let the blocked reader go before failing
        with open(fifo, "wb"):
            pass
        pytest.fail("reading a FIFO blocked")
    assert outcome == [f"bad token file {str(fifo)!r}: not a regular file (a FIFO)"]


@pytest.mark.clause("SYS.record")
def test_an_endless_device_is_refused_before_reading(tmp_path):
    tracemalloc.start()
    try:
        with pytest.raises(BadInput, match=r"not a regular file \(a device\)"):
            read_limited("/dev/zero", "token file", 2**30)
        assert tracemalloc.get_traced_memory()[1] < 2**20
    finally:
        tracemalloc.stop()
    with pytest.raises(BadInput, match=r"not a regular file \(a folder\)"):
        read_limited(tmp_path, "scenario file", 100)


@pytest.mark.clause("SYS.record")
def test_the_size_is_checked_and_at_most_one_byte_more_is_read(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 101)
    with pytest.raises(BadInput, match="larger than 100 bytes"):
        read_limited(path, "file", 100)
    path.write_bytes(b"x" * 100)
    assert read_limited(path, "file", 100) == b"x" * 100


@pytest.mark.clause("SYS.record")
def test_a_name_no_file_can_have_is_one_line():
    for name in ("\ud800.yaml", "a\x00b"):
        with pytest.raises(BadInput, match="not a possible file name"):
            read_limited(name, "scenario file", 100)


# --- YAML: refused as it is parsed ------------------------------------------------------------


def _flat(size: int) -> str:
    return "[" + "1," * (size // 2 - 1) + "1]"


def _alias_bomb() -> str:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 14)]
    return "\n".join(lines) + "\nsides: *a13\nruleset: asl\nname: bomb\n"


HOSTILE = {
    "flat list, 4 MiB": (lambda: _flat(MAX_TEXT_FILE_BYTES - 16), f"more than {MAX_NODES} values"),
    "deep nesting": (lambda: "sides: " + "[" * 2_000_000, "nested deeper than"),
    "deep block nesting": (
        lambda: "".join(" " * i + f"k{i}:\n" for i in range(2000)),
        "nested deeper than",
    ),
    "alias bomb": (_alias_bomb, f"more than {MAX_NODES} values"),
    "many keys": (
        lambda: "".join(f"k{i}: {i}\n" for i in range(300_000))[: MAX_TEXT_FILE_BYTES - 16],
        f"more than {MAX_NODES} values",
    ),
    "10 MB": (lambda: _flat(10 * 10**6), "larger than 4 MiB"),
}


def _refused_fast(read, path: Path, expected: str) -> str:
    """Refused in one line, timed on its own, then again with tracemalloc for the peak memory
    (which slows every allocation, so it is not timed)."""
    started = time.monotonic()
    with pytest.raises(BadInput) as refused:
        read(path)
    took = time.monotonic() - started
    tracemalloc.start()
    try:
        with pytest.raises(BadInput):
            read(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(refused.value)
    assert expected in message and "\n" not in message
    assert took < SECONDS, f"{took:.1f} s"
    assert peak < MEGABYTES * 2**20, f"{peak / 2**20:.0f} MB"
    return message


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_scenario_is_refused_fast(tmp_path, case):
    make, expected = HOSTILE[case]
    path = tmp_path / "s.yaml"
    path.write_text(make())
    assert "s.yaml" in _refused_fast(load_scenario_file, path, expected)


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_map_is_refused_fast(tmp_path, case):
    make, expected = HOSTILE[case]
    path = tmp_path / "m.yaml"
    path.write_text(make())

    def read(file: Path) -> object:
        return load_map(file, lambda _game: None)

    assert "m.yaml" in _refused_fast(read, path, expected)


@pytest.mark.clause("SYS.record")
def test_an_alias_repeated_is_counted_each_time():
    from ordnance.core.yaml_lines import check_size  # noqa: PLC0415

    # The mapping, 2 keys, the list and its 4 values, the list of b and 3 times those 5: 24.
    text = "a: &a [1, 2, 3, 4]\nb: [*a, *a, *a]\n"
    check_size(text, "file", "f.yaml", nodes=24)
    with pytest.raises(BadInput, match="more than 23 values"):
        check_size(text, "file", "f.yaml", nodes=23)
