"""Intervals counted in log entries, from an argument or an environment variable.

>>> entry_interval(50, "ORDNANCE_X_EVERY", 100, least=1, what="head signature interval")
50
>>> entry_interval(0, "ORDNANCE_X_EVERY", 100, least=1, what="head signature interval")
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad head signature interval '0': must be 1 entry or more
"""

from __future__ import annotations

import os

from ordnance.core.errors import BadInput


def entry_interval(given: int | None, variable: str, default: int, *, least: int, what: str) -> int:
    """``given``, else ``$variable``, else ``default``; refused below ``least`` entries."""
    if given is None:
        text = os.environ.get(variable)
        if text is None:
            return default
        try:
            given = int(text)
        except ValueError:
            raise BadInput(variable, text, "expected a whole number of entries") from None
    if given < least:
        lowest = "0 (none) or more entries" if least == 0 else f"{least} entry or more"
        raise BadInput(what, str(given), f"must be {lowest}")
    return given
