"""What every V&V command's ruling holds, and the clause IDs the game cites most."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ordnance.core.ruleset import Command
from ordnance.core.rulings import command_ruling, jsonable

SEQUENCE = "V&V r. 5"
PHASES_CLAUSE = "VV.AP-phases"
RESOLVE = "VV.AP-resolve"


def ruling(
    command: Command, clauses: Sequence[str], explanation: str, **fields: Any
) -> dict[str, Any]:
    """The ruling's JSON: the command, the side, the clauses, a sentence, then its fields."""
    detail = {key: jsonable(value) for key, value in fields.items()}
    return command_ruling(command, clauses, explanation, detail, detail_last=True)
