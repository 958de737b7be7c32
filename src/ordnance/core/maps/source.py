"""Where a scenario's ``map:`` comes from: a map bundled with a ruleset, or a file.

A scenario names its map either by a bundled map's short name (``lnl-farm``) or by a path
relative to the scenario file. The rulesets word their refusals in their own terms, so this
module only finds and reads the text; judging it as a map is the ruleset's job.

>>> source = map_source("ordnance.lnl", "lnl-farm", None)
>>> source.bundled, source.text.startswith("#") or "game:" in source.text
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, read_limited


class MapUnreadable(Exception):
    """The named map is neither bundled nor a readable file; ``reason`` says why (for a refusal)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class MapSource:
    """A map's text and whether it came from the package (else from a file)."""

    text: str
    bundled: bool


def map_path(name: str, base: Path | None) -> Path:
    """The file a scenario's ``map:`` names: ``~`` expanded, relative to ``base`` (its folder).

    >>> map_path("maps/farm.yaml", Path("/games")).as_posix()
    '/games/maps/farm.yaml'
    >>> map_path("/maps/farm.yaml", Path("/games")).as_posix()
    '/maps/farm.yaml'
    """
    path = Path(name).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    return path


def bundled_map(package: str, name: str) -> Traversable | None:
    """``package``'s bundled map ``data/maps/<name>.yaml``, if there is one.

    A name with a path separator names a file, never a bundled map.

    >>> bundled_map("ordnance.lnl", "lnl-farm") is not None, bundled_map("ordnance.lnl", "x/y")
    (True, None)
    """
    if "/" in name or "\\" in name:
        return None
    entry = resources.files(package).joinpath("data", "maps", f"{name}.yaml")
    return entry if entry.is_file() else None


def map_source(package: str, name: str, base: Path | None) -> MapSource:
    """The text of the map ``name``: ``package``'s bundled map of that name, else the file.

    Raises :class:`MapUnreadable` when it is neither.

    >>> try:
    ...     map_source("ordnance.lnl", "no-such-map", Path("/nowhere"))
    ... except MapUnreadable as error:
    ...     print(error.reason)
    No such file or directory
    """
    entry = bundled_map(package, name)
    try:
        if entry is not None:
            return MapSource(entry.read_text(encoding="utf-8"), bundled=True)
        data = read_limited(map_path(name, base), "map file", MAX_TEXT_FILE_BYTES)
        return MapSource(data.decode("utf-8"), bundled=False)
    except BadInput as error:
        # The map's own messages add the file's name; the reader's wrapping is not repeated.
        reason = error.problem
        if reason.startswith("cannot be read ("):
            reason = reason.removeprefix("cannot be read (").removesuffix(")")
        raise MapUnreadable(reason) from None
    except (OSError, UnicodeDecodeError) as error:
        # strerror is the plain sentence ("No such file or directory") without the path.
        raise MapUnreadable(getattr(error, "strerror", None) or str(error)) from None
