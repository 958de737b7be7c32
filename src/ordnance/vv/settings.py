"""Readings of the V&V texts that no source settles, as documented, overridable settings.

Each setting carries its provenance tag from ``reference/vv.md`` (``[default]``, ``[inferred]``)
and the rule or open point it concerns (section 17 of the fact sheet numbers the open points).
A scenario overrides them under ``settings:``; the odds command takes ``--set NAME=VALUE``.

>>> VvSettings().low_roll
'clamp'
>>> VvSettings().override({"low_roll": "extend"}).low_roll
'extend'
>>> VvSettings().override({"ai_opfire_threshold": "3/2"}).ai_opfire_threshold
Fraction(3, 2)
>>> VvSettings().override({"low_roll": "sideways"})
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad setting 'low_roll=sideways': expected one of clamp, extend
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ordnance.core.limits import MAX_DRM
from ordnance.core.settings import GameSettings, setting


@dataclass(frozen=True)
class VvSettings(GameSettings):
    """The V&V engine's readings; ``VvSettings.describe()`` lists them with their provenance."""

    low_roll: str = setting(
        "clamp",
        "[default]",
        "r. 14.5, open point 1",
        "A final AP roll below 2 is read on the 2 column ('clamp'); 'extend' continues the"
        " table's pattern instead, one more CP per point below 2.",
        choices=("clamp", "extend"),
    )
    member_must_reach: bool = setting(
        True,
        "[default]",
        "r. 12.3, 13.3, open point 6",
        "Every member of a fire group must reach the target with its own range or its support"
        " weapon's (then with the weapon's APFP only); when false, a member out of range joins"
        " and adds nothing.",
    )
    leader_lends_out_of_range: bool = setting(
        True,
        "[inferred]",
        "r. 13.6",
        "A leader whose own APFP cannot reach the target may still join the group and lend his"
        " Leadership Modifier (he is marked as fired even when his APFP goes unused).",
    )
    grenade_each: bool = setting(
        True,
        "[inferred]",
        "r. 12.51",
        "Each unit that throws a grenade (one per unit per attack) gives -1; when false, one -1"
        " per attack however many throw.",
    )
    unpinned_first_until: str = setting(
        "pinned",
        "[inferred]",
        "r. 14.61-14.62",
        "Unpinned units take CP before pinned ones: an already pinned unit may be eliminated"
        " once every unpinned unit of the hex is 'pinned' or eliminated by the same result (the"
        " reference: 'if only pinned units remain they must be eliminated'); 'eliminated' waits"
        " until every unpinned unit is eliminated.",
        choices=("pinned", "eliminated"),
    )
    assault_cover_needs_all: bool = setting(
        True,
        "[default]",
        "r. 6.4",
        "Assault Movement's +1 cover counts for an attack only when every eligible target unit"
        " in the hex made an Assault Move this turn (one roll serves the whole hex).",
    )
    opfire_cover_ignores_hindrance: bool = setting(
        True,
        "[default]",
        "r. 13.8, open point 9",
        "For Opportunity Fire's 'no positive cover' -1 only the target's own cover counts"
        " (terrain, hexside, fortification, Assault Movement); LOS hindrances do not cancel it.",
    )
    ai_opfire_threshold: Fraction = setting(  # noqa: RUF009 - setting() returns a field()
        Fraction(1),
        "[default]",
        "r. 13.8 (AI policy)",
        "The AI Opportunity Fires at an entering stack with a fire group whose expected CP is"
        " at least this (a fraction such as 3/2); below it the group keeps its fire.",
        bounds=(0, MAX_DRM),
    )

    ai_evaluation: str = setting(
        "value",
        "[default]",
        "r. 14.6-14.65 (AI policy)",
        "What the AI maximises: 'value', the expected loss of enemy unit value from what the"
        " target hex can absorb (the defender answering with his least loss); 'cp', the raw"
        " expected Casualty Points (the first AI's objective).",
        choices=("value", "cp"),
    )
    ai_leader_value: Fraction = setting(  # noqa: RUF009 - setting() returns a field()
        Fraction(1),
        "[default]",
        "r. 13.6 (AI policy)",
        "A leader's value to the AI (default: the usual leader's Casualty Rating, what casualty"
        " victory points count; more makes it shield its leaders); every other unit is worth"
        " its Casualty Rating (a vehicle with its passengers).",
        bounds=(0, MAX_DRM),
    )
    ai_pin_fraction: Fraction = setting(  # noqa: RUF009 - setting() returns a field()
        Fraction(1, 4),
        "[default]",
        "r. 14.7 (AI policy)",
        "What a pin costs, as a fraction of the pinned unit's value (it loses a turn of action).",
        bounds=(0, MAX_DRM),
    )
    ai_grenade_value: Fraction = setting(  # noqa: RUF009 - setting() returns a field()
        Fraction(1, 2),
        "[default]",
        "r. 12.51 (AI policy)",
        "The value of keeping one grenade of the pool: the AI throws one only when the attack"
        " gains more than this.",
        bounds=(0, MAX_DRM),
    )
    ai_satchel_value: Fraction = setting(  # noqa: RUF009 - setting() returns a field()
        Fraction(1),
        "[default]",
        "r. 12.52 (AI policy)",
        "The value of keeping one satchel charge of the pool.",
        bounds=(0, MAX_DRM),
    )
    ai_x_weapons: bool = setting(
        True,
        "[default]",
        "r. 12.51-12.52 (AI policy)",
        "Whether the AI spends grenades and satchel charges in AP fire (when they pay).",
    )
    ai_opfire_lookahead: Fraction = setting(  # noqa: RUF009 - setting() returns a field()
        Fraction(1, 2),
        "[default]",
        "r. 13.8 (AI policy)",
        "Opportunity Fire look-ahead: the weight of a stack the mover has not moved yet (valued"
        " where it stands); the AI keeps units for it when that pays more than firing now;"
        " 0 fires at the first stack worth the threshold (the greedy policy).",
        bounds=(0, MAX_DRM),
    )
    ai_moves: bool = setting(
        True,
        "[default]",
        "r. 6 (AI policy)",
        "Whether the AI moves its infantry in its Movement Phase (docs/vv-ai.md: movement).",
    )
    ai_move_objective: Fraction = setting(  # noqa: RUF009 - setting() returns a field()
        Fraction(2),
        "[default]",
        "r. 6 (AI policy)",
        "How hard objectives pull the AI's moving units: the score lost per hex of distance to"
        " the nearest objective still to take (the first mover's weight was 1).",
        bounds=(0, MAX_DRM),
    )
    ai_move_urgency: Fraction = setting(  # noqa: RUF009 - setting() returns a field()
        Fraction(2),
        "[default]",
        "r. 6 (AI policy)",
        "Urgency as the end approaches: objectives (their pull and the points of entering one)"
        " count 1 + u / (k + 1) times, k the Game Turns still to come after this one (the last"
        " turn 1 + u); 0 keeps them flat; no effect in an open-ended scenario.",
        bounds=(0, MAX_DRM),
    )
    ai_vehicles_move: bool = setting(
        True,
        "[default]",
        "r. 7 (AI policy)",
        "Whether the AI moves its unarmored vehicles (with their passengers) out of enemy fire"
        " lanes and toward objectives; AFVs and Guns stay where they are.",
    )
    ai_vehicles_hold_fire: bool = setting(
        True,
        "[default]",
        "r. 5.33 (AI policy)",
        "Whether an unarmored vehicle of the AI keeps its fire in its own Fire Phase when its"
        " move is worth more than its attack (a unit that fired may not move).",
    )


DEFAULT = VvSettings()
