"""The importer of a vasl-templates data directory: every vehicle and Gun counter as an
:class:`Entry`, after ``copy_from`` inheritance.

Layout of a data directory (a vasl-templates checkout's ``vasl_templates/webapp/data`` too)::

    vehicles/*.json, ordnance/*.json      one list of entries per nationality file
      allied-minor/, axis-minor/          minor nations, each with a common.json shared by all
      kfw/                                Korean War forces
    extensions/*.json                     {nationality: {"vehicles": [...], "ordnance": [...]}}
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ordnance.asl.notation import Token
from ordnance.asl.vasl_templates.bridge import (
    ALTERNATE_STATS_KEY,
    token_from_literal,
    token_from_vasl,
)
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, check_tree, parsing, read_limited

KINDS = {"vehicles": "vehicle", "ordnance": "ordnance"}
MINOR_FOLDERS = ("allied-minor", "axis-minor")
# File-name spellings that differ from the nationality words of ordnance.asl.dates.
_WORD_ALIASES = {"newzealand": "new-zealand"}


@dataclass(frozen=True, kw_only=True)
class Entry:
    """One vehicle or Gun counter of the data, after ``copy_from`` inheritance.

    ``nationality`` comes from the file (``british~canadian.json`` is ``canadian``) or the
    extension's key; common files carry their group name (``allied-minor``, ``axis-minor``,
    ``un-common``...). ``parent`` is the nationality a ``~`` variant file belongs to
    (``british``), ``minor`` the minor-nation folder the file lies in, ``amends`` is true for
    an extension record that only adds to an entry with the same id.
    """

    id: str
    name: str
    kind: str
    nationality: str
    type: str | None
    tokens: tuple[Token, ...]
    source: str
    parent: str | None = None
    minor: str | None = None
    copy_from: str | None = None
    amends: bool = False
    gpids: tuple[str, ...] = ()


@dataclass(frozen=True)
class _DataFile:
    """One list of entries (a file, or one nationality and kind of an extension)."""

    source: str
    kind: str
    nationality: str
    items: tuple[Mapping[str, Any], ...]
    parent: str | None = None
    minor: str | None = None


@dataclass(frozen=True)
class _Record:
    """One raw JSON record and the list it was found in."""

    data: Mapping[str, Any]
    file: _DataFile

    @property
    def id(self) -> str:
        ident: str = self.data["id"]
        return ident


@dataclass(frozen=True)
class VaslData:
    """A loaded data directory: its entries, and what its file names say about nationalities.

    ``parents`` maps a ``~`` variant to the nationality it extends (``canadian`` ->
    ``british``), ``minors`` a minor nation to its folder (``polish`` -> ``allied-minor``);
    both come from the file names, empty files included.
    """

    directory: Path
    entries: tuple[Entry, ...]
    parents: Mapping[str, str]
    minors: Mapping[str, str]


def data_directory(directory: str | Path) -> Path:
    """The folder holding ``vehicles/`` and ``ordnance/`` (or a checkout's data folder)."""
    root = Path(directory).expanduser()
    for candidate in (root, root / "vasl_templates" / "webapp" / "data"):
        if any((candidate / folder).is_dir() for folder in KINDS):
            return candidate
    raise BadInput(
        "vasl-templates directory",
        str(directory),
        "no vehicles/ or ordnance/ folder there, nor in vasl_templates/webapp/data/",
    )


def load(directory: str | Path) -> VaslData:
    """Read a vasl-templates data directory, extensions included.

    Raises BadInput naming the file for a missing folder, invalid JSON or a bad entry.
    """
    root = data_directory(directory)
    files = [*_base_files(root), *_extension_files(root)]
    records = [_Record(item, file) for file in files for item in file.items]
    first: dict[str, _Record] = {}
    for record in records:
        first.setdefault(record.id, record)
    return VaslData(
        directory=root,
        entries=tuple(_entry(record, first) for record in records),
        parents={f.nationality: f.parent for f in files if f.parent is not None},
        minors={f.nationality: f.minor for f in files if f.minor is not None},
    )


def load_entries(directory: str | Path) -> tuple[Entry, ...]:
    """Every entry of a vasl-templates data directory (see :func:`load`)."""
    return load(directory).entries


def _base_files(root: Path) -> Iterator[_DataFile]:
    for folder, kind in KINDS.items():
        base = root / folder
        for path in sorted(base.rglob("*.json")):
            data = _read_json(path, root)
            if not isinstance(data, list):
                raise _file_fault(path, root, "expected a list of entries")
            nationality, parent, minor = _file_nationality(path.relative_to(base))
            items = tuple(_checked_record(item, path, root) for item in data)
            yield _DataFile(_source(path, root), kind, nationality, items, parent, minor)


def _extension_files(root: Path) -> Iterator[_DataFile]:
    folder = root / "extensions"
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.json")):
        data = _read_json(path, root)
        if not isinstance(data, dict):
            raise _file_fault(path, root, "expected an object keyed by nationality")
        for key, lists in data.items():
            if not isinstance(lists, dict):
                continue  # the extension's own fields: its id, version, display name...
            nationality, parent = _nationality_word(key)
            for plural, kind in KINDS.items():
                items = lists.get(plural, [])
                if not isinstance(items, list):
                    raise _file_fault(path, root, f"{key}.{plural} is not a list")
                yield _DataFile(
                    f"{_source(path, root)}#{key}",
                    kind,
                    nationality,
                    tuple(_checked_record(item, path, root) for item in items),
                    parent,
                )


def _read_json(path: Path, root: Path) -> Any:
    try:
        text = read_limited(path, "data file", MAX_TEXT_FILE_BYTES).decode("utf-8")
        with parsing("data file", str(path)):
            data = json.loads(text)
        check_tree(data, "data file", str(path))
        return data
    except BadInput as error:
        raise _file_fault(path, root, error.problem) from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}: {error.msg}"
        raise _file_fault(path, root, f"invalid JSON at {where}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise _file_fault(path, root, f"cannot be read ({error})") from None


def _checked_record(item: object, path: Path, root: Path) -> Mapping[str, Any]:
    if not isinstance(item, dict) or not isinstance(item.get("id"), str):
        raise _file_fault(path, root, f"an entry without an id: {str(item)[:60]}")
    return item


def _file_fault(path: Path, root: Path, problem: str) -> BadInput:
    return BadInput("vasl-templates file", _source(path, root), problem)


def _source(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def _file_nationality(relative: Path) -> tuple[str, str | None, str | None]:
    """Nationality, parent and minor folder of a data file, from its path under its kind."""
    folder = relative.parts[0] if len(relative.parts) > 1 else None
    minor = folder if folder in MINOR_FOLDERS else None
    if minor is not None and relative.stem == "common":
        return minor, None, minor
    nationality, parent = _nationality_word(relative.stem)
    return nationality, parent, minor


def _nationality_word(stem: str) -> tuple[str, str | None]:
    """``british~canadian`` -> (canadian, british); ``russian.lend-lease`` -> russian;
    ``kfw-kpa`` -> kpa.

    >>> _nationality_word("british~newzealand")
    ('new-zealand', 'british')
    """
    parent, _, word = stem.rpartition("~")
    word = word.split(".")[0].removeprefix("kfw-")
    return _WORD_ALIASES.get(word, word), parent or None


def _entry(record: _Record, first: Mapping[str, _Record]) -> Entry:
    fields = _inherited(record, first, seen=frozenset())
    try:
        tokens = _tokens(fields)
    except BadInput as error:
        raise _entry_fault(record, str(error)) from None
    name = fields.get("name")
    kind_type = fields.get("type")
    copy_from = record.data.get("copy_from")
    return Entry(
        id=record.id,
        # Names carry HTML entities (the data feeds HTML snippets): "Tankb&uuml;chse".
        name=html.unescape(name) if isinstance(name, str) else record.id,
        kind=record.file.kind,
        nationality=record.file.nationality,
        type=kind_type if isinstance(kind_type, str) else None,
        tokens=tokens,
        source=record.file.source,
        parent=record.file.parent,
        minor=record.file.minor,
        copy_from=copy_from if isinstance(copy_from, str) else None,
        amends=first[record.id] is not record,
        gpids=_gpids(record.data.get("gpid")),
    )


def _gpids(value: object) -> tuple[str, ...]:
    """The record's own VASL piece ids (``2598``, ``"08d:75"`` or a list of them) as text;
    not inherited through ``copy_from``: a copy is another counter.

    >>> _gpids([2542, "3b5:7124"]), _gpids(None)
    (('2542', '3b5:7124'), ())
    """
    values = value if isinstance(value, list) else [value]
    return tuple(
        str(item) for item in values if isinstance(item, int | str) and not isinstance(item, bool)
    )


def _entry_fault(record: _Record, problem: str) -> BadInput:
    return BadInput("vasl-templates file", record.file.source, f"entry {record.id}: {problem}")


def _inherited(
    record: _Record, first: Mapping[str, _Record], *, seen: frozenset[str]
) -> dict[str, Any]:
    """The record's fields over those of the entry it copies (``copy_from``) or amends."""
    target = record.data.get("copy_from")
    if target is None and first[record.id] is not record:
        target = record.id  # a later record with a known id amends the first (extensions)
    if target is None:
        return dict(record.data)
    if not isinstance(target, str) or target not in first:
        raise _entry_fault(record, f"copy_from names no entry: {target!r}")
    if target in seen:
        raise _entry_fault(record, f"copy_from loops back to {target}")
    base = _inherited(first[target], first, seen=seen | {record.id})
    return {**base, **record.data}


def _tokens(fields: Mapping[str, Any]) -> tuple[Token, ...]:
    """``capabilities2`` (less the alternate-stats key), then the literal ``capabilities``."""
    mapping = fields.get("capabilities2", {})
    literals = fields.get("capabilities", [])
    if not isinstance(mapping, dict) or not isinstance(literals, list):
        raise BadInput(
            "entry", "capabilities", "capabilities2 must be an object, capabilities a list"
        )
    tokens = [
        token_from_vasl(key, value) for key, value in mapping.items() if key != ALTERNATE_STATS_KEY
    ]
    for literal in literals:
        if not isinstance(literal, str):
            raise BadInput("vasl-templates capability", repr(literal), "expected a string")
        tokens.append(token_from_literal(literal))
    return tuple(tokens)
