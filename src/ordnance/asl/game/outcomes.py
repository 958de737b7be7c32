"""The exact odds of an ASL command before it is rolled, in the words a player reads (SYS.odds).

The odds come from :func:`ordnance.core.chances.chance_outcomes`, which resolves the command once
for every face of every roll it makes (one To Hit, Placement, IFT or usage DR, or one grenade
dr): the very rules that will decide it, so odds and play cannot disagree. Each resolution is
read into words from its ruling's fields only (never its dice), so rolls that end alike group
into one row:

=================  ==========================================================================
ruling field       words
=================  ==========================================================================
``hit``            ``hit`` / ``miss`` (only when the command gave a To Hit number)
``depletion``      ``APCR used``, ``APCR used; none left`` (C8.9-eq), ``no APCR: not fired;
                   none left`` (C8.9-gt)
``marker``         ``SMOKE lands in 4G5`` (``dispersed WP lands in ...``)
``rof_kept``       ``keeps ROF`` / ``ROF lost`` (only when the ruling has it)
``malfunctioned``  ``Gun malfunctions``
canister           ``target: 1MC; adjacent: NMC``
dispense           ``sD fires: SMOKE in 4K3`` / ``sD fails``
grenades           ``grenades: SMOKE in 4K3`` / ``grenades fail``
=================  ==========================================================================

A German PaK whose APCR has Depletion Number 3 in 1944 (C8.9: a DR below 3 uses it, 3 uses
the last round, above 3 finds none):

>>> from ordnance.asl.game.commands import parse_command
>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> from ordnance.asl.smoke import Phase
>>> from dataclasses import replace
>>> sheet = Sheet.of(load_scenario({"date": "1944-09", "sides": {
...     "german": {"units": {"pak": {"kind": "gun", "notation": "A3(4)", "breakdown": 12}}},
...     "russian": {"units": {}}}}))
>>> state = replace(initial_state(sheet), phase=Phase.PFPH)
>>> odds = fire_odds(state, parse_command("german", ["fire", "pak", "--ammo", "APCR"]))
>>> [(words, str(p)) for words, p in odds.items()]
[('APCR used', '1/36'), ('APCR used; none left', '1/18'), ('no APCR: not fired; none left', \
'8/9'), ('no APCR: not fired; none left; Gun malfunctions', '1/36')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ordnance.asl.game.resolve import resolve
from ordnance.asl.game.state import AslState
from ordnance.core.chances import chance_outcomes
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, Resolution

_DEPLETION = {
    "used": "{ammo} used",
    "used-last": "{ammo} used; none left",
    "none": "no {ammo}: not fired; none left",
}


def fire_odds(state: AslState, command: Command) -> Distribution[str]:
    """Every outcome of ``command`` with its exact probability, refused as ``resolve`` would
    refuse it (a command that rolls nothing has no odds: BadInput)."""
    return chance_outcomes(resolve, state, command, outcome_words)


def outcome_words(done: Resolution) -> str:
    """What one resolution did, in a few words (see the module docstring)."""
    ruling = done.ruling
    if "canister" in ruling:
        return _canister(ruling)
    device = ruling.get("device")
    if device == "dispenser":
        return _dispenser(ruling)
    if device == "grenades":
        placement = ruling.get("placement")
        if not ruling.get("placed") or placement is None:
            return "grenades fail"
        return f"grenades: SMOKE in {placement.get('hex') or placement.get('where')}"
    return _fire(ruling)


def _fire(ruling: Mapping[str, Any]) -> str:
    ammo = str(ruling.get("ammo", ""))
    parts: list[str] = []
    hit = ruling.get("hit")
    if hit is not None:
        parts.append("hit" if hit else "miss")
    depletion = ruling.get("depletion")
    if isinstance(depletion, Mapping):
        parts.append(_DEPLETION[str(depletion["outcome"])].format(ammo=ammo))
    marker = ruling.get("marker")
    if isinstance(marker, Mapping):
        dispersed = "dispersed " if "dispersed" in str(marker.get("marker", "")) else ""
        parts.append(f"{dispersed}{ammo} lands in {marker.get('hex')}")
    if "rof_kept" in ruling and ruling["rof_kept"] is not None:
        parts.append("keeps ROF" if ruling["rof_kept"] else "ROF lost")
    if ruling.get("malfunctioned"):
        parts.append("Gun malfunctions")
    return "; ".join(parts) or f"{ammo} fired"


def _canister(ruling: Mapping[str, Any]) -> str:
    attack = ruling["canister"]
    parts: list[str] = []
    if attack.get("counts_as_fired", True):
        parts.append(f"target: {attack['result']}")
        near = ruling.get("adjacent")
        if isinstance(near, Mapping):
            parts.append(f"adjacent: {near['result']}")
    depletion = attack.get("depletion")
    if depletion is not None:
        parts.append(_DEPLETION[str(depletion)].format(ammo="Canister"))
    if attack.get("malfunctioned"):
        parts.append("Gun malfunctions")
    return "; ".join(parts)


def _dispenser(ruling: Mapping[str, Any]) -> str:
    kind = ruling.get("dispenser", "dispenser")
    if not ruling.get("fired"):
        return f"{kind} fails"
    placement = ruling.get("placement")
    if not isinstance(placement, Mapping):
        return f"{kind} fires"  # an sN's HE in Close Combat places nothing
    where = placement.get("hex") or placement.get("where")
    return f"{kind} fires: {placement.get('counter', 'SMOKE')} in {where}"
