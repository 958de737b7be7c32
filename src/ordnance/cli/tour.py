"""``make run``: a short guided tour of the ASL commands on a bundled example.

The example is a small 1945 action: a Soviet T-34/85 (APCR ``A5(4)/6(5)``, the C8.91 example) and
a German 7.5cm PaK 40 (``A5(2)/4(3)/3(4) H6(3+)!``). Each step prints the command it runs, so a
newcomer can copy it.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ordnance.cli.app import main

STEPS: tuple[tuple[str, str], ...] = (
    (
        "What may the T-34/85 fire in March 1945? Its counter reads A5(4)/6(5) s8 (C8.91).",
        'asl ammo "A5(4)/6(5) s8" --date 1945-03',
    ),
    (
        "The same counter in 1943: no APCR yet.",
        'asl ammo "A5(4)/6(5)" --date 1943-06',
    ),
    (
        "The Ammunition Supply Chart for the PaK 40's 75L gun in 1944, elite crew (C8.2).",
        "asl chart --nationality german --gun 75L --date 1944-06 --elite",
    ),
    (
        "An American 76L before and from August 1944 (the chart's month start).",
        "asl chart --nationality american --gun 76L --date 1944-07",
    ),
    ("", "asl chart --nationality american --gun 76L --date 1944-08"),
    (
        "The T-34/85 declares APCR and rolls 3,3 against Depletion Number 6 (C8.9).",
        "asl deplete --number 6 --dice 3,3",
    ),
    (
        "Before rolling: the exact odds of depletion and a hit (To Hit 8, +1 DRM).",
        "asl odds depletion --number 6 --to-hit 8 --drm 1",
    ),
    (
        "May the Germans fire HEAT in April 1942? (C8.3)",
        "asl heat --nationality german --date 1942-04",
    ),
    (
        "HE Equivalency of a Panzerfaust, and of a 75mm Gun's HEAT with HE FP 8 (C8.31).",
        "asl he-equivalency PF",
    ),
    ("", "asl he-equivalency ordnance --he-fp 8"),
    (
        "SMOKE in the Defensive Fire Phase is placed Dispersed (C8.5, C8.51).",
        "asl smoke --ammo SMOKE --phase DFPh",
    ),
    (
        "WP after the side already fired HE this phase is refused (C8.6).",
        "asl smoke --ammo WP --phase AFPh --after-non-smoke-fire",
    ),
    (
        "Canister, 12 FP, from an AFV that moved, +1 TEM, dice 2,3 (C8.4).",
        "asl canister --fp 12 --moved --drm 1 --dice 2,3",
    ),
    ("Every reading the engine had to choose, and how to override it.", "asl settings"),
)


def run(console: Console | None = None) -> int:
    """Run every step; stop at the first failure and return its exit code."""
    out = console or Console(highlight=False)
    out.print(Text("ordnance: a guided tour of the ASL C8 commands", style="bold"))
    for caption, command in STEPS:
        if caption:
            out.print(Rule())
            out.print(Text(caption))
        out.print(Text(f"$ ordnance {command}", style="cyan"))
        code = main(shlex.split(command))
        if code != 0:
            return code
    roster = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "vasl-templates"
    out.print(Rule())
    if roster.is_dir():
        out.print(Text("Your own vasl-templates data: German APCR and smoke in June 1944."))
        command = f"asl roster --vasl-templates {roster} --nationality german --date 1944-06"
        out.print(Text(f"$ ordnance {command}", style="cyan"))
        return main(shlex.split(command))
    out.print(
        Text(
            "Point 'ordnance asl roster --vasl-templates DIR' at a vasl-templates data folder"
            " to list every vehicle and Gun of a nationality on a date."
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(run())
