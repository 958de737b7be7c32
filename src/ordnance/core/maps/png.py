"""SVG to PNG: the ``cairosvg`` package (the ``png`` extra), else ``rsvg-convert`` if present.

cairosvg is tried first; it needs the system cairo library (Debian's ``libcairo2``). Without
it, ``rsvg-convert`` (librsvg) on the PATH does the same job. With neither,
:func:`svg_to_png` raises :class:`NoConverter`: one line naming the extra to install.

>>> NoConverter().problem
"PNG output needs the 'png' extra (no module 'cairosvg'): pip install 'ordnance[png]'"
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ordnance.core.errors import BadInput
from ordnance.core.extras import MissingExtra

_TIMEOUT = 120


class NoConverter(BadInput):
    """No SVG-to-PNG converter is installed (the SVG itself is still written).

    ``why`` replaces the usual advice when cairosvg is there but cannot run (no cairo library).
    """

    def __init__(self, why: str | None = None) -> None:
        missing = MissingExtra("png", "PNG output", "cairosvg")
        super().__init__("png output", "--png", why or str(missing))


@dataclass(frozen=True)
class Converter:
    """One way to turn an SVG file into a PNG file."""

    name: str
    run: Callable[[Path, Path], None]


def find_converter() -> Converter | None:
    """The first converter available here, or None."""
    return _cairosvg() or _rsvg()


def svg_to_png(svg: Path, png: Path) -> str:
    """Write ``png`` from ``svg``; returns the converter's name. Raises :class:`NoConverter`.

    ``png`` is the temporary file :func:`ordnance.core.outfiles.staging` made (it exists and is
    empty): the converter fills it, and the caller moves it into place.
    """
    converter = find_converter()
    if converter is None:
        raise NoConverter(_load_cairosvg()[1])
    converter.run(svg, png)
    if not png.is_file() or png.stat().st_size == 0:
        raise BadInput("png output", str(png), f"{converter.name} wrote no file")
    return converter.name


def _load_cairosvg() -> tuple[Any, str | None]:
    """The cairosvg module or None, and why an installed one cannot run (no cairo library)."""
    try:
        return importlib.import_module("cairosvg"), None
    except ImportError:
        return None, None
    except OSError:  # cairocffi finds no cairo library when imported
        return None, (
            "PNG output: cairosvg is installed but the cairo library is not"
            " (Debian: apt-get install libcairo2)"
        )


def _cairosvg() -> Converter | None:
    module = _load_cairosvg()[0]
    if module is None:
        return None

    def run(svg: Path, png: Path) -> None:
        module.svg2png(url=str(svg), write_to=str(png))

    return Converter("cairosvg", run)


def _rsvg() -> Converter | None:
    path = shutil.which("rsvg-convert")
    if not path:
        return None

    def run(svg: Path, png: Path) -> None:
        done = subprocess.run(
            [path, "-o", str(png), str(svg)],
            capture_output=True,
            text=True,
            timeout=_TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            first = (done.stderr or done.stdout or "failed").strip().splitlines()
            problem = f"rsvg-convert: {first[0] if first else 'failed'}"
            raise BadInput("png output", str(png), problem)

    return Converter("rsvg-convert", run)
