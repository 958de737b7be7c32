"""Counter data in the vasl-templates format: a bridge to the notation, an importer, rosters.

The vasl-templates project keeps every vehicle and Gun counter as JSON. Its ``capabilities2``
maps a family key to an int (``{"sD": 7}`` is ``sD7``), a printed string (``"6[9]†"`` is
``H6[9]!``) or a list of ``[number, date]`` steps with an optional trailing dagger
(``[[5, 4], [6, 5]]`` is ``A5(4)/6(5)``); its ``capabilities`` list holds literal printed
strings (``"AP9<sup>75</sup>†"`` is ``AP9(cal75)!``: a superscript of 60 or more is a calibre).

>>> token = token_from_vasl("A", [[5, 4], [6, 5]])
>>> token, token == Token.parse("A5(4)/6(5)")
(Token.parse('A5(4)/6(5)'), True)
>>> token_to_vasl(token_from_vasl("H", [["6[9]", "3+"], "†"]))
[['6[9]', '3+'], '†']
>>> token_to_vasl(Token.parse("WP7(J4+)!3"))
[[7, 'J4+'], '†<sup>3</sup>']
>>> token_from_literal("AP9<sup>75</sup>†")
Token.parse('AP9(cal75)!')

The data does not spell a capability one way only: ``"6"`` and ``6``, ``["†¹"]`` and
``[null, "†¹"]`` both occur. The notation keeps none of that, so :func:`token_from_vasl` returns
a :class:`VaslToken`: a Token (equal to the plain one) that also remembers its spelling in a
:class:`VaslStyle`, and :func:`token_to_vasl` gives back exactly the JSON it came from.

Layout of a data directory (a vasl-templates checkout's ``vasl_templates/webapp/data`` too)::

    vehicles/*.json, ordnance/*.json      one list of entries per nationality file
      allied-minor/, axis-minor/          minor nations, each with a common.json shared by all
      kfw/                                Korean War forces
    extensions/*.json                     {nationality: {"vehicles": [...], "ordnance": [...]}}

Which files a nationality's roster reads is told in :func:`roster_groups`.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeAlias

from ordnance.asl.capabilities import AmmoContext, Capability, evaluate
from ordnance.asl.dates import COMMONWEALTH, ScenarioDate, Theater, parse_nationality
from ordnance.asl.notation import Family, Step, Token
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, check_tree, parsing, read_limited
from ordnance.core.rulings import Ruling

__all__ = [
    "Entry",
    "RosterRuling",
    "Unit",
    "VaslData",
    "VaslStyle",
    "VaslToken",
    "VaslValue",
    "data_directory",
    "load",
    "load_entries",
    "roster",
    "roster_groups",
    "token_from_literal",
    "token_from_vasl",
    "token_to_literal",
    "token_to_vasl",
]

VaslValue: TypeAlias = int | str | list["VaslValue"] | None

# The family key that lists a Gun's alternate statistics: data, not a capability.
ALTERNATE_STATS_KEY = "LF"
KINDS = {"vehicles": "vehicle", "ordnance": "ordnance"}
MINOR_FOLDERS = ("allied-minor", "axis-minor")
# Superscripts from this value up name a gun calibre in mm (75); below it they are date codes.
CALIBRE_FLOOR = 60
# From this year a scenario is the Korean War, whose forces have files of their own.
KOREAN_WAR_FROM = 1950
# K:FW files are shared: the U.S., ROK and OUNC have one together, all UN forces a common one.
_SHARED_GROUPS = {
    "rok": ("us-rok-ounc", "un-common"),
    "ounc": ("us-rok-ounc", "un-common"),
    "bcfk": ("un-common",),
}
_KOREAN_WAR_GROUPS = {
    "american": ("us-rok-ounc", "un-common"),
    "british": ("bcfk", "un-common"),
}
# File-name spellings that differ from the nationality words of ordnance.asl.dates.
_WORD_ALIASES = {"newzealand": "new-zealand"}

_SUP = re.compile(r"(†?)<sup>([^<>]*)</sup>")
_DIGITS = re.compile(r"[0-9]+")
_DAGGER = "†"


# --- the bridge: one capability value <-> one Token ----------------------------------------


@dataclass(frozen=True)
class VaslStyle:
    """How a vasl-templates value spelled what the notation does not keep.

    ``text_number``: a plain number written as a string (``"6"``, not ``6``);
    ``text_numbers`` / ``text_dates``: indexes of steps whose number, or all-digit date, is a
    string; ``bare_null``: a number-less value written ``[null, date]`` or ``[null, dagger]``
    rather than ``[[null, date]]`` or ``[dagger]``. The default is the plain spelling.
    """

    text_number: bool = False
    text_numbers: tuple[int, ...] = ()
    text_dates: tuple[int, ...] = ()
    bare_null: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class VaslToken(Token):
    """A Token read from vasl-templates data, remembering how the data spelled it.

    It equals (and hashes as) the plain Token with the same capability.

    >>> token = token_from_vasl("s", "8")
    >>> token == Token.parse("s8"), token.style.text_number, token_to_vasl(token)
    (True, True, '8')
    """

    style: VaslStyle = field(default=VaslStyle())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Token):
            return _identity(self) == _identity(other)
        return NotImplemented

    __hash__ = Token.__hash__


def _identity(token: Token) -> tuple[Family, tuple[Step, ...], bool, int | None]:
    return token.family, token.steps, token.dagger, token.note


def token_from_vasl(key: str, value: VaslValue) -> Token:
    """Read one ``capabilities2`` value; ``key`` is its family symbol (``A``, ``sD``...).

    >>> token_from_vasl("C", [[7, "A2+"], "†<sup>1</sup>"])
    Token.parse('C7(A2+)!1')
    >>> token_from_vasl("HE", [None, "4+"]), token_from_vasl("A", ["†<sup>1</sup>"])
    (Token.parse('HE(4+)'), Token.parse('A!1'))
    >>> token_from_vasl("LF", [])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ordnance.core.errors.BadInput: bad capability key 'LF': it lists alternate gun statistics...
    """
    family = _family_of_key(key)
    text, style = _value_text(key, value)
    try:
        token = Token.parse(family.value + text)
    except BadInput as error:
        raise BadInput("vasl-templates value", _shown(key, value), error.problem) from None
    return VaslToken(token.family, token.steps, token.dagger, token.note, style)


def token_to_vasl(token: Token) -> VaslValue:
    """Write a token as a ``capabilities2`` value (exactly as read, for a :class:`VaslToken`).

    >>> token_to_vasl(Token.parse("sD7")), token_to_vasl(Token.parse("H6[9]!"))
    (7, '6[9]†')
    >>> token_to_vasl(Token.parse("A5(4)/6(5)"))
    [[5, 4], [6, 5]]
    """
    style = token.style if isinstance(token, VaslToken) else VaslStyle()
    dagger = _dagger_text(token)
    tail: list[VaslValue] = [dagger] if dagger else []
    if not token.steps:
        return [None, *tail] if style.bare_null else tail
    if not token.is_dated:
        step = token.steps[0]
        assert step.number is not None  # an undated step always has a number (notation)
        if step.second is None and not dagger:
            return str(step.number) if style.text_number else step.number
        return _number_text(step) + dagger
    if style.bare_null and len(token.steps) == 1 and token.steps[0].number is None:
        return [None, _date_value(token.steps[0], 0, style), *tail]
    steps: list[VaslValue] = [
        [_number_value(step, index, style), _date_value(step, index, style)]
        for index, step in enumerate(token.steps)
    ]
    return steps + tail


def token_from_literal(text: str) -> Token:
    """Read one literal string of a ``capabilities`` list.

    >>> token_from_literal("C7†<sup>2</sup>"), token_from_literal("IR")
    (Token.parse('C7!2'), Token.parse('IR'))
    """
    try:
        return Token.parse(_from_printed(text))
    except BadInput as error:
        raise BadInput("vasl-templates capability", text, error.problem) from None


def token_to_literal(token: Token) -> str:
    """Write a token as a ``capabilities`` literal (superscripts as ``<sup>``).

    >>> token_to_literal(Token.parse("AP9(cal75)!")), token_to_literal(Token.parse("C7!2"))
    ('AP9<sup>75</sup>†', 'C7†<sup>2</sup>')
    """
    steps = []
    for step in token.steps:
        text = _number_text(step)
        if step.date is not None:
            code = step.date.calibre if step.date.calibre is not None else step.date
            text += f"<sup>{code}</sup>"
        steps.append(text)
    return token.family.value + "/".join(steps) + _dagger_text(token)


def _family_of_key(key: str) -> Family:
    if key == ALTERNATE_STATS_KEY:
        raise BadInput("capability key", key, "it lists alternate gun statistics, not a capability")
    try:
        return Family(key)
    except ValueError:
        symbols = ", ".join(f.value for f in Family)
        raise BadInput("capability key", key, f"not a capability symbol ({symbols})") from None


def _shown(key: str, value: object) -> str:
    return f"{key}: {json.dumps(value, ensure_ascii=False)}"


def _value_text(key: str, value: VaslValue) -> tuple[str, VaslStyle]:
    """The notation text after the family symbol, and the spelling details to keep."""
    if isinstance(value, bool):
        pass  # JSON true/false is no capability; bool is an int subclass, so test it first
    elif isinstance(value, int):
        return str(value), VaslStyle()
    elif isinstance(value, str):
        return _from_printed(value), VaslStyle(text_number=_DIGITS.fullmatch(value) is not None)
    elif isinstance(value, list):
        return _list_text(key, value)
    raise BadInput(
        "vasl-templates value", _shown(key, value), "expected a number, a string or a list"
    )


def _list_text(key: str, value: list[VaslValue]) -> tuple[str, VaslStyle]:
    """``[[n, date], ..., dagger?]``, or the bare forms ``[null, date]`` / ``[null, dagger]``."""
    items = list(value)
    dagger = ""
    last = items[-1] if items else None
    if isinstance(last, str) and last.startswith(_DAGGER):
        dagger = _from_printed(last)
        items.pop()

    def fault(problem: str) -> BadInput:
        return BadInput("vasl-templates value", _shown(key, value), problem)

    bare_null = bool(items) and items[0] is None
    if bare_null:
        if len(items) > 2:
            raise fault("after a bare null only one date may follow")
        pairs: list[VaslValue] = [[None, items[1]]] if len(items) == 2 else []
    else:
        pairs = items
    parts: list[str] = []
    text_numbers: list[int] = []
    text_dates: list[int] = []
    for index, pair in enumerate(pairs):
        if not isinstance(pair, list) or len(pair) != 2:
            raise fault("expected [number, date] steps and an optional dagger at the end")
        number, date = pair
        if isinstance(number, str) and _DIGITS.fullmatch(number):
            text_numbers.append(index)
        if isinstance(date, str) and _DIGITS.fullmatch(date):
            text_dates.append(index)
        parts.append(f"{_step_number(number, fault)}({_step_date(date, fault)})")
    style = VaslStyle(
        text_numbers=tuple(text_numbers), text_dates=tuple(text_dates), bare_null=bare_null
    )
    return "/".join(parts) + dagger, style


def _step_number(number: VaslValue, fault: Any) -> str:
    if number is None:
        return ""
    if isinstance(number, int) and not isinstance(number, bool):
        return str(number)
    if isinstance(number, str):
        return number
    raise fault(f"a step's number must be a number, a string or null, not {number!r}")


def _step_date(date: VaslValue, fault: Any) -> str:
    if isinstance(date, int) and not isinstance(date, bool):
        return str(date)
    if isinstance(date, str) and date:
        return date
    raise fault(f"a step's date must be a year digit or a date code, not {date!r}")


def _from_printed(text: str) -> str:
    """Printed text to the canonical notation: daggers, note indexes, dates, calibres."""

    def one(match: re.Match[str]) -> str:
        dagger, body = match.groups()
        if dagger:
            return "!" + body
        if _DIGITS.fullmatch(body) and int(body) >= CALIBRE_FLOOR:
            return f"(cal{body})"
        return f"({body})"

    return _SUP.sub(one, text).replace(_DAGGER, "!")


def _dagger_text(token: Token) -> str:
    if not token.dagger:
        return ""
    return _DAGGER + ("" if token.note is None else f"<sup>{token.note}</sup>")


def _number_text(step: Step) -> str:
    text = "" if step.number is None else str(step.number)
    return text + ("" if step.second is None else f"[{step.second}]")


def _number_value(step: Step, index: int, style: VaslStyle) -> VaslValue:
    if step.number is None:
        return None
    if step.second is not None or index in style.text_numbers:
        return _number_text(step)
    return step.number


def _date_value(step: Step, index: int, style: VaslStyle) -> VaslValue:
    text = str(step.date)
    if _DIGITS.fullmatch(text) and index not in style.text_dates:
        return int(text)
    return text


# --- the importer --------------------------------------------------------------------------


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


# --- rosters -------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Unit:
    """One counter of a roster, with its capabilities read in the roster's context."""

    name: str
    id: str
    kind: str
    nationality: str
    type: str | None
    source: str
    capabilities: tuple[Capability, ...]


@dataclass(frozen=True, kw_only=True)
class RosterRuling(Ruling):
    """Every vehicle and Gun of a nationality, with what each may fire in one context."""

    nationality: str
    groups: tuple[str, ...]
    date: ScenarioDate
    elite: bool
    theater: Theater | None
    directory: str
    units: tuple[Unit, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON with the date as ``YYYY-MM``."""
        return {**super().to_json(), "date": str(self.date)}


def roster_groups(
    nationality: str,
    date: ScenarioDate,
    parents: Mapping[str, str] | None = None,
    minors: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """The entry nationalities (files) a nationality's roster reads, in order.

    - the nationality itself;
    - the file a ``~`` variant belongs to (``canadian`` -> ``british``), and for every
      Commonwealth nationality ``british``: British ordnance covers Guns in Commonwealth
      service (C8.2-service);
    - the minor-nation common file when the nationality has a file in that folder
      (``parents`` and ``minors`` as in :class:`VaslData`);
    - the shared Korean War files; and from 1950 on, the Korean War files of the U.S. and
      the British Commonwealth for ``american`` and ``british`` (and its Commonwealth).

    >>> roster_groups("canadian", ScenarioDate(1944, 6))
    ('canadian', 'british')
    >>> roster_groups("polish", ScenarioDate(1939, 9), minors={"polish": "allied-minor"})
    ('polish', 'allied-minor')
    >>> roster_groups("american", ScenarioDate(1951, 3))
    ('american', 'us-rok-ounc', 'un-common')
    """
    groups = [nationality]
    if parents and nationality in parents:
        groups.append(parents[nationality])
    if nationality in COMMONWEALTH:
        groups.append("british")
    if minors and nationality in minors:
        groups.append(minors[nationality])
    groups.extend(_SHARED_GROUPS.get(nationality, ()))
    if date.year >= KOREAN_WAR_FROM:
        for group in list(groups):
            groups.extend(_KOREAN_WAR_GROUPS.get(group, ()))
    return tuple(dict.fromkeys(groups))


def name_matches(name: str, text: str) -> bool:
    """Whether ``text`` occurs in ``name``, ignoring case (``--name``, ``--vehicle``).

    >>> name_matches("M4A3(76)W", "a3(76)w"), name_matches("M4A3(76)W", "M4A1")
    (True, False)
    >>> name_matches("PzKpfw IVF<sub>2</sub>", "ivf2")  # the data's markup is not the name
    True
    """
    wanted = text.casefold()
    return wanted in name.casefold() or wanted in plain_name(name).casefold()


def plain_name(name: str) -> str:
    """A name without the data's markup: ``PzKpfw IVF<sub>2</sub>`` -> ``PzKpfw IVF2``."""
    return re.sub(r"<[^>]*>", "", name)


def find_unit(directory: str | Path, nationality: str, date: ScenarioDate, text: str) -> Entry:
    """The one roster entry whose name matches ``text``: a name equal to it (ignoring case)
    wins, else the only one that contains it; none or several is bad input naming them."""
    word = parse_nationality(nationality)
    data = load(directory)
    groups = roster_groups(word, date, data.parents, data.minors)
    found = [
        e
        for group in groups
        for e in data.entries
        if e.nationality == group and not e.amends and name_matches(e.name, text.strip())
    ]
    exact = [e for e in found if plain_name(e.name).casefold() == text.strip().casefold()]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]
    if not found:
        raise BadInput("vehicle", text, f"no {word} vehicle or Gun has it in its name")
    names = "; ".join(dict.fromkeys(plain_name(e.name) for e in (exact or found)))
    raise BadInput("vehicle", text, f"{len(exact or found)} {word} units match: {names}")


def roster(
    directory: str | Path,
    nationality: str,
    context: AmmoContext,
    settings: Settings = DEFAULT,
    name: str | None = None,
) -> RosterRuling:
    """Read a nationality's units from ``directory`` and their capabilities in ``context``.

    The context's own nationality is replaced by ``nationality`` (its nation flags decide).
    An entry that only amends another (an extension adding counter art) is listed once.
    ``name`` keeps only the units whose name contains it, ignoring case.
    """
    word = parse_nationality(nationality)
    context = replace(context, nationality=word)
    data = load(directory)
    groups = roster_groups(word, context.date, data.parents, data.minors)
    units = tuple(
        Unit(
            name=entry.name,
            id=entry.id,
            kind=entry.kind,
            nationality=entry.nationality,
            type=entry.type,
            source=entry.source,
            capabilities=tuple(evaluate(token, context, settings) for token in entry.tokens),
        )
        for group in groups
        for entry in data.entries
        if entry.nationality == group
        and not entry.amends
        and (name is None or name_matches(entry.name, name.strip()))
    )
    return RosterRuling(
        nationality=word,
        groups=groups,
        date=context.date,
        elite=context.elite,
        theater=context.theater,
        directory=str(data.directory),
        units=units,
        clauses=_roster_clauses(word, groups, units),
        explanation=_roster_sentence(word, groups, units, context)
        + ("" if name is None else f" Only names containing '{name.strip()}' (any case)."),
    )


def _roster_clauses(word: str, groups: tuple[str, ...], units: tuple[Unit, ...]) -> tuple[str, ...]:
    seen: dict[str, None] = {"C8.0": None}
    if word in COMMONWEALTH and "british" in groups:
        seen["C8.2-service"] = None
    for unit in units:
        for capability in unit.capabilities:
            seen.update(dict.fromkeys(capability.clauses))
    return tuple(seen)


def _roster_sentence(
    word: str, groups: tuple[str, ...], units: tuple[Unit, ...], context: AmmoContext
) -> str:
    listing = [u for u in units if u.capabilities]
    ready = [u for u in listing if any(c.available for c in u.capabilities)]
    return (
        f"{context.label}: {len(units)} units from {', '.join(groups)};"
        f" {len(listing)} list special ammunition or smoke dispensers,"
        f" {len(ready)} of them with at least one available."
    )
