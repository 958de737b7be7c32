"""Readings of the LnLT smoke and WP shell rules that no source settles, as overridable settings.

The two shell rules (14.2.2, 14.2.3) are short optional rules from the publisher's forum; they
lean on core rules whose details are not public (reference/lnl.md section 6 lists the unknowns).
Each open question is one setting here, with its provenance tag from that fact sheet
(``[default]``, ``[inferred]``, ``[unverified]``, ``[src]``), the clause it concerns and the
alternative. A scenario overrides them under ``settings:``, the CLI with
``ordnance lnl --set NAME=VALUE``.

>>> LnlSettings().parity_of
'natural'
>>> LnlSettings().override({"parity_of": "final"}).parity_of
'final'
>>> LnlSettings().override({"parity_of": "odd"})
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad setting 'parity_of=odd': expected one of natural, final
>>> sorted(LnlSettings().closed_spaces)
['building', 'bunker', 'cave', 'stone building']
"""

from __future__ import annotations

from dataclasses import dataclass

from ordnance.core.limits import MAX_DRM
from ordnance.core.settings import GameSettings, setting


@dataclass(frozen=True)
class LnlSettings(GameSettings):
    """The engine's LnLT readings; ``LnlSettings.describe()`` lists each with its provenance."""

    target_needs_enemy: bool = setting(
        True,
        "[default]",
        "LNL.S-hex",
        "The target hex must hold an enemy unit (the literal reading of 14.2.2). False lets a"
        " shell go to any hex in LOS, e.g. to screen a friendly move (reference/lnl.md 6.9).",
    )
    parity_of: str = setting(
        "natural",
        "[default]",
        "LNL.S-miss",
        "Whether a miss goes short (odd) or beyond (even) by the natural dice total, as the"
        " doubles test does, or by the final (modified) roll (reference/lnl.md 6.7).",
        choices=("natural", "final"),
    )
    degrading_hexes_count: bool = setting(
        True,
        "[default]",
        "LNL.S-mods",
        "Each degrading hex between the firer and the target hex still adds +1 to the To Hit"
        " roll: a LOS modifier, not a target or hex one (reference/lnl.md 6.8).",
    )
    opportunity_fire_drm: int = setting(
        2,
        "[src]",
        "LNL.S-mods",
        "Opportunity Fire still adds this to the To Hit roll: a firer-side modifier"
        " (reference/lnl.md section 3 and 6.8).",
        bounds=(-MAX_DRM, MAX_DRM),
    )
    clear_allows_degrading: bool = setting(
        True,
        "[default]",
        "LNL.S-los",
        "A 'clear' LOS to the hex where the marker lands means not blocked; degrading hexes"
        " on the way are allowed. False demands a LOS with no degrading hex (reference/lnl.md"
        " 6.10).",
    )
    short_into_own_hex: bool = setting(
        True,
        "[default]",
        "LNL.S-miss",
        "A short miss at an adjacent target lands in the firer's own hex; false places"
        " nothing (reference/lnl.md 6.11). A hex off the map never gets a marker.",
    )
    choice_among: str = setting(
        "seen",
        "[inferred]",
        "LNL.S-los",
        "When the LOS runs along a hexside next to the target, two hexes tie for the landing"
        " hex. 'seen': the enemy chooses among those the firer has a clear LOS to (a hex it"
        " cannot see is no landing hex). 'both': the enemy chooses either, and a hex without"
        " clear LOS then gets nothing.",
        choices=("seen", "both"),
    )
    enemy_choice: str = setting(
        "ask",
        "[default]",
        "LNL.S-los",
        "'ask': the enemy side is asked (a game waits for its 'choose HEX'). 'lowest': an"
        " automated opponent takes the candidate that comes first in the map's order, column"
        " by column (reference/lnl.md 6.12).",
        choices=("ask", "lowest"),
    )
    smoke_cycle: str = setting(
        "flip",
        "[default]",
        "LNL.S-cycle",
        "The LnLT smoke cycle in Admin Phases: 'flip' turns Smoke 1 into Smoke 2 at the next"
        " one and removes Smoke 2 at the one after; 'remove' removes Smoke 1 at the next one"
        " (reference/lnl.md 6.1).",
        choices=("flip", "remove"),
    )
    wp_closed_space: str = setting(
        "building, stone building, bunker, cave",
        "[default]",
        "LNL.W-closed",
        "Terrain or marker names (comma-separated) that are a closed space: a Leg unit in such"
        " a hex makes its WP check with two dice, keeping the higher (reference/lnl.md 6.4).",
    )
    wp_leader_lm: bool = setting(
        True,
        "[default]",
        "LNL.W-check",
        "A Leg unit's WP check subtracts the best Leadership Modifier of another leader in its"
        " hex, as a core damage check does (reference/lnl.md 6.5). Leaders count as Good Order"
        " (the engine does not track morale).",
    )
    wp_hero_on_one: bool = setting(
        True,
        "[default]",
        "LNL.W-check",
        "A Squad or Half-Squad whose WP check die shows a natural 1 may produce a Hero, as in"
        " a core damage check; the ruling flags it (reference/lnl.md 6.5).",
    )
    wp_check_every_entry: bool = setting(
        True,
        "[default]",
        "LNL.W-enter",
        "A unit checks each time it enters a WP hex; false: once per WP marker"
        " (reference/lnl.md 6.6).",
    )
    passes_end_operations: int = setting(
        3,
        "[unverified]",
        "LnLT sequence of play",
        "Consecutive passes that end the Operations Phase (an older third-party quick"
        " reference, reference/lnl.md section 2).",
        bounds=(1, 10),
    )

    @property
    def closed_spaces(self) -> frozenset[str]:
        """The names of :attr:`wp_closed_space`, trimmed and lower-case."""
        return frozenset(
            name.strip().lower() for name in self.wp_closed_space.split(",") if name.strip()
        )


DEFAULT = LnlSettings()
