"""A generic JSON codec for the frozen values a game's log folds into (snapshots).

Any ruleset's state is a tree of frozen dataclasses, tuples, frozensets, mappings, Fractions,
enums, strings, numbers and None. :func:`encode` turns such a tree into plain JSON data and
:func:`decode` builds the equal tree back, so a new field or a new class in a ruleset's state
is covered without touching this module. Classes are named by ``module:qualname`` and only
dataclasses and enums of the ``ordnance`` package are ever looked up when decoding.

Parts of a state that never change during a game (the scenario sheet, the map) equal those of
the game's initial state: :func:`encode` given that ``base`` writes a part equal to ``base``'s
part at the same path of dataclass fields as that path (``{"@": [...]}``), and :func:`decode`
given a freshly built initial state takes it from there. This keeps snapshots small and lets the
codec skip objects that are not plain data (a terrain map with its caches).

>>> from dataclasses import dataclass
>>> from fractions import Fraction
>>> @dataclass(frozen=True)
... class Tally:
...     odds: Fraction
...     seen: frozenset[str]
...     by_hex: dict[int, tuple[str, ...]]
>>> value = Tally(Fraction(1, 3), frozenset({"b", "a"}), {7: ("x",)})
>>> data = encode(value)
>>> data["f"]["odds"], data["f"]["seen"]
({'q': [1, 3]}, {'s': ['a', 'b']})

A class outside the package is refused (decoding never imports arbitrary modules):

>>> decode(data)
Traceback (most recent call last):
...
ValueError: class ordnance.core.statecodec:Tally is not a dataclass or enum of the package
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

# Data markers: a JSON object always has exactly one of these keys.
_TUPLE, _LIST, _SET, _MAP, _FRACTION, _ENUM, _CLASS, _BASE = "t", "l", "s", "m", "q", "e", "c", "@"


def encode(
    value: Any,
    base: Any = None,
    memo: dict[Any, Any] | None = None,
    previous: Mapping[Any, Any] | None = None,
) -> Any:
    """Plain JSON data for ``value``; a part equal to ``base``'s part at the same path of
    dataclass fields is written as that path.

    ``memo``: a dict shared by several calls (states that share parts, like a game's state and
    the states its undoable commands keep): a part met again (the same object at the same path
    against the same base part) is encoded once. Values must not change while it is in use.
    Raises TypeError for a value of a kind the codec does not know (nothing is guessed).

    ``previous``: the memo of an earlier encoding (a snapshot before this one); a part found
    there is taken from it and kept in ``memo``, so only what changed since is encoded again.

    >>> shared = (1, 2)
    >>> memo: dict[Any, Any] = {}
    >>> encode([shared], memo=memo)["l"][0] is encode((shared, 3), memo=memo)["t"][0]
    True
    >>> later: dict[Any, Any] = {}
    >>> again = encode([shared], memo=later, previous=memo)["l"][0]
    >>> again is memo[(id(shared), id(_NOTHING), ())][2]
    True
    """
    if memo is None:
        return _encode(value, base, ())
    return _Memo(memo, previous).encode(value, base, ())


def decode(data: Any, base: Any = None) -> Any:
    """The value :func:`encode` was given; ``base`` must equal the one it was encoded with.

    Raises ValueError (or KeyError/TypeError) for data it cannot read; the caller falls back.
    """
    return _decode(data, base)


def dumps(value: Any, base: Any = None) -> str:
    """:func:`encode` as one compact JSON text (frozensets sorted, so the text is repeatable)."""
    return json.dumps(encode(value, base), separators=(",", ":"), ensure_ascii=False)


def loads(text: str, base: Any = None) -> Any:
    return decode(json.loads(text), base)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def _class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


_NOTHING = object()  # no counterpart in the base at this path


def _encode(
    value: Any, mirror: Any, path: tuple[str, ...], inner: Callable[..., Any] | None = None
) -> Any:
    """``value`` as data; ``mirror`` is the base's value at the same ``path`` (or _NOTHING);
    ``inner`` encodes the parts (default: this function)."""
    if inner is None:
        inner = _encode
    # Enums first: a StrEnum or IntEnum member is also a str or an int.
    if isinstance(value, enum.Enum):
        return {_ENUM: _class_name(type(value)), "n": value.name}
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if path and mirror is not _NOTHING and (value is mirror or value == mirror):
        return {_BASE: list(path)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        same = type(mirror) is cls
        fields = {
            name: inner(
                getattr(value, name),
                getattr(mirror, name) if same else _NOTHING,
                (*path, name),
            )
            for name in _field_names(cls)
        }
        return {_CLASS: _class_name(cls), "f": fields}
    if isinstance(value, Fraction):
        return {_FRACTION: [value.numerator, value.denominator]}
    if isinstance(value, tuple):
        return {_TUPLE: [inner(v, _NOTHING, ()) for v in value]}
    if isinstance(value, list):
        return {_LIST: [inner(v, _NOTHING, ()) for v in value]}
    if isinstance(value, (frozenset, set)):
        items = [inner(v, _NOTHING, ()) for v in value]
        # Sorted by their text, so one state always gives one snapshot text.
        items.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return {_SET: items}
    if isinstance(value, Mapping):
        return {_MAP: [[inner(k, _NOTHING, ()), inner(v, _NOTHING, ())] for k, v in value.items()]}
    raise TypeError(f"the state codec cannot write a {type(value).__name__}")


class _Memo:
    """:func:`_encode` that remembers what it wrote for each container it met."""

    def __init__(self, memo: dict[Any, Any], previous: Mapping[Any, Any] | None = None) -> None:
        self.memo = memo
        self.previous = previous or {}

    def encode(self, value: Any, mirror: Any, path: tuple[str, ...]) -> Any:
        if value is None or isinstance(value, (bool, str, int, float, enum.Enum, Fraction)):
            return _encode(value, mirror, path)
        key = (id(value), id(mirror), path)
        found = self.memo.get(key)
        if found is None:
            found = self.previous.get(key)
            # The memos hold the objects too, so no id in their keys is reused while they
            # live; the same objects mean the same (frozen) parts.
            if found is None or found[0] is not value or found[1] is not mirror:
                found = (value, mirror, _encode(value, mirror, path, self.encode))
            self.memo[key] = found
        return found[2]


@cache
def _lookup(name: str) -> type:
    module, _, qualname = name.partition(":")
    if not module.startswith("ordnance.") or not qualname:
        raise ValueError(f"class {name} is not a dataclass or enum of the package")
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not isinstance(found, type) or not (
        dataclasses.is_dataclass(found) or issubclass(found, enum.Enum)
    ):
        raise ValueError(f"class {name} is not a dataclass or enum of the package")
    return found


def _decode(data: Any, base: Any) -> Any:
    if not isinstance(data, dict):
        if isinstance(data, list):
            raise ValueError("a bare JSON list in a state snapshot")
        return data
    payload: Any
    if _CLASS in data:
        marker, payload = _CLASS, data
    elif _ENUM in data:
        marker, payload = _ENUM, data
    else:
        ((marker, payload),) = data.items()
    if marker == _TUPLE:
        return tuple(_decode(v, base) for v in payload)
    if marker == _MAP:
        return {_decode(k, base): _decode(v, base) for k, v in payload}
    if marker == _CLASS:
        cls: Any = _lookup(data[_CLASS])
        if issubclass(cls, enum.Enum):
            raise ValueError(f"{data[_CLASS]} is an enum, not a dataclass")
        fields: dict[str, Any] = data["f"]
        names = _field_names(cls)
        if set(fields) != set(names):
            raise ValueError(f"{data[_CLASS]} has other fields than the snapshot's")
        made = object.__new__(cls)
        # As the class's own __init__ would leave it, without re-checking every value:
        # object.__setattr__ passes frozen dataclasses and slots alike.
        for name in names:
            object.__setattr__(made, name, _decode(fields[name], base))
        return made
    if marker == _ENUM:
        cls = _lookup(data[_ENUM])
        if not issubclass(cls, enum.Enum):
            raise ValueError(f"{data[_ENUM]} is not an enum")
        return cls[data["n"]]
    if marker == _SET:
        return frozenset(_decode(v, base) for v in payload)
    if marker == _FRACTION:
        return Fraction(*payload)
    if marker == _LIST:
        return [_decode(v, base) for v in payload]
    if marker == _BASE:
        found = base
        for name in payload:
            found = getattr(found, name)
        return found
    raise ValueError(f"unknown marker {marker!r} in a state snapshot")
