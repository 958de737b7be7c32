"""The ``savedGame`` entry's light obfuscation, undone.

VASSAL writes ``!VCSK``, a key byte as two hex digits, then every byte of the UTF-8 text XORed
with the key, as two hex digits (upper or lower case). A file without the header is read as
plain text, as VASSAL reads it, when it looks like a command stream (``begin_save``...); any
other ``!VCS`` header is a newer scheme this reader does not know. (A reading of
``VASSAL.tools.io.DeobfuscatingInputStream``, written anew.)

>>> deobfuscate(b"!VCSK2A" + bytes(b ^ 0x2A for b in b"begin_save").hex().encode())
'begin_save'
>>> deobfuscate(b"begin_save")
'begin_save'
>>> deobfuscate(b"!VCSK2A0")
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad saved game '!VCSK2A0': odd number of hex digits (1) after the key
"""

from __future__ import annotations

import re

from ordnance.core.errors import BadInput

HEADER = b"!VCSK"
# What every other header of VASSAL's family starts with: a newer scheme, not plain text.
_FAMILY = b"!VCS"
_KEY = re.compile(rb"[0-9A-Fa-f]{2}")
# The first command of a save; older VASSAL versions and some tools write saves unobfuscated.
_PLAIN_STARTS = (b"begin_save", b"+/", b"\x1b")
_TABLES: dict[int, bytes] = {}


def _fault(data: bytes, problem: str) -> BadInput:
    shown = data[:24].decode("latin-1")
    return BadInput("saved game", shown, problem)


def _xor_table(key: int) -> bytes:
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = bytes(value ^ key for value in range(256))
    return table


def deobfuscate(data: bytes) -> str:
    """The command text of a ``savedGame`` entry (see the module docstring)."""
    if data.startswith(HEADER):
        key_text = data[len(HEADER) : len(HEADER) + 2]
        if _KEY.fullmatch(key_text) is None:
            raise _fault(data, "the key after !VCSK is not two hex digits")
        body = data[len(HEADER) + 2 :]
        if len(body) % 2:
            raise _fault(data, f"odd number of hex digits ({len(body)}) after the key")
        try:
            raw = bytes.fromhex(body.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            raw = b""
        # fromhex skips whitespace, which VASSAL does not: then fewer bytes come out.
        if 2 * len(raw) != len(body):
            bad = re.search(rb"[^0-9A-Fa-f]", body)
            where = len(HEADER) + 2 + (bad.start() if bad else 0)
            raise _fault(data, f"a byte that is not a hex digit at offset {where}")
        raw = raw.translate(_xor_table(int(key_text, 16)))
    elif data.startswith(_FAMILY):
        raise _fault(data, "a newer VASSAL obfuscation header; only !VCSK is known")
    elif data.lstrip().startswith(_PLAIN_STARTS):
        raw = data
    else:
        raise _fault(data, "neither the !VCSK header nor a plain VASSAL command stream")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = f"not UTF-8 text at byte {error.start} (a wrong key?)"
        raise _fault(data, problem) from None
    if not raw.lstrip().startswith(_PLAIN_STARTS):
        raise _fault(data, "the text under the key is no VASSAL command stream (a wrong key?)")
    return text
