"""The exact odds of an LnLT command before it is rolled, in the words a player reads (SYS.odds).

The odds come from :func:`ordnance.core.chances.chance_outcomes`: the command is resolved by the
game's own rules once per class of faces of each roll (To Hit DR, WP damage checks, depletion
dr), and each resolution is read into words from its ruling's fields, never its dice:

* where the marker goes: ``hit: WP in H3``, ``short: Smoke 1 in G3``, ``beyond: the enemy
  chooses F2 or F3`` (LNL.S-los), ``miss on a double: nothing placed`` (LNL.S-miss), ``short:
  LOS blocked, nothing placed``;
* who checks for WP (``lt, m3, sq1 check for WP``; LNL.W-check): for a shell or a chosen hex
  the check totals are left out of the words, so that a hex of three units reads as a few rows
  and not two hundred (each check's own odds: ``ordnance lnl odds wp-check``); a unit that moves
  into WP reads its check: ``sq1 checks for WP: total 5``;
* the pool, when its side plays the optional depletion roll: ``WP Shell counter back to the
  pool`` or ``WP Shell counter removed (0 left)`` (LNL.S-pool, LNL.W-pool).

How the rolls are walked (each a claim this module's tests check against the face-by-face
walk): the To Hit DR is read only by its total and whether it is a double (the natural 2 and
12, the double rule, the parity of a miss), so 16 classes; a WP check in a shell's or choice's
resolution changes nothing its words read nor any roll after it, so one class; a moving unit's
two-dice check keeps the higher die, so six classes; the depletion dr is read only as below
the pool's Depletion Number or not, so two. A WP shell into a hex of three units (five rolls:
To Hit DR, two two-dice checks, a one-die check, the depletion dr) is then 16 x 2 = 32
resolutions, ~40 ms, not 36 x 36 x 6 x 36 x 6 = 1.7 million (~20 minutes at ~0.75 ms each).

>>> from ordnance.core.dice import ManualDice
>>> from ordnance.lnl.game.commands import parse_command
>>> from ordnance.lnl.game.resolve import resolve
>>> from ordnance.lnl.game.scenario import Sheet, load_scenario
>>> from ordnance.lnl.game.state import initial_state, apply
>>> state = initial_state(Sheet.of(load_scenario({"map": "lnl-farm", "sides": {
...     "german": {"wp_shells": {"count": 1, "depletion_number": 3}, "units": {
...         "pz4": {"kind": "vehicle", "hex": "B5", "shells": ["wp"], "to_hit": {7: 9}}}},
...     "american": {"units": {"sq1": {"kind": "squad", "hex": "E5"}}}}})))
>>> for event in resolve(state, parse_command("german", ["phase", "next"]),
...                      ManualDice([])).events:
...     state = apply(state, event.kind, event.data)
>>> odds = shell_odds(state, parse_command("german", ["wp-shell", "pz4", "--at", "E5"]))
>>> odds["hit: WP in E5; sq1 checks for WP; WP Shell counter removed (0 left)"]
Fraction(5, 18)
>>> sum(odds.fractions().values())
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ordnance.core.chances import Classes, ClassesOf, by_higher_die, chance_outcomes, unread
from ordnance.core.chances import by_total_and_doubles as _by_total_and_doubles
from ordnance.core.dice import DieRoll
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, Resolution, RollKind
from ordnance.lnl.game.resolve import resolve
from ordnance.lnl.game.state import LnlState

_TO_HIT = "To Hit DR"
_WP_CHECK = "WP damage check"
_DEPLETION = "Depletion dr"
_SHELLS = {"smoke-shell": "smoke", "wp-shell": "wp"}
_MARKERS = {"smoke": "Smoke 1", "wp": "WP"}
_COUNTERS = {"smoke": "Smoke Shell", "wp": "WP Shell"}
_NOTHING = {
    "double": "nothing placed",
    "blocked": "LOS blocked, nothing placed",
    "off map": "off the map, nothing placed",
    "own hex": "into its own hex, nothing placed",
}


def shell_odds(state: LnlState, command: Command) -> Distribution[str]:
    """Every outcome of ``command`` with its exact probability, refused as ``resolve`` would
    refuse it (a command that rolls nothing has no odds: BadInput)."""
    classes = _classes(state, command)
    return chance_outcomes(resolve, state, command, outcome_words, classes=classes)


def _classes(state: LnlState, command: Command) -> ClassesOf:
    checks_read = command.verb == "move"
    depletion = _depletion_classes(state, command)

    def classes(kind: RollKind, purpose: str) -> Classes | None:
        if purpose.startswith(_TO_HIT) and kind == "DR":
            return _by_total_and_doubles()
        if purpose.startswith(_WP_CHECK):
            if not checks_read:
                return unread(kind)
            return by_higher_die() if kind == "DR" else None
        if purpose.startswith(_DEPLETION) and kind == "dr":
            return depletion
        return None

    return classes


def _depletion_classes(state: LnlState, command: Command) -> Classes | None:
    """The depletion dr of a shell's pool, read only as below its number or not (LNL.S-pool):
    two classes, one when no face is below it."""
    pool = state.pools.get(command.side, {}).get(_SHELLS.get(command.verb, ""))
    number = None if pool is None else pool.depletion_number
    if number is None:
        return None
    below = ((DieRoll(1), number - 1),) if number > 1 else ()
    return (*below, (DieRoll(number), 7 - number))


def outcome_words(done: Resolution) -> str:
    """What one resolution did, in a few words (see the module docstring)."""
    ruling = done.ruling
    parts: list[str] = []
    if "result" in ruling:
        parts.append(_landing(ruling))
    elif "candidates" in ruling:  # a chosen landing hex
        marker = _MARKERS.get(str(ruling.get("kind")), "marker")
        hex = ruling.get("hex")
        parts.append(f"{marker} in {hex}" if hex is not None else "LOS blocked, nothing placed")
    checks = [c for c in ruling.get("checks") or () if isinstance(c, Mapping)]
    if checks:
        parts.append(_checks(checks, with_totals=ruling.get("path") is not None))
    pool = ruling.get("pool")
    if isinstance(pool, Mapping) and pool.get("depletion_number") is not None:
        kind = _COUNTERS.get(str(pool.get("kind")), "shell")
        if pool.get("removed"):
            parts.append(f"{kind} counter removed ({pool.get('left')} left)")
        else:
            parts.append(f"{kind} counter back to the pool")
    return "; ".join(parts) or "no effect"


def _landing(ruling: Mapping[str, Any]) -> str:
    result = str(ruling["result"])
    marker = _MARKERS.get(str(ruling.get("kind")), "marker")
    if result == "none":
        return "miss on a double: nothing placed"
    if ruling.get("hex") is not None:
        return f"{result}: {marker} in {ruling['hex']}"
    candidates = ruling.get("candidates") or ()
    if ruling.get("waits_for_enemy") and candidates:
        return f"{result}: the enemy chooses {' or '.join(candidates)}"
    return f"{result}: {_NOTHING.get(str(ruling.get('nothing_placed')), 'nothing placed')}"


def _checks(checks: Sequence[Mapping[str, Any]], *, with_totals: bool) -> str:
    if not with_totals:
        units = [str(c["unit"]) for c in checks]
        verb = "checks" if len(units) == 1 else "check"
        return f"{', '.join(units)} {verb} for WP"
    said = []
    for check in checks:
        result = check.get("result")
        said.append(
            f"{check['unit']} checks for WP: {result if result is not None else 'total'}"
            + ("" if result is not None else f" {check['total']}")
        )
    return "; ".join(said)
