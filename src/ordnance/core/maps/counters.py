"""Units as a map picture shows them: one :class:`CounterView` per unit, built by its ruleset.

The core knows no game, so a ruleset describes each unit in generic words and the renderer
(:mod:`ordnance.core.maps.svg`) draws them all the same way:

- ``unit`` (its id), ``hex``, ``side``: where and whose; the SVG group carries them as
  ``data-unit``, ``data-hex`` and ``data-side`` for a web page to find;
- ``label`` (a short name, the counter's top line) and ``notation`` (its bottom line: the
  counter's numbers, e.g. ``4-6-5`` or ``A5 s8 sD5``), squeezed to fit when long;
- ``glyph``: the symbol in the middle, one of :data:`GLYPHS`;
- ``facing``: where the hull (or a Gun) points, drawn as a dark arrow; ``turret``: a turreted
  vehicle's Covered Arc, drawn as a line with a dot. Each a hexside direction or a hexspine;
- ``badges``: its state, each a :class:`Badge` (``key`` becomes the class ``state-KEY``,
  ``text`` the few letters on the counter). :data:`BADGE_WORDS` reads the usual keys.

>>> view = CounterView("m24", Hex(0, 0), "american", "m24", "s5 WP7 sM8", "tank",
...                    badges=(Badge("ce", "CE"),))
>>> view.classes
'counter side-american glyph-tank state-ce'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ordnance.core.hexgrid import Corner, Direction, Hex

# The symbols a counter may show in its middle (NATO-like: an oval for armour, a cross for
# infantry, wheels for a soft vehicle, a barrel on a dot for a Gun).
GLYPHS = ("tank", "vehicle", "gun", "squad", "half-squad", "team", "leader", "weapon", "unit")

# What the usual badge keys mean, for the legend (a ruleset may use others: they are drawn
# the same, and listed with their own text).
BADGE_WORDS = {
    "fired": "fired this turn/phase",
    "moved": "moved this turn",
    "ce": "crew exposed",
    "bu": "buttoned up",
    "motion": "in Motion",
    "malfunctioned": "malfunctioned",
    "pinned": "pinned",
    "reduced": "reduced (flipped)",
    "smoke-discharged": "smoke dispenser used",
    "grenades-used": "smoke grenades used",
    "out-of-ammo": "ammunition gone",
    "stunned": "crew stunned",
    "shocked": "crew shocked",
    "broken": "crew broken",
    "abandoned": "crew abandoned",
    "manned": "manned this turn",
    "acted": "acted this turn",
    "acquired": "holds an Acquired marker",
    "aboard": "riding a vehicle",
    "assault": "Assault Movement",
}


@dataclass(frozen=True)
class Badge:
    """One state shown on a counter: ``key`` (a class name) and ``text`` (a few letters)."""

    key: str
    text: str


@dataclass(frozen=True)
class CounterView:
    """One unit to draw (see the module docstring)."""

    unit: str
    hex: Hex
    side: str
    label: str
    notation: str = ""
    glyph: str = "unit"
    facing: Direction | Corner | None = None
    turret: Direction | Corner | None = None
    badges: tuple[Badge, ...] = ()
    name: str = ""

    @property
    def classes(self) -> str:
        """The SVG group's classes: ``counter``, the side, the glyph, each state."""
        words = ["counter", f"side-{css_name(self.side)}", f"glyph-{css_name(self.glyph)}"]
        words += [f"state-{css_name(b.key)}" for b in self.badges]
        return " ".join(words)


def css_name(text: str) -> str:
    """A class-name-safe form of a word: ``smoke 1`` -> ``smoke-1``.

    >>> css_name("Smoke 1"), css_name("wheat field")
    ('smoke-1', 'wheat-field')
    """
    return re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-") or "x"
