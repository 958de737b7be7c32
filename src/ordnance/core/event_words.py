"""Any event's data in plain words, for an event a ruleset has no sentence for.

>>> event_words("fired", {"units": ["a1", "a2"], "smoke": False, "later_fire": {"drm": 1}})
'fired: units a1 and a2, smoke no, later fire (drm 1)'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def value_words(value: object) -> str:
    """A JSON value in words: yes/no, ``a and b``, ``(key value, ...)``, ``-`` for null."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{k.replace('_', ' ')} {value_words(v)}" for k, v in value.items())
        return f"({inner})"
    if isinstance(value, list | tuple):
        items = [value_words(v) for v in value]
        if not items:
            return "none"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return str(value)


def event_words(kind: str, data: Mapping[str, Any]) -> str:
    """``kind: key value, ...`` with every value in words."""
    parts = [f"{k.replace('_', ' ')} {value_words(v)}" for k, v in data.items()]
    return f"{kind}: {', '.join(parts)}" if parts else kind


def listed(names: object) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``nobody`` for none)."""
    items = [str(n) for n in names] if isinstance(names, list | tuple) else [str(names)]
    if not items:
        return "nobody"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
