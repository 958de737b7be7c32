"""A V&V game played to its end by the AI on both sides, command by command (for tests and the
strength benchmark): every command goes through the same parsing and checks as a player's.

>>> from ordnance.core.dice import SeededDice
>>> from ordnance.vv.ai import AiPolicy
>>> from ordnance.vv.game.scenario import load_scenario
>>> body = load_scenario({"map": "vv-hedgerows", "turns": 1, "victory": {"casualties": True},
...     "sides": {"us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C7"}}},
...               "de": {"units": {"g": {"kind": "squad", "counter": "4-6-5", "hex": "C4"}}}}})
>>> game = play_out(body, {"us": AiPolicy(), "de": AiPolicy.greedy()}, SeededDice(1))
>>> game.state.over, sorted(game.state.result["points"])
(True, ['de', 'us'])
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ordnance.core.dice import DiceSource
from ordnance.vv.ai import AiPolicy
from ordnance.vv.game.commands import parse_command
from ordnance.vv.game.player import ai_command
from ordnance.vv.game.resolve import resolve
from ordnance.vv.game.scenario import Sheet
from ordnance.vv.game.state import VvState, apply, initial_state

MAX_COMMANDS = 5000  # a guard against a policy that never ends a phase


@dataclass
class Played:
    """The final state and the commands sent, in order (side, text)."""

    state: VvState
    commands: list[tuple[str, str]] = field(default_factory=list)


def play_out(body: Mapping[str, Any], policies: Mapping[str, AiPolicy], dice: DiceSource) -> Played:
    """Play the scenario ``body`` (as :func:`~.scenario.load_scenario` returns it) to its end."""
    state = initial_state(Sheet.of(body))
    played = Played(state)
    for _ in range(MAX_COMMANDS):
        side = state.to_move
        if side is None:
            break
        text = ai_command(state, side, policies[side])
        assert text is not None
        resolution = resolve(state, parse_command(side, shlex.split(text)), dice)
        for event in resolution.events:
            state = apply(state, event.kind, event.data)
        played.commands.append((side, text))
    else:
        raise RuntimeError(f"the game did not end within {MAX_COMMANDS} commands")
    played.state = state
    return played
