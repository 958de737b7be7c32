"""Exact odds of an AP attack: the distribution of its Casualty Points (VV.AP-resolve, SYS.odds).

An attack's result depends only on its APFP band and its total DRM (2d6 plus cover, hindrances,
leadership, grenades, Opportunity Fire), so both the distribution and its expectation are cached
by (band, DRM, low-roll reading): the AI asks for thousands of attacks and pays for a few dozen.

APFP 12 with a leader's -1 into a building (+3), a total DRM of +2:

>>> odds = cp_odds(12, 2)
>>> odds[2], odds[0]
(Fraction(1, 9), Fraction(7, 12))
>>> expected_cp(12, 2)
Fraction(35, 36)
>>> [row.to_json()["outcome"] for row in cp_table(odds)]
['0', '1', '2', '3', '4', '5']

The same odds as a game's preview shows them, each outcome a number that reads as words:

>>> [str(cp) for cp in sorted(cp_outcomes(12, 2))][:3], cp_outcomes(12, 2)[2]
(['no effect', '1 CP', '2 CP'], Fraction(1, 9))
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from ordnance.core.odds import Distribution, OutcomeOdds
from ordnance.vv.combat_table import TABLE
from ordnance.vv.settings import DEFAULT, VvSettings


@cache
def _totals() -> Distribution[int]:
    return Distribution.dr().map(lambda roll: roll.total)


@cache
def _band_odds(band: int, drm: int, low_roll: str) -> Distribution[int]:
    settings = VvSettings(low_roll=low_roll)
    return _totals().map(lambda total: TABLE.cp_by_band(band, total + drm, settings))


@cache
def _band_expected(band: int, drm: int, low_roll: str) -> Fraction:
    return _band_odds(band, drm, low_roll).expectation(lambda cp: cp)


class CasualtyPoints(int):
    """A number of Casualty Points that reads as words (``str``: ``"2 CP"``, ``"no effect"``);
    otherwise the int it is (it sorts, adds, hashes and compares as one)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "no effect" if self == 0 else f"{int(self)} CP"


@cache
def _band_outcomes(band: int, drm: int, low_roll: str) -> Distribution[CasualtyPoints]:
    return _band_odds(band, drm, low_roll).map(CasualtyPoints)


def cp_outcomes(
    apfp: int, drm: int, settings: VvSettings = DEFAULT
) -> Distribution[CasualtyPoints]:
    """:func:`cp_odds` with each outcome a :class:`CasualtyPoints` (what a preview shows)."""
    return _band_outcomes(TABLE.index(apfp), drm, settings.low_roll)


def cp_odds(apfp: int, drm: int, settings: VvSettings = DEFAULT) -> Distribution[int]:
    """The chance of each CP result (0: no effect) of an attack of ``apfp`` at total ``drm``."""
    return _band_odds(TABLE.index(apfp), drm, settings.low_roll)


def expected_cp(apfp: int, drm: int, settings: VvSettings = DEFAULT) -> Fraction:
    """The expected CP of the attack (0 for an attack without APFP)."""
    if apfp <= 0:
        return Fraction(0)
    return _band_expected(TABLE.index(apfp), drm, settings.low_roll)


def cp_table(odds: Distribution[int]) -> list[OutcomeOdds]:
    """Rows from no effect up to the most CP, for display and JSON."""
    return odds.table(sorted(odds))
