"""Writing a map picture: the SVG, and a PNG beside it when asked (``--png`` or ``.png``).

Shared by ``game render`` and ``map render``; the drawing itself is
:func:`ordnance.core.maps.svg.render_svg`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ordnance.core import yaml_lines
from ordnance.core.errors import BadInput
from ordnance.core.limits import MAX_TEXT_FILE_BYTES, read_limited
from ordnance.core.maps import png as converters
from ordnance.core.maps.png import NoConverter, svg_to_png
from ordnance.core.maps.svg import ArcView, render_svg
from ordnance.core.maps.verdict import LosVerdict
from ordnance.core.outfiles import check_output, staging, write_output
from ordnance.game.picture import GamePicture


@dataclass(frozen=True)
class Written:
    svg: Path
    png: Path | None
    converter: str | None

    @property
    def png_text(self) -> str | None:
        return None if self.png is None else str(self.png)

    @property
    def files(self) -> str:
        return " and ".join(str(p) for p in (self.svg, self.png) if p is not None)


def write_picture(
    picture: GamePicture,
    out: Path,
    *,
    png: bool = False,
    los: LosVerdict | None = None,
    arc: ArcView | None = None,
    size: float | None = None,
    title: str | None = None,
    force: bool = False,
) -> Written:
    """Draw and write; a PNG too when ``png`` or ``out`` ends in ``.png`` (bad input, exit 2,
    when no converter is installed: the SVG is still written and the message says so).
    Written as :mod:`ordnance.core.outfiles` says: ``force`` replaces files of the same kind."""
    as_png = out.suffix.lower() == ".png"
    svg_path = out.with_suffix(".svg") if as_png else out
    text = render_svg(
        picture.game_map,
        picture.chart,
        los=los,
        arc=arc,
        size=size,
        title=title,
        counters=picture.counters,
    )
    if not (png or as_png):
        write_output(svg_path, text, "svg", force=force)
        return Written(svg_path, None, None)
    png_path = out if as_png else out.with_suffix(".png")
    # Both files are checked before either is written: a refused PNG leaves the SVG as it was.
    check_output(png_path, "png", force=force)
    if converters.find_converter() is None:
        write_output(svg_path, text, "svg", force=force)
        try:
            svg_to_png(svg_path, png_path)  # raises NoConverter, saying what to install
        except NoConverter as missing:
            raise BadInput(
                "png output", str(png_path), f"wrote {svg_path} only: {missing.problem}"
            ) from None
    with (
        staging(svg_path, "svg", force=force) as svg_part,
        staging(png_path, "png", force=force) as png_part,
    ):
        svg_part.write_text(text, encoding="utf-8")
        converter = svg_to_png(svg_part, png_part)
    return Written(svg_path, png_path, converter)


def scenario_picture(name: str) -> tuple[GamePicture, str] | None:
    """A scenario file's map at set-up with its units (and the scenario's name); None when
    ``name`` is not a scenario file (no ``ruleset:`` at its top), so it is read as a map."""
    path = Path(name)
    if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
        return None
    try:
        text = read_limited(path, "scenario file", MAX_TEXT_FILE_BYTES).decode("utf-8")
        head = yaml_lines.safe_load(text, "scenario file", name)
    except (BadInput, UnicodeDecodeError, yaml.YAMLError, RecursionError, ValueError):
        return None  # the map reader reports what is wrong with it
    if not isinstance(head, dict) or "ruleset" not in head:
        return None
    from ordnance.game.picture import game_picture  # noqa: PLC0415, RUF100
    from ordnance.game.registry import ruleset  # noqa: PLC0415, RUF100
    from ordnance.game.scenario import load_scenario_file  # noqa: PLC0415, RUF100

    scenario = load_scenario_file(path)
    rules = ruleset(scenario.ruleset)
    picture = game_picture(rules, rules.initial_state(scenario.body))
    if picture is None:
        raise BadInput("scenario", name, "it has no map to draw ('map:' in the scenario)")
    return picture, scenario.name
