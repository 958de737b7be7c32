"""The shape every ASL game ruling shares, and the sequence-of-play citation.

>>> from ordnance.core.ruleset import Command
>>> ruling = game_ruling(Command("german", "phase", {}, "phase next"), ["A3", "A3"], "Done.")
>>> ruling["clauses"], ruling["explanation"]
(['A3'], 'Done.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ordnance.core.ruleset import Command

SEQUENCE = "A3"  # ASL's sequence of play: the reading the game takes where C8 and D13 are silent


def game_ruling(
    command: Command,
    clauses: Sequence[str],
    explanation: str,
    detail: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A command's ruling: the command, the clauses in first-seen order, one explanation."""
    return {
        "command": command.text,
        "side": command.side,
        **(detail or {}),
        "clauses": list(dict.fromkeys(clauses)),
        "explanation": explanation,
    }
