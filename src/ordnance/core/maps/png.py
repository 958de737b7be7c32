"""SVG to PNG through whatever converter the machine has; none is a dependency of ordnance.

Tried in order: ``rsvg-convert`` (librsvg), the ``cairosvg`` Python package, ImageMagick
(``magick``, or a ``convert`` that says it is ImageMagick), ``inkscape``. With none of them,
:func:`svg_to_png` raises :class:`NoConverter` with one line saying what to install.

>>> NoConverter().problem.startswith("no SVG-to-PNG converter found")
True
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ordnance.core.errors import BadInput

TRIED = ("rsvg-convert", "cairosvg", "magick", "convert (ImageMagick)", "inkscape")
_TIMEOUT = 120


class NoConverter(BadInput):
    """No SVG-to-PNG converter is installed (the SVG itself is still written)."""

    def __init__(self) -> None:
        super().__init__(
            "png output",
            "--png",
            "no SVG-to-PNG converter found (tried "
            + ", ".join(TRIED)
            + "); install one, e.g. 'apt-get install librsvg2-bin' or 'pip install cairosvg'",
        )


@dataclass(frozen=True)
class Converter:
    """One way to turn an SVG file into a PNG file."""

    name: str
    run: Callable[[Path, Path], None]


def find_converter() -> Converter | None:
    """The first converter available here, or None."""
    for finder in (_rsvg, _cairosvg, _magick, _convert, _inkscape):
        converter = finder()
        if converter is not None:
            return converter
    return None


def svg_to_png(svg: Path, png: Path) -> str:
    """Write ``png`` from ``svg``; returns the converter's name. Raises :class:`NoConverter`."""
    converter = find_converter()
    if converter is None:
        raise NoConverter()
    converter.run(svg, png)
    if not png.is_file():
        raise BadInput("png output", str(png), f"{converter.name} wrote no file")
    return converter.name


def _command(name: str, *args: str) -> Callable[[Path, Path], None]:
    def run(svg: Path, png: Path) -> None:
        words = [part.format(svg=svg, png=png) for part in args]
        done = subprocess.run(
            [name, *words], capture_output=True, text=True, timeout=_TIMEOUT, check=False
        )
        if done.returncode != 0:
            first = (done.stderr or done.stdout or "failed").strip().splitlines()
            raise BadInput("png output", str(png), f"{name}: {first[0] if first else 'failed'}")

    return run


def _rsvg() -> Converter | None:
    path = shutil.which("rsvg-convert")
    return Converter("rsvg-convert", _command(path, "-o", "{png}", "{svg}")) if path else None


def _cairosvg() -> Converter | None:
    try:
        module = importlib.import_module("cairosvg")
    except ImportError:
        return None

    def run(svg: Path, png: Path) -> None:
        module.svg2png(url=str(svg), write_to=str(png))

    return Converter("cairosvg", run)


def _magick() -> Converter | None:
    path = shutil.which("magick")
    return Converter("magick", _command(path, "{svg}", "{png}")) if path else None


def _convert() -> Converter | None:
    path = shutil.which("convert")
    if not path:
        return None
    # Other programs are named convert too (a Windows disk tool, stand-ins): ask it first.
    try:
        done = subprocess.run(
            [path, "-version"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if "ImageMagick" not in done.stdout.split("\n", 1)[0]:
        return None
    return Converter("convert", _command(path, "{svg}", "{png}"))


def _inkscape() -> Converter | None:
    path = shutil.which("inkscape")
    if not path:
        return None
    return Converter("inkscape", _command(path, "{svg}", "--export-filename={png}"))
