"""A scenario checked against its ruleset's JSON Schema; the first fault, one BadInput.

Each ruleset ships its scenario format as ``data/scenario.schema.json`` in its package: the one
description of the keys, their types, ranges, names and patterns. Editors read it (a scenario's
first line ``# yaml-language-server: $schema=...``) and :func:`conform` checks a parsed file
against it before the ruleset reads a value. What a schema cannot say (a hex on the map, a unit
id used by both sides, a side named by ``first``) the ruleset still checks in code.

A fault's ``what`` is ``"scenario"``, its ``text`` the dotted key, its ``problem`` one phrase; a
schema node's ``title`` gives the phrase for a value it refuses ("expected <title>").

>>> conform({"ruleset": "asl", "name": "x", "date": "1944-06", "sides": {}}, "ordnance.asl")
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario 'sides': expected exactly two sides
>>> scenario = {"ruleset": "asl", "name": "x", "date": "1944-06", "turns": "3", "sides": {
...     "german": {"units": {"pak": {"kind": "tank"}}}, "russian": {}}}
>>> try:
...     conform(scenario, "ordnance.asl")
... except BadInput as error:
...     print(error.text, "|", error.problem)
turns | expected a whole number from 1 to 50
>>> del scenario["turns"]
>>> conform(scenario, "ordnance.asl")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad scenario 'sides.german.units.pak.kind': expected gun, ...
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ordnance.core.errors import BadInput, shown

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

SCHEMA_FILE = "data/scenario.schema.json"

_TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping of keys to values",
    "array": "a list",
    "null": "nothing",
}


@cache
def scenario_schema(package: str) -> dict[str, Any]:
    """The JSON Schema of ``package``'s scenario files (its ``data/scenario.schema.json``)."""
    text = resources.files(package).joinpath(SCHEMA_FILE).read_text("utf-8")
    schema = json.loads(text)
    assert isinstance(schema, dict)
    return schema


@cache
def _validator(package: str) -> Validator:
    # jsonschema is imported on the first scenario read, not when the CLI starts.
    from jsonschema import Draft202012Validator  # noqa: PLC0415

    return Draft202012Validator(scenario_schema(package))


def conform(data: object, package: str) -> None:
    """Refuse ``data`` unless it is a scenario ``package``'s schema accepts.

    Of several faults the one written first in the file is told (a mapping keeps the file's
    order); of several at one key, the one jsonschema finds most telling.
    """
    from jsonschema.exceptions import best_match  # noqa: PLC0415

    data = _as_json(data)
    errors = list(_validator(package).iter_errors(data))  # type: ignore[arg-type]
    if errors:
        first = min(_place(data, e.absolute_path) for e in errors)
        error = best_match(e for e in errors if _place(data, e.absolute_path) == first)
        path, problem = _fault(error)
        raise BadInput("scenario", ".".join(str(p) for p in path) or "top level", problem)


def _as_json(data: object) -> object:
    """``data`` with every mapping key as JSON has it, text: a YAML number key as its digits
    (a To Hit range ``7``), any other key (``yes``, ``null``) as ``<True>``, ``<None>``, which
    no name pattern of a schema accepts.

    >>> _as_json({"units": {1: {}, None: [{True: 2}]}})
    {'units': {'1': {}, '<None>': [{'<True>': 2}]}}
    """
    if isinstance(data, dict):
        return {_key(k): _as_json(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_as_json(v) for v in data]
    return data


def _key(key: object) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, int) and not isinstance(key, bool):
        return str(key)
    return f"<{key!r}>"


def _place(data: object, path: Iterable[object]) -> tuple[int, ...]:
    """Where ``path`` lies in ``data``, in the file's order: the index of each key in turn."""
    place: list[int] = []
    for step in path:
        if isinstance(data, dict):
            keys = list(data)
            place.append(keys.index(step) if step in data else len(keys))
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and step < len(data):
            place.append(step)
            data = data[step]
        else:
            break
    return tuple(place)


def _fault(error: ValidationError) -> tuple[list[object], str]:
    """The key path and the one-line problem of a schema error."""
    path: list[object] = list(error.absolute_path)
    keyword, value = error.validator, error.instance
    expected: Any = error.validator_value
    schema = error.schema if isinstance(error.schema, dict) else {}
    title = schema.get("title")
    schema_path = list(error.relative_schema_path)
    if len(schema_path) >= 2 and schema_path[-2] == "propertyNames":
        return [*path, value], f"expected {title or 'a different name'}"
    if keyword == "additionalProperties" and isinstance(value, dict):
        known = sorted(schema.get("properties", {}))
        extra = sorted(str(k) for k in value if k not in known)
        listed = f"; known: {', '.join(known)}" if known else ""
        return [*path, extra[0] if extra else "?"], f"unknown key{listed}"
    if keyword == "dependentRequired" and isinstance(value, dict):
        for key, needs in expected.items():
            missing = [k for k in needs if key in value and k not in value]
            if missing:
                return [*path, key], f"goes with {', '.join(missing)}, which is missing"
    if keyword == "required" and isinstance(value, dict):
        missing = [k for k in expected if k not in value]
        return [*path, missing[0] if missing else "?"], "missing (a required key)"
    if keyword == "not" and isinstance(expected, dict) and expected.get("title"):
        return path, f"expected {expected['title']}"
    if title and keyword != "required":
        got = f" (not {shown(str(value))})" if keyword in ("enum", "const", "pattern") else ""
        return path, f"expected {title}{got}"
    return path, _plain(keyword, expected, value, schema)


def _plain(keyword: object, expected: Any, value: object, schema: dict[str, Any]) -> str:
    """The problem for an untitled schema node, from the failed keyword."""
    if keyword == "type" and "minimum" in schema and "maximum" in schema:
        return f"expected a whole number from {schema['minimum']} to {schema['maximum']}"
    if keyword == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        return "expected " + " or ".join(_TYPE_WORDS.get(str(k), str(k)) for k in kinds)
    if keyword in ("minimum", "maximum"):
        return f"expected a whole number from {schema.get('minimum')} to {schema.get('maximum')}"
    if keyword == "enum":
        return f"one of {', '.join(str(e) for e in expected)} (not {shown(str(value))})"
    if keyword == "const":
        return f"must be {expected!r}"
    if keyword == "pattern":
        return f"{shown(str(value))} does not match {expected}"
    if keyword == "minLength":
        return "expected text (not blank)"
    if keyword in ("minProperties", "maxProperties"):
        low, high = schema.get("minProperties", 0), schema.get("maxProperties", "any")
        return f"expected from {low} to {high} entries"
    if keyword is None or keyword is False:
        return "not allowed here"
    return f"fails the schema's {keyword!r} check"
