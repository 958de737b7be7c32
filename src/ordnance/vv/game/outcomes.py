"""The exact odds of a V&V command that rolls, in the words a player reads (SYS.odds).

An attack's odds are its Casualty Points (:func:`ordnance.vv.odds.cp_outcomes`, read off the
combat table at once). The other rolls, a rally DR (r. 14.8) and the survival dr of each unit
that absorbs CP, are walked by :func:`ordnance.core.chances.chance_outcomes` through the game's
own resolution and read from the ruling: ``rallied`` / ``still pinned``; ``g1 pinned, g2
eliminated``.

>>> from ordnance.core.ruleset import Resolution
>>> outcome_words(Resolution((), {"rallied": False}))
'still pinned'
>>> outcome_words(Resolution((), {"results": ["g1 pinned", "g2 eliminated"]}))
'g1 pinned, g2 eliminated'
"""

from __future__ import annotations

from ordnance.core.chances import chance_outcomes
from ordnance.core.odds import Distribution
from ordnance.core.ruleset import Command, Resolution
from ordnance.vv.game.resolve import attack_of, resolve
from ordnance.vv.game.state import VvState
from ordnance.vv.odds import CasualtyPoints, cp_outcomes

ATTACKS = ("fire", "opfire")


def command_odds(
    state: VvState, command: Command
) -> Distribution[CasualtyPoints] | Distribution[str]:
    """An attack's CP, or any other roll's outcomes in words; refused as ``resolve`` would."""
    if command.verb in ATTACKS:
        return attack_odds(state, command)
    return chance_outcomes(resolve, state, command, outcome_words)


def attack_odds(state: VvState, command: Command) -> Distribution[CasualtyPoints]:
    """The CP of an attack (``fire``, ``opfire``), exactly; refused as ``resolve`` would."""
    attack = attack_of(state, command)
    return cp_outcomes(attack.apfp, attack.drm, state.board.settings)


def outcome_words(done: Resolution) -> str:
    """What a rally or a CP assignment did (an attack's outcome is its CP)."""
    ruling = done.ruling
    if "rallied" in ruling:
        return "rallied" if ruling["rallied"] else "still pinned"
    results = ruling.get("results")
    if isinstance(results, list):
        return ", ".join(str(r) for r in results) or "no unit takes the CP"
    return "no effect"
