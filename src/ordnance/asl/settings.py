"""Readings of the ASL texts that no source settles, as documented, overridable settings.

Every setting names its provenance tag from ``reference/asl.md`` ([default], [inferred],
[unverified]) and the rule it concerns. The defaults are the readings this project takes; a
group that plays otherwise overrides them (CLI: ``ordnance asl --set name=value``).

>>> Settings().h9_he_equivalency
12
>>> Settings().override({"h9_he_equivalency": "8"}).h9_he_equivalency
8
>>> Settings().override({"nonsense": "1"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.BadInput: bad setting 'nonsense': unknown setting; known: ...
"""

from __future__ import annotations

from dataclasses import dataclass

from ordnance.asl.dates import Theater
from ordnance.core.settings import GameSettings, setting


def _theaters(text: str) -> str:
    """A theater setting's value: theater names, comma-separated, each checked."""
    return ",".join(Theater.parse(part.strip()).value for part in text.split(","))


@dataclass(frozen=True)
class Settings(GameSettings):
    """The engine's readings; see each field's ``doc`` (``Settings.describe()``). A bound on
    a whole number keeps out what is no reading at all (a B# of -5, a 13th month)."""

    h9_he_equivalency: int = setting(
        12,
        "[inferred]",
        "C8.31",
        "HE Equivalency FP of H#[9] HEAT. The C8.31 table's header wraps; CLAUSES.md reads"
        " H#[9] in the PSK/PFk column (12). The fact sheet's alternative reading puts it with"
        " BAZ/PIAT (8).",
        bounds=(1, 36),
    )
    malf_shot_still_resolves: bool = setting(
        True,
        "[default]",
        "C8.9",
        "When one Original DR is at most the Depletion Number and also reaches the B#, the"
        " shot is still resolved with the special ammunition before the Gun malfunctions.",
    )
    canister_depletion_on_original: bool = setting(
        True,
        "[default]",
        "C8.4",
        "Canister's depletion check reads the Original IFT DR (by analogy with C8.9); when"
        " false it reads the Final IFT DR.",
    )
    sn_first_number_from_month: int = setting(
        7,
        "[seed]",
        "D13.34",
        "First month of 1944 in which a dated sN's first number applies (July). Before it the"
        " sN is absent ([inferred]: the text names no number for early 1944).",
        bounds=(1, 12),
    )
    month_step_ends_with_year: bool = setting(
        True,
        "[inferred]",
        "C8.91",
        "A month-dated step without '+' (D5(S4)) runs from that month to the end of that"
        " year; when false it runs on until a later step takes over.",
    )
    default_breakdown: int = setting(
        12,
        "[unverified]",
        "C2.28",
        "B# of a Gun that prints none.",
        bounds=(2, 12),
    )
    intensive_fire_breakdown_drop: int = setting(
        2,
        "[unverified]",
        "C5.6",
        "How much Intensive Fire lowers the B# (Depletion Numbers never change, C8.92).",
        bounds=(0, 10),
    )
    hit_when_final_at_most_to_hit: bool = setting(
        True,
        "[unverified]",
        "C3",
        "A To Hit DR hits when the Final DR is at most the Modified To Hit number.",
    )
    us_pto_canister_bonus: int = setting(
        3,
        "[src: vasl-templates]",
        "US Ordnance Note C",
        "In the PTO an American Canister Depletion Number is raised by this much unless the"
        " step carries the P flag. 0 turns it off.",
        bounds=(0, 12),
    )
    canister_area_fire_once: bool = setting(
        True,
        "[default]",
        "C8.4, C8.41",
        "Canister that is Area Fire for two reasons (moved, and the adjacent hex of C8.41) is"
        " halved once; the along-hexside quartering of C8.41 replaces the halving.",
    )
    case_a_rst_first_hexspine: int = setting(
        2,
        "[unverified]",
        "C5.1, D13.32-drm",
        "Case A DRM for the first hexspine an RST turret turns (each further one +1). Only a"
        " secondary source places RST, beside ST; the C5.1 source lists T, ST and NT only.",
        bounds=(0, 12),
    )
    grenade_smoke_gone_after_own_mph: bool = setting(
        True,
        "[unverified]",
        "D13.35, A24.11",
        "Vehicular grenade SMOKE placed in the vehicle's own MPh is removed at the end of that"
        " MPh, as infantry grenade SMOKE is (A24.11 per a secondary source); when false it"
        " stays until its owner's next PFPh like other Dispersed SMOKE (A24.4). Placed in the"
        " opponent's MPh it always goes at the end of that MPh (D13.35).",
    )
    ordnance_wp_flips: bool = setting(
        True,
        "[src: VASL issue 1254]",
        "A24.4, C8.6",
        "Full WP from ordnance turns into Dispersed WP at the start of its owner's next PFPh,"
        " as full SMOKE turns Dispersed (VASL's SMOKE button flips WP too); when false it is"
        " removed then.",
    )
    fire_needs_los: bool = setting(
        True,
        "[default]",
        "A6",
        "A shot fired at a hex (--at) that the map shows out of the firer's LOS is refused, as"
        " SMOKE/WP at such a hex is. The C8 texts do not say; when false, the shot is resolved"
        " and its ruling says the LOS is blocked.",
    )
    rof_keeps_on_intensive_fire: bool = setting(
        False,
        "[unverified]",
        "C5.6, C8.1-rof",
        "Whether a shot with Intensive Fire may keep Multiple ROF. The C8 texts do not say; the"
        " ASLRB (C5.6, not among these texts) reads that it may not.",
    )
    theater_e: str = setting(
        "ETO",
        "[inferred]",
        "C8.91",
        "Theaters a counter's E flag covers (comma-separated).",
        read=_theaters,
    )
    theater_p: str = setting(
        "PTO",
        "[inferred]",
        "C8.91",
        "Theaters a counter's P flag covers (comma-separated).",
        read=_theaters,
    )
    theater_b: str = setting(
        "Burma",
        "[inferred]",
        "C8.91",
        "Theaters a counter's B flag covers (comma-separated).",
        read=_theaters,
    )


DEFAULT = Settings()
