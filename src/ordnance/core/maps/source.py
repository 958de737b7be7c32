"""Where a scenario's ``map:`` comes from: :class:`MapFiles`, the one policy every ruleset asks.

Whoever reads a scenario says which files it may name, once, by the policy it hands over:

- ``MapFiles.folder(path)`` (the CLI): a bundled map by its short name (``lnl-farm``), else a
  map file, relative to the scenario's folder ``path`` (or absolute, ``~`` expanded);
- ``MapFiles.uploaded({name: text})`` (the server): a bundled map, or a map uploaded with the
  scenario under that name (``farm.yaml``; the scenario may leave off ``.yaml``). It opens no
  file at all: a name that is neither is refused, a path saying it is a path;
- ``MapFiles.bundled()``: the bundled maps only (what the server knows without an upload).

The rulesets only judge the text as a map. A refusal says which names would do and never quotes
what any file holds.

>>> MapFiles.bundled().read("ordnance.lnl", "lnl-farm").bundled
True
>>> farm = "name: Farm\\ngame: lnl\\ngrid: {columns: 4, rows: 3}\\n"
>>> MapFiles.uploaded({"farm.yaml": farm}).read("ordnance.lnl", "farm").text == farm
True
>>> try:
...     MapFiles.uploaded({}).read("ordnance.lnl", "/etc/passwd")
... except MapUnreadable as error:
...     print(error.reason)  # doctest: +ELLIPSIS
'/etc/passwd' is a path: the server reads no file, only its bundled maps (lnl-farm) or a...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType

from ordnance.core.errors import BadInput, shown
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, read_limited

MAX_UPLOADED_MAPS = 4
"""Maps one scenario may bring along (it plays on one; a few spare are harmless)."""
MAX_MAP_NAME = 200
"""Characters of an uploaded map's name."""
MAX_UPLOADED_MAP = 256 * 1024
"""Characters of one map uploaded to a server (the bundled maps are 1-3 KB)."""
MAP_SUFFIXES = (".yaml", ".yml")


class MapUnreadable(Exception):
    """The named map cannot be had under the policy; ``reason`` is the refusal's sentence,
    which quotes the name as written (cut short) and never what any file holds."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class MapSource:
    """A map's text and whether it came from the package (else from a file or an upload)."""

    text: str
    bundled: bool


def _stem(name: str) -> str:
    """A map's name without ``.yaml``/``.yml``: what a scenario and an upload are matched by."""
    for suffix in MAP_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def is_path(name: str) -> bool:
    """Whether ``name`` reads as a path on some machine (a folder, a drive, a home, dots).

    >>> [is_path(n) for n in ("lnl-farm", "farm.yaml", "../x.yaml", "/dev/zero", "~/m", "C:m")]
    [False, False, True, True, True, True]
    """
    return (
        "/" in name
        or "\\" in name
        or name.startswith("~")
        or name in (".", "..")
        or (len(name) > 1 and name[1] == ":")
    )


@cache
def bundled_maps(package: str) -> Mapping[str, Traversable]:
    """``package``'s bundled maps (``data/maps/*.yaml``) by short name, listed, never guessed
    from a name a user wrote.

    >>> sorted(bundled_maps("ordnance.lnl"))
    ['lnl-farm']
    """
    folder = resources.files(package).joinpath("data", "maps")
    found = {
        _stem(entry.name): entry
        for entry in folder.iterdir()
        if entry.name.endswith(MAP_SUFFIXES) and entry.is_file()
    }
    return MappingProxyType(dict(sorted(found.items())))


def map_path(name: str, base: Path) -> Path:
    """The file a scenario's ``map:`` names on the CLI: ``~`` expanded, relative to ``base``.

    >>> map_path("maps/farm.yaml", Path("/games")).as_posix()
    '/games/maps/farm.yaml'
    >>> map_path("/maps/farm.yaml", Path("/games")).as_posix()
    '/maps/farm.yaml'
    """
    path = Path(name).expanduser()
    return path if path.is_absolute() else base / path


def _check_upload(name: object, text: object) -> None:
    """Refuse (BadInput) an uploaded map whose name or text cannot be one."""
    if not isinstance(name, str) or not isinstance(text, str):
        raise BadInput("uploaded map", str(name)[:40], "expected a name and its YAML text")
    if not name.strip() or name != name.strip():
        raise BadInput("uploaded map", name, "a name without blanks around it")
    if len(name) > MAX_MAP_NAME:
        raise BadInput("uploaded map", name, f"a name of at most {MAX_MAP_NAME} characters")
    if not name.isprintable():
        raise BadInput("uploaded map", name, "a name without control characters")
    if len(text) > MAX_TEXT_FILE_BYTES:
        raise BadInput("uploaded map", name, f"larger than {MAX_TEXT_FILE_BYTES // 2**20} MiB")


@dataclass(frozen=True)
class MapFiles:
    """Which maps a scenario may name: the bundled ones, then files in ``base`` (the CLI's
    policy) or the ``uploads`` (the server's, which reads no file). Make one with
    :meth:`folder`, :meth:`uploaded` or :meth:`bundled`.
    """

    base: Path | None = None
    uploads: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def folder(cls, path: str | Path) -> MapFiles:
        """Maps bundled or in files, relative to the scenario file's folder ``path``."""
        return cls(base=Path(path))

    @classmethod
    def uploaded(cls, maps: Mapping[str, str] | None = None) -> MapFiles:
        """Maps bundled or uploaded with the scenario (name -> YAML text); never a file.

        Raises BadInput for more than MAX_UPLOADED_MAPS maps, a bad name or too much text, or
        two names that differ only by ``.yaml``/``.yml``.

        >>> MapFiles.uploaded({"a.yaml": "", "a.yml": ""})
        Traceback (most recent call last):
        ...
        ordnance.core.errors.BadInput: bad uploaded map 'a.yml': 'a.yaml' has the same name
        """
        given = dict(maps or {})
        if len(given) > MAX_UPLOADED_MAPS:
            raise BadInput(
                "uploaded maps", f"{len(given)} maps", f"at most {MAX_UPLOADED_MAPS} may come"
            )
        stems: dict[str, str] = {}
        for name, text in given.items():
            _check_upload(name, text)
            other = stems.setdefault(_stem(name), name)
            if other != name:
                raise BadInput("uploaded map", name, f"{other!r} has the same name")
        return cls(uploads=MappingProxyType(given))

    @classmethod
    def bundled(cls) -> MapFiles:
        """The bundled maps only: reads no file, knows no upload."""
        return cls()

    @property
    def reads_files(self) -> bool:
        """Whether this policy opens files a scenario names (only the CLI's does)."""
        return self.base is not None

    def read(self, package: str, name: str) -> MapSource:
        """The text of the map ``name``: ``package``'s bundled map of that name, else an
        uploaded map or a file, as the policy allows. Raises :class:`MapUnreadable`."""
        known = bundled_maps(package)
        upload = self._upload(name)
        entry = known.get(name)
        if upload is not None and _stem(name) in known:
            raise MapUnreadable(
                f"{shown(name)} is both a bundled map and a map uploaded with the scenario;"
                " give the upload another name"
            )
        if entry is not None:
            return MapSource(entry.read_text(encoding="utf-8"), bundled=True)
        if upload is not None:
            return MapSource(upload, bundled=False)
        if self.base is None:
            raise MapUnreadable(self._refusal(name, known))
        try:
            data = read_limited(map_path(name, self.base), "map file", MAX_TEXT_FILE_BYTES)
        except BadInput as error:
            raise MapUnreadable(f"{shown(name)}: {error.problem}") from None
        try:
            return MapSource(data.decode("utf-8"), bundled=False)
        except UnicodeDecodeError:
            raise MapUnreadable(f"{shown(name)}: the file is not UTF-8 text") from None

    def local_path(self, key: str, name: str) -> Path:
        """The file or folder ``name`` that the scenario's ``key`` names (a data folder, say),
        on the CLI; under any other policy a refusal (:class:`MapUnreadable`).

        >>> MapFiles.uploaded().local_path("vasl_templates", "/srv/data")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ordnance.core.maps.source.MapUnreadable: vasl_templates names a file or folder ('/srv/...
        """
        if self.base is None:
            raise MapUnreadable(
                f"{key} names a file or folder ({shown(name)}), and the server reads no file"
            )
        return map_path(name, self.base)

    def _upload(self, name: str) -> str | None:
        found = self.uploads.get(name)
        if found is not None:
            return found
        wanted = _stem(name)
        return next((text for key, text in self.uploads.items() if _stem(key) == wanted), None)

    def _refusal(self, name: str, known: Mapping[str, Traversable]) -> str:
        names = ", ".join(known) or "none"
        offered = f"its bundled maps ({names}) or a map uploaded with the scenario"
        if self.uploads:
            offered += f" (uploaded: {', '.join(map(shown, self.uploads))})"
        if is_path(name):
            return f"{shown(name)} is a path: the server reads no file, only {offered}"
        return f"{shown(name)} is not a map the server has: it reads only {offered}"


BUNDLED_ONLY = MapFiles.bundled()
"""The policy when nobody names one: the bundled maps, no file, no upload."""
